/* gtap/worker_thread_steps.cuh - the steps of thread mode's scheduler iteration (the loop is
 * gtap_thread_scheduler in worker_thread.cuh) and the per-warp state they work on. Included by
 * worker_thread.cuh after the warp's queue header (gtap_q_*). Policy hooks (SP1-SP4,
 * policies.cuh) are called where a step consults a policy.
 */
#ifndef GTAP_WORKER_THREAD_STEPS_CUH
#define GTAP_WORKER_THREAD_STEPS_CUH

#include "gtap/debug.cuh"
#include "gtap/device.cuh"
#include "gtap/join.cuh"
#include "gtap/policies.cuh"
#include "gtap/sched.cuh"
#include "gtap/watch.cuh"
#include "gtap/worker_shared.cuh"

#define GTAP_FULL_MASK 0xffffffffu

/* A warp's scheduler state in shared memory; only the owning warp touches it. Not padded to
 * 16 bytes: that padding cost fib(30-34) 1.3-1.5% on an H200 (docs/performance.md). */
#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
/* Where the lanes of a warp task meet (worker_thread_warp.cuh, W3): counters in shared memory,
 * zero outside a warp task's segment. */
typedef struct gtap_warp_meet {
    uint32_t arrivals; /* lanes at a taskwait */
    uint32_t state;    /* the resume state of the first of them */
    uint32_t mismatch; /* lanes that arrived at another taskwait */
    uint32_t returned; /* lanes whose segment returned */
} gtap_warp_meet;
#endif

typedef struct gtap_thread_sh {
    gtap_warp_sh q;         /* the queue side: deque owner end, new entries, magazine */
    gtap_warp_policies pol; /* SP1-SP4 */
#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
    gtap_warp_meet meet;    /* warp tasks only: a program without them keeps this layout */
#endif
} gtap_thread_sh;

/* One lane's view of the task it runs (the generated code's gtap_worker). */
struct gtap_worker {
    gtap_thread_sh *ts;    /* the warp's scheduler state */
    uint32_t warp;         /* global warp index */
    uint32_t fn_state;     /* header word of the running task */
    uint32_t nspawn;       /* children spawned since the task's last join */
    uint32_t suspended;    /* the segment ended in a join */
    uint32_t pushed;       /* entries this lane added to the deque this iteration (counted at
                            * the segment's join or end, not per spawn: SP2 publishes them) */
};

#if defined(GTAP_DISTRIBUTED)
#include "gtap/node_hooks.cuh"
#endif

/* ---- Spawning and resuming -------------------------------------------------------------- */

/* Appends task id to queue q of the warp's deque as a new (not yet published) entry.
 * Any lane, during steps 3-4. Returns 0 after raising GTAP_ERR_DEQUE_FULL. */
GTAP_DEV int gtap_thread_push_local(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t id)
{
    uint32_t off = (uint32_t)atomicAdd(&sh->spawned[q], 1);
    uint32_t pos = gtap_q_slot_pos(sh, q, off);
    if (!gtap_q_room(sh, w, q, pos)) {
        gtap_raise(GTAP_ERR_DEQUE_FULL, (long long)(pos - sh->head_cache[q] + 1),
                   (long long)gtap_dev.ring_capacity, (int)w, (int)gtap_lane_id(), -1, __LINE__);
        /* Position pos stays unwritten but is counted in spawned[q]: publishing the count
         * would hand thieves a garbage id (seen as an illegal address on the H200 before the
         * abort was noticed). The run is aborting; the publish step drops everything. */
        sh->failed_push = 1;
        return 0;
    }
    gtap_ring_of(w, q)[pos & gtap_dev.ring_mask] = id;
    return 1;
}

/* Step 4 (with SP2, step 3), any lane: parent id is ready to resume (J3). SP1 may park it in
 * the warp's resume buffer; else the deque takes it. Returns 1 if the deque took it. */
GTAP_DEV uint32_t gtap_thread_resume(gtap_thread_sh *ts, uint32_t w, uint32_t queue, uint32_t id)
{
    if (gtap_resume_park(&ts->pol.resume, id))
        return 0;
    return (uint32_t)gtap_thread_push_local(&ts->q, w, queue, id);
}

/* ---- Step 4: completion ------------------------------------------------------------------- */

/* Step 4 (with SP2, step 3) for one lane whose task's segment returned without a join.
 * Returns up to two record ids to free (the task itself; a zombie parent whose last child this
 * was). kNode: the scheduler serves an attached distributed node (gtap_thread_scheduler). */
template <bool kNode>
GTAP_DEV void gtap_thread_complete(gtap_worker *wk, uint32_t id, uint32_t *free1, uint32_t *free2)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)wk;
    if (id != gtap_root_id())
        *free1 = id;
#if defined(GTAP_DISTRIBUTED)
    else if (kNode)
        gtap_nh_root_finished();
#endif
#else
    gtap_task_header *h = gtap_header(id);
    uint32_t parent = h->parent;
    int zombie = 0;
    if (wk->nspawn) {
        /* Finished with detached children (J4): the record lives until they finish. */
        zombie = 1;
        wk->pushed += wk->nspawn;
        uint32_t holds = wk->nspawn;
#if defined(GTAP_DISTRIBUTED)
        if (kNode)
            holds = gtap_nh_detach_holds(parent, holds);
#endif
        gtap_join_detach(h, wk->fn_state, holds);
    }
#if defined(GTAP_DISTRIBUTED)
    if (kNode && gtap_nh_task_completed(id, parent))
        return; /* imported: the agent frees the record */
#endif
    if (parent != GTAP_NO_TASK) {
        uint32_t cont_queue;
        if (gtap_join_child_done(parent, &cont_queue, free2))
            wk->pushed += gtap_thread_resume(wk->ts, wk->warp, cont_queue, parent);
    }
    if (!zombie && id != gtap_root_id())
        *free1 = id;
#endif
}

/* Step 4, warp-synchronous: frees up to 64 ids; ours go to the magazine, others' to their
 * owners, one chain per owner. */
GTAP_DEV void gtap_thread_free_ids(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t f1, uint32_t f2)
{
    const int remote1 = f1 != GTAP_NO_TASK && gtap_pool_owner(f1) != w;
    const int remote2 = f2 != GTAP_NO_TASK && gtap_pool_owner(f2) != w;
    gtap_pool_free_remote_warp(lane, remote1 ? f1 : GTAP_NO_TASK);
    gtap_pool_free_remote_warp(lane, remote2 ? f2 : GTAP_NO_TASK);
    if (remote1)
        f1 = GTAP_NO_TASK;
    if (remote2)
        f2 = GTAP_NO_TASK;
    if (f1 != GTAP_NO_TASK)
        GTAP_DEBUG_POOL_FREE(f1); /* P6: ids that go to our own magazine (pool.cuh checks the rest) */
    if (f2 != GTAP_NO_TASK)
        GTAP_DEBUG_POOL_FREE(f2);
    uint32_t m1 = __ballot_sync(GTAP_FULL_MASK, f1 != GTAP_NO_TASK);
    uint32_t m2 = __ballot_sync(GTAP_FULL_MASK, f2 != GTAP_NO_TASK);
    if ((m1 | m2) == 0)
        return;
    int32_t base = sh->mag.n; /* >= 0: clamped before the completion step */
    uint32_t lt = gtap_lanemask_lt();
    if (f1 != GTAP_NO_TASK)
        sh->mag.ids[base + __popc(m1 & lt)] = f1;
    if (f2 != GTAP_NO_TASK)
        sh->mag.ids[base + __popc(m1) + __popc(m2 & lt)] = f2;
    __syncwarp();
    if (lane == 0)
        sh->mag.n = base + __popc(m1) + __popc(m2);
}

/* Step 4, warp-collective, after every segment of the iteration returned: lanes whose task
 * finished complete it (unless SP2 did in step 3) and the warp frees what they release.
 * mag_before: the magazine's size before step 3 (lane 0 uses it). */
template <bool kNode>
GTAP_DEV void gtap_thread_complete_step(gtap_thread_sh *ts, gtap_worker *wk, uint32_t lane, uint32_t ntask,
                                        uint32_t my_task, uint32_t early, int32_t mag_before, uint32_t f1,
                                        uint32_t f2)
{
    gtap_warp_sh *sh = &ts->q;
    if (lane == 0) {
        gtap_mag_note_demand(&sh->mag, mag_before);
        if (sh->mag.n < 0)
            sh->mag.n = 0; /* failed fast-path allocations of step 3 */
    }
    __syncwarp(); /* the clamped magazine size before any lane frees into it */
    if (lane < ntask && !wk->suspended && !early)
        gtap_thread_complete<kNode>(wk, my_task, &f1, &f2);
    gtap_thread_free_ids(sh, wk->warp, lane, f1, f2);
    __syncwarp(); /* completions and frees done before step 5 reads spawned[] and the magazine */
}

/* ---- Steps 1 and 2: filling the batch, stealing ------------------------------------------ */

/* Steps 1 and 2: one round of probing. Lanes [0, GTAP_PROBE_LANES) probe one random
 * (victim, queue) pair each and the warp claims from the fullest. Returns the number of
 * stolen tasks (held by lanes [0, k)); *seen says whether any probe saw tasks. An idle warp's
 * claim is announced where the queue needs it (step 2); in step 1 (SP4) only the
 * work-stealing deque is used, whose claims an active thief covers (GTAP_Q_CLAIM_COVERED). */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_steal_round(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane,
                                          gtap_sched_rng *rng, uint32_t *cur, uint32_t *my_task,
                                          gtap_stats_local *st, uint32_t *seen)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    uint32_t victim = w, q = 0, c = 0;
    if (nworkers > 1 && lane < GTAP_PROBE_LANES) {
        victim = gtap_sched_probe_victim(w, nworkers, lane, rng);
        q = nq > 1 ? gtap_sched_rand(rng) % nq : 0;
        c = gtap_q_probe(victim, q);
#if defined(GTAP_DISTRIBUTED)
        if (kNode && c && gtap_nh_reserved(victim))
            c = 0;
#endif
    }
    const uint32_t best = __reduce_max_sync(GTAP_FULL_MASK, c);
    *seen = best != 0;
    if (best == 0)
        return 0;
    const uint32_t leader = gtap_sched_pick_victim_lane(c, best, rng);
    victim = __shfl_sync(GTAP_FULL_MASK, victim, leader);
    q = __shfl_sync(GTAP_FULL_MASK, q, leader);
    if (lane == 0) {
        if (!GTAP_Q_CLAIM_COVERED)
            gtap_sched_announce_claim();
        st->steal_attempts++;
    }
    const uint32_t k = gtap_q_steal_warp(sh, victim, q, 32, 0, lane, my_task);
    if (k) {
        if (lane == 0) {
            st->steals++;
            gtap_mag_expect_unknown(&sh->mag);
        }
        *cur = q;
    } else if (lane == 0 && !GTAP_Q_CLAIM_COVERED) {
        gtap_sched_claim_failed<kNode>();
    }
    return k;
}

/* Step 1: tops the warp's batch up to 32 from its own deque. Queue `prefer` first (the
 * queue of the tasks in hand, so that EPAQ batches stay homogeneous); an empty batch tries
 * every queue round-robin from prefer. Returns the new batch size; *cur gets the queue.
 * SP1: resumed tasks run as a batch of their own: 32 of them when ready (step 5 then kept
 * nothing), all of them once the warp stops holding them back, else only when the deque is
 * empty too. Such a batch has the like tasks the lanes need: a binary tree's inner node
 * spawns and suspends at once while a leaf or a resumed node does the work, and in one batch
 * the spawning lanes would idle through the work. The spawned tasks go first meanwhile; they
 * are alike too, the children of one batch being one generation of the same functions. SP4:
 * with the deque empty, a partial batch of resumed tasks may wait for one probe round. */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_fill(gtap_thread_sh *ts, uint32_t w, uint32_t nworkers, uint32_t lane, uint32_t ntask,
                                   uint32_t prefer, uint32_t *cur, uint32_t *my_task, gtap_sched_rng *rng,
                                   gtap_stats_local *st)
{
    gtap_warp_sh *sh = &ts->q;
    gtap_warp_policies *pol = &ts->pol;
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    if (ntask > 0) {
        ntask += gtap_q_pop_warp(sh, w, prefer, 32 - ntask, ntask, lane, my_task);
        *cur = prefer;
        return ntask;
    }
    if (gtap_resume_first(&pol->resume)) /* read by every lane after the __syncwarp ending step 5 */
        return gtap_resume_take(&pol->resume, lane, my_task);
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t q = (prefer + i) % nq;
        uint32_t k = gtap_q_pop_warp(sh, w, q, 32, 0, lane, my_task);
        if (k) {
            *cur = q;
            return k;
        }
    }
    if (gtap_topup_wanted(&pol->resume, &pol->spread)) {
        uint32_t seen;
        uint32_t k = gtap_thread_steal_round<kNode>(sh, w, nworkers, lane, rng, cur, my_task, st, &seen);
        if (k) {
            if (lane == 0)
                gtap_topup_took(&pol->topup);
            return k;
        }
    }
    return gtap_resume_take(&pol->resume, lane, my_task);
}

/* Step 2: the idle loop. Each round the probing lanes probe random (victim, queue) pairs at
 * once and the warp claims from the fullest; empty rounds back off exponentially. Returns
 * the number of stolen tasks (held by lanes [0, k)), or 0 when the run has ended. */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_steal(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane,
                                    gtap_sched_rng *rng, uint32_t *cur, uint32_t *my_task,
                                    gtap_stats_local *st)
{
    uint32_t sleep_ns = GTAP_IDLE_SLEEP_MIN_NS;
    for (;;) {
        uint32_t state = 0;
        if (lane == 0)
            state = gtap_sched_run_state();
        if (__shfl_sync(GTAP_FULL_MASK, state, 0) != GTAP_RUN)
            return 0;
        uint32_t seen;
        const uint32_t k = gtap_thread_steal_round<kNode>(sh, w, nworkers, lane, rng, cur, my_task, st, &seen);
        if (k)
            return k;
        if (!seen) {
            __nanosleep(sleep_ns);
            sleep_ns = sleep_ns * 2 < GTAP_IDLE_SLEEP_MAX_NS ? sleep_ns * 2 : GTAP_IDLE_SLEEP_MAX_NS;
        }
    }
}

/* Steps 1-2 with nothing to run, warp-collective: the warp goes idle (T2: no task in hand,
 * its deques empty) and steals. Returns the number of stolen tasks (lanes [0, k) hold them),
 * or 0 when the run has ended or aborts. *active: the warp counts in ctl->active. */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_idle(gtap_thread_sh *ts, uint32_t w, uint32_t nworkers, uint32_t lane, uint32_t *active,
                                   gtap_sched_rng *rng, uint32_t *cur, uint32_t *my_task, gtap_stats_local *st)
{
    if (*active) {
        if (lane == 0) {
            gtap_q_quiesce(w);
            gtap_spread_mark(&ts->pol.spread, 0);
            gtap_watch_worker(w, GTAP_WATCH_IDLE); /* WD1 */
        }
        gtap_sched_go_idle<kNode>(lane);
        *active = 0;
    }
    const uint32_t k = gtap_thread_steal<kNode>(&ts->q, w, nworkers, lane, rng, cur, my_task, st);
    if (k) {
        *active = 1;
        if (lane == 0) {
            gtap_spread_mark(&ts->pol.spread, 1);
            gtap_watch_worker(w, GTAP_WATCH_BUSY);
        }
    }
    return k;
}

/* ---- Step 5: publishing -------------------------------------------------------------------- */

/* After a failed push (gtap_thread_push_local): forgets this iteration's new entries, which
 * are never published; the run is aborting. Warp-collective. */
GTAP_DEV void gtap_thread_drop_spawned(gtap_warp_sh *sh, uint32_t lane)
{
    __syncwarp();
    if (lane == 0)
        for (int q = 0; q < gtap_dev.num_queues; q++)
            sh->spawned[q] = 0;
    __syncwarp();
}

/* Publishes this iteration's new entries of every queue but the `keep` newest of queue qk
 * (the caller runs those next) and forgets the counts. Warp-collective; the caller has
 * fenced (release) if anything is published. Also the GPU node's agent's publish step.
 * The oldest `early` entries of queue 0 were published in step 3 (SP2) and are only accounted
 * for. */
GTAP_DEV void gtap_thread_publish_spawned(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t qk, uint32_t keep,
                                          uint32_t early)
{
#if GTAP_Q_EARLY_PUBLISH
    if (early && lane == 0)
        gtap_q_adopt_early(sh, 0, early);
#endif
    for (uint32_t q = 0; q < (uint32_t)gtap_dev.num_queues; q++) {
        uint32_t n = (uint32_t)sh->spawned[q] - (q == qk ? keep : 0) - (q == 0 ? early : 0);
        if (n)
            gtap_q_publish_warp(sh, w, q, n, lane);
    }
    gtap_thread_drop_spawned(sh, lane);
}

#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
/* W2: at most one warp task stays with the warp (worker_thread_warp.cuh). */
GTAP_DEV uint32_t gtap_thread_warp_keep(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t qk, uint32_t nk,
                                        uint32_t keep);
#endif

/* Step 5: keeps up to 32 new tasks as the next batch (none when SP3 spreads, or when SP1's
 * batch of resumed tasks is next) and publishes the rest. `early`: the oldest entries of
 * queue 0 (the only queue then) that SP2 published in step 3; they cannot be kept. */
GTAP_DEV uint32_t gtap_thread_publish(gtap_thread_sh *ts, uint32_t w, uint32_t lane, uint32_t *cur,
                                      uint32_t *my_task, uint32_t spreading, uint32_t early)
{
    gtap_warp_sh *sh = &ts->q;
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    uint32_t qk = *cur, nk = 0, total = 0;
    for (uint32_t q = 0; q < nq; q++) {
        uint32_t n = (uint32_t)sh->spawned[q];
        total += n;
        if (n > nk) {
            nk = n;
            qk = q;
        }
    }
    if (total == 0)
        return 0;
    if (sh->failed_push) { /* read after the __syncwarp that ends step 4 */
        gtap_thread_drop_spawned(sh, lane);
        return 0;
    }
    uint32_t keep = nk - early < 32 ? nk - early : 32;
    if (spreading || gtap_resume_first(&ts->pol.resume))
        keep = 0; /* step 1 takes a batch of resumed tasks, or thieves take them all */
    if (nq > 1) {
        /* EPAQ: the warp keeps running the queue it spawns most into, so its other queues
         * only grow meanwhile (fib(40) with 3 queues filled a 8192-entry cutoff queue while
         * the warp expanded its subtree's internal nodes). Once one of them is more than
         * half full, the next batch comes from it instead. Lane 0 decides (warp-uniform). */
        uint32_t drain = nq;
        if (lane == 0) {
            for (uint32_t q = 0; q < nq && drain == nq; q++) {
                if (q == qk)
                    continue;
                const uint32_t end = sh->tail[q] + (uint32_t)sh->spawned[q];
                if (end - sh->head_cache[q] > gtap_dev.ring_capacity / 2 &&
                    end - gtap_ld_relaxed_u32(&gtap_deque_of(w, q)->head) > gtap_dev.ring_capacity / 2)
                    drain = q; /* head_cache is a lower bound: confirm with the real steal end */
            }
        }
        drain = __shfl_sync(GTAP_FULL_MASK, drain, 0);
        if (drain < nq) {
            keep = 0;
            qk = drain;
        }
    }
#if defined(GTAP_STRESS)
    if (keep > 1)
        keep = 1; /* publish nearly everything: thieves and own pops see every path */
#endif
#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
    keep = gtap_thread_warp_keep(sh, w, lane, qk, nk, keep);
#endif
    if (total - early > keep)
        gtap_fence_acq_rel(); /* release this iteration's records and entries (every lane) */
    if (lane < keep)
        *my_task = gtap_ring_of(w, qk)[gtap_q_slot_pos(sh, qk, nk - keep + lane) & gtap_dev.ring_mask];
    __syncwarp(); /* kept entries read before the publish below may move tail past them */
    gtap_thread_publish_spawned(sh, w, lane, qk, keep, early);
    *cur = qk;
    return keep;
}

/* ---- Per-warp state ------------------------------------------------------------------------ */

/* The shared-memory state of the calling warp: static when the launch's block fits
 * GTAP_BLOCK_SIZE (gtap_launch's always do), else the dynamic shared memory a direct launch
 * of a larger block must provide. */
GTAP_DEV gtap_thread_sh *gtap_thread_shared(uint32_t warp_in_block)
{
    __shared__ gtap_thread_sh static_sh[(GTAP_BLOCK_SIZE) / 32];
    extern __shared__ unsigned char gtap_dynamic_smem[];
    if (blockDim.x <= (GTAP_BLOCK_SIZE))
        return &static_sh[warp_in_block];
    uint32_t dyn;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    if (dyn < (blockDim.x / 32) * sizeof(gtap_thread_sh))
        return NULL;
    return (gtap_thread_sh *)gtap_dynamic_smem + warp_in_block;
}

/* Lane 0, at the start of a launch. */
GTAP_DEV void gtap_thread_warp_init(gtap_thread_sh *ts, uint32_t w)
{
#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
    ts->meet = (gtap_warp_meet){0, 0, 0, 0};
#endif
    gtap_q_init(&ts->q, w);
    gtap_pool_init(&ts->q.mag, w);
    ts->q.pool_slow = 0;
    ts->q.failed_push = 0;
    gtap_policies_init(&ts->pol);
}

/* Between steps 2 and 3, warp-collective: balances the magazine and refreshes the cached
 * steal ends. Returns the magazine's size, which step 4 compares with (lane 0). */
GTAP_DEV int32_t gtap_thread_begin_iteration(gtap_warp_sh *sh, uint32_t w, uint32_t lane)
{
    gtap_mag_balance_warp(&sh->mag, w, lane);
    if (lane == 0)
        gtap_q_refresh(sh, w);
    const int32_t mag_before = sh->mag.n; /* read by every lane; only lane 0 uses it */
    __syncwarp(); /* lane 0's magazine and cache updates before step 3's spawns use them */
    return mag_before;
}

/* After step 5, every 16th iteration (an abort is rare), warp-collective: does the run
 * abort? The warp also reports its progress (WD2: the progress report, a node's agent and
 * the distributed watchdog read it). */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_poll_abort(uint32_t w, uint32_t lane, const gtap_stats_local *st)
{
    if ((st->batches & 15) != 0)
        return 0;
    if (lane == 0)
        gtap_watch_progress(w, st->tasks);
    uint32_t stop = 0;
    if (lane == 0)
        stop = gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate) == GTAP_RUN_ABORT;
    return __shfl_sync(GTAP_FULL_MASK, stop, 0);
}

#endif /* GTAP_WORKER_THREAD_STEPS_CUH */
