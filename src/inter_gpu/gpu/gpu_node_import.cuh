/* inter_gpu/gpu/gpu_node_import.cuh - IMPORT (gtap/node_iface.h N7): the agent checks each
 * entry of a wire task batch against the program, makes a fresh record of it from its own
 * pool range and queues it on its own deque, where idle workers steal it.
 */
#ifndef GTAP_GPU_NODE_IMPORT_CUH
#define GTAP_GPU_NODE_IMPORT_CUH

#include "inter_gpu/gpu/gpu_node_batch.cuh"
#include "inter_gpu/gpu/gpu_node_queue.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"

/* Makes record `id` of the task entry at e (fn, state and queue already read from its
 * header word and checked): the header of a record without a local parent (N7), with an
 * origin and a result buffer when the entry owes a completion, then the task data. This
 * lane's. */
GTAP_DEV void gtap_gn_fill_record(uint32_t id, const unsigned char *e, uint32_t fn, uint32_t state, uint32_t q,
                                  uint32_t flags)
{
    unsigned char *rec = gtap_record(id);
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)e; (void)q; (void)flags;
    ((gtap_task_header_nt *)rec)->fn_state = fn | (state << 16);
#else
    const gtap_wire_task_header *th = (const gtap_wire_task_header *)e;
    gtap_task_header *h = (gtap_task_header *)rec;
    h->fn_state = fn | (state << 16);
    h->pending = 0;
    h->cont_queue = q;
    h->parent = GTAP_NO_TASK;
    h->result_dst = 0;
    if (flags & GTAP_WIRE_TASK_COMPLETION) {
        gtap_gnode_origin o;
        o.origin_rank = th->origin_rank;
        o.hops = th->hops;
        o.origin_task = th->origin_task;
        gtap_gn.origins[id] = o;
        h->parent = GTAP_PARENT_REMOTE;
        if (gtap_gn.fns[fn].result_size)
            h->result_dst = (uint64_t)(uintptr_t)(gtap_gn.results + (size_t)id * gtap_gn.result_stride);
    }
#endif
    gtap_copy_result(rec + gtap_dev.data_offset, e + GTAP_WIRE_TASK_HEADER_BYTES, gtap_gn.fns[fn].data_size);
}

/* Imports the task batch of `bytes` bytes in in_buf, 32 entries a round (as gtap_gn_results):
 * gtap_gn_walk finds their offsets, then each lane checks, allocates and fills one record,
 * and lane 0 queues them. A malformed entry or an exhausted pool fails the run (N8; the
 * records made so far are queued). Warp-collective; the caller has stored idle = 0 (N4). */
GTAP_GN_COLD void gtap_gn_import(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, uint32_t bytes)
{
    const unsigned char *buf = gtap_gn.in_buf;
    uint32_t *xfer = gtap_worker_node_xfer(sh);
    uint32_t count;
    uint32_t good = (uint32_t)gtap_gn_batch_open(GTAP_WIRE_TASKS, lane, &bytes, &count);
    if (lane == 0)
        gtap_worker_node_alloc_expect(sh); /* enough free ids for the batch */
    uint32_t pos = GTAP_WIRE_BATCH_HEADER_BYTES, done = 0, exhausted = 0;
    while (good && !exhausted && done < count) {
        const uint32_t n = count - done < 32 ? count - done : 32;
        __syncwarp();
        gtap_worker_node_alloc_refill(sh, a->w, lane);
        good = (uint32_t)gtap_gn_walk(buf, bytes, &pos, n, GTAP_WIRE_TASK_HEADER_BYTES, lane, xfer);
        __syncwarp(); /* the offsets in xfer */
        uint32_t id = GTAP_NO_TASK, q = 0, valid = 1;
        if (good && lane < n) {
            const unsigned char *e = buf + xfer[lane];
            /* fn, state, queue and flags share the header's first word: one load */
            const uint64_t h0 = ((const uint64_t *)e)[GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_FN)];
            const uint32_t fn = GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_FN, 16);
            const uint32_t state = GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_STATE, 16);
            const uint32_t flags = GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_FLAGS, 16);
            q = GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_QUEUE, 16);
            valid = !(flags & ~GTAP_WIRE_TASK_KNOWN_FLAGS) && fn < gtap_gn.num_functions &&
                    (gtap_gn.fns[fn].flags & GTAP_FN_MIGRATABLE) &&
                    ((const gtap_wire_task_header *)e)->payload_bytes == gtap_gn.fns[fn].data_size &&
                    ((const gtap_wire_task_header *)e)->block_threads == gtap_gn_task_threads(fn) &&
                    state < GTAP_MAX_RESUME_STATES && q < (uint32_t)gtap_dev.num_queues;
            if (valid)
                id = gtap_worker_node_alloc(sh, a->w);
            if (id != GTAP_NO_TASK)
                gtap_gn_fill_record(id, e, fn, state, q, flags);
        }
        __syncwarp(); /* xfer is read before lane 0 overwrites it */
        if (!__all_sync(GTAP_GN_FULL, valid))
            good = 0; /* the records made of the valid entries are queued below; the run aborts */
        const uint32_t missing = __ballot_sync(GTAP_GN_FULL, lane < n && valid && good && id == GTAP_NO_TASK);
        if (missing) {
            if (lane == __ffs(missing) - 1)
                gtap_raise(GTAP_ERR_POOL_EXHAUSTED, gtap_dev.num_records, gtap_dev.num_records, (int)a->w, 0, -1,
                           __LINE__);
            exhausted = 1;
        }
        gtap_gn_push_lanes(a, sh, lane, id, q);
        a->imported += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, id != GTAP_NO_TASK));
        done += n;
    }
    if (!good || exhausted)
        a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_IMPORT);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_worker_node_publish(sh, a->w, lane);
}

#endif /* GTAP_GPU_NODE_IMPORT_CUH */
