/* inter_gpu/gpu/gpu_node_results.cuh - results (gtap/node_iface.h N7): RESULTS batches
 * complete the stubs of exported tasks like local children (docs/join.md J1-J4), and the
 * done ring's finished imported tasks go home as result batches (COMPLETION through the
 * proxy, or RESULTS straight to a direct peer).
 */
#ifndef GTAP_GPU_NODE_RESULTS_CUH
#define GTAP_GPU_NODE_RESULTS_CUH

#include "inter_gpu/gpu/gpu_node_batch.cuh"
#include "inter_gpu/gpu/gpu_node_direct_send.cuh"
#include "inter_gpu/gpu/gpu_node_mailbox.cuh"
#include "inter_gpu/gpu/gpu_node_queue.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"

/* Completes the stub named by origin_task with a result: J1 (the result goes to the stub's
 * destination), then J3/J4 for its parent through gtap_join_child_done. Any lane: lanes
 * complete different stubs at once, and each reads its own parent's continuation queue
 * (read by lane 0 one after another, they cost a round trip per parent, most of a RESULTS
 * batch's time). Returns 0 if the entry does not name a live stub; else 1, with *ready =
 * the parent when this was its last outstanding child and *ready_q its queue (the caller
 * queues it on lane 0), or *ready = GTAP_NO_TASK. */
GTAP_DEV int gtap_gn_apply_result(gtap_gn_agent *a, uint64_t origin_task, const unsigned char *result,
                                  uint32_t result_bytes, uint32_t flags, uint32_t *ready, uint32_t *ready_q)
{
    *ready = GTAP_NO_TASK;
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)origin_task; (void)result; (void)result_bytes; (void)flags; (void)ready_q;
    return 0; /* nothing is exported with a completion in these builds */
#else
    const uint32_t id = (uint32_t)origin_task, seq = (uint32_t)(origin_task >> 32);
    if (id >= gtap_dev.num_records + 1u || seq == 0)
        return 0;
    /* The stub's header is read together with the claim below, not after it (a round trip
     * less): a live stub's header was written before its task was exported, so before this
     * result existed, and it does not change until the claim. */
    gtap_task_header *h = gtap_header(id);
    const uint32_t fs = h->fn_state, fn = fs & 0xffffu, parent = h->parent;
    void *dst = (void *)(uintptr_t)h->result_dst;
    /* check and clear at once: two entries naming one stub (a protocol error) cannot both
     * complete it when lanes apply a batch in parallel */
    if (atomicCAS(&gtap_gn.stub_seq[id], seq, 0u) != seq)
        return 0;
    if ((fs >> 16) != GTAP_STATE_MIGRATED || fn >= gtap_gn.num_functions ||
        result_bytes > gtap_gn.fns[fn].result_size)
        return 0;
    if (dst && result_bytes)
        gtap_copy_result(dst, result, result_bytes);
    if (flags & GTAP_WIRE_RESULT_DETACHED) /* T2; read by this agent only (ROOT_DONE, COMPLETION) */
        gtap_st_relaxed_u32(&gtap_nh.words->detached, a->launch_tag);
    if (parent >= gtap_dev.num_records + 1u)
        return 0; /* stubs are made only of tasks with a local parent */
    /* J3: acq_rel on the parent's counter - release orders the result store above before the
     * parent can resume, acquire its siblings' stores before it does. J4: a zombie parent
     * whose last reference this was is freed. */
    uint32_t dead = GTAP_NO_TASK;
    if (gtap_join_child_done(parent, ready_q, &dead))
        *ready = parent;
    if (dead != GTAP_NO_TASK)
        gtap_gn_free(dead);
    gtap_gn_free(id);
    return 1;
#endif
}

/* Applies the RESULTS batch of `bytes` bytes in in_buf, 32 entries a round: gtap_gn_walk
 * finds their offsets (handed over in the warp's xfer array), then each lane checks and
 * completes one stub, and lane 0 queues the parents that became ready. An entry that names
 * no live stub fails the run (N8). Warp-collective; the caller has stored idle = 0 (N4). */
GTAP_GN_COLD void gtap_gn_results(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, uint32_t bytes)
{
    const unsigned char *buf = gtap_gn.in_buf;
    uint32_t *xfer = gtap_worker_node_xfer(sh);
    uint32_t count;
    uint32_t good = (uint32_t)gtap_gn_batch_open(GTAP_WIRE_RESULTS, lane, &bytes, &count);
    uint32_t pos = GTAP_WIRE_BATCH_HEADER_BYTES, done = 0;
    while (good && done < count) {
        const uint32_t n = count - done < 32 ? count - done : 32;
        good = (uint32_t)gtap_gn_walk(buf, bytes, &pos, n, GTAP_WIRE_RESULT_HEADER_BYTES, lane, xfer);
        __syncwarp(); /* the offsets in xfer */
        uint32_t ready = GTAP_NO_TASK, ready_q = 0, ok = 1;
        if (good && lane < n) {
            const gtap_wire_result_header *rh = (const gtap_wire_result_header *)(buf + xfer[lane]);
            const uint32_t fl = rh->flags;
            ok = !(fl & ~GTAP_WIRE_RESULT_KNOWN_FLAGS) &&
                 gtap_gn_apply_result(a, rh->origin_task, (const unsigned char *)rh + GTAP_WIRE_RESULT_HEADER_BYTES,
                                      rh->result_bytes, fl, &ready, &ready_q);
        }
        __syncwarp(); /* xfer is read before lane 0 overwrites it */
        if (!__all_sync(GTAP_GN_FULL, ok))
            good = 0;
        gtap_gn_push_lanes(a, sh, lane, ready, ready_q);
        a->results += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, ok && lane < n));
        done += n;
    }
    if (!good)
        a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_RESULTS);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_worker_node_publish(sh, a->w, lane);
}

/* Sends the results of finished imported tasks home: one COMPLETION per run of entries with
 * the same origin (a batch of at most one message); entries whose origin is this rank (the
 * task came home) complete their stub here. Warp-collective; returns the number of entries
 * handled. */
GTAP_GN_COLD uint32_t gtap_gn_drain_done(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)sh; (void)lane;
    return 0;
#else
    /* 32 ring slots a round, one per lane. A COMPLETION message goes to one origin rank:
     * entries for this rank are applied at once (tasks that came home), the others are
     * written into the message being built in out_buf at offsets from a prefix sum; a
     * round stops at the first entry for another origin or the first that does not fit,
     * and the message is posted. */
    const uint32_t cap = GTAP_NODE_MAX_MESSAGE_BYTES;
    uint32_t handled = 0, used = GTAP_WIRE_BATCH_HEADER_BYTES, count = 0, origin = GTAP_NO_TASK;
    for (;;) {
        uint32_t *slot = &gtap_nh.done_ring[(a->done_pos + lane) & gtap_nh.done_mask];
        const uint32_t v = gtap_ld_acquire_u32(slot); /* pairs with the worker's release */
        const uint32_t have = __ballot_sync(GTAP_GN_FULL, v != 0);
        uint32_t n = have == GTAP_GN_FULL ? 32u : (uint32_t)__ffs(~have) - 1u; /* a prefix of the ring */
        if (n == 0)
            break;
        uint32_t id = 0, fs = 0, rb = 0, flags = 0, self = 1;
        gtap_gnode_origin o;
        o.origin_rank = gtap_gn.rank;
        o.origin_task = 0;
        if (lane < n) {
            id = v - 1u;
            o = gtap_gn.origins[id];
            fs = gtap_header(id)->fn_state;
            rb = gtap_gn.fns[fs & 0xffffu].result_size;
            /* relaxed: the slot's acquire above ordered the finishing worker's flag (T2) */
            flags = gtap_ld_relaxed_u32(&gtap_nh.words->detached) == a->launch_tag ? GTAP_WIRE_RESULT_DETACHED : 0u;
            self = o.origin_rank == gtap_gn.rank;
        }
        const uint32_t remote = __ballot_sync(GTAP_GN_FULL, !self);
        if (origin == GTAP_NO_TASK && remote)
            origin = __shfl_sync(GTAP_GN_FULL, o.origin_rank, __ffs(remote) - 1);
        const uint32_t other = __ballot_sync(GTAP_GN_FULL, !self && o.origin_rank != origin);
        if (other)
            n = (uint32_t)__ffs(other) - 1u;
        const uint32_t bytes = lane < n && !self ? gtap_wire_result_bytes(rb) : 0u;
        uint32_t end = bytes;
        for (uint32_t d = 1; d < 32; d *= 2) {
            const uint32_t up = __shfl_up_sync(GTAP_GN_FULL, end, d);
            if (lane >= d)
                end += up;
        }
        const uint32_t over = __ballot_sync(GTAP_GN_FULL, bytes && used + end > cap);
        if (over)
            n = (uint32_t)__ffs(over) - 1u;
        uint32_t ready = GTAP_NO_TASK, ready_q = 0, ok = 1, dead = GTAP_NO_TASK;
        if (lane < n) {
            const unsigned char *rp = gtap_gn.results + (size_t)id * gtap_gn.result_stride;
            if (self) {
                ok = (uint32_t)gtap_gn_apply_result(a, o.origin_task, rp, rb, flags, &ready, &ready_q);
            } else {
                uint64_t *e = (uint64_t *)(gtap_gn.out_buf + used + end - bytes);
                gtap_wire_result r;
                r.origin_task = o.origin_task;
                r.result_bytes = rb;
                r.flags = flags;
                r.runner_rank = gtap_gn.rank;
                r.result = NULL; /* copied below, as words */
                gtap_wire_result_header_words(e, &r);
                gtap_gn_copy_padded(e + GTAP_WIRE_RESULT_HEADER_BYTES / 8, rp, rb);
            }
            *slot = 0;
            /* The result was copied: the record may go. A zombie (it detached children)
             * holds one reference for the agent (node_hooks.cuh), and J4 frees it with the
             * last one: gtap_join_child_done sets dead = id then. */
            uint32_t unused_q;
            if ((fs >> 16) != GTAP_STATE_ZOMBIE)
                dead = id;
            else
                gtap_join_child_done(id, &unused_q, &dead);
        }
        gtap_pool_free_remote_warp(lane, dead); /* one chain, one CAS, per owner's list */
        if (!__all_sync(GTAP_GN_FULL, ok))
            a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_RESULTS);
        gtap_gn_push_lanes(a, sh, lane, ready, ready_q);
        a->results += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, lane < n && self && ok));
        const uint32_t written = __ballot_sync(GTAP_GN_FULL, lane < n && !self);
        if (n) {
            count += (uint32_t)__popc(written);
            used += __shfl_sync(GTAP_GN_FULL, end, n - 1);
            a->done_pos += n;
            handled += n;
            __syncwarp(); /* every lane emptied its slot */
            if (lane == 0)
                gtap_st_release_u32(&gtap_nh.words->done_consumed, a->done_pos); /* slots emptied */
        }
        if ((other || over) && count) {
            /* another origin or a full message: post this one, go on with a new one */
            gtap_gn_batch_close(GTAP_WIRE_RESULTS, lane, used, count);
            gtap_gn_send_results(a, lane, origin, used, count);
            used = GTAP_WIRE_BATCH_HEADER_BYTES;
            count = 0;
            origin = GTAP_NO_TASK;
        } else if (n == 0) {
            a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_RESULTS); /* one result larger than a message: cannot happen (R5) */
            break;
        }
    }
    if (count) {
        gtap_gn_batch_close(GTAP_WIRE_RESULTS, lane, used, count);
        gtap_gn_send_results(a, lane, origin, used, count);
    }
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_worker_node_publish(sh, a->w, lane);
    return handled;
#endif
}

#endif /* GTAP_GPU_NODE_RESULTS_CUH */
