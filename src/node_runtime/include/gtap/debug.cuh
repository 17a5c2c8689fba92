/* gtap/debug.cuh - the debug tier (GTAP_DEBUG): the node runtime checks its own invariants on
 * the device, and a failed check stops the run with an error that names the rule.
 *
 * Turning it on: -DGTAP_DEBUG (GTAP_STRESS implies it, gtap/config.h). Without it every macro
 * below expands to ((void)0) and costs nothing; with it each check is a compare or two on the
 * path it guards, plus one atomic exchange on a task record per allocation and per free.
 * docs/debug.md lists the rules, the cost and the message; the CPU reference executor checks
 * the same rules in its own structures (refexec/gtap_refexec.h).
 *
 * A failed check calls gtap_raise (gtap/device.cuh) with GTAP_ERR_DEBUG_CHECK: the first error
 * of the run wins the record and every worker leaves at its next poll of the abort flag. The
 * record's value and limit pack the rule (an index into the table of gtap/debug_rules.h), the
 * task id and up to two values (GTAP_DEBUG_PACK); worker, lane, fn and line are filled as for
 * every error. The host prints it as one line (host/error.c):
 *   gtap: error: debug check failed: J3 (docs/join.md): a child's decrement would take its
 *   parent's join counter below zero (it is 0) (task 5 of fib, warp 3 lane 7)
 * A check that fails does not repair anything: the code it guards goes on, and the run ends
 * at the abort (a check is not a recovery path).
 *
 * Record ownership (P6, docs/pool.md) keeps one word of "free" mark per task record, in the
 * record's own header: cont_queue (taskwait builds) or the unused word (GTAP_ASSUME_NO_TASKWAIT
 * builds). A free record's header is otherwise dead - the free-list link lives in its first
 * word, never in these - and the spawn that takes a record rewrites the whole header (cont_queue
 * = 0), so no allocation is needed and a record's mark is GTAP_DEBUG_MARK_FREE exactly while it
 * is free. Nothing is zero-filled: the pool marks its fresh (never handed out this launch) ids
 * free as it reserves them, which is also what makes every launch start with a clean slate.
 * Every free of a record must pass GTAP_DEBUG_POOL_FREE once: pool.cuh does for the frees it
 * performs; a worker that returns an id to its own magazine itself (worker_thread) calls it.
 */
#ifndef GTAP_DEBUG_CUH
#define GTAP_DEBUG_CUH

#include "gtap/device.cuh"
#include "gtap/debug_rules.h"
#include "gtap_gen.h" /* GTAP_MAX_RESUME_STATES */

#if defined(GTAP_DEBUG)

#define GTAP_DEBUG_MARK_FREE 0xf4eef4eeu /* no queue index, no header_nt.unused value */
#define GTAP_DEBUG_MARK_LIVE 0u

/* The worker (warp, or block in block mode) and lane (thread of the block) of the caller. */
GTAP_DEV uint32_t gtap_debug_worker(void)
{
#if defined(GTAP_WORKER_IS_BLOCK)
    return blockIdx.x;
#else
    return (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
#endif
}

GTAP_DEV uint32_t gtap_debug_lane(void)
{
#if defined(GTAP_WORKER_IS_BLOCK)
    return threadIdx.x;
#else
    return threadIdx.x & 31u;
#endif
}

/* Records a failed check (rule: enum gtap_debug_rule; task: GTAP_DEBUG_NO_TASK for none; fn:
 * the task's function id or -1) and starts the abort. Any thread; out of line, so that the
 * checks themselves stay a compare and a branch. */
static __device__ __noinline__ void gtap_debug_fail(int rule, uint32_t task, int32_t observed, int32_t aux,
                                                    uint32_t worker, uint32_t lane, int fn, int line)
{
    gtap_raise(GTAP_ERR_DEBUG_CHECK, GTAP_DEBUG_PACK(observed, task), GTAP_DEBUG_PACK(aux, rule), (int)worker,
               (int)lane, fn, line);
}

GTAP_DEV void gtap_debug_fail_here(int rule, uint32_t task, int32_t observed, int32_t aux, int fn, int line)
{
    gtap_debug_fail(rule, task, observed, aux, gtap_debug_worker(), gtap_debug_lane(), fn, line);
}

/* The record id of a header (records are consecutive, record_stride bytes apart). */
GTAP_DEV uint32_t gtap_debug_id_of(const void *header)
{
    return (uint32_t)(((const unsigned char *)header - gtap_dev.records) / gtap_dev.record_stride);
}

/* The word of record id that holds its free mark (see the file comment). */
GTAP_DEV uint32_t *gtap_debug_mark(uint32_t id)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    return &((gtap_task_header_nt *)gtap_record(id))->unused;
#else
    return &gtap_header(id)->cont_queue;
#endif
}

/* J3: a child is about to decrement the join counter of task id (header h): it must be >= 1,
 * since the counter counts the children that have not decremented it yet (the children and
 * the parent agree by J2 on its armed value, so the relaxed read here cannot see an older one). */
GTAP_DEV void gtap_debug_check_join_counter(uint32_t id, const gtap_task_header *h, int line)
{
    const int32_t p = (int32_t)gtap_ld_relaxed_u32(&h->pending);
    if (p <= 0)
        gtap_debug_fail_here(GTAP_DBG_JOIN_NEGATIVE, id, p, 0, (int)(h->fn_state & 0xffffu), line);
}

/* J4: the task of header h becomes a zombie holding `holds` references: it is not one yet
 * (a zombie never runs, so it cannot finish again), and holds >= 1 (else none frees it). */
GTAP_DEV void gtap_debug_check_detach(const gtap_task_header *h, uint32_t holds, int line)
{
    const int fn = (int)(h->fn_state & 0xffffu);
    if ((h->fn_state >> 16) == GTAP_STATE_ZOMBIE)
        gtap_debug_fail_here(GTAP_DBG_ZOMBIE_TWICE, gtap_debug_id_of(h), 0, 0, fn, line);
    else if ((int32_t)holds <= 0)
        gtap_debug_fail_here(GTAP_DBG_ZOMBIE_EMPTY, gtap_debug_id_of(h), (int32_t)holds, 0, fn, line);
}

/* J6: task id, whose header word is fn_state, is about to run on (worker, lane): it is a
 * record (a pooled one or the root's), not a zombie, and its state is 0 or one a taskwait
 * stores (below GTAP_MAX_RESUME_STATES; the states above are the runtime's markers). P6: a
 * pooled record is not free (the root's is never pooled, so its mark word means nothing). */
GTAP_DEV void gtap_debug_check_runnable(uint32_t id, uint32_t fn_state, uint32_t worker, uint32_t lane, int line)
{
    const uint32_t state = fn_state >> 16;
    const int fn = (int)(fn_state & 0xffffu);
    if (id > gtap_dev.num_records)
        gtap_debug_fail(GTAP_DBG_RUN_BAD_ID, id, (int32_t)gtap_dev.num_records + 1, 0, worker, lane, -1, line);
    else if (state == GTAP_STATE_ZOMBIE)
        gtap_debug_fail(GTAP_DBG_RUN_ZOMBIE, id, 0, 0, worker, lane, fn, line);
    else if (state >= GTAP_MAX_RESUME_STATES)
        gtap_debug_fail(GTAP_DBG_RUN_STATE, id, (int32_t)state, GTAP_MAX_RESUME_STATES, worker, lane, fn, line);
    else if (id != gtap_root_id() && gtap_ld_relaxed_u32(gtap_debug_mark(id)) == GTAP_DEBUG_MARK_FREE)
        gtap_debug_fail(GTAP_DBG_RUN_FREED, id, 0, 0, worker, lane, fn, line);
}

/* D5: a queue's span (tail - head, bottom - top, commit - head: what it holds, counting
 * entries claimed but not yet moved past) lies in [0, capacity]. */
GTAP_DEV void gtap_debug_check_queue_span(int32_t span, uint32_t capacity, int line)
{
    if (span < 0 || (uint32_t)span > capacity)
        gtap_debug_fail_here(GTAP_DBG_QUEUE_SPAN, GTAP_DEBUG_NO_TASK, span, (int32_t)capacity, -1, line);
}

/* D6: an EPAQ queue index the runtime is about to use lies in [0, num_queues). */
GTAP_DEV void gtap_debug_check_queue_index(uint32_t q, int line)
{
    if (q >= (uint32_t)gtap_dev.num_queues)
        gtap_debug_fail_here(GTAP_DBG_QUEUE_INDEX, GTAP_DEBUG_NO_TASK, (int32_t)q, gtap_dev.num_queues, -1, line);
}

/* P6: record id is handed out by the pool: it must be free (marked so), and is live now. */
GTAP_DEV void gtap_debug_pool_alloc(uint32_t id, int line)
{
    if (atomicExch(gtap_debug_mark(id), GTAP_DEBUG_MARK_LIVE) != GTAP_DEBUG_MARK_FREE)
        gtap_debug_fail_here(GTAP_DBG_POOL_ALLOC_LIVE, id, 0, 0, -1, line);
}

/* P6: record id goes back to the pool: it must be a pooled record (not the root's) and live. */
GTAP_DEV void gtap_debug_pool_free(uint32_t id, int line)
{
    if (id >= gtap_dev.num_records)
        gtap_debug_fail_here(GTAP_DBG_POOL_BAD_ID, id, (int32_t)gtap_dev.num_records, 0, -1, line);
    else if (atomicExch(gtap_debug_mark(id), GTAP_DEBUG_MARK_FREE) == GTAP_DEBUG_MARK_FREE)
        gtap_debug_fail_here(GTAP_DBG_POOL_DOUBLE_FREE, id, 0, 0, -1, line);
}

/* ---- The checks: what callers write ------------------------------------------------------ */

/* J3, before a child decrements the join counter of its parent `id` (header pointer h). Any
 * thread. Called by gtap_join_child_done (join.cuh). */
#define GTAP_DEBUG_CHECK_JOIN_COUNTER(id, h) gtap_debug_check_join_counter((id), (h), __LINE__)

/* J4, before the task of header h becomes a zombie holding `holds` references. Any thread.
 * Called by gtap_join_detach (join.cuh). */
#define GTAP_DEBUG_CHECK_DETACH(h, holds) gtap_debug_check_detach((h), (holds), __LINE__)

/* J6, at dispatch: task id with header word fn_state is about to run on (worker, lane). The
 * thread that runs it (block mode: thread 0 is enough). Called by the worker loops. */
#define GTAP_DEBUG_CHECK_RUNNABLE(id, fn_state, worker, lane)                                      \
    gtap_debug_check_runnable((id), (fn_state), (worker), (lane), __LINE__)

/* D5: span = tail - head of a queue, as int32, in [0, capacity]. Where the caller's view of
 * both ends makes that exact: the queue's owner, or a thief that has just claimed from it
 * (each queue header says at which points). */
#define GTAP_DEBUG_CHECK_QUEUE_SPAN(span, capacity)                                                \
    gtap_debug_check_queue_span((int32_t)(span), (capacity), __LINE__)

/* D6: q (uint32) is a valid EPAQ queue index. Any thread. */
#define GTAP_DEBUG_CHECK_QUEUE_INDEX(q) gtap_debug_check_queue_index((uint32_t)(q), __LINE__)

/* P6: the pool marks fresh id free (pool.cuh, as it reserves never-used ids). */
#define GTAP_DEBUG_POOL_FRESH(id) gtap_st_relaxed_u32(gtap_debug_mark(id), GTAP_DEBUG_MARK_FREE)

/* P6: the pool hands id out (pool.cuh, gtap_mag_alloc). The allocating thread. */
#define GTAP_DEBUG_POOL_ALLOC(id) gtap_debug_pool_alloc((id), __LINE__)

/* P6: id is freed. Exactly once per free, by the freeing thread, before the id is reachable
 * by an allocation (pool.cuh's free functions, and a worker that returns an id to its own
 * magazine directly). */
#define GTAP_DEBUG_POOL_FREE(id) gtap_debug_pool_free((id), __LINE__)

#else /* !GTAP_DEBUG */

#define GTAP_DEBUG_CHECK_JOIN_COUNTER(id, h) ((void)0)
#define GTAP_DEBUG_CHECK_DETACH(h, holds) ((void)0)
#define GTAP_DEBUG_CHECK_RUNNABLE(id, fn_state, worker, lane) ((void)0)
#define GTAP_DEBUG_CHECK_QUEUE_SPAN(span, capacity) ((void)0)
#define GTAP_DEBUG_CHECK_QUEUE_INDEX(q) ((void)0)
#define GTAP_DEBUG_POOL_FRESH(id) ((void)0)
#define GTAP_DEBUG_POOL_ALLOC(id) ((void)0)
#define GTAP_DEBUG_POOL_FREE(id) ((void)0)

#endif /* GTAP_DEBUG */

#endif /* GTAP_DEBUG_CUH */
