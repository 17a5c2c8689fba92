/* gtap/entry.cuh - the root task of `#pragma gtap entry`, shared by both worker kinds:
 * every thread of the grid calls gtap_entry_begin; the master (block 0, thread 0) prepares
 * the root in its reserved record and fills its arguments; after the run it reads the
 * root's result. gtap_entry_run is the worker kind's own. */
#ifndef GTAP_ENTRY_CUH
#define GTAP_ENTRY_CUH

#include "gtap/device.cuh"
#if defined(GTAP_DISTRIBUTED)
#include "gtap/node_hooks.cuh"
#endif

GTAP_DEV int gtap_entry_is_master(void)
{
    return blockIdx.x == 0 && threadIdx.x == 0;
}

GTAP_API void *gtap_entry_begin(unsigned fn, unsigned data_size, unsigned result_size)
{
    if (!gtap_entry_is_master())
        return NULL;
    if (gtap_dev.records == NULL) {
        printf("gtap: error: #pragma gtap entry reached before gtap_initialize() succeeded\n");
        __trap();
    }
    if (fn >= 0xffffu || data_size > gtap_dev.data_capacity || result_size > 256) {
        gtap_raise(GTAP_ERR_DATA_TOO_LARGE, data_size, gtap_dev.data_capacity, 0, 0, (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    unsigned char *rec = gtap_record(gtap_root_id());
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    ((gtap_task_header_nt *)rec)->fn_state = fn;
#else
    gtap_task_header *h = (gtap_task_header *)rec;
    h->parent = GTAP_NO_TASK;
    h->pending = 0;
    h->fn_state = fn;
    h->cont_queue = 0;
    h->result_dst = result_size ? (uint64_t)(uintptr_t)gtap_dev.root_result : 0;
#endif
    return rec + gtap_dev.data_offset;
}

GTAP_API const void *gtap_entry_result(void)
{
    if (!gtap_entry_is_master())
        return NULL;
#if defined(GTAP_DISTRIBUTED)
    if (!gtap_nh_holds_root())
        return NULL; /* the entry ran on rank 0; this rank keeps its variable as it was */
#endif
    if (gtap_ld_acquire_u32(&gtap_dev.ctl->terminate) == GTAP_RUN_ABORT ||
        gtap_ld_relaxed_u32(&gtap_dev.ctl->error_claim) != 0)
        return NULL;
    return gtap_dev.root_result;
}

#endif /* GTAP_ENTRY_CUH */
