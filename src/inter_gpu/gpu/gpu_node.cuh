/* inter_gpu/gpu/gpu_node.cuh - the GPU implementation of the node interface
 * (gtap/node_iface.h N1-N9): the agent warp of the thread-level persistent kernel.
 *
 * Included by gtap_thread.cuh in GTAP_DISTRIBUTED builds, after the scheduler (it uses the
 * deques, the record pool and the hooks of gtap/node_hooks.cuh). The host half (region
 * allocation, attach, device selection) is gpu_node_host.cuh. docs/dist.md, "The GPU node",
 * is the prose version.
 *
 * The agent is warp GTAP_AGENT_WORKER (1) of the grid. It runs no tasks; in a loop it
 *   - reads the inbox (mapped pinned host memory, system-scope acquire of tail) and copies
 *     each message into device memory with wide loads before parsing it (a PCIe round trip
 *     per byte would cost microseconds);
 *   - EXPORT_REQUEST: steals from the workers' deques like a thief warp (the steal end holds
 *     the oldest tasks), serializes migratable records into a wire batch, turns records
 *     that owe a completion into stubs, frees the others, and posts EXPORTED. Records it may
 *     not ship (non-migratable function, the root) go to its own deque, where workers
 *     steal them back;
 *   - IMPORT: allocates records from its own pool range, fills them, pushes them to its own
 *     deque (workers steal them);
 *   - RESULTS (and results of tasks that came home): writes the result to the stub's
 *     destination and completes the stub like a local child (docs/join.md J1-J3);
 *   - drains the done ring (imported tasks that finished) into COMPLETION batches;
 *   - posts ROOT_DONE (rank 0) when the root finished, keeps status.idle (N4) and
 *     status.hungry (N9), and ends the run on STOP by setting ctl->terminate.
 * Every lane takes part in copies; lane 0 makes the decisions and the atomics, and shares
 * what the other lanes need through shuffles, so the loop is warp-uniform (every decision,
 * the clock included, comes from lane 0: lanes that disagree meet in different collective
 * calls, which once corrupted an outbox message).
 *
 * Active-count accounting: the agent owns `holds` increments of ctl->active: one while its
 * own deque has published entries (as any worker), plus one per successful steal until the
 * stolen tasks are shipped or re-queued. With holds == 0 and ctl->active == 0 the node holds
 * no task anywhere (docs/termination.md), which is N4's "idle".
 */
#ifndef GTAP_GPU_NODE_CUH
#define GTAP_GPU_NODE_CUH

#include "gtap/node_hooks.cuh"
#include "gtap/node_iface.h"
#include "gtap/wire.h"

/* What the agent needs to know about each task function. */
typedef struct gtap_gnode_fn {
    uint32_t data_size;
    uint32_t result_size;
    uint32_t flags;          /* GTAP_FN_* */
    uint32_t pad;
} gtap_gnode_fn;

/* Origin of an imported record that owes a completion. */
typedef struct gtap_gnode_origin {
    uint32_t origin_rank;
    uint32_t hops;
    uint64_t origin_task;
} gtap_gnode_origin;

/* Scratch buffers: one message payload plus room for 16-byte copies past its end. */
#define GTAP_GNODE_BUF_BYTES (GTAP_NODE_MAX_MESSAGE_SLOTS * GTAP_NODE_SLOT_BYTES + 64u)

typedef struct gtap_gnode_dev {
    gtap_node_region *region;     /* device address of the mapped region */
    unsigned char *inbox_slots;   /* device addresses of the slot arrays */
    unsigned char *outbox_slots;
    uint32_t ring_slots;
    uint32_t rank;
    uint64_t hash;                /* program hash, as on the wire */
    const gtap_gnode_fn *fns;     /* [num_functions] */
    uint32_t num_functions;
    uint32_t result_stride;       /* bytes per import result buffer (8-aligned) */
    gtap_gnode_origin *origins;   /* [num_records + 1]: imported records */
    unsigned char *results;       /* [num_records + 1][result_stride]: their results */
    uint32_t *stub_seq;           /* [num_records + 1]: sequence number of a live stub, 0 = none */
    unsigned char *in_buf;        /* the inbox message being handled */
    unsigned char *out_buf;       /* the outbox message being built */
} gtap_gnode_dev;

static __constant__ gtap_gnode_dev gtap_gn;

#define GTAP_GN_FULL 0xffffffffu

/* The time in ns, the same in every lane (lane 0's clock): every decision the agent makes
 * from it must be warp-uniform, since the lanes meet again in warp-collective calls. */
GTAP_DEV uint64_t gtap_gn_now(uint32_t lane)
{
    unsigned long long t = lane == 0 ? gtap_globaltimer() : 0ull;
    return __shfl_sync(0xffffffffu, t, 0);
}

/* ---- the agent's state (identical in every lane) -------------------------------------- */

typedef struct gtap_gn_agent {
    uint64_t in_pos, in_tail;    /* inbox: slots consumed (our head), last tail seen */
    uint64_t out_pos, out_head;  /* outbox: slots produced (our tail), last head seen */
    uint32_t out_seq;
    uint32_t epoch;              /* this run (N5) */
    uint32_t launch_tag;         /* gtap_nh_launch_tag() of this launch */
    uint32_t holds;              /* increments of ctl->active the agent owns */
    uint32_t done_pos;           /* done ring: next position to read */
    uint32_t idle;               /* our copy of status.idle */
    uint32_t hungry;             /* our copy of status.hungry (N9) */
    uint32_t stop, root_posted, failed;
    uint64_t t_begin, idle_since, idle_ns, first_work_ns, last_publish;
    uint64_t imported, exported, results;
    uint64_t segments_base;      /* status.segments at the start of the run */
    uint32_t w, nworkers;
} gtap_gn_agent;

/* ---- outbox (N1, N2): warp-collective ---------------------------------------------------- */

/* Posts one message whose payload (bytes, in device memory at payload) is copied into the
 * outbox slots by all lanes. Waits for room; the proxy drains the outbox independently. */
GTAP_DEV void gtap_gn_post(gtap_gn_agent *a, uint32_t lane, unsigned kind, uint32_t arg,
                           const unsigned char *payload, uint32_t bytes)
{
    gtap_node_region *r = gtap_gn.region;
    const uint32_t n = gtap_gn.ring_slots;
    const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + bytes + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
    const uint32_t at = (uint32_t)(a->out_pos & (n - 1));
    const uint32_t pad = at + need > n ? n - at : 0;
    uint32_t sleep_ns = 100;
    __syncwarp(); /* lane 0's writes of the payload are visible to every lane */
    while (a->out_pos + pad + need - a->out_head > n) {
        uint64_t h = 0;
        if (lane == 0)
            h = gtap_ld_acquire_sys_u64(&r->outbox.head); /* the proxy finished reading */
        a->out_head = __shfl_sync(GTAP_GN_FULL, (unsigned long long)h, 0);
        if (a->out_pos + pad + need - a->out_head > n) {
            __nanosleep(sleep_ns);
            sleep_ns = sleep_ns < 20000 ? sleep_ns * 2 : sleep_ns;
        }
    }
    if (pad && lane == 0) {
        unsigned char *ps = gtap_gn.outbox_slots + (size_t)at * GTAP_NODE_SLOT_BYTES;
        gtap_st_relaxed_sys_v4(ps, make_uint4(GTAP_NODE_MSG_PAD | (pad << 16), 0u, 0u, a->out_seq));
    }
    if (pad)
        a->out_seq++;
    unsigned char *slot = gtap_gn.outbox_slots + (size_t)((a->out_pos + pad) & (n - 1)) * GTAP_NODE_SLOT_BYTES;
    if (lane == 0)
        gtap_st_relaxed_sys_v4(slot, make_uint4(kind | (need << 16), bytes, arg, a->out_seq));
    a->out_seq++;
    const uint32_t chunks = (bytes + 15) / 16;
    for (uint32_t i = lane; i < chunks; i += 32)
        gtap_st_relaxed_sys_v4(slot + GTAP_NODE_MSG_HEADER_BYTES + 16 * i, ((const uint4 *)payload)[i]);
    __threadfence_system(); /* every lane: its slot stores before the tail below */
    __syncwarp();
    a->out_pos += pad + need;
    if (lane == 0) {
        __threadfence_system(); /* the other lanes' stores, observed through the barrier */
        gtap_st_release_sys_u64(&r->outbox.tail, a->out_pos); /* N1: the slots are written */
    }
}

/* ---- inbox (N1-N3): warp-collective ------------------------------------------------------- */

/* The next message, copied into gtap_gn.in_buf; returns its kind (0: none, -1: malformed).
 * The message stays owned until gtap_gn_inbox_pop. */
GTAP_DEV int gtap_gn_inbox_next(gtap_gn_agent *a, uint32_t lane, uint32_t *arg, uint32_t *bytes,
                                uint32_t *nslots)
{
    gtap_node_region *r = gtap_gn.region;
    const uint32_t n = gtap_gn.ring_slots;
    for (;;) {
        if (a->in_pos == a->in_tail) {
            uint64_t t = 0;
            if (lane == 0)
                t = gtap_ld_acquire_sys_u64(&r->inbox.tail); /* N1: slots up to t are written */
            a->in_tail = __shfl_sync(GTAP_GN_FULL, (unsigned long long)t, 0);
            if (a->in_pos == a->in_tail)
                return 0;
        }
        const unsigned char *slot = gtap_gn.inbox_slots + (size_t)(a->in_pos & (n - 1)) * GTAP_NODE_SLOT_BYTES;
        uint4 h = make_uint4(0, 0, 0, 0);
        if (lane == 0)
            h = gtap_ld_relaxed_sys_v4(slot);
        h.x = __shfl_sync(GTAP_GN_FULL, h.x, 0);
        h.y = __shfl_sync(GTAP_GN_FULL, h.y, 0);
        h.z = __shfl_sync(GTAP_GN_FULL, h.z, 0);
        const uint32_t kind = h.x & 0xffffu, ns = h.x >> 16;
        const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + h.y + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
        if (ns == 0 || ns > GTAP_NODE_MAX_MESSAGE_SLOTS || a->in_pos + ns > a->in_tail ||
            (a->in_pos & (n - 1)) + ns > n || (kind != GTAP_NODE_MSG_PAD && need != ns))
            return -1;
        if (kind == GTAP_NODE_MSG_PAD) {
            a->in_pos += ns; /* published with the next pop */
            continue;
        }
        /* Every lane reads payload: each orders its reads after lane 0's acquire of tail,
         * which it learned through a shuffle (not a memory operation). */
        __threadfence_system();
        const uint32_t chunks = (h.y + 15) / 16;
        for (uint32_t i = lane; i < chunks; i += 32)
            ((uint4 *)gtap_gn.in_buf)[i] = gtap_ld_relaxed_sys_v4(slot + GTAP_NODE_MSG_HEADER_BYTES + 16 * i);
        __syncwarp(); /* in_buf is complete for lane 0, which parses it */
        *arg = h.z;
        *bytes = h.y;
        *nslots = ns;
        return (int)kind;
    }
}

/* Releases the message (N3: it was copied out). Before a head past IMPORT or RESULTS, the
 * caller has stored idle = 0 (N4); the release orders it. */
GTAP_DEV void gtap_gn_inbox_pop(gtap_gn_agent *a, uint32_t lane, uint32_t nslots)
{
    a->in_pos += nslots;
    if (lane == 0)
        gtap_st_release_sys_u64(&gtap_gn.region->inbox.head, a->in_pos);
}

/* ---- records ------------------------------------------------------------------------------ */

GTAP_DEV void gtap_gn_free(uint32_t id)
{
    gtap_pool_free_remote(id); /* to its owner's list (the agent's own ids too) */
}

/* Makes sure the agent is counted active before it publishes tasks. Lane 0. */
GTAP_DEV void gtap_gn_hold(gtap_gn_agent *a)
{
    if (a->holds == 0) {
        gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, 1);
        gtap_fence_acq_rel(); /* the increment is ordered before the tasks become stealable */
        a->holds = 1;
    }
}

/* Publishes what lane 0 pushed to the agent's own deque (gtap_thread_push_local). */
GTAP_DEV void gtap_gn_publish(gtap_warp_sh *sh, uint32_t w, uint32_t lane)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    __syncwarp();
    uint32_t any = 0;
    for (uint32_t q = 0; q < nq; q++)
        any |= (uint32_t)sh->spawned[q];
    if (!any)
        return;
    if (sh->failed_push) { /* a push raised DEQUE_FULL: the run aborts */
        gtap_thread_drop_spawned(sh, lane);
        return;
    }
    gtap_fence_acq_rel(); /* release: records and ring entries before the thieves' claims */
    for (uint32_t q = 0; q < nq; q++) {
        uint32_t k = (uint32_t)sh->spawned[q];
        if (k)
            gtap_q_publish_warp(sh, w, q, k, lane);
    }
    __syncwarp();
    if (lane == 0)
        for (uint32_t q = 0; q < nq; q++)
            sh->spawned[q] = 0;
    __syncwarp();
}

/* Gives back the active-count increments the agent no longer needs: all of them once its
 * deque is empty (after waiting out thieves that are between claim and unlock, exactly as
 * an idle worker does), else all but one. Lane 0. */
GTAP_DEV void gtap_gn_settle(gtap_gn_agent *a)
{
    if (a->holds == 0)
        return;
    uint32_t queued = 0;
    for (int q = 0; q < gtap_dev.num_queues; q++)
        queued += (uint32_t)gtap_ld_relaxed_u64(&gtap_deque_of(a->w, q)->meta); /* a hint; quiesce orders */
    uint32_t keep = queued ? 1u : 0u;
    if (a->holds == keep)
        return;
    if (!keep)
        gtap_q_quiesce(a->w);
    gtap_fence_acq_rel(); /* as gtap_sched_go_idle_one: observed claims precede the decrement */
    gtap_atomic_add_acq_rel_i32(&gtap_dev.ctl->active, -(int32_t)(a->holds - keep));
    a->holds = keep;
}

/* Completes stub `id` with a result (docs/join.md J1-J3). Lane 0. Returns 0 if the entry
 * does not name a live stub. */
GTAP_DEV int gtap_gn_apply_result(gtap_gn_agent *a, gtap_warp_sh *sh, uint64_t origin_task,
                                  const unsigned char *result, uint32_t result_bytes, uint32_t flags)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)sh; (void)origin_task; (void)result; (void)result_bytes; (void)flags;
    return 0; /* nothing is exported with a completion in these builds */
#else
    const uint32_t id = (uint32_t)origin_task, seq = (uint32_t)(origin_task >> 32);
    if (id >= gtap_dev.num_records + 1u || seq == 0 || gtap_gn.stub_seq[id] != seq)
        return 0;
    gtap_task_header *h = gtap_header(id);
    const uint32_t fs = h->fn_state, fn = fs & 0xffffu;
    if ((fs >> 16) != GTAP_STATE_MIGRATED || fn >= gtap_gn.num_functions ||
        result_bytes > gtap_gn.fns[fn].result_size)
        return 0;
    void *dst = (void *)(uintptr_t)h->result_dst;
    if (dst && result_bytes)
        gtap_copy_result(dst, result, result_bytes);
    if (flags & GTAP_WIRE_RESULT_DETACHED) /* T2; read by this agent only (ROOT_DONE, COMPLETION) */
        gtap_st_relaxed_u32(&gtap_nh.words->detached, a->launch_tag);
    gtap_gn.stub_seq[id] = 0;
    const uint32_t parent = h->parent;
    if (parent >= gtap_dev.num_records + 1u)
        return 0; /* stubs are made only of tasks with a local parent */
    gtap_task_header *ph = gtap_header(parent);
    /* Release: the result store before the parent can resume; acquire: its siblings'. */
    if (gtap_atomic_add_acq_rel_i32(&ph->pending, -1) == 1) {
        if ((ph->fn_state >> 16) == GTAP_STATE_ZOMBIE) {
            if (parent != gtap_root_id())
                gtap_gn_free(parent);
        } else {
            gtap_gn_hold(a);
            if (!gtap_thread_push_local(sh, a->w, ph->cont_queue, parent))
                a->failed = __LINE__;
        }
    }
    gtap_gn_free(id);
    a->results++;
    return 1;
#endif
}

/* ---- hunger (N9) -------------------------------------------------------------------------------- */

/* Workers (other than the agent) that hold tasks. Warp-uniform (lane 0 reads). */
GTAP_DEV int32_t gtap_gn_active_workers(gtap_gn_agent *a, uint32_t lane)
{
    int32_t act = lane == 0 ? (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active) : 0;
    return __shfl_sync(GTAP_GN_FULL, act, 0) - (int32_t)a->holds;
}

/* As a thief: fewer than 3/4 of the workers hold tasks. As a victim the node gives nothing
 * below 1/2 (gtap_gn_export), so a node between the two both steals and gives, and work
 * does not bounce between two nodes that are both short of it. */
GTAP_DEV uint32_t gtap_gn_is_hungry(gtap_gn_agent *a, uint32_t lane)
{
    return gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 4 * 3);
}

/* ---- EXPORT_REQUEST (N6) -------------------------------------------------------------------- */

GTAP_DEV void gtap_gn_export(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, gtap_sched_rng *rng,
                             uint32_t req, uint32_t max_tasks, uint32_t max_bytes)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    gtap_wire_writer wr;
    if (max_bytes > GTAP_NODE_MAX_MESSAGE_BYTES)
        max_bytes = GTAP_NODE_MAX_MESSAGE_BYTES;
    if (lane == 0)
        gtap_wire_batch_begin(&wr, gtap_gn.out_buf, max_bytes, GTAP_WIRE_TASKS, gtap_gn.hash);
    uint32_t taken = 0, full = 0;
    if (gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 2))
        max_tasks = 0; /* N9: a node short of work gives none away */
    for (uint32_t round = 0; round < 8 && taken < max_tasks && !full;) {
        uint32_t victim = gtap_sched_rand(rng) % a->nworkers;
        uint32_t q = nq > 1 ? gtap_sched_rand(rng) % nq : 0;
        uint32_t c = gtap_q_probe(victim, q);
        uint32_t best = __reduce_max_sync(GTAP_GN_FULL, c);
        if (best == 0) {
            round++;
            continue;
        }
        uint32_t leader = gtap_sched_pick_victim_lane(c, best, rng);
        victim = __shfl_sync(GTAP_GN_FULL, victim, leader);
        q = __shfl_sync(GTAP_GN_FULL, q, leader);
        uint32_t want = max_tasks - taken < 32 ? max_tasks - taken : 32;
        uint32_t my = GTAP_NO_TASK;
        uint32_t k = gtap_q_steal_warp(sh, victim, q, want, 0, lane, &my); /* active += 1 */
        if (k == 0) {
            round++;
            continue;
        }
        a->holds++;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t id = __shfl_sync(GTAP_GN_FULL, my, i);
            if (lane != 0)
                continue;
            const uint32_t fs = *(volatile uint32_t *)gtap_record(id);
            const uint32_t fn = fs & 0xffffu;
            int ship = !full && id != gtap_root_id() && fn < gtap_gn.num_functions &&
                       (gtap_gn.fns[fn].flags & GTAP_FN_MIGRATABLE);
            gtap_wire_task t;
            memset(&t, 0, sizeof t);
            int make_stub = 0; /* else the record is freed once shipped */
            if (ship) {
                t.fn = (uint16_t)fn;
                t.state = (uint16_t)(fs >> 16);
                t.queue = (uint16_t)q;
                t.payload_bytes = gtap_gn.fns[fn].data_size;
                t.result_bytes = gtap_gn.fns[fn].result_size;
                t.payload = gtap_record_data(id);
                t.origin_rank = gtap_gn.rank;
                t.hops = 1;
#if !defined(GTAP_ASSUME_NO_TASKWAIT)
                gtap_task_header *h = gtap_header(id);
                if (h->parent == GTAP_PARENT_REMOTE) {
                    /* imported here: the completion goes straight to its origin */
                    gtap_gnode_origin o = gtap_gn.origins[id];
                    t.flags = GTAP_WIRE_TASK_COMPLETION;
                    t.origin_rank = o.origin_rank;
                    t.origin_task = o.origin_task;
                    t.hops = o.hops + 1;
                } else if (h->parent != GTAP_NO_TASK || h->result_dst != 0) {
                    uint32_t seq = gtap_nh.words->stub_seq + 1;
                    if (seq == 0)
                        seq = 1;
                    gtap_nh.words->stub_seq = seq;
                    t.flags = GTAP_WIRE_TASK_COMPLETION;
                    t.origin_task = (uint64_t)id | ((uint64_t)seq << 32);
                    make_stub = 1;
                }
#endif
                if (gtap_wire_put_task(&wr, &t) != GTAP_WIRE_OK) {
                    full = 1;
                    ship = 0;
                }
            }
            if (!ship) {
                gtap_gn_hold(a);
                if (!gtap_thread_push_local(sh, a->w, q, id))
                    a->failed = __LINE__;
                continue;
            }
            taken++;
            if (make_stub) {
                gtap_task_header *h = gtap_header(id);
                h->fn_state = fn | ((uint32_t)GTAP_STATE_MIGRATED << 16);
                gtap_gn.stub_seq[id] = (uint32_t)(t.origin_task >> 32);
                continue;
            }
            gtap_gn_free(id);
        }
        taken = __shfl_sync(GTAP_GN_FULL, taken, 0);
        full = __shfl_sync(GTAP_GN_FULL, full, 0);
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    }
    gtap_gn_publish(sh, a->w, lane);
    if (lane == 0)
        gtap_gn_settle(a);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
    uint32_t used = lane == 0 ? wr.used : 0;
    used = __shfl_sync(GTAP_GN_FULL, used, 0);
    a->exported += taken;
    gtap_gn_post(a, lane, GTAP_NODE_MSG_EXPORTED, req, gtap_gn.out_buf, used);
}

/* ---- IMPORT (N7) ----------------------------------------------------------------------------- */

GTAP_DEV void gtap_gn_import(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t bytes)
{
    /* Enough free ids for the batch before lane 0 allocates them one by one. */
    if (lane == 0)
        gtap_mag_expect_unknown(&sh->mag);
    __syncwarp();
    gtap_mag_balance_warp(&sh->mag, a->w, lane);
    if (lane == 0) {
        gtap_wire_reader rd;
        gtap_wire_task t;
        uint32_t count = 0;
        if (gtap_wire_batch_open(&rd, gtap_gn.in_buf, bytes, GTAP_WIRE_TASKS, gtap_gn.hash) != GTAP_WIRE_OK) {
            a->failed = __LINE__;
        } else {
            gtap_gn_hold(a);
            while (!a->failed && gtap_wire_next_task(&rd, &t)) {
                if (t.fn >= gtap_gn.num_functions || !(gtap_gn.fns[t.fn].flags & GTAP_FN_MIGRATABLE) ||
                    t.payload_bytes != gtap_gn.fns[t.fn].data_size || t.state >= GTAP_MAX_RESUME_STATES ||
                    t.queue >= (uint32_t)gtap_dev.num_queues) {
                    a->failed = __LINE__;
                    break;
                }
                uint32_t id = gtap_mag_alloc(&sh->mag, a->w, &sh->pool_slow);
                if (id == GTAP_NO_TASK) {
                    gtap_raise(GTAP_ERR_POOL_EXHAUSTED, gtap_dev.num_records, gtap_dev.num_records, (int)a->w, 0,
                               (int)t.fn, __LINE__);
                    a->failed = __LINE__;
                    break;
                }
                unsigned char *rec = gtap_record(id);
#if defined(GTAP_ASSUME_NO_TASKWAIT)
                ((gtap_task_header_nt *)rec)->fn_state = (uint32_t)t.fn | ((uint32_t)t.state << 16);
#else
                gtap_task_header *h = (gtap_task_header *)rec;
                h->fn_state = (uint32_t)t.fn | ((uint32_t)t.state << 16);
                h->pending = 0;
                h->cont_queue = t.queue;
                h->parent = GTAP_NO_TASK;
                h->result_dst = 0;
                if (t.flags & GTAP_WIRE_TASK_COMPLETION) {
                    gtap_gnode_origin o;
                    o.origin_rank = t.origin_rank;
                    o.hops = t.hops;
                    o.origin_task = t.origin_task;
                    gtap_gn.origins[id] = o;
                    h->parent = GTAP_PARENT_REMOTE;
                    if (gtap_gn.fns[t.fn].result_size)
                        h->result_dst = (uint64_t)(uintptr_t)(gtap_gn.results + (size_t)id * gtap_gn.result_stride);
                }
#endif
                gtap_copy_result(rec + gtap_dev.data_offset, t.payload, t.payload_bytes);
                if (!gtap_thread_push_local(sh, a->w, t.queue, id)) {
                    a->failed = __LINE__;
                    break;
                }
                count++;
            }
        }
        a->imported += count;
    }
    a->imported = __shfl_sync(GTAP_GN_FULL, (unsigned long long)a->imported, 0);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
    gtap_gn_publish(sh, a->w, lane);
}

/* ---- RESULTS, and results of imported tasks (the done ring) ------------------------------------ */

GTAP_DEV void gtap_gn_results(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t bytes)
{
    if (lane == 0) {
        gtap_wire_reader rd;
        gtap_wire_result res;
        if (gtap_wire_batch_open(&rd, gtap_gn.in_buf, bytes, GTAP_WIRE_RESULTS, gtap_gn.hash) != GTAP_WIRE_OK)
            a->failed = __LINE__;
        while (!a->failed && gtap_wire_next_result(&rd, &res))
            if (!gtap_gn_apply_result(a, sh, res.origin_task, (const unsigned char *)res.result, res.result_bytes,
                                      res.flags))
                a->failed = __LINE__;
    }
    a->results = __shfl_sync(GTAP_GN_FULL, (unsigned long long)a->results, 0);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
    gtap_gn_publish(sh, a->w, lane);
}

/* Sends the results of finished imported tasks home: one COMPLETION per run of entries with
 * the same origin (a batch of at most one message); entries whose origin is this rank (the
 * task came home) complete their stub here. Returns the number of entries handled. */
GTAP_DEV uint32_t gtap_gn_drain_done(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)sh; (void)lane;
    return 0;
#else
    uint32_t handled = 0;
    for (;;) {
        uint32_t origin = 0, used = 0, n = 0;
        if (lane == 0) {
            gtap_wire_writer wr;
            gtap_wire_batch_begin(&wr, gtap_gn.out_buf, GTAP_NODE_MAX_MESSAGE_BYTES, GTAP_WIRE_RESULTS, gtap_gn.hash);
            origin = GTAP_NO_TASK;
            for (;;) {
                uint32_t *slot = &gtap_nh.done_ring[a->done_pos & gtap_nh.done_mask];
                uint32_t v = gtap_ld_acquire_u32(slot); /* pairs with the worker's release */
                if (v == 0)
                    break;
                uint32_t id = v - 1;
                gtap_gnode_origin o = gtap_gn.origins[id];
                gtap_task_header *h = gtap_header(id);
                const uint32_t fs = h->fn_state;
                const uint32_t rb = gtap_gn.fns[fs & 0xffffu].result_size;
                const unsigned char *rp = gtap_gn.results + (size_t)id * gtap_gn.result_stride;
                gtap_wire_result res;
                res.origin_task = o.origin_task;
                res.result_bytes = rb;
                /* relaxed: the slot's acquire above ordered the finishing worker's flag (T2) */
                res.flags = gtap_ld_relaxed_u32(&gtap_nh.words->detached) == a->launch_tag ? GTAP_WIRE_RESULT_DETACHED : 0;
                res.runner_rank = gtap_gn.rank;
                res.result = rp;
                if (o.origin_rank == gtap_gn.rank) {
                    if (!gtap_gn_apply_result(a, sh, o.origin_task, rp, rb, res.flags))
                        a->failed = __LINE__;
                } else {
                    if (origin != GTAP_NO_TASK && origin != o.origin_rank)
                        break; /* another origin: next message */
                    if (gtap_wire_put_result(&wr, &res) != GTAP_WIRE_OK)
                        break; /* the message is full */
                    origin = o.origin_rank;
                }
                *slot = 0;
                a->done_pos++;
                n++;
                /* The result was copied: the record may go (a zombie when its children and
                 * this reference are all gone; node_hooks.cuh). */
                if ((fs >> 16) == GTAP_STATE_ZOMBIE) {
                    if (gtap_atomic_add_acq_rel_i32(&h->pending, -1) == 1)
                        gtap_gn_free(id);
                } else {
                    gtap_gn_free(id);
                }
            }
            if (n)
                gtap_st_release_u32(&gtap_nh.words->done_consumed, a->done_pos); /* slots emptied */
            used = wr.count ? wr.used : 0;
        }
        n = __shfl_sync(GTAP_GN_FULL, n, 0);
        used = __shfl_sync(GTAP_GN_FULL, used, 0);
        origin = __shfl_sync(GTAP_GN_FULL, origin, 0);
        a->done_pos = __shfl_sync(GTAP_GN_FULL, a->done_pos, 0);
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
        a->results = __shfl_sync(GTAP_GN_FULL, (unsigned long long)a->results, 0);
        a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
        if (used)
            gtap_gn_post(a, lane, GTAP_NODE_MSG_COMPLETION, origin, gtap_gn.out_buf, used);
        handled += n;
        if (n == 0)
            break;
    }
    gtap_gn_publish(sh, a->w, lane);
    return handled;
#endif
}

/* ---- status (N4) --------------------------------------------------------------------------- */

GTAP_DEV void gtap_gn_set_idle(gtap_gn_agent *a, uint32_t lane, uint32_t idle, uint64_t now)
{
    if (a->idle == idle)
        return;
    a->idle = idle;
    if (idle) {
        a->idle_since = now;
        if (lane == 0) /* release: consumed inbox and published outbox before idle (N4) */
            gtap_st_release_sys_u32(&gtap_gn.region->status.idle, 1u);
    } else {
        a->idle_ns += now - a->idle_since;
        if (lane == 0) /* relaxed: the next inbox head release orders it (N4) */
            gtap_st_relaxed_sys_u32(&gtap_gn.region->status.idle, 0u);
    }
}

/* The statistics counters (relaxed, approximate). Sums the workers' task counters, which
 * they refresh every 16 iterations. */
GTAP_DEV void gtap_gn_publish_counters(gtap_gn_agent *a, uint32_t lane, uint64_t now)
{
    unsigned long long seg = 0;
    for (uint32_t v = lane; v < a->nworkers; v += 32)
        seg += *(volatile unsigned long long *)&gtap_dev.stats[v].tasks;
    for (int off = 16; off > 0; off /= 2)
        seg += __shfl_down_sync(GTAP_GN_FULL, seg, off);
    if (lane == 0) {
        gtap_node_status *s = &gtap_gn.region->status;
        /* statistics and watchdog progress: relaxed, approximate (node_iface.h) */
        gtap_st_relaxed_sys_u64(&s->segments, a->segments_base + seg);
        gtap_st_relaxed_sys_u64(&s->tasks_imported, a->imported);
        gtap_st_relaxed_sys_u64(&s->tasks_exported, a->exported);
        gtap_st_relaxed_sys_u64(&s->results_applied, a->results);
        gtap_st_relaxed_sys_u64(&s->first_work_ns, a->first_work_ns);
        gtap_st_relaxed_sys_u64(&s->idle_ns, a->idle_ns + (a->idle ? now - a->idle_since : 0));
    }
    a->last_publish = now;
}

/* ---- the agent loop ------------------------------------------------------------------------ */

static __device__ __noinline__ void gtap_gnode_agent(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane,
                                                     gtap_sched_rng *rng)
{
    gtap_node_region *r = gtap_gn.region;
    gtap_ctl *ctl = gtap_dev.ctl;
    gtap_gn_agent a;
    memset(&a, 0, sizeof a);
    a.w = w;
    a.nworkers = nworkers;
    a.launch_tag = gtap_nh_launch_tag();
    /* Our own counters as we (or the proxy, at attach) left them; the proxy's head with
     * acquire, so that the slots it has read are free (N1). */
    a.epoch = gtap_ld_relaxed_sys_u32(&r->status.epoch) + 1; /* N5 */
    a.in_pos = a.in_tail = gtap_ld_acquire_sys_u64(&r->inbox.head);
    a.out_pos = gtap_ld_acquire_sys_u64(&r->outbox.tail);
    a.out_head = gtap_ld_acquire_sys_u64(&r->outbox.head);
    a.out_seq = gtap_nh.words->out_seq;
    a.done_pos = gtap_ld_relaxed_u32(&gtap_nh.words->done_consumed);
    a.idle = 1; /* the region says idle between runs */
    a.t_begin = gtap_gn_now(lane);
    a.idle_since = a.t_begin;
    uint64_t idle_ns_before = 0, seg_before = 0;
    if (lane == 0) {
        idle_ns_before = *(volatile uint64_t *)&r->status.idle_ns;
        seg_before = *(volatile uint64_t *)&r->status.segments;
        gtap_st_relaxed_sys_u32(&r->status.epoch, a.epoch);
        gtap_st_relaxed_sys_u32(&r->status.in_run, 1u);
        gtap_st_relaxed_sys_u64(&r->status.first_work_ns, 0ull);
        uint64_t *p = (uint64_t *)gtap_gn.out_buf;
        p[0] = gtap_nh_holds_root();
        p[1] = seg_before;
        p[2] = idle_ns_before;
    }
    a.idle_ns = __shfl_sync(GTAP_GN_FULL, (unsigned long long)idle_ns_before, 0);
    gtap_gn_post(&a, lane, GTAP_NODE_MSG_RUN_BEGIN, a.epoch, gtap_gn.out_buf, 24);
    /* The workers' counters restart at 0 each launch; the node's total goes on. */
    a.segments_base = __shfl_sync(GTAP_GN_FULL, (unsigned long long)seg_before, 0);

    uint32_t quiet = 0;
    uint64_t stop_seen = 0;
    while (!a.failed) {
        /* polled: an abort publishes nothing the agent reads (relaxed) */
        uint32_t st = lane == 0 ? gtap_ld_relaxed_u32(&ctl->terminate) : 0;
        uint32_t abort = lane == 0 ? gtap_ld_relaxed_sys_u32(&r->control.abort) : 0;
        st = __shfl_sync(GTAP_GN_FULL, st, 0);
        abort = __shfl_sync(GTAP_GN_FULL, abort, 0);
        if (st == GTAP_RUN_ABORT)
            break; /* a task error: the host reports it and ends the job */
        if (abort) {
            if (lane == 0)
                gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT); /* the job is ending */
            break;
        }
        uint32_t work = 0;
        /* inbox */
        for (int m = 0; m < 16 && !a.stop && !a.failed; m++) {
            uint32_t arg = 0, bytes = 0, ns = 0;
            int kind = gtap_gn_inbox_next(&a, lane, &arg, &bytes, &ns);
            if (kind == 0)
                break;
            if (kind < 0) {
                a.failed = __LINE__;
                break;
            }
            work = 1;
            uint64_t now = gtap_gn_now(lane);
            switch (kind) {
            case GTAP_NODE_MSG_STOP:
                if (arg != a.epoch)
                    a.failed = __LINE__;
                a.stop = 1;
                break;
            case GTAP_NODE_MSG_EXPORT_REQUEST: {
                uint32_t lim0 = ((const uint32_t *)gtap_gn.in_buf)[0], lim1 = ((const uint32_t *)gtap_gn.in_buf)[1];
                gtap_gn_export(&a, sh, lane, rng, arg, lim0, lim1);
                break;
            }
            case GTAP_NODE_MSG_IMPORT:
                gtap_gn_set_idle(&a, lane, 0, now);
                gtap_gn_import(&a, sh, lane, bytes);
                if (a.first_work_ns == 0)
                    a.first_work_ns = now - a.t_begin + 1;
                break;
            case GTAP_NODE_MSG_RESULTS:
                gtap_gn_set_idle(&a, lane, 0, now);
                gtap_gn_results(&a, sh, lane, bytes);
                break;
            default:
                a.failed = __LINE__;
            }
            gtap_gn_inbox_pop(&a, lane, ns);
        }
        if (a.failed)
            break;
        /* finished imported tasks */
        if (gtap_gn_drain_done(&a, sh, lane))
            work = 1;
        /* the root (T1, T2) */
        if (!a.root_posted && gtap_nh_holds_root()) {
            uint32_t done = lane == 0 ? gtap_ld_acquire_u32(&gtap_nh.words->root_done) : 0;
            if (__shfl_sync(GTAP_GN_FULL, done, 0) == a.launch_tag) {
                /* relaxed: root_done's acquire ordered every detaching task's flag (T2) */
                uint32_t det = lane == 0 ? gtap_ld_relaxed_u32(&gtap_nh.words->detached) : 0;
                det = __shfl_sync(GTAP_GN_FULL, det, 0) == a.launch_tag ? GTAP_NODE_ROOT_DETACHED : 0;
                gtap_gn_post(&a, lane, GTAP_NODE_MSG_ROOT_DONE, det, gtap_gn.out_buf, 0);
                a.root_posted = 1;
                work = 1;
            }
        }
        /* active count and idleness (N4) */
        uint32_t busy = 0;
        if (lane == 0) {
            gtap_q_refresh(sh, w); /* steal ends, if a push found them stale */
            gtap_gn_settle(&a);
            busy = a.holds != 0 || gtap_ld_acquire_u32(&ctl->active) != 0;
            /* Acquire above: a worker's done-ring entry precedes its going idle. */
            if (!busy && gtap_ld_acquire_u32(&gtap_nh.done_ring[a.done_pos & gtap_nh.done_mask]) != 0)
                busy = 1;
        }
        a.holds = __shfl_sync(GTAP_GN_FULL, a.holds, 0);
        busy = __shfl_sync(GTAP_GN_FULL, busy, 0);
        uint64_t now = gtap_gn_now(lane);
        if (busy && a.first_work_ns == 0)
            a.first_work_ns = now - a.t_begin + 1;
        gtap_gn_set_idle(&a, lane, busy ? 0u : 1u, now);
        uint32_t hungry = busy && gtap_gn_is_hungry(&a, lane);
        if (hungry != a.hungry) {
            a.hungry = hungry;
            if (lane == 0) /* a hint: relaxed (N9) */
                gtap_st_relaxed_sys_u64(&r->status.hungry, hungry);
        }
        if (now - a.last_publish > 200000)
            gtap_gn_publish_counters(&a, lane, now);
        if (a.stop) {
            /* The job's termination was decided, so no task exists here; a worker may still
             * be on its way to idle (e.g. the one that ran the root). Holding work a second
             * after STOP is a protocol error. */
            if (!busy)
                break;
            if (stop_seen == 0)
                stop_seen = now;
            else if (now - stop_seen > 1000000000ull)
                a.failed = __LINE__;
            __nanosleep(1000);
            continue;
        }
        if (work) {
            quiet = 0;
        } else {
            /* Poll the mapped inbox about every microsecond while work may arrive. */
            __nanosleep(quiet < 64 ? 200 : 1000);
            quiet++;
        }
    }

    uint64_t now = gtap_gn_now(lane);
    gtap_gn_publish_counters(&a, lane, now);
    if (a.failed) {
        /* An internal or protocol error of the node: report it (N8) and stop the run. */
        const char msg[] = "GPU node: malformed message, protocol error or internal inconsistency "
                           "(detected at gpu_node.cuh line in the message argument)";
        if (lane == 0) {
            memcpy(gtap_gn.out_buf, msg, sizeof msg - 1);
            gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT);
        }
        gtap_gn_post(&a, lane, GTAP_NODE_MSG_ERROR, (uint32_t)a.failed, gtap_gn.out_buf, sizeof msg - 1);
        if (lane == 0)
            gtap_st_release_sys_u32(&r->status.error, 1u); /* N8: after the ERROR message */
    } else if (a.stop) {
        gtap_gn_set_idle(&a, lane, 1, now);
        if (lane == 0) {
            gtap_st_relaxed_sys_u64(&r->status.hungry, 0ull);
            gtap_st_relaxed_sys_u64(&r->status.idle_ns, a.idle_ns);
            gtap_st_relaxed_sys_u32(&r->status.in_run, 0u);
            *(uint64_t *)gtap_gn.out_buf = now - a.t_begin;
        }
        gtap_gn_post(&a, lane, GTAP_NODE_MSG_RUN_END, a.epoch, gtap_gn.out_buf, 8);
        if (lane == 0) {
            /* Every worker is idle (the job's termination was detected): leave the run. */
            gtap_st_release_u32(&ctl->terminate, GTAP_RUN_DONE);
        }
    }
    if (lane == 0) {
        gtap_nh.words->out_seq = a.out_seq;
        gtap_st_relaxed_u32(&gtap_nh.words->launch, a.launch_tag); /* launches finished */
    }
    __syncwarp();
}

#endif /* GTAP_GPU_NODE_CUH */
