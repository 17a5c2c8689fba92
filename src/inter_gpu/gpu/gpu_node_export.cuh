/* inter_gpu/gpu/gpu_node_export.cuh - EXPORT_REQUEST (gtap/node_iface.h N6): the agent
 * steals the workers' oldest tasks, encodes the migratable ones as a wire task batch
 * (gtap/wire.h) and leaves stubs for those that owe a completion; the caller posts the
 * batch as EXPORTED, to the proxy or to a direct peer (N10).
 */
#ifndef GTAP_GPU_NODE_EXPORT_CUH
#define GTAP_GPU_NODE_EXPORT_CUH

#include "inter_gpu/gpu/gpu_node_batch.cuh"
#include "inter_gpu/gpu/gpu_node_mailbox.cuh"
#include "inter_gpu/gpu/gpu_node_queue.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"
#include "inter_gpu/gpu/gpu_node_status.cuh"

/* Encodes stolen record `id` (this lane's) as a wire task entry at out_buf + offset: the
 * header as the words of gtap/wire.h's word view, then the payload with zero padding, all
 * in 8-byte stores. */
GTAP_DEV void gtap_gn_put_task(uint32_t offset, uint32_t id, uint32_t fn, uint32_t state, uint32_t q,
                               uint32_t flags, uint32_t origin_rank, uint32_t hops, uint64_t origin_task)
{
    const uint32_t pb = gtap_gn.fns[fn].data_size;
    uint64_t *p = (uint64_t *)(gtap_gn.out_buf + offset);
    gtap_wire_task t;
    t.fn = (uint16_t)fn;
    t.state = (uint16_t)state;
    t.queue = (uint16_t)q;
    t.flags = (uint16_t)flags;
    t.payload_bytes = pb;
    t.result_bytes = gtap_gn.fns[fn].result_size;
    t.origin_rank = origin_rank;
    t.hops = hops;
    t.block_threads = gtap_gn_task_threads(fn); /* the task's granularity (docs/wire.md) */
    t.origin_task = origin_task;
    t.payload = NULL; /* copied below, as words */
    gtap_wire_task_header_words(p, &t);
    gtap_gn_copy_padded(p + GTAP_WIRE_TASK_HEADER_BYTES / 8, (const unsigned char *)gtap_record_data(id),
                        pb); /* records are 8-aligned */
}

/* Steals up to max_tasks of the workers' oldest tasks and encodes them as a wire task batch
 * in out_buf; returns its bytes, and its task count in *count. Each steal round claims up to
 * 32 tasks, one per lane, and the lanes encode their own records at offsets from a prefix
 * sum of the entry sizes (encoding 512 tasks on one lane took ~0.6 ms on a busy SM).
 * Records that owe a completion become stubs; records that may not migrate, or do not fit
 * the message, go back to the agent's deque. Warp-collective. */
GTAP_GN_COLD uint32_t gtap_gn_export(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, gtap_sched_rng *rng,
                                     uint32_t max_tasks, uint32_t max_bytes, uint32_t req_flags, uint32_t *count)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    if (max_bytes > GTAP_NODE_MAX_MESSAGE_BYTES)
        max_bytes = GTAP_NODE_MAX_MESSAGE_BYTES;
    uint32_t taken = 0, full = 0, used = GTAP_WIRE_BATCH_HEADER_BYTES;
    const uint64_t t0 = gtap_gn_now(lane);
    if (!(req_flags & GTAP_NODE_EXPORT_THIEF_IDLE) && gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 2)) {
        max_tasks = 0; /* N9: a node short of work gives none to a thief that has some */
        a->exports_refused++;
    }
    GTAP_GN_T0();
    /* The opening reserve goes first: the largest tasks of the run (gtap_gn_reserve_step). */
    uint32_t from_reserve = a->reserve_n - a->reserve_pos;
    if (from_reserve > a->reserve_share)
        from_reserve = a->reserve_share;
    if (max_tasks == 0)
        from_reserve = 0;
    /* The reserve's share is the thief's fair part of the run's start (half a binary tree on
     * two ranks); topping it up with the oldest tasks of up to 480 local warps while they
     * ramp up cost both ranks (docs/dist.md, "The opening reserve"). */
    if (from_reserve && gtap_gn.reserve_alone)
        max_tasks = from_reserve;
    for (uint32_t round = 0; round < 8 && taken < max_tasks && !full;) {
        uint32_t victim = 0, q = 0;
        if (!from_reserve) {
            victim = gtap_sched_rand(rng) % a->nworkers;
            q = nq > 1 ? gtap_sched_rand(rng) % nq : 0;
            uint32_t c = gtap_worker_node_probe(victim, q);
            uint32_t best = __reduce_max_sync(GTAP_GN_FULL, c);
            if (best == 0) {
                round++;
                continue;
            }
            uint32_t leader = gtap_sched_pick_victim_lane(c, best, rng);
            victim = __shfl_sync(GTAP_GN_FULL, victim, leader);
            q = __shfl_sync(GTAP_GN_FULL, q, leader);
        }
        uint32_t want = max_tasks - taken < 32 ? max_tasks - taken : 32;
        uint32_t my = GTAP_NO_TASK, k = 0;
        if (from_reserve) {
            /* the reserve's tasks were counted active when the agent took them */
            k = from_reserve < want ? from_reserve : want;
            if (lane < k) {
                const uint32_t e = gtap_gn.reserve[a->reserve_pos + lane];
                my = e & 0x0fffffffu;
                q = e >> 28;
            }
            a->reserve_pos += k;
            a->reserve_exported += k;
            from_reserve -= k;
        } else {
            k = gtap_worker_node_steal(sh, victim, q, want, lane, &my); /* active += 1 */
            if (k == 0) {
                round++;
                continue;
            }
            a->holds++;
        }
        /* This lane's task: may it migrate, and how many bytes is its entry? */
        uint32_t fn = 0, state = 0, bytes = 0;
        int ship = 0;
        if (lane < k) {
            const uint32_t fs = *(volatile uint32_t *)gtap_record(my);
            fn = fs & 0xffffu;
            state = fs >> 16;
            ship = my != gtap_root_id() && fn < gtap_gn.num_functions &&
                   (gtap_gn.fns[fn].flags & GTAP_FN_MIGRATABLE) &&
                   gtap_gn.fns[fn].data_size <= GTAP_WIRE_MAX_PAYLOAD;
            if (ship)
                bytes = gtap_wire_task_bytes(gtap_gn.fns[fn].data_size);
        }
        uint32_t end = bytes; /* inclusive prefix sum of the entry sizes */
        for (uint32_t d = 1; d < 32; d *= 2) {
            uint32_t v = __shfl_up_sync(GTAP_GN_FULL, end, d);
            if (lane >= d)
                end += v;
        }
        if (ship && used + end > max_bytes) { /* sizes only grow with the lane: a suffix */
            ship = 0;
            full = 1;
        }
        full = __any_sync(GTAP_GN_FULL, full);
        const uint32_t offset = used + end - bytes;
        uint32_t flags = 0, origin_rank = gtap_gn.rank, hops = 1;
        uint64_t origin_task = 0;
        int make_stub = 0; /* else a shipped record is freed */
#if !defined(GTAP_ASSUME_NO_TASKWAIT)
        if (ship) {
            gtap_task_header *h = gtap_header(my);
            if (h->parent == GTAP_PARENT_REMOTE) {
                /* imported here: the completion goes straight to its origin */
                gtap_gnode_origin o = gtap_gn.origins[my];
                flags = GTAP_WIRE_TASK_COMPLETION;
                origin_rank = o.origin_rank;
                origin_task = o.origin_task;
                hops = o.hops + 1;
            } else if (h->parent != GTAP_NO_TASK || h->result_dst != 0) {
                flags = GTAP_WIRE_TASK_COMPLETION;
                make_stub = 1;
            }
        }
        /* stub sequence numbers: one block of them per round, lane 0 reserves it */
        const uint32_t stubs = __ballot_sync(GTAP_GN_FULL, make_stub);
        uint32_t seq_base = 0;
        if (lane == 0 && stubs) {
            seq_base = gtap_nh.words->stub_seq;
            gtap_nh.words->stub_seq = seq_base + (uint32_t)__popc(stubs);
        }
        seq_base = __shfl_sync(GTAP_GN_FULL, seq_base, 0);
        if (make_stub) {
            uint32_t seq = seq_base + 1u + (uint32_t)__popc(stubs & ((1u << lane) - 1u));
            if (seq == 0)
                seq = 1; /* 0 means "no stub"; a wrap after 2^32 stubs */
            origin_task = (uint64_t)my | ((uint64_t)seq << 32);
        }
#endif
        if (ship)
            gtap_gn_put_task(offset, my, fn, state, q, flags, origin_rank, hops, origin_task);
        if (make_stub) {
            gtap_header(my)->fn_state = fn | ((uint32_t)GTAP_STATE_MIGRATED << 16);
            gtap_gn.stub_seq[my] = (uint32_t)(origin_task >> 32);
        } else if (ship) {
            gtap_gn_free(my);
        }
        /* what stays here goes to the agent's deque (lane 0 owns the backlog) */
        gtap_gn_push_lanes(a, sh, lane, lane < k && !ship ? my : GTAP_NO_TASK, q);
        const uint32_t shipped = __ballot_sync(GTAP_GN_FULL, ship);
        taken += (uint32_t)__popc(shipped);
        if (shipped) /* the last shipping lane's end is the new fill */
            used += __shfl_sync(GTAP_GN_FULL, end, 31 - __clz(shipped));
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    }
    GTAP_GN_T(a, GTAP_GN_P_EXPORT_STEAL);
    gtap_gn_batch_close(GTAP_WIRE_TASKS, lane, used, taken);
    gtap_worker_node_publish(sh, a->w, lane);
    if (lane == 0)
        gtap_gn_settle(a);
    GTAP_GN_T(a, GTAP_GN_P_EXPORT_PUBLISH);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
    a->exported += taken;
    if (taken == 0 && max_tasks)
        a->exports_empty++;
    a->prof[GTAP_GN_P_N_EXPORTS]++;
    a->export_ns += gtap_gn_now(lane) - t0;
    *count = taken;
    return used;
}

#endif /* GTAP_GPU_NODE_EXPORT_CUH */
