/* gtap/task_common.cuh - the parts of the generated-code interface that both worker kinds
 * implement the same way. Included by worker_thread.cuh / worker_block.cuh after their
 * struct gtap_worker (which has the running task's fn_state). */
#ifndef GTAP_TASK_COMMON_CUH
#define GTAP_TASK_COMMON_CUH

#include "gtap/device.cuh"

GTAP_API void *gtap_task_data(gtap_worker *w, gtap_task t)
{
    (void)w;
    return gtap_record_data(t);
}

GTAP_API int gtap_task_state(gtap_worker *w, gtap_task t)
{
    (void)t;
    return (int)(w->fn_state >> 16);
}

/* Copies a return value to its destination with the widest accesses both allow (results
 * are small and their alignment is whatever the compiler gave the destination field). */
GTAP_DEV void gtap_copy_result(void *dst, const void *src, unsigned size)
{
    uintptr_t a = (uintptr_t)dst | (uintptr_t)src | size;
    if ((a & 7) == 0) {
        for (unsigned i = 0; i < size / 8; i++)
            ((uint64_t *)dst)[i] = ((const uint64_t *)src)[i];
    } else if ((a & 3) == 0) {
        for (unsigned i = 0; i < size / 4; i++)
            ((uint32_t *)dst)[i] = ((const uint32_t *)src)[i];
    } else {
        for (unsigned i = 0; i < size; i++)
            ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
    }
}

/* Writes a new child's header: function fn, state 0, no pending children. Plain stores: the
 * child is invisible to other workers until the publishing fence of the iteration, and runs
 * on this worker only after its next barrier (gtap_gen.h R1). */
GTAP_DEV void gtap_record_init(unsigned char *rec, unsigned fn, gtap_task parent, void *result_dst)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)parent;
    (void)result_dst;
    ((gtap_task_header_nt *)rec)->fn_state = fn;
#else
    *(uint4 *)rec = make_uint4(fn, parent, 0u, 0u); /* fn_state, parent, pending, cont_queue */
    ((gtap_task_header *)rec)->result_dst = (uint64_t)(uintptr_t)result_dst;
#endif
}

#endif /* GTAP_TASK_COMMON_CUH */
