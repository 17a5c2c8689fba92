/* gtap/device.cuh - the device-side view of the runtime: the state descriptor in constant
 * memory, task-record addressing, and the error path (first error wins, everyone drains).
 */
#ifndef GTAP_DEVICE_CUH
#define GTAP_DEVICE_CUH

#include "gtap/atomics.cuh"
#include "gtap/state.h"

/* One runtime per program: gtap_initialize() copies the descriptor here. */
static __constant__ gtap_dev_state gtap_dev;

/* ---- Task records ------------------------------------------------------------------- */

GTAP_DEV unsigned char *gtap_record(uint32_t id)
{
    return gtap_dev.records + (size_t)id * gtap_dev.record_stride;
}

GTAP_DEV gtap_task_header *gtap_header(uint32_t id)
{
    return (gtap_task_header *)gtap_record(id);
}

GTAP_DEV void *gtap_record_data(uint32_t id)
{
    return gtap_record(id) + gtap_dev.data_offset;
}

/* The record reserved for the root task of each launch (never in the free pool). */
GTAP_DEV uint32_t gtap_root_id(void)
{
    return gtap_dev.num_records;
}

/* ---- Errors ------------------------------------------------------------------------- */

/* Records the first error of the run (code, value hit, limit, where) and starts the abort:
 * every worker sees terminate == GTAP_RUN_ABORT at its next scheduler iteration and leaves.
 * Any thread may call it; later errors are dropped. The host decodes the record (error.c). */
static __device__ __noinline__ void gtap_raise(int code, long long value, long long limit,
                                               int worker, int lane, int fn, int line)
{
    gtap_ctl *ctl = gtap_dev.ctl;
    if (atomicCAS(&ctl->error_claim, 0, 1) == 0) {
        volatile gtap_error_record *e = gtap_dev.error;
        e->value = value;
        e->limit = limit;
        e->worker = worker;
        e->lane = lane;
        e->fn = fn;
        e->line = line;
        /* Publishes the fields before the code that says they are valid. */
        __threadfence_system();
        e->code = code;
        __threadfence_system();
    }
    /* Publishes nothing but the abort request; workers poll it with relaxed loads. */
    gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT);
}

GTAP_DEV int gtap_aborting(void)
{
    return gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate) == GTAP_RUN_ABORT;
}

/* Scratch space a failed spawn hands back so that the spawning segment can finish. */
static __device__ unsigned char gtap_scratch_record[GTAP_MAX_TASK_DATA_SIZE + 16];

#endif /* GTAP_DEVICE_CUH */
