/* gtap/worker_thread.cuh - thread-level workers: every lane runs one task, a warp schedules
 * up to 32 at a time. Implements the generated-code interface (gtap_gen.h) and the
 * persistent scheduler loop entered through `#pragma gtap entry`.
 *
 * One scheduler iteration of a warp (docs/design.md, "thread mode"; worker_thread_steps.cuh):
 *   1. fill: tasks kept from the last iteration, topped up from the warp's own deque, or a
 *      batch of resumed tasks (SP1);
 *   2. if none: go idle and steal (probing several victims at once), or leave on termination;
 *   3. run one segment of each task (lane i runs task i);
 *   4. complete: finished tasks notify their parents (J3); the last child re-enqueues its
 *      parent;
 *   5. publish: keep up to 32 of the new tasks (newest of the fullest queue) for the next
 *      iteration and publish the rest to thieves.
 * The policies SP1-SP4 (policies.cuh, docs/performance.md) hook into steps 1, 3, 4 and 5.
 * Allocation (spawns, step 3) and release (step 4) of record ids never overlap.
 */
#ifndef GTAP_WORKER_THREAD_CUH
#define GTAP_WORKER_THREAD_CUH

#include "gtap/device.cuh"
#include "gtap/entry.cuh"
#include "gtap/worker_shared.cuh"
#include "gtap/profile.cuh"
#include "gtap/sched.cuh"
#include "gtap/watch.cuh"
#if defined(GTAP_DISTRIBUTED) && (defined(GTAP_SCHED_GLOBAL_QUEUE) || defined(GTAP_SCHED_CHASELEV))
#error "distributed builds (GTAP_DISTRIBUTED) use the work-stealing scheduler, not the GQ / Chase-Lev ablations"
#endif
#if defined(GTAP_SCHED_GLOBAL_QUEUE)
#include "gtap/queue_gq.cuh"
#elif defined(GTAP_SCHED_CHASELEV)
#include "gtap/deque_cl_warp.cuh"
#else
#include "gtap/deque_ws.cuh"
#endif
#include "gtap/worker_thread_steps.cuh"
#include "gtap/worker_thread_warp.cuh"

#define GTAP_LANES 1
#define GTAP_LANE 0

#if defined(GTAP_DISTRIBUTED)
#include "gtap/worker_thread_node.cuh"
/* The agent warp's loop: src/inter_gpu/gpu/gpu_node_agent.cuh (included by gtap_thread.cuh). */
static __device__ __noinline__ void gtap_gnode_agent(gtap_node_sh *sh, uint32_t w, uint32_t nworkers,
                                                     uint32_t lane, struct gtap_sched_rng *rng);
#endif

#include "gtap/task_common.cuh"

/* ---- The generated-code interface (gtap_gen.h) ----------------------------------------- */

GTAP_API void *gtap_task_spawn(gtap_worker *w, gtap_task parent, unsigned fn, unsigned data_size,
                               int queue, void *result_dst)
{
    gtap_warp_sh *sh = &w->ts->q;
    if ((unsigned)queue >= (unsigned)gtap_dev.num_queues) {
        gtap_raise(GTAP_ERR_BAD_QUEUE, queue, gtap_dev.num_queues, (int)w->warp, (int)gtap_lane_id(),
                   (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    if (data_size > gtap_dev.data_capacity) {
        gtap_raise(GTAP_ERR_DATA_TOO_LARGE, data_size, gtap_dev.data_capacity, (int)w->warp,
                   (int)gtap_lane_id(), (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    if (w->nspawn >= gtap_dev.max_child_tasks) {
        gtap_raise(GTAP_ERR_TOO_MANY_CHILDREN, (long long)w->nspawn + 1, gtap_dev.max_child_tasks,
                   (int)w->warp, (int)gtap_lane_id(), (int)(w->fn_state & 0xffffu), __LINE__);
        return gtap_scratch_record;
    }
    uint32_t id = gtap_mag_alloc(&sh->mag, w->warp, &sh->pool_slow);
    if (id == GTAP_NO_TASK) {
        gtap_raise(GTAP_ERR_POOL_EXHAUSTED, gtap_dev.records_per_worker, gtap_dev.records_per_worker, (int)w->warp,
                   (int)gtap_lane_id(), (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    unsigned char *rec = gtap_record(id);
    gtap_record_init(rec, fn, parent, result_dst);
    if (!gtap_thread_push_local(sh, w->warp, (uint32_t)queue, id))
        return gtap_scratch_record;
    w->nspawn++;
    return rec + gtap_dev.data_offset;
}

GTAP_API int gtap_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)t; (void)resume_state; (void)queue;
    gtap_raise(GTAP_ERR_TASKWAIT_NO_JOIN, 0, 0, (int)w->warp, (int)gtap_lane_id(),
               (int)(w->fn_state & 0xffffu), __LINE__);
    w->suspended = 1; /* the task is abandoned; the run is aborting */
    return 1;
#else
    if ((unsigned)queue >= (unsigned)gtap_dev.num_queues) {
        gtap_raise(GTAP_ERR_BAD_QUEUE, queue, gtap_dev.num_queues, (int)w->warp, (int)gtap_lane_id(),
                   (int)(w->fn_state & 0xffffu), __LINE__);
        queue = 0;
    }
    if (w->nspawn == 0)
        return 0; /* R3: nothing to wait for */
    gtap_task_header *h = gtap_header(t);
    h->fn_state = (w->fn_state & 0xffffu) | ((uint32_t)resume_state << 16);
    h->cont_queue = (uint32_t)queue;
    /* J2: the join counter is published with the children: they become visible only after
     * the fence of this iteration's publish step, or of SP2's gtap_early_finish, which runs
     * after this segment returned (or run on this warp after a __syncwarp). */
    gtap_st_relaxed_u32(&h->pending, w->nspawn);
    w->pushed += w->nspawn;
    w->nspawn = 0;
    w->suspended = 1;
    return 1;
#endif
}

GTAP_API void gtap_task_return(gtap_worker *w, gtap_task t, const void *value, unsigned size)
{
    (void)w;
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)t; (void)value; (void)size;
#else
    void *dst = (void *)(uintptr_t)gtap_header(t)->result_dst;
    if (dst)
        gtap_copy_result(dst, value, size);
#endif
}

GTAP_API void gtap_task_bad_state(gtap_worker *w, gtap_task t)
{
    gtap_raise(GTAP_ERR_BAD_STATE, (long long)(w->fn_state >> 16), (long long)t, (int)w->warp,
               (int)gtap_lane_id(), (int)(w->fn_state & 0xffffu), __LINE__);
}

/* ---- The persistent loop ---------------------------------------------------------------- */

#if defined(GTAP_DISTRIBUTED)
/* A node's agent warp and the passive warps on its SM (node_hooks.cuh) run no tasks: the
 * agent runs its own loop, the others wait for the end. Returns 1 for those warps, after they
 * left the run; 0 for the workers, which then run gtap_thread_scheduler<true>. A call of its
 * own, made before the scheduler: made inside it, the call to the agent kept the scheduler's
 * values live across a call, and under the distributed build's 128-register cap ptxas
 * spilled some of them in the task loop (binary tree 10-12% slower on one rank than without
 * the distributed layer). Warp-collective. */
static __device__ __noinline__ int gtap_thread_node_warp(void)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t wib = threadIdx.x >> 5;
    const uint32_t w = blockIdx.x * (blockDim.x >> 5) + wib;
    const uint32_t nworkers = gridDim.x * (blockDim.x >> 5);
    if (w != GTAP_AGENT_WORKER && !gtap_nh_passive(w, lane))
        return 0;
    gtap_thread_sh *ts = gtap_thread_shared(wib);
    if (gtap_sched_launch_check(nworkers, ts != NULL, blockDim.x, w, lane))
        return 1;
    if (lane == 0) {
        gtap_thread_warp_init(ts, w);
        *(volatile unsigned long long *)&gtap_dev.stats[w].tasks = 0; /* summed by the agent */
    }
    __syncwarp(); /* the warp's state is set before any lane reads it */
    gtap_sched_rng rng = gtap_sched_rng_init(w, lane);
    gtap_stats_local st = {};
    if (w == GTAP_AGENT_WORKER) {
        gtap_gnode_agent(&ts->q, w, nworkers, lane, &rng);
    } else {
        gtap_nh_sit_out(lane);
    }
    gtap_sched_exit(w, nworkers, lane, &st);
    return 1;
}
#endif

/* kNode: the run serves an attached distributed node (GTAP_DISTRIBUTED builds; node_hooks.cuh).
 * A distributed build compiles the scheduler twice and gtap_entry_run picks one per launch,
 * so that a program that never attaches a node runs the node runtime's own loop (the code of
 * a build without the distributed layer) and the hooks cost nothing in single-GPU mode. */
template <bool kNode>
static __device__ __noinline__ void gtap_thread_scheduler(void)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t wib = threadIdx.x >> 5;
    const uint32_t w = blockIdx.x * (blockDim.x >> 5) + wib;
    const uint32_t nworkers = gridDim.x * (blockDim.x >> 5);
    gtap_thread_sh *ts = gtap_thread_shared(wib);
    if (gtap_sched_launch_check(nworkers, ts != NULL, blockDim.x, w, lane))
        return;
    gtap_warp_sh *sh = &ts->q;
    gtap_warp_policies *pol = &ts->pol;
    if (lane == 0)
        gtap_thread_warp_init(ts, w);
    __syncwarp(); /* the warp's state is set before any lane reads it */
    gtap_sched_rng rng = gtap_sched_rng_init(w, lane);
    gtap_stats_local st = {};
    GTAP_PROFILE_DECL;
    uint32_t my_task = GTAP_NO_TASK, ntask = 0, cur = 0, active = 0;
    if (w == 0) { /* the master warp holds the root; ctl->active starts at 1 for it */
        active = 1;
#if defined(GTAP_DISTRIBUTED)
        if (!kNode || gtap_nh_holds_root()) /* other ranks: go idle at once, the work comes by steals */
#endif
        {
            ntask = 1;
            if (lane == 0) {
                my_task = gtap_root_id();
                gtap_spread_mark(&pol->spread, 1);
            }
        }
    }
    gtap_watch_enter(w * 32 + lane); /* WD3 */
    if (lane == 0) { /* WD1, and this launch's progress counter (WD2; a node's agent sums them) */
        gtap_watch_worker(w, active ? GTAP_WATCH_BUSY : GTAP_WATCH_IDLE);
        gtap_watch_progress(w, 0);
    }

    for (;;) {
        /* Steps 1-2: fill the batch; with nothing to run, go idle and steal, or leave. */
        if (ntask < 32)
            ntask = gtap_thread_fill<kNode>(ts, w, nworkers, lane, ntask, cur, &cur, &my_task, &rng, &st);
        if (ntask == 0 &&
            (ntask = gtap_thread_idle<kNode>(ts, w, nworkers, lane, &active, &rng, &cur, &my_task, &st)) == 0)
            break; /* terminated or aborting */
        const int32_t mag_before = gtap_thread_begin_iteration(sh, w, lane);
        GTAP_PROFILE_BEGIN(lane == 0);

        /* Step 3: run one segment per lane; with SP2, a lane completes its task at once. A warp
         * task runs on the whole warp after the others (W1; a no-op without warp functions),
         * and an iteration that runs one publishes nothing early. */
        gtap_worker wk = {ts, w, 0, 0, 0, 0};
        uint32_t f1 = GTAP_NO_TASK, f2 = GTAP_NO_TASK;
        const uint32_t timing = pol->spread.timing; /* read before SP3 rewrites it in step 5 */
        const uint32_t warp_runner = gtap_thread_warp_select(sh, &wk, w, lane, ntask, cur, my_task);
        const uint32_t early = warp_runner == GTAP_NO_WARP_RUNNER ? gtap_early_on(&pol->early, ntask) : 0;
        if (lane < ntask && !gtap_thread_holds_warp_task(&wk, lane, ntask)) {
#if !defined(GTAPGEN_HAS_WARP_FUNCTIONS) /* else gtap_thread_warp_select has read it */
            wk.fn_state = gtap_header(my_task)->fn_state;
#endif
            GTAP_DEBUG_CHECK_RUNNABLE(my_task, wk.fn_state, w, lane); /* J6, P6 */
            gtap_watch_begin(w * 32 + lane, wk.fn_state); /* WD3 */
            gtapgen_dispatch(&wk, wk.fn_state & 0xffffu, my_task);
            gtap_watch_end(w * 32 + lane, st.batches + 1);
            if (early) {
                if (!wk.suspended)
                    gtap_thread_complete<kNode>(&wk, my_task, &f1, &f2);
                gtap_early_finish(&pol->early, sh, w, lane, ntask, wk.pushed);
            }
        }
        gtap_thread_run_warp_task(ts, &wk, w, lane, warp_runner, my_task, st.batches);
        __syncwarp(); /* every segment returned: children may now be completed or kept */

        /* Step 4: completion (J3, J4); records released. */
        gtap_thread_complete_step<kNode>(ts, &wk, lane, ntask, my_task, early, mag_before, f1, f2);

        /* Step 5: keep up to 32 new tasks and publish the rest; with SP3, publish them all and
         * let idle warps take them. */
        const uint32_t spreading =
            gtap_spread_decide(&pol->spread, &pol->resume, nworkers, lane, timing, (uint32_t)st.batches);
        const uint32_t executed = ntask;
        st.batches++;
        st.tasks += executed;
        my_task = GTAP_NO_TASK;
        const uint32_t published_early = gtap_early_published(&pol->early, early);
        ntask = gtap_thread_publish(ts, w, lane, &cur, &my_task, spreading, published_early);
        gtap_early_reset(&pol->early, lane, early);
        GTAP_PROFILE_END(lane == 0, w, executed);
        if (spreading) {
            if (lane == 0)
                gtap_spread_wait_for_thieves(&pol->spread, w);
            __syncwarp(); /* the wait is over before the next fill pops what is left */
        }
        gtap_policies_look_at_load(pol, nworkers, lane, st.batches);
        if (gtap_thread_poll_abort<kNode>(w, lane, &st))
            break;
    }
    st.pool_slow = sh->pool_slow;
    st.records_used = gtap_pool_used(w);
    gtap_policies_stats(pol, &st);
    if (lane == 0) {
        gtap_spread_mark(&pol->spread, 0); /* an aborted run may leave a busy warp; reset clears it too */
        gtap_watch_worker(w, GTAP_WATCH_LEFT); /* WD1 */
    }
    gtap_sched_exit(w, nworkers, lane, &st);
    GTAP_PROFILE_FLUSH(lane == 0, w);
}

/* ---- #pragma gtap entry (gtap_entry_begin / gtap_entry_result: gtap/entry.cuh) -------- */

GTAP_API void gtap_entry_run(void)
{
    /* The master lane that wrote the root's arguments runs it. */
#if defined(GTAP_DISTRIBUTED)
    if (gtap_nh_attached()) {
        if (!gtap_thread_node_warp())
            gtap_thread_scheduler<true>();
        return;
    }
#endif
    gtap_thread_scheduler<false>();
}

#endif /* GTAP_WORKER_THREAD_CUH */
