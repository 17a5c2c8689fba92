/* gtap/worker_block.cuh - block-level workers: a whole thread block runs one task at a time
 * (paper section 4.3.1). Implements the generated-code interface (gtap_gen.h) and the
 * persistent loop.
 *
 * One iteration of a block:
 *   1. thread 0 picks the next task: the parent that the last task made resumable, or the
 *      child it kept, or the newest entry of the block's Chase-Lev deque; with none, warp 0
 *      goes idle and steals (probing 32 victims at once);
 *   2. all threads run one segment; any thread may spawn; taskwait is collective;
 *   3. thread 0 completes the task (join protocol as in thread mode) and publishes the
 *      children, keeping the newest one to run next when no parent became resumable.
 * Spawns (step 2) and frees (step 3) of record ids never overlap.
 */
#ifndef GTAP_WORKER_BLOCK_CUH
#define GTAP_WORKER_BLOCK_CUH

#include "gtap/device.cuh"
#include "gtap/entry.cuh"
#include "gtap/join.cuh"
#include "gtap/pool.cuh"
#include "gtap/profile.cuh"
#include "gtap/sched.cuh"
#include "gtap/watch.cuh"
#if defined(GTAP_DISTRIBUTED)
#include "gtap/node_hooks.cuh"
#endif

#if defined(GTAP_SCHED_CHASELEV)
#error "GTAP_SCHED_CHASELEV is a thread-level ablation; block-level workers always use Chase-Lev"
#endif
#if defined(GTAP_DISTRIBUTED) && defined(GTAP_SCHED_GLOBAL_QUEUE)
#error "distributed builds (GTAP_DISTRIBUTED) use the work-stealing scheduler, not the global-queue ablation"
#endif

#define GTAP_FULL_MASK 0xffffffffu

typedef struct gtap_block_sh {
    uint32_t task;          /* task of this iteration, GTAP_NO_TASK when none */
    uint32_t fn_state;      /* its header word */
    uint32_t next;          /* task to run next without a queue round trip */
    uint32_t acquire;       /* the task came from another block: fence before running it */
    uint32_t bottom;        /* owner copy of the deque's bottom */
    uint32_t top_cache;     /* a recent value of the deque's top */
    int32_t spawned;        /* children written at [bottom, bottom + spawned) this segment */
    uint32_t suspended;     /* the segment ended in a join */
    uint32_t stop;          /* leave the loop */
    int32_t join_arrivals;  /* threads that reached the current taskwait */
    uint32_t refresh;       /* a spawn found top_cache stale */
    int32_t mag_before;     /* magazine count when the segment started */
    uint32_t failed_push;   /* a spawn counted in `spawned` raised an error: publish nothing */
    gtap_magazine mag;
    unsigned long long pool_slow;
} gtap_block_sh;

struct gtap_worker {
    gtap_block_sh *sh;
    uint32_t block;
    uint32_t fn_state;
};

#define GTAP_LANES (GTAP_BLOCK_SIZE)
#define GTAP_LANE (threadIdx.x)

#include "gtap/task_common.cuh"

GTAP_DEV gtap_deque *gtap_block_deque(uint32_t b)
{
    return &gtap_dev.deques[b];
}

GTAP_DEV uint32_t *gtap_block_ring(uint32_t b)
{
    return gtap_dev.rings + (size_t)b * gtap_dev.ring_capacity;
}

/* The block's queue (thread 0 only): Chase-Lev, or the global queue of the ablation. */
#if defined(GTAP_SCHED_GLOBAL_QUEUE)
#include "gtap/block_queue_gq.cuh"
#else
#include "gtap/block_queue_cl.cuh"
#endif

/* ---- The generated-code interface ------------------------------------------------------- */

GTAP_API void *gtap_task_spawn(gtap_worker *w, gtap_task parent, unsigned fn, unsigned data_size,
                               int queue, void *result_dst)
{
    gtap_block_sh *sh = w->sh;
    (void)queue; /* EPAQ is a thread-level feature */
    if (data_size > gtap_dev.data_capacity) {
        gtap_raise(GTAP_ERR_DATA_TOO_LARGE, data_size, gtap_dev.data_capacity, (int)w->block,
                   (int)threadIdx.x, (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    uint32_t id = gtap_mag_alloc(&sh->mag, w->block, &sh->pool_slow);
    if (id == GTAP_NO_TASK) {
        gtap_raise(GTAP_ERR_POOL_EXHAUSTED, gtap_dev.records_per_worker, gtap_dev.records_per_worker, (int)w->block,
                   (int)threadIdx.x, (int)fn, __LINE__);
        return gtap_scratch_record;
    }
    unsigned char *rec = gtap_record(id);
    gtap_record_init(rec, fn, parent, result_dst);
    uint32_t off = (uint32_t)atomicAdd(&sh->spawned, 1);
    if (off >= gtap_dev.max_child_tasks) {
        gtap_raise(GTAP_ERR_TOO_MANY_CHILDREN, (long long)off + 1, gtap_dev.max_child_tasks, (int)w->block,
                   (int)threadIdx.x, (int)(w->fn_state & 0xffffu), __LINE__);
        sh->failed_push = 1; /* counted, never written: see gtap_block_publish */
        return gtap_scratch_record;
    }
    uint32_t pos = sh->bottom + off;
    if (pos - sh->top_cache >= gtap_dev.ring_capacity) {
        atomicOr(&sh->refresh, 1u); /* thread 0 refreshes top_cache between iterations */
        uint32_t t = gtap_ld_acquire_u32(&gtap_block_deque(w->block)->head);
        if (pos - t >= gtap_dev.ring_capacity) {
            gtap_raise(GTAP_ERR_DEQUE_FULL, (long long)(pos - t + 1), gtap_dev.ring_capacity, (int)w->block,
                       (int)threadIdx.x, (int)fn, __LINE__);
            sh->failed_push = 1; /* counted, never written: see gtap_block_publish */
            return gtap_scratch_record;
        }
    }
    gtap_block_ring(w->block)[pos & gtap_dev.ring_mask] = id;
    return rec + gtap_dev.data_offset;
}

GTAP_API int gtap_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue)
{
    gtap_block_sh *sh = w->sh;
    (void)queue;
    atomicAdd(&sh->join_arrivals, 1);
    __syncthreads(); /* every thread's spawns of this segment are counted */
    int32_t n = sh->spawned;
    int32_t arrived = sh->join_arrivals;
    __syncthreads(); /* everyone read n before anyone spawns again */
    if (threadIdx.x == 0)
        sh->join_arrivals = 0;
    if (arrived != (int32_t)blockDim.x) {
        if (threadIdx.x == 0)
            gtap_raise(GTAP_ERR_DIVERGENT_JOIN, arrived, blockDim.x, (int)w->block, 0,
                       (int)(w->fn_state & 0xffffu), __LINE__);
        return 1;
    }
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)t; (void)resume_state;
    if (threadIdx.x == 0 && n >= 0)
        gtap_raise(GTAP_ERR_TASKWAIT_NO_JOIN, 0, 0, (int)w->block, 0, (int)(w->fn_state & 0xffffu), __LINE__);
    return 1;
#else
    if (n == 0)
        return 0; /* R3 */
    if (threadIdx.x == 0) {
        gtap_task_header *h = gtap_header(t);
        h->fn_state = (w->fn_state & 0xffffu) | ((uint32_t)resume_state << 16);
        /* Published with the children by the iteration's fence (step 3). */
        gtap_st_relaxed_u32(&h->pending, (uint32_t)n);
        sh->suspended = 1;
    }
    return 1;
#endif
}

GTAP_API void gtap_task_return(gtap_worker *w, gtap_task t, const void *value, unsigned size)
{
    (void)w;
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)t; (void)value; (void)size;
#else
    /* only the function's result thread calls this (gtap_gen.h, block mode) */
    void *dst = (void *)(uintptr_t)gtap_header(t)->result_dst;
    if (dst)
        gtap_copy_result(dst, value, size);
#endif
}

GTAP_API void gtap_task_bad_state(gtap_worker *w, gtap_task t)
{
    if (threadIdx.x == 0)
        gtap_raise(GTAP_ERR_BAD_STATE, (long long)(w->fn_state >> 16), (long long)t, (int)w->block, 0,
                   (int)(w->fn_state & 0xffffu), __LINE__);
}

/* ---- Scheduler steps (thread 0 or warp 0) ----------------------------------------------- */

/* Step 3, thread 0: completes a task whose segment returned without a join (J3, J4). A
 * parent it makes resumable runs next on this block. kNode: the block serves an attached
 * distributed node (node_hooks.cuh), as gtap_thread_complete does. */
template <bool kNode>
GTAP_DEV void gtap_block_complete(gtap_block_sh *sh, uint32_t b, uint32_t id)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    if (id != gtap_root_id())
        gtap_mag_free_one(&sh->mag, b, id);
#if defined(GTAP_DISTRIBUTED)
    else if (kNode)
        gtap_nh_root_finished();
#endif
#else
    gtap_task_header *h = gtap_header(id);
    int zombie = 0;
    if (sh->spawned > 0) {
        zombie = 1; /* detached children keep the record alive (J4) */
        uint32_t holds = (uint32_t)sh->spawned;
#if defined(GTAP_DISTRIBUTED)
        if (kNode)
            holds = gtap_nh_detach_holds(h->parent, holds);
#endif
        gtap_join_detach(h, sh->fn_state, holds);
    }
    const uint32_t parent = h->parent;
#if defined(GTAP_DISTRIBUTED)
    if (kNode && gtap_nh_task_completed(id, parent))
        return; /* imported: the agent frees the record */
#endif
    if (parent != GTAP_NO_TASK) {
        uint32_t cont_queue, dead = GTAP_NO_TASK;
        if (gtap_join_child_done(parent, &cont_queue, &dead)) {
            sh->next = parent; /* resume it on this block right away */
            sh->acquire = 1;   /* its data was written by other blocks */
        } else if (dead != GTAP_NO_TASK) {
            gtap_mag_free_one(&sh->mag, b, dead);
        }
    }
    if (!zombie && id != gtap_root_id())
        gtap_mag_free_one(&sh->mag, b, id);
#endif
}

/* Step 3, thread 0: publishes this iteration's children; keeps the newest as the next task
 * when nothing else is due. */
GTAP_DEV void gtap_block_publish(gtap_block_sh *sh, uint32_t b)
{
    uint32_t n = (uint32_t)sh->spawned;
    sh->spawned = 0;
    if (n == 0 || sh->failed_push) /* an unwritten slot must not reach thieves; the run aborts */
        return;
    uint32_t keep = (sh->next == GTAP_NO_TASK) ? 1u : 0u;
#if defined(GTAP_STRESS)
    keep = 0; /* thieves and pops see every entry */
#endif
    if (keep) {
        sh->next = gtap_block_ring(b)[(sh->bottom + n - 1) & gtap_dev.ring_mask];
        sh->acquire = 0;
    }
    if (n > keep)
        gtap_bq_publish(sh, b, n - keep);
}

/* Step 1 idle path, warp 0: steal one task. Returns it, or GTAP_NO_TASK when the run ended. */
template <bool kNode>
GTAP_DEV uint32_t gtap_block_steal(uint32_t b, uint32_t nblocks, uint32_t lane, gtap_sched_rng *rng,
                                   gtap_stats_local *st)
{
    uint32_t sleep_ns = GTAP_IDLE_SLEEP_MIN_NS;
    for (;;) {
        uint32_t state = 0;
        if (lane == 0)
            state = gtap_sched_run_state();
        if (__shfl_sync(GTAP_FULL_MASK, state, 0) != GTAP_RUN)
            return GTAP_NO_TASK;
        uint32_t victim = b, c = 0;
        if (nblocks > 1 && lane < GTAP_PROBE_LANES) {
            victim = gtap_sched_probe_victim(b, nblocks, lane, rng);
            c = gtap_bq_probe(victim);
#if defined(GTAP_DISTRIBUTED)
            if (kNode && c && gtap_nh_reserved(victim))
                c = 0; /* the opening reserve's tasks (node_hooks.cuh) */
#endif
        }
        uint32_t best = __reduce_max_sync(GTAP_FULL_MASK, c);
        if (best == 0) {
            __nanosleep(sleep_ns);
            sleep_ns = sleep_ns * 2 < GTAP_IDLE_SLEEP_MAX_NS ? sleep_ns * 2 : GTAP_IDLE_SLEEP_MAX_NS;
            continue;
        }
        uint32_t leader = gtap_sched_pick_victim_lane(c, best, rng);
        victim = __shfl_sync(GTAP_FULL_MASK, victim, leader);
        uint32_t got = GTAP_NO_TASK;
        if (lane == 0) {
            gtap_sched_announce_claim();
            st->steal_attempts++;
            uint32_t x;
            if (gtap_bq_steal1(victim, &x)) {
                got = x;
                st->steals++;
            } else {
                gtap_sched_claim_failed<kNode>();
            }
        }
        got = __shfl_sync(GTAP_FULL_MASK, got, 0);
        if (got != GTAP_NO_TASK)
            return got;
    }
}

/* ---- Per-block steps of the loop (thread 0, or warp 0 where said) -------------------------- */

GTAP_DEV void gtap_block_init(gtap_block_sh *sh, uint32_t b, uint32_t holds_root)
{
    gtap_bq_init(sh, b);
    sh->spawned = 0;
    sh->suspended = 0;
    sh->join_arrivals = 0;
    sh->refresh = 0;
    sh->failed_push = 0;
    gtap_pool_init(&sh->mag, b);
    sh->pool_slow = 0;
    sh->next = (b == 0 && holds_root) ? gtap_root_id() : GTAP_NO_TASK; /* ctl->active counts block 0 */
    sh->acquire = 0;
    sh->stop = 0;
}

/* Step 1: the parent the last task made resumable, or the child it kept, or the newest entry
 * of the block's queue; GTAP_NO_TASK when none. */
GTAP_DEV void gtap_block_pick(gtap_block_sh *sh, uint32_t b)
{
    uint32_t t = sh->next;
    sh->next = GTAP_NO_TASK;
    if (t == GTAP_NO_TASK) {
        uint32_t x;
        if (gtap_bq_pop(sh, b, &x)) {
            t = x;
            sh->acquire = GTAP_BQ_POP_ACQUIRES;
        }
    }
    sh->task = t;
}

/* Step 1 with nothing to run, warp 0: the block goes idle (T2) and steals one task; sets
 * sh->stop when the run has ended. */
template <bool kNode>
GTAP_DEV void gtap_block_idle(gtap_block_sh *sh, uint32_t b, uint32_t nblocks, uint32_t lane, uint32_t active,
                              gtap_sched_rng *rng, gtap_stats_local *st)
{
    if (active) {
        gtap_sched_go_idle<kNode>(lane);
        if (lane == 0)
            gtap_watch_worker(b, GTAP_WATCH_IDLE); /* WD1 */
    }
    uint32_t t = gtap_block_steal<kNode>(b, nblocks, lane, rng, st);
    if (lane == 0) {
        if (t != GTAP_NO_TASK)
            gtap_watch_worker(b, GTAP_WATCH_BUSY);
        sh->task = t;
        sh->acquire = 1;
        sh->stop = (t == GTAP_NO_TASK);
    }
}

/* Before step 2: the task's header word, the magazine and the cached steal end. */
GTAP_DEV void gtap_block_begin_segment(gtap_block_sh *sh, uint32_t b)
{
    gtap_mag_balance_one(&sh->mag, b);
    sh->fn_state = gtap_header(sh->task)->fn_state;
    GTAP_DEBUG_CHECK_RUNNABLE(sh->task, sh->fn_state, b, 0); /* J6, P6 */
    gtap_watch_begin(b, sh->fn_state); /* WD3 */
    gtap_bq_refresh(sh, b);
    sh->suspended = 0;
    sh->mag_before = sh->mag.n;
}

/* Step 3: completes the task unless it suspended (J3, J4), publishes its children, and
 * polls for an abort (sh->stop). The block also reports its progress every 16 segments
 * (WD2: the progress report, a node's agent and the distributed watchdog read it). */
template <bool kNode>
GTAP_DEV void gtap_block_end_segment(gtap_block_sh *sh, uint32_t b, gtap_stats_local *st)
{
    gtap_watch_end(b, st->batches + 1); /* WD3 */
    gtap_mag_note_demand(&sh->mag, sh->mag_before);
    if (sh->mag.n < 0)
        sh->mag.n = 0; /* failed fast-path allocations of step 2 */
    if (!sh->suspended)
        gtap_block_complete<kNode>(sh, b, sh->task);
    gtap_block_publish(sh, b);
    st->batches++;
    st->tasks++;
    if ((st->batches & 15) == 0)
        gtap_watch_progress(b, st->tasks);
    sh->stop = gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate) == GTAP_RUN_ABORT;
}

/* ---- The persistent loop ---------------------------------------------------------------- */

/* kNode: the run serves an attached distributed node (GTAP_DISTRIBUTED builds;
 * node_hooks.cuh). As in thread mode, a distributed build compiles the loop twice and
 * gtap_entry_run picks one per launch: without an attached node the hooks cost nothing. */
template <bool kNode>
static __device__ __noinline__ void gtap_block_scheduler(void)
{
    __shared__ gtap_block_sh sh_storage;
    gtap_block_sh *sh = &sh_storage;
    const uint32_t b = blockIdx.x, nblocks = gridDim.x;
    const uint32_t tid = threadIdx.x, lane = tid & 31;
    if (gtap_sched_launch_check(nblocks, 1, blockDim.x, b, tid))
        return;
    uint32_t holds_root = 1;
#if defined(GTAP_DISTRIBUTED)
    holds_root = !kNode || gtap_nh_holds_root(); /* other ranks: the work comes by steals */
#endif
    if (tid == 0) {
        gtap_block_init(sh, b, holds_root);
        gtap_watch_enter(b);                   /* WD3 */
        gtap_watch_worker(b, b == 0 ? GTAP_WATCH_BUSY : GTAP_WATCH_IDLE); /* WD1: as `active` */
        gtap_watch_progress(b, 0);             /* this launch's count (WD2; a node's agent sums them) */
    }
    __syncthreads(); /* the block's state is set before any thread reads it */

    gtap_sched_rng rng = gtap_sched_rng_init(b, lane);
    gtap_stats_local st = {};
    GTAP_PROFILE_DECL;
    uint32_t active = (b == 0);

    for (;;) {
        /* Step 1: pick a task; with none, go idle and steal, or leave. */
        if (tid == 0)
            gtap_block_pick(sh, b);
        __syncthreads(); /* sh->task is set */
        if (sh->task == GTAP_NO_TASK) {
            __syncthreads(); /* every thread has tested sh->task before warp 0 rewrites it */
            if (tid < 32)
                gtap_block_idle<kNode>(sh, b, nblocks, lane, active, &rng, &st);
            __syncthreads(); /* the stolen task, or the end, is seen by every thread */
            if (sh->stop)
                break;
            active = 1;
        }
        if (sh->acquire)
            gtap_fence_acq_rel(); /* the task's records were written by other blocks */
        if (tid == 0)
            gtap_block_begin_segment(sh, b);
        __syncthreads(); /* fn_state and the magazine are set before the segment */
        GTAP_PROFILE_BEGIN(tid == 0);

        /* Step 2: all threads run the segment. */
        gtap_worker wk;
        wk.sh = sh;
        wk.block = b;
        wk.fn_state = sh->fn_state;
        gtapgen_dispatch(&wk, wk.fn_state & 0xffffu, sh->task);
        /* Release: every thread's stores to child records and ring slots, before thread 0
         * publishes them or completes the task. */
        gtap_fence_acq_rel();
        __syncthreads();

        /* Step 3: complete and publish (thread 0). */
        if (tid == 0)
            gtap_block_end_segment<kNode>(sh, b, &st);
        GTAP_PROFILE_END(tid == 0, b, 1u);
        __syncthreads(); /* sh->stop and the next task are seen by every thread */
        if (sh->stop)
            break;
    }
    if (tid == 0)
        gtap_watch_worker(b, GTAP_WATCH_LEFT);
    if (tid < 32) {
        st.pool_slow = sh->pool_slow;
        st.records_used = gtap_pool_used(b);
        gtap_sched_exit(b, nblocks, lane, &st);
        GTAP_PROFILE_FLUSH(lane == 0, b);
    }
}

/* ---- #pragma gtap entry (gtap_entry_begin / gtap_entry_result: gtap/entry.cuh) -------- */

#if defined(GTAP_DISTRIBUTED)
/* The block's state for a node's agent (gtap/worker_block_node.cuh). */
#include "gtap/worker_block_node.cuh"

/* The agent's loop: src/inter_gpu/gpu/gpu_node_agent.cuh (included by gtap_block.cuh). */
static __device__ __noinline__ void gtap_gnode_agent(gtap_node_sh *sh, uint32_t w, uint32_t nworkers,
                                                     uint32_t lane, struct gtap_sched_rng *rng);

/* A node's agent block and the passive blocks on its SM (node_hooks.cuh) run no tasks: warp
 * 0 of block GTAP_AGENT_WORKER runs the agent's loop, warp 0 of a passive block waits for
 * the end, and their other warps leave at once (the agent uses warp collectives only, never
 * a block barrier). Returns 1 for those blocks, after they left the run; 0 for the workers,
 * which then run gtap_block_scheduler<true>. A call of its own, as gtap_thread_node_warp. */
static __device__ __noinline__ int gtap_block_node_block(void)
{
    __shared__ uint32_t sit_out;
    const uint32_t b = blockIdx.x, nblocks = gridDim.x;
    const uint32_t tid = threadIdx.x, lane = tid & 31;
    if (b != GTAP_AGENT_WORKER) {
        if (tid < 32) {
            const uint32_t passive = (uint32_t)gtap_nh_passive(b, lane);
            if (lane == 0)
                sit_out = passive;
        }
        __syncthreads(); /* sit_out is set before any thread reads it */
        if (!sit_out)
            return 0;
    }
    if (tid >= 32)
        return 1;
    __shared__ gtap_node_sh agent_sh;
    if (gtap_sched_launch_check(nblocks, 1, blockDim.x, b, lane))
        return 1;
    if (lane == 0) {
        gtap_block_init(&agent_sh.q, b, 0);
        *(volatile unsigned long long *)&gtap_dev.stats[b].tasks = 0; /* summed by the agent */
    }
    __syncwarp(); /* the block's state is set before any lane reads it */
    gtap_stats_local st = {};
    if (b == GTAP_AGENT_WORKER) {
        gtap_sched_rng rng = gtap_sched_rng_init(b, lane);
        gtap_gnode_agent(&agent_sh, b, nblocks, lane, &rng);
    } else {
        gtap_nh_sit_out(lane);
    }
    gtap_sched_exit(b, nblocks, lane, &st);
    return 1;
}
#endif

GTAP_API void gtap_entry_run(void)
{
    __syncthreads(); /* the master's root arguments are written before block 0 runs it */
#if defined(GTAP_DISTRIBUTED)
    if (gtap_nh_attached()) {
        if (!gtap_block_node_block())
            gtap_block_scheduler<true>();
        return;
    }
#endif
    gtap_block_scheduler<false>();
}

#endif /* GTAP_WORKER_BLOCK_CUH */
