/* gtap/join.cuh - the join rule (docs/join.md J3, J4), written once for thread workers, block
 * workers and the GPU node's agent: a child that finishes notifies its parent, and the child
 * that takes the parent's counter to zero either re-enqueues it or frees a finished (zombie)
 * parent. The caller chooses how to re-enqueue and how to free; the rule is here.
 */
#ifndef GTAP_JOIN_CUH
#define GTAP_JOIN_CUH

#include "gtap/device.cuh"
#include "gtap/debug.cuh"

#if !defined(GTAP_ASSUME_NO_TASKWAIT)

/* J3: a child of `parent` has finished and its result (J1) is stored. Decrements the
 * parent's join counter with acq_rel: release orders the caller's result store before the
 * decrement; acquire lets the child that reaches zero see every sibling's result, so the
 * parent it resumes reads them all. The child that reaches zero either
 *   - resumes the parent: returns 1 with *cont_queue_p set to the queue the parent's
 *     taskwait named (gtap_task_join); the caller re-enqueues it; or
 *   - finds a zombie (J4): sets *free_p = parent for the caller to free, unless the parent is
 *     the root, whose record is reserved; returns 0.
 * Otherwise it returns 0 and writes nothing. Any thread; device scope. */
GTAP_DEV int gtap_join_child_done(uint32_t parent, uint32_t *cont_queue_p, uint32_t *free_p)
{
    gtap_task_header *ph = gtap_header(parent);
    GTAP_DEBUG_CHECK_JOIN_COUNTER(parent, ph);
    if (gtap_atomic_add_acq_rel_i32(&ph->pending, -1) != 1)
        return 0;
    if ((ph->fn_state >> 16) == GTAP_STATE_ZOMBIE) {
        if (parent != gtap_root_id())
            *free_p = parent;
        return 0;
    }
    *cont_queue_p = ph->cont_queue;
    return 1;
}

/* J4: task h of function fn returns with `holds` references outstanding (its detached
 * children, plus any the caller keeps); it becomes a zombie that the last of them frees.
 * Plain stores by the finishing task's thread: the children are not yet published, and the
 * publishing fence orders these stores before them (J2). */
GTAP_DEV void gtap_join_detach(gtap_task_header *h, uint32_t fn, uint32_t holds)
{
    GTAP_DEBUG_CHECK_DETACH(h, holds);
    h->fn_state = (fn & 0xffffu) | ((uint32_t)GTAP_STATE_ZOMBIE << 16);
    gtap_st_relaxed_u32(&h->pending, holds);
}

#endif /* !GTAP_ASSUME_NO_TASKWAIT */

#endif /* GTAP_JOIN_CUH */
