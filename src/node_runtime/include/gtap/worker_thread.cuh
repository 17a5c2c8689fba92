/* gtap/worker_thread.cuh - thread-level workers: every lane runs one task, a warp schedules
 * up to 32 at a time. Implements the generated-code interface (gtap_gen.h) and the
 * persistent scheduler loop entered through `#pragma gtap entry`.
 *
 * One scheduler iteration of a warp (docs/design.md, "thread mode"):
 *   1. fill: tasks kept from the last iteration, topped up from the warp's own deque; or
 *      32 resumed tasks from the resume buffer; or what the buffer holds when nothing else;
 *   2. if none: go idle and steal (probing 32 victims at once), or leave on termination;
 *   3. run one segment of each task (lane i runs task i);
 *   4. complete: finished tasks notify their parents; the last child re-enqueues its parent
 *      (to the resume buffer, GTAP_RESUME_BATCHING, else to the deque);
 *   5. publish: keep up to 32 of the new tasks (newest of the fullest queue) for the next
 *      iteration, none when 32 resumed tasks are ready, and publish the rest to thieves.
 * Allocation (spawns, step 3) and release (step 4) of record ids never overlap.
 */
#ifndef GTAP_WORKER_THREAD_CUH
#define GTAP_WORKER_THREAD_CUH

#include "gtap/device.cuh"
#include "gtap/entry.cuh"
#include "gtap/worker_shared.cuh"
#include "gtap/profile.cuh"
#include "gtap/sched.cuh"
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

#define GTAP_FULL_MASK 0xffffffffu

struct gtap_worker {
    gtap_warp_sh *sh;      /* the warp's shared scheduler state */
    uint32_t warp;         /* global warp index */
    uint32_t fn_state;     /* header word of the running task */
    uint32_t nspawn;       /* children spawned since the task's last join */
    uint32_t suspended;    /* the segment ended in a join */
    uint32_t pushed;       /* entries this lane added to the deque this iteration (counted at
                            * the segment's join or end, not per spawn: early publishing) */
};

#define GTAP_LANES 1
#define GTAP_LANE 0

#if defined(GTAP_DISTRIBUTED)
#include "gtap/node_hooks.cuh"
/* The agent warp's loop: src/inter_gpu/gpu/gpu_node.cuh (included by gtap_thread.cuh). */
static __device__ __noinline__ void gtap_gnode_agent(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers,
                                                     uint32_t lane, struct gtap_sched_rng *rng);
#endif

#include "gtap/task_common.cuh"

/* ---- Internal helpers ------------------------------------------------------------------- */

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

/* Step 4 (with early publishing, step 3), any lane: parent id is ready to resume. With GTAP_RESUME_BATCHING it waits in the
 * warp's resume buffer until a batch of resumed tasks runs (step 1); the deque takes it if
 * the buffer were ever full (worker_shared.cuh says why it is not). Returns 1 if the deque
 * took it. */
GTAP_DEV uint32_t gtap_thread_resume(gtap_warp_sh *sh, uint32_t w, uint32_t queue, uint32_t id)
{
    if (sh->hold_resumed) {
        /* Claims a slot among this warp's lanes; the __syncwarp ending step 4 makes the entry
         * visible to the lanes that take it in step 1. */
        int32_t pos = atomicAdd(&sh->resumed_n, 1);
        if (pos < GTAP_RESUMED_CAPACITY) {
            sh->resumed[pos] = id;
            return 0;
        }
        atomicSub(&sh->resumed_n, 1); /* every lane past the end undoes its own increment */
    }
    return (uint32_t)gtap_thread_push_local(sh, w, queue, id);
}

/* Does the next batch come from the resume buffer, before the deque? When 32 are ready, or
 * when the warp no longer holds resumed tasks back (then the buffer empties first). */
GTAP_DEV int gtap_thread_resumed_first(const gtap_warp_sh *sh)
{
    return sh->resumed_n >= 32 || (sh->resumed_n > 0 && !sh->hold_resumed);
}

/* Step 1, warp-collective: lanes [0, k) take the oldest k <= 32 resumed tasks, and the rest
 * (at most 32) move to the front. Oldest first: a task that waits is not passed over by
 * newer ones again and again (its parent waits for it; near the end of a run that is the
 * critical path). Returns k. */
GTAP_DEV uint32_t gtap_thread_take_resumed(gtap_warp_sh *sh, uint32_t lane, uint32_t *my_task)
{
    const uint32_t n = (uint32_t)sh->resumed_n;
    const uint32_t k = n < 32 ? n : 32;
    if (lane < k)
        *my_task = sh->resumed[lane];
    const uint32_t rest = sh->resumed[k + lane < n ? k + lane : 0];
    __syncwarp(); /* every lane has read its entries before any moves */
    if (k + lane < n)
        sh->resumed[lane] = rest;
    if (lane == 0) {
        sh->resumed_n = (int32_t)(n - k);
        sh->resumed_batches += k != 0;
    }
    __syncwarp();
    return k;
}

/* GTAP_SPREAD: the warp's bit in gtap_dev.sm_busy, the words of busy warp slots per SM,
 * kept by lane 0 in shared memory (in registers, it was live across the tasks' code and cost
 * 13-20 registers). An SM's four schedulers each issue for the warps of one slot residue
 * mod 4. The bits are a hint, read and written relaxed, and order nothing. */
GTAP_DEV void gtap_slot_init(gtap_warp_sh *sh)
{
    uint32_t sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    sh->slot_word = gtap_dev.spread && sm < GTAP_MAX_SMS && slot < 64 ? gtap_dev.sm_busy + sm : NULL;
    sh->slot = slot;
    sh->slot_busy = 0;
    sh->timing = 0;
    sh->poll_batch = 0;
    sh->poll_clock = clock64();
}

GTAP_DEV void gtap_slot_mark(gtap_warp_sh *sh, uint32_t busy)
{
    if (!sh->slot_word || sh->slot_busy == busy)
        return;
    sh->slot_busy = busy;
    if (busy)
        gtap_red_or_relaxed_u64(sh->slot_word, 1ull << sh->slot);
    else
        gtap_red_and_relaxed_u64(sh->slot_word, ~(1ull << sh->slot));
}

/* Lane 0, every 8th iteration, or every one while they are long (sh->timing): should the
 * warp hand its next tasks to idle warps? Only after iterations of GTAP_SPREAD_MIN_CYCLES
 * on average since the last look, and when few warps are busy (so some schedulers sit
 * idle) and a busy warp of a lower slot shares this warp's scheduler (the lowest stays, the
 * others spread): on an idle scheduler the tasks run up to 2-4x as fast (bench/NOTES.md,
 * step 20). A clock read in every iteration cost fib(30) 3%; the L2 loads happen only after
 * long iterations. */
GTAP_DEV uint32_t gtap_thread_should_spread(gtap_warp_sh *sh, uint32_t nworkers, uint32_t batches)
{
    const long long now = clock64();
    const uint32_t iterations = batches - sh->poll_batch; /* 0 at the first look: no measure yet */
    sh->timing = iterations > 0 && now - sh->poll_clock >= (long long)(GTAP_SPREAD_MIN_CYCLES) * iterations;
    sh->poll_clock = now;
    sh->poll_batch = batches;
    if (!sh->timing || !sh->slot_word)
        return 0;
    const int32_t active = (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active);
    if (active >= (int32_t)(nworkers * (uint32_t)gtap_dev.spread / 16))
        return 0;
    const unsigned long long same_scheduler = 0x1111111111111111ull << (sh->slot & 3);
    const unsigned long long lower = (1ull << sh->slot) - 1;
    if ((gtap_ld_relaxed_u64(sh->slot_word) & same_scheduler & lower) == 0)
        return 0;
    if (sh->resumed_n > 0) {
        /* Tasks still wait in the resume buffer (the active count was read as high up to 8
         * iterations ago): run them first, and spread after the next long iteration. Moving
         * them to the deque here took 12 more registers in the scheduler loop, and fib(30)
         * was 4-5% slower with them. */
        sh->hold_resumed = 0;
        return 0;
    }
    return 1;
}

/* ---- The generated-code interface (gtap_gen.h) ----------------------------------------- */

GTAP_API void *gtap_task_spawn(gtap_worker *w, gtap_task parent, unsigned fn, unsigned data_size,
                               int queue, void *result_dst)
{
    gtap_warp_sh *sh = w->sh;
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
    /* The join counter is published with the children: they become visible only after the
     * fence of this iteration's publish step, or of gtap_thread_finish_early, which runs
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

/* ---- Scheduler steps -------------------------------------------------------------------- */

/* Step 4 (with early publishing, step 3) for one lane whose task's segment returned without
 * a join. Returns up to two record ids to free (the task itself; a zombie parent whose last
 * child this was). kNode: the scheduler serves an attached distributed node (gtap_thread_scheduler). */
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
        /* Finished with detached children (R4): the record lives until they finish. They
         * are unpublished, so these plain stores are ordered before them by the publish. */
        zombie = 1;
        wk->pushed += wk->nspawn;
        h->fn_state = (wk->fn_state & 0xffffu) | ((uint32_t)GTAP_STATE_ZOMBIE << 16);
        uint32_t holds = wk->nspawn;
#if defined(GTAP_DISTRIBUTED)
        if (kNode) {
            gtap_nh_note_detached();
            if (parent == GTAP_PARENT_REMOTE)
                holds++; /* the agent's reference, dropped once it has sent the result home */
        }
#endif
        gtap_st_relaxed_u32(&h->pending, holds);
    }
#if defined(GTAP_DISTRIBUTED)
    if (kNode && parent == GTAP_PARENT_REMOTE) {
        gtap_nh_imported_finished(id); /* the agent frees the record */
        return;
    }
    if (kNode && parent == GTAP_NO_TASK && id == gtap_root_id())
        gtap_nh_root_finished();
#endif
    if (parent != GTAP_NO_TASK) {
        gtap_task_header *ph = gtap_header(parent);
        /* Release: our result store (gtap_task_return) before the parent can resume.
         * Acquire: our siblings' result stores, for the parent's resumption below. */
        int32_t old = gtap_atomic_add_acq_rel_i32(&ph->pending, -1);
        if (old == 1) {
            uint32_t pfs = ph->fn_state;
            if ((pfs >> 16) == GTAP_STATE_ZOMBIE) {
                if (parent != gtap_root_id()) /* the root's record is reserved, never pooled */
                    *free2 = parent;
            }
            else
                wk->pushed += gtap_thread_resume(wk->sh, wk->warp, ph->cont_queue, parent);
        }
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

/* Steps 1 and 2: one round of probing. Lanes [0, GTAP_PROBE_LANES) probe one random
 * (victim, queue) pair each and the warp claims from the fullest. Returns the number of
 * stolen tasks (held by lanes [0, k)); *seen says whether any probe saw tasks. An idle warp's
 * claim is announced where the queue needs it (step 2); in step 1 only the work-stealing
 * deque is used, whose claims an active thief covers (GTAP_Q_CLAIM_COVERED). */
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
 * Resumed tasks (GTAP_RESUME_BATCHING) run as a batch of their own: 32 of them when ready
 * (step 5 then kept nothing), all of them once the warp stops holding them back, else only
 * when the deque is empty too. Such a batch has the like tasks the lanes need: a binary
 * tree's inner node spawns and suspends at once while a leaf or a resumed node does the
 * work, and in one batch the spawning lanes would idle through the work (bench/NOTES.md,
 * step 19). The spawned tasks go first meanwhile; they are alike too, the children of one
 * batch being one generation of the same functions. With the deque empty, a partial batch of
 * resumed tasks may wait for one probe round (below). */
template <bool kNode>
GTAP_DEV uint32_t gtap_thread_fill(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane, uint32_t ntask,
                                   uint32_t prefer, uint32_t *cur, uint32_t *my_task, gtap_sched_rng *rng,
                                   gtap_stats_local *st)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    if (ntask > 0) {
        ntask += gtap_q_pop_warp(sh, w, prefer, 32 - ntask, ntask, lane, my_task);
        *cur = prefer;
        return ntask;
    }
    if (gtap_thread_resumed_first(sh)) /* read by every lane after the __syncwarp ending step 5 */
        return gtap_thread_take_resumed(sh, lane, my_task);
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t q = (prefer + i) % nq;
        uint32_t k = gtap_q_pop_warp(sh, w, q, 32, 0, lane, my_task);
        if (k) {
            *cur = q;
            return k;
        }
    }
    if (GTAP_Q_CLAIM_COVERED && gtap_dev.topup_steal && sh->hold_resumed && sh->timing && sh->resumed_n > 0 &&
        sh->resumed_n < 32) {
        /* GTAP_TOPUP_STEAL: the deque is empty and fewer than 32 resumed tasks wait (a
         * subtree's last levels), while every warp is busy with long iterations: one probe
         * round first. A stolen subtree fills the lanes, and its own resumed tasks complete
         * the waiting batch. */
        uint32_t seen;
        uint32_t k = gtap_thread_steal_round<kNode>(sh, w, nworkers, lane, rng, cur, my_task, st, &seen);
        if (k) {
            if (lane == 0) {
                sh->topup_steals++;
                /* The claim counted this warp active (gtap_q_steal_warp) as for an idle thief;
                 * it already is, and stays so: give the count back. */
                gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, -1);
            }
            return k;
        }
    }
    return gtap_thread_take_resumed(sh, lane, my_task);
}

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
 * The oldest `early` entries of queue 0 were published in step 3 and are only accounted for. */
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

/* Step 3, early publishing (GTAP_EARLY_PUBLISH), called by the lanes that run tasks as their
 * segments end (and after their completion, step 4's work for them): `pushed` is what the
 * lane added to the deque. A lane's entries otherwise wait for the warp's slowest lane; the
 * lanes (a converged group) that finish while others still run publish at once every entry
 * reserved so far whose lane has finished too. Entries are reserved in any order by any
 * lane, and only a prefix can be published, so a group publishes only when every reserved
 * entry belongs to a finished lane (settled == spawned); an entry reserved later belongs
 * to a lane still running and waits for it. sh->early, raised by atomicMax, hands each
 * entry to exactly one publisher. The last group to finish publishes nothing: step 5 is
 * next, and it keeps up to 32 entries for the warp's next batch. Shared counters are read
 * by atomics: the groups of a warp interleave in any order. */
#if GTAP_Q_EARLY_PUBLISH
GTAP_DEV void gtap_thread_finish_early(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t ntask, uint32_t pushed)
{
    const uint32_t group = __activemask();
    const uint32_t leader = __ffs(group) - 1;
    const uint32_t sum = __reduce_add_sync(group, pushed);
    uint32_t last = 0;
    if (lane == leader)
        last = atomicAdd(&sh->lanes_done, (uint32_t)__popc(group)) + (uint32_t)__popc(group) == ntask;
    if (__shfl_sync(group, last, leader) || sum == 0)
        return;
#if (GTAP_EARLY_PUBLISH_WAIT_CYCLES) > 0
    /* The other lanes may end soon (fib, N-Queens: every lane's segment is short); then step
     * 5 keeps our entries for the warp's next batch, without the fences and pops of a
     * publish. The leader waits a while for them; the group's lanes wait at the shuffle. */
    uint32_t all_done = 0;
    if (lane == leader) {
        const long long t0 = clock64();
        while (!(all_done = atomicOr(&sh->lanes_done, 0u) >= ntask) &&
               clock64() - t0 < (long long)(GTAP_EARLY_PUBLISH_WAIT_CYCLES))
            __nanosleep(64);
    }
    if (__shfl_sync(group, all_done, leader))
        return;
#endif
    /* Release: this group's records, join counters and ring entries, before the count below
     * that lets another group (or this one) publish them. */
    gtap_fence_acq_rel();
    __syncwarp(group);
    if (lane != leader)
        return;
    const uint32_t settled = (uint32_t)atomicAdd(&sh->settled, (int32_t)sum) + sum;
    if (settled != (uint32_t)atomicOr(&sh->spawned[0], 0))
        return; /* a lane still running reserved an entry: the prefix ends before it */
    const uint32_t before = atomicMax(&sh->early, settled);
    if (before >= settled)
        return; /* another group published them */
    /* Acquire: the other groups' entries counted in settled; release them to thieves. */
    gtap_fence_acq_rel();
    gtap_q_publish_early(w, 0, settled - before);
    atomicAdd(&sh->early_publishes, settled - before); /* groups may interleave */
}
#endif

/* Step 5: keeps up to 32 new tasks as the next batch (none when spreading) and publishes
 * the rest. `early`: the oldest entries of queue 0 (the only queue then) published in step 3;
 * they cannot be kept. */
GTAP_DEV uint32_t gtap_thread_publish(gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t *cur,
                                      uint32_t *my_task, uint32_t spreading, uint32_t early)
{
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
    if (spreading || gtap_thread_resumed_first(sh))
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
    if (total - early > keep)
        gtap_fence_acq_rel(); /* release this iteration's records and entries (every lane) */
    if (lane < keep)
        *my_task = gtap_ring_of(w, qk)[gtap_q_slot_pos(sh, qk, nk - keep + lane) & gtap_dev.ring_mask];
    __syncwarp(); /* kept entries read before the publish below may move tail past them */
    gtap_thread_publish_spawned(sh, w, lane, qk, keep, early);
    *cur = qk;
    return keep;
}

/* GTAP_SPREAD, lane 0, after step 5 published everything: the warp is not busy while lane 0
 * waits until thieves have taken its published tasks or GTAP_SPREAD_WAIT_CYCLES pass; step
 * 1 then takes back what is left, and the warp is busy again. The warp stays active
 * meanwhile: its deque is not empty (docs/termination.md T2). */
GTAP_DEV void gtap_thread_wait_for_thieves(gtap_warp_sh *sh, uint32_t w)
{
    const long long t0 = clock64();
    uint32_t left = gtap_q_probe(w, 0); /* what thieves could still claim */
    if (!left)
        return;
    sh->spreads++;
    gtap_slot_mark(sh, 0);
    while (left && clock64() - t0 < (long long)(GTAP_SPREAD_WAIT_CYCLES)) {
        __nanosleep(256);
        left = gtap_q_probe(w, 0);
    }
    if (left)
        gtap_slot_mark(sh, 1);
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

/* The shared-memory state of the calling warp: static when the launch's block fits
 * GTAP_BLOCK_SIZE, else the dynamic shared memory gtap_launch provides. */
GTAP_DEV gtap_warp_sh *gtap_thread_shared(uint32_t warp_in_block)
{
    __shared__ gtap_warp_sh static_sh[(GTAP_BLOCK_SIZE) / 32];
    extern __shared__ unsigned char gtap_dynamic_smem[];
    if (blockDim.x <= (GTAP_BLOCK_SIZE))
        return &static_sh[warp_in_block];
    uint32_t dyn;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
    if (dyn < (blockDim.x / 32) * sizeof(gtap_warp_sh))
        return NULL;
    return (gtap_warp_sh *)gtap_dynamic_smem + warp_in_block;
}

/* ---- The persistent loop ---------------------------------------------------------------- */

/* kNode: the run serves an attached distributed node (GTAP_DISTRIBUTED builds; node_hooks.cuh).
 * A distributed build compiles the scheduler twice and gtap_entry_run picks one per launch,
 * so that a program that never attaches a node runs the node runtime's own loop (the code
 * of a build without the distributed layer, without a spill) and the hooks cost nothing in
 * single-GPU mode: +0.77% on fib(34), against +1.3-2.0% with one loop (bench/NOTES.md, step 14). */
template <bool kNode>
static __device__ __noinline__ void gtap_thread_scheduler(void)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t wib = threadIdx.x >> 5;
    const uint32_t w = blockIdx.x * (blockDim.x >> 5) + wib;
    const uint32_t nworkers = gridDim.x * (blockDim.x >> 5);
    gtap_warp_sh *sh = gtap_thread_shared(wib);
    gtap_ctl *ctl = gtap_dev.ctl;

    if (gtap_sched_launch_check(nworkers, sh != NULL, blockDim.x, w, lane))
        return;
    if (lane == 0) {
        gtap_q_init(sh, w);
        gtap_pool_init(&sh->mag, w);
        sh->pool_slow = 0;
        sh->failed_push = 0;
        sh->resumed_n = 0;
        sh->resumed_batches = 0;
        sh->hold_resumed = 0; /* until the first look at the active count */
        sh->spreads = 0;
        sh->settled = 0;
        sh->early = 0;
        sh->lanes_done = 0;
        sh->early_ok = gtap_dev.early_publish; /* until the first look at the active count */
        sh->early_publishes = 0;
        sh->topup_steals = 0;
        gtap_slot_init(sh);
    }
    __syncwarp();

    gtap_sched_rng rng = gtap_sched_rng_init(w, lane);
    gtap_stats_local st = {};
#if defined(GTAP_DISTRIBUTED)
    if (kNode && lane == 0) /* this launch's progress counter, summed by the agent */
        *(volatile unsigned long long *)&gtap_dev.stats[w].tasks = 0;
    if (kNode && w == GTAP_AGENT_WORKER) { /* the agent warp (node_hooks.cuh) */
        gtap_gnode_agent(sh, w, nworkers, lane, &rng);
        gtap_sched_exit(w, nworkers, lane, &st);
        return;
    }
    if (kNode && gtap_nh_passive(w, lane)) { /* on the agent's SM: wait for the end */
        if (lane == 0)
            while (gtap_ld_relaxed_u32(&ctl->terminate) == GTAP_RUN)
                __nanosleep(2000);
        __syncwarp();
        gtap_sched_exit(w, nworkers, lane, &st);
        return;
    }
#endif
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
                gtap_slot_mark(sh, 1);
            }
        }
    }

    for (;;) {
        if (ntask < 32)
            ntask = gtap_thread_fill<kNode>(sh, w, nworkers, lane, ntask, cur, &cur, &my_task, &rng, &st);
        if (ntask == 0) {
            if (active) {
                if (lane == 0) {
                    gtap_q_quiesce(w);
                    gtap_slot_mark(sh, 0);
                }
                gtap_sched_go_idle<kNode>(lane);
                active = 0;
            }
            ntask = gtap_thread_steal<kNode>(sh, w, nworkers, lane, &rng, &cur, &my_task, &st);
            if (ntask == 0)
                break; /* terminated or aborting */
            active = 1;
            if (lane == 0)
                gtap_slot_mark(sh, 1);
        }
        gtap_mag_balance_warp(&sh->mag, w, lane);
        if (lane == 0)
            gtap_q_refresh(sh, w);
        const int32_t mag_before = sh->mag.n; /* read by every lane; only lane 0 uses it */
        __syncwarp();
        GTAP_PROFILE_BEGIN(lane == 0);

        /* Step 3: run one segment per lane. */
        gtap_worker wk;
        wk.sh = sh;
        wk.warp = w;
        wk.nspawn = 0;
        wk.suspended = 0;
        wk.fn_state = 0;
        wk.pushed = 0;
        uint32_t f1 = GTAP_NO_TASK, f2 = GTAP_NO_TASK;
        /* Lane 0 rewrites sh->timing in step 5: every lane reads it here, after the last
         * __syncwarp before that (a read in step 5 would race with the write). */
        const uint32_t timing = sh->timing;
#if GTAP_Q_EARLY_PUBLISH
        /* Early publishing while some warps idle to take the entries. Warp-uniform. */
        const uint32_t early = sh->early_ok && ntask > 1;
#else
        const uint32_t early = 0;
#endif
        if (lane < ntask) {
            wk.fn_state = gtap_header(my_task)->fn_state;
            gtapgen_dispatch(&wk, wk.fn_state & 0xffffu, my_task);
#if GTAP_Q_EARLY_PUBLISH
            if (early) { /* step 4's completion now: a parent it resumes is published too */
                if (!wk.suspended)
                    gtap_thread_complete<kNode>(&wk, my_task, &f1, &f2);
                gtap_thread_finish_early(sh, w, lane, ntask, wk.pushed);
            }
#endif
        }
        __syncwarp(); /* every segment returned: children may now be completed or kept */

        /* Step 4: completion. */
        if (lane == 0) {
            gtap_mag_note_demand(&sh->mag, mag_before);
            if (sh->mag.n < 0)
                sh->mag.n = 0; /* failed fast-path allocations of step 3 */
        }
        __syncwarp();
        if (lane < ntask && !wk.suspended && !early)
            gtap_thread_complete<kNode>(&wk, my_task, &f1, &f2);
        gtap_thread_free_ids(sh, w, lane, f1, f2);
        __syncwarp();

        /* Step 5: keep and publish; or publish everything and let idle warps take it. */
        uint32_t spreading = 0;
        if (gtap_dev.spread && (timing || (st.batches & 7) == 0)) {
            if (lane == 0)
                spreading = gtap_thread_should_spread(sh, nworkers, (uint32_t)st.batches);
            spreading = __shfl_sync(GTAP_FULL_MASK, spreading, 0);
            __syncwarp(); /* lane 0 may have cleared sh->hold_resumed, which step 5 reads */
        }
        const uint32_t executed = ntask;
        st.batches++;
        st.tasks += executed;
        my_task = GTAP_NO_TASK;
        const uint32_t published_early = early ? sh->early : 0; /* read after step 4's __syncwarp */
        ntask = gtap_thread_publish(sh, w, lane, &cur, &my_task, spreading, published_early);
        if (early) {
            __syncwarp(); /* every lane has read sh->early */
            if (lane == 0) {
                sh->settled = 0;
                sh->early = 0;
                sh->lanes_done = 0;
            }
        }
        GTAP_PROFILE_END(lane == 0, w, executed);
        if (spreading) {
            if (lane == 0)
                gtap_thread_wait_for_thieves(sh, w);
            __syncwarp();
        }

        if ((gtap_dev.resume_batching || gtap_dev.early_publish) && (st.batches & 7) == 4) {
            /* Resumed tasks wait for a full batch only while (nearly) every warp has work:
             * a waiting task that would spawn, or resume a parent that spawns, is parallelism
             * that idle warps cannot steal (cilksort 10^6 took 1.39x as long when every warp
             * kept waiting; bench/NOTES.md, step 19). Early publishing is the converse: worth
             * its fences and pops only while idle warps wait for work. One L2 load per 8
             * iterations. */
            if (lane == 0) {
                const int32_t active = (int32_t)gtap_ld_relaxed_u32(&ctl->active);
                const int saturated = active >= (int32_t)(nworkers - nworkers / 16);
                sh->hold_resumed = gtap_dev.resume_batching && saturated;
                sh->early_ok = gtap_dev.early_publish && !saturated;
            }
            __syncwarp();
        }
        if ((st.batches & 15) == 0) { /* an abort is rare: poll it every 16 iterations */
#if defined(GTAP_DISTRIBUTED)
            if (kNode && lane == 0) /* progress for the agent's status counters and the watchdog */
                *(volatile unsigned long long *)&gtap_dev.stats[w].tasks = st.tasks;
#endif
            uint32_t stop = 0;
            if (lane == 0)
                stop = gtap_ld_relaxed_u32(&ctl->terminate) == GTAP_RUN_ABORT;
            if (__shfl_sync(GTAP_FULL_MASK, stop, 0))
                break;
        }
    }
    st.pool_slow = sh->pool_slow;
    st.records_used = gtap_pool_used(w);
    st.resumed_batches = sh->resumed_batches;
    st.spreads = sh->spreads;
    st.early_publishes = sh->early_publishes;
    st.topup_steals = sh->topup_steals;
    if (lane == 0)
        gtap_slot_mark(sh, 0); /* an aborted run may leave a busy warp; reset clears it too */
    gtap_sched_exit(w, nworkers, lane, &st);
    GTAP_PROFILE_FLUSH(lane == 0, w);
}

/* ---- #pragma gtap entry (gtap_entry_begin / gtap_entry_result: gtap/entry.cuh) -------- */

GTAP_API void gtap_entry_run(void)
{
    /* The master lane that wrote the root's arguments runs it. */
#if defined(GTAP_DISTRIBUTED)
    if (gtap_nh_attached()) {
        gtap_thread_scheduler<true>();
        return;
    }
#endif
    gtap_thread_scheduler<false>();
}

#endif /* GTAP_WORKER_THREAD_CUH */
