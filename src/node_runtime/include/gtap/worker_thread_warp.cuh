/* gtap/worker_thread_warp.cuh - warp task functions in thread-level programs
 * (`#pragma gtap function warp`; docs/design.md "Warp tasks", rules W1-W3).
 *
 * A warp task is an ordinary task record whose function gtapcc marked as a warp function
 * (gtapgen_fn_is_warp). It travels through deques, steals, EPAQ queues and the distributed
 * layer like any task; only step 3 of the scheduler iteration (worker_thread.cuh) treats it
 * differently: the lane that holds it does not run it alone, the whole warp runs it after
 * the iteration's thread tasks (W1). Block mode's rules apply inside it: every lane that
 * reaches a spawn spawns its own child, taskwait is collective over the 32 lanes, the result
 * is the result lane's (gtap_gen.h).
 *
 * Everything here compiles to nothing in a program without warp functions (gtapcc defines
 * GTAPGEN_HAS_WARP_FUNCTIONS only when it emits one), so the scheduler of every other program
 * is the code it was.
 * Included by worker_thread.cuh after gtap_thread_push_local.
 */
#ifndef GTAP_WORKER_THREAD_WARP_CUH
#define GTAP_WORKER_THREAD_WARP_CUH

#include "gtap/debug.cuh"
#include "gtap/device.cuh"
#include "gtap/watch.cuh"

/* The lane of the calling thread in its warp: in a warp task, which of the 32 copies of the
 * task's locals it holds (GTAP_WARP_LANE) and which lane it is for warp collectives. */
static __device__ __forceinline__ unsigned gtap_warp_lane(void)
{
    return threadIdx.x & 31u;
}
#define GTAP_WARP_LANES 32
#define GTAP_WARP_LANE (threadIdx.x & 31u)

#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
#define GTAP_NO_WARP_RUNNER 32u

/* Step 3, before any segment runs, warp-collective (W1, W2): reads each held task's header
 * word into wk->fn_state and picks the lane whose warp task the warp runs this iteration
 * (the lowest). Every other warp task of the batch goes back to queue `cur` of the warp's
 * deque (where the batch came from), as a new entry that step 5 publishes: a batch of
 * several warp tasks - a steal takes up to 32 entries - would otherwise run them one after
 * another on this warp while other warps idle. Those lanes are marked suspended so that
 * step 4 leaves their tasks alone. Returns the runner lane, or GTAP_NO_WARP_RUNNER. */
GTAP_DEV uint32_t gtap_thread_warp_select(gtap_warp_sh *sh, gtap_worker *wk, uint32_t w, uint32_t lane,
                                          uint32_t ntask, uint32_t cur, uint32_t my_task)
{
    uint32_t is_warp = 0;
    if (lane < ntask) {
        wk->fn_state = gtap_header(my_task)->fn_state;
        is_warp = gtapgen_fn_is_warp(wk->fn_state & 0xffffu) != 0;
    }
    const uint32_t holders = __ballot_sync(GTAP_FULL_MASK, is_warp);
    if (holders == 0)
        return GTAP_NO_WARP_RUNNER;
    const uint32_t runner = (uint32_t)__ffs(holders) - 1;
    if (is_warp && lane != runner) {
        wk->suspended = 1; /* not run, not completed: it is back in the deque */
        gtap_thread_push_local(sh, w, cur, my_task);
    }
    return runner;
}

/* The lane holds a warp task: it runs no thread-level segment in step 3. */
GTAP_DEV int gtap_thread_holds_warp_task(const gtap_worker *wk, uint32_t lane, uint32_t ntask)
{
    return lane < ntask && gtapgen_fn_is_warp(wk->fn_state & 0xffffu);
}

/* Step 3, after the thread tasks' segments, warp-collective: the whole warp runs one segment
 * of the runner lane's warp task, then hands its outcome to the runner lane's worker so that
 * step 4 completes it like a thread task (W1): suspended if it ended in a join, else with the
 * children every lane spawned since its last join as detached children (J4). */
GTAP_DEV void gtap_thread_run_warp_task(gtap_thread_sh *ts, gtap_worker *wk, uint32_t w, uint32_t lane,
                                        uint32_t runner, uint32_t my_task, unsigned long long iteration)
{
    if (runner == GTAP_NO_WARP_RUNNER)
        return;
    __syncwarp(); /* the thread tasks' segments returned: the whole warp enters the warp task */
    const uint32_t t = __shfl_sync(GTAP_FULL_MASK, my_task, runner);
    gtap_worker ww = {ts, w, __shfl_sync(GTAP_FULL_MASK, wk->fn_state, runner), 0, 0, 0};
    if (lane == runner) {
        GTAP_DEBUG_CHECK_RUNNABLE(t, ww.fn_state, w, lane); /* J6, P6 */
        gtap_watch_begin(w * 32 + lane, ww.fn_state); /* WD3: the runner lane's word */
    }
    gtapgen_dispatch_warp(&ww, ww.fn_state & 0xffffu, t);
    /* W3: wait until every lane's segment returned, in shared memory rather than with a
     * __syncwarp: a lane still at a taskwait that others skipped (the run then aborts) waits
     * for the others' `returned` there, and a __syncwarp here would pair with its own. */
    gtap_warp_meet *meet = &ts->meet;
    atomicAdd(&meet->returned, 1u);
    while (*(volatile uint32_t *)&meet->returned < 32u)
        __nanosleep(32);
    __syncwarp(); /* every lane is here */
    if (lane == runner)
        gtap_watch_end(w * 32 + lane, iteration + 1);
    if (lane == 0)
        *meet = (gtap_warp_meet){0, 0, 0, 0};
    __syncwarp(); /* cleared before the next warp task's lanes count */
    /* A join is collective, so every lane agrees; after a divergent join (raised, the run
     * aborts) any suspended lane abandons the task. */
    const uint32_t suspended = __any_sync(GTAP_FULL_MASK, ww.suspended);
    const uint32_t detached = __reduce_add_sync(GTAP_FULL_MASK, suspended ? 0u : ww.nspawn);
    wk->pushed += ww.pushed;
    if (lane == runner) {
        wk->suspended = suspended;
        wk->nspawn = detached;
    }
}

/* Step 5 (gtap_thread_publish), warp-collective: of the `keep` newest entries of queue qk
 * (nk new entries in all) that the warp would run next, keeps the newest ones up to and
 * including the newest warp task, so that at most one warp task stays with the warp and
 * the others are published to thieves (W2). Returns the new keep. The records are this
 * iteration's children (written by the warp's lanes before step 4's __syncwarp) or tasks
 * this warp held or resumed, so their header words are visible. */
GTAP_DEV uint32_t gtap_thread_warp_keep(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t qk, uint32_t nk,
                                        uint32_t keep)
{
    uint32_t is_warp = 0;
    if (lane < keep) {
        const uint32_t id = gtap_ring_of(w, qk)[gtap_q_slot_pos(sh, qk, nk - keep + lane) & gtap_dev.ring_mask];
        is_warp = gtapgen_fn_is_warp(gtap_header(id)->fn_state & 0xffffu) != 0;
    }
    uint32_t m = __ballot_sync(GTAP_FULL_MASK, is_warp);
    if (__popc(m) <= 1)
        return keep;
    m &= ~(1u << (31 - __clz(m))); /* without the newest warp task: the newest of the others */
    return keep - 1u - (uint32_t)(31 - __clz(m));
}

/* ---- The generated-code interface (gtap_gen.h) ------------------------------------------ */

GTAP_API int gtap_warp_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)t; (void)resume_state; (void)queue;
    gtap_raise(GTAP_ERR_TASKWAIT_NO_JOIN, 0, 0, (int)w->warp, (int)gtap_lane_id(),
               (int)(w->fn_state & 0xffffu), __LINE__);
    w->suspended = 1;
    return 1;
#else
    /* W3: all 32 lanes reach it. They meet in shared memory, not with __activemask() (lanes
     * of one taskwait need not arrive converged: one may still be in a spawn's slow path) nor
     * with a bare __syncwarp (a lane that returned instead, or waits at another taskwait,
     * would hang it or pair with it): each lane counts itself in and waits until every lane
     * of the warp is either here or has returned from the segment (gtap_thread_run_warp_task).
     * A lane that is neither here nor returned is still on its way here. Fewer than 32 here,
     * or lanes at another taskwait, fail the run; the collectives below would hang or count
     * wrong, so the task is abandoned instead. */
    gtap_warp_meet *meet = &w->ts->meet;
    const uint32_t first = atomicCAS(&meet->state, 0u, (uint32_t)resume_state);
    if (first != 0u && first != (uint32_t)resume_state)
        atomicAdd(&meet->mismatch, 1u);
    atomicAdd(&meet->arrivals, 1u);
    uint32_t here;
    while ((here = *(volatile uint32_t *)&meet->arrivals) + *(volatile uint32_t *)&meet->returned < 32u)
        __nanosleep(32);
    if (here != 32u || *(volatile uint32_t *)&meet->mismatch != 0u) {
        if (first == 0u) { /* one report: the first lane to arrive */
            gtap_raise(GTAP_ERR_DIVERGENT_JOIN, here, 32, (int)w->warp, (int)gtap_lane_id(),
                       (int)(w->fn_state & 0xffffu), __LINE__);
            /* The task is abandoned, not freed: its children, spawned before this point, still
             * finish until the workers see the abort, and must not take a counter that was
             * never armed to zero and resume it. Published with them (J2). */
            gtap_st_relaxed_u32(&gtap_header(t)->pending, 1u << 30);
        }
        w->suspended = 1;
        return 1; /* the lanes here leave without collectives; the segment's end meets them */
    }
    __syncwarp(); /* all 32 lanes are here: every one has read the counts */
    if (gtap_lane_id() == 0) {
        meet->arrivals = 0;
        meet->state = 0;
    }
    __syncwarp(); /* cleared before a later taskwait of this segment counts */
    if ((unsigned)queue >= (unsigned)gtap_dev.num_queues) {
        if (gtap_lane_id() == 0)
            gtap_raise(GTAP_ERR_BAD_QUEUE, queue, gtap_dev.num_queues, (int)w->warp, 0,
                       (int)(w->fn_state & 0xffffu), __LINE__);
        queue = 0;
    }
    const uint32_t total = __reduce_add_sync(GTAP_FULL_MASK, w->nspawn);
    if (total == 0)
        return 0; /* R3: no lane spawned */
    if (gtap_lane_id() == 0) {
        gtap_task_header *h = gtap_header(t);
        h->fn_state = (w->fn_state & 0xffffu) | ((uint32_t)resume_state << 16);
        h->cont_queue = (uint32_t)queue;
        /* J2: published with the children, by the fence of this iteration's publish step
         * (SP2 is off in an iteration that runs a warp task). */
        gtap_st_relaxed_u32(&h->pending, total);
    }
    w->pushed += w->nspawn;
    w->nspawn = 0;
    w->suspended = 1;
    return 1;
#endif
}

#else /* no warp functions: the scheduler's warp steps are no-ops */
#define GTAP_NO_WARP_RUNNER 32u
#define gtap_thread_warp_select(sh, wk, w, lane, ntask, cur, my_task) GTAP_NO_WARP_RUNNER
#define gtap_thread_holds_warp_task(wk, lane, ntask) 0
#define gtap_thread_run_warp_task(ts, wk, w, lane, runner, my_task, iteration) ((void)0)
#endif /* GTAPGEN_HAS_WARP_FUNCTIONS */

#endif /* GTAP_WORKER_THREAD_WARP_CUH */
