/* gtap/sched.cuh - what thread-level and block-level schedulers share: launch checks, victim
 * selection, the idle/steal loop of a warp, termination detection and the exit protocol.
 *
 * Termination (docs/termination.md). ctl->active counts workers that hold tasks, may push,
 * or are about to claim stolen tasks. Invariant: active == 0 implies no task exists in any
 * deque, in any worker's hands, or in transit. A worker
 *   - starts inactive, except the master worker, which holds the root (the host sets
 *     active = 1 before each launch; the exit protocol re-arms it);
 *   - goes idle only when it holds no task and its own deques are empty: it decrements
 *     active, and the worker that takes it to zero declares the run done;
 *   - increments active before claiming stolen tasks (and decrements again if the claim
 *     fails), so tasks in transit are always covered.
 * Only active workers push, and a claim made before the victim went idle is ordered before
 * the victim's decrement (fences on both sides), so the count never reaches zero early. The
 * counter is touched on idle/active transitions only, never per task.
 */
#ifndef GTAP_SCHED_CUH
#define GTAP_SCHED_CUH

#include "gtap/device.cuh"
#include "gtap/pool.cuh"

/* Idle back-off bounds (ns) between rounds of probing victims. */
#ifndef GTAP_IDLE_SLEEP_MIN_NS
#define GTAP_IDLE_SLEEP_MIN_NS 64
#endif
#ifndef GTAP_IDLE_SLEEP_MAX_NS
#define GTAP_IDLE_SLEEP_MAX_NS 4096
#endif

/* Lanes of an idle warp that each probe one random victim per round. Every probe is an L2
 * load; with thousands of idle warps, 32 probes a round measurably slowed the busy ones. */
#ifndef GTAP_PROBE_LANES
#define GTAP_PROBE_LANES 8
#endif

typedef struct gtap_stats_local {
    unsigned long long batches, tasks, steals, steal_attempts, pool_slow, records_used, resumed_batches, spreads,
        early_publishes, topup_steals;
} gtap_stats_local;

typedef struct gtap_sched_rng {
    uint32_t s;
} gtap_sched_rng;

GTAP_DEV gtap_sched_rng gtap_sched_rng_init(uint32_t worker, uint32_t lane)
{
    gtap_sched_rng r;
    r.s = (worker * 0x9e3779b9u) ^ (lane * 0x85ebca6bu) ^ (uint32_t)clock64() ^ 0x27d4eb2fu;
    if (r.s == 0)
        r.s = 1;
    return r;
}

GTAP_DEV uint32_t gtap_sched_rand(gtap_sched_rng *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

/* Picks the lane whose probed victim to claim from: a random one among those that saw at
 * least half the best count, so that idle warps spread over the non-empty victims instead of
 * all racing for the fullest one. Warp-collective; c is this lane's probe result. */
GTAP_DEV uint32_t gtap_sched_pick_victim_lane(uint32_t c, uint32_t best, gtap_sched_rng *rng)
{
    uint32_t good = __ballot_sync(0xffffffffu, c > 0 && c >= (best + 1) / 2);
    uint32_t r = __shfl_sync(0xffffffffu, gtap_sched_rand(rng), 0) % (uint32_t)__popc(good);
    for (uint32_t i = 0; i < r; i++)
        good &= good - 1; /* drop the lowest r set bits */
    return (uint32_t)(__ffs(good) - 1);
}

/* The victim lane `lane` of worker `self` probes this round: lanes 0-2 probe the worker's
 * neighbours in a virtual binary tree of workers (parent, two children), the others random
 * workers. At start-up only the master has work; through the tree it reaches every worker
 * in about log2(workers) rounds, while each worker is probed by at most three neighbours
 * (no hot spot). Random probes balance the rest of the run. */
GTAP_DEV uint32_t gtap_sched_probe_victim(uint32_t self, uint32_t nworkers, uint32_t lane, gtap_sched_rng *rng)
{
    uint32_t v;
    if (lane == 0 && self > 0)
        return (self - 1) / 2;
    if ((lane == 1 || lane == 2) && (v = 2 * self + lane) < nworkers)
        return v;
    v = gtap_sched_rand(rng) % (nworkers - 1);
    return v + (v >= self);
}

/* Checks the launch against the sizes gtap_initialize() allocated, and that no earlier
 * error is pending. Returns nonzero if the calling thread must leave at once (then every
 * thread of the grid leaves). */
GTAP_DEV int gtap_sched_launch_check(uint32_t nworkers, int have_shared, uint32_t block_threads,
                                     uint32_t worker, uint32_t lane)
{
    if (gtap_ld_relaxed_u32(&gtap_dev.ctl->error_claim) != 0)
        return 1; /* a previous run failed; gtap_reset() is required */
    if (nworkers > gtap_dev.max_workers) {
        if (worker == 0 && lane == 0)
            gtap_raise(GTAP_ERR_LAUNCH_MISMATCH, nworkers, gtap_dev.max_workers, 0, 0, -1, __LINE__);
        return 1;
    }
    if (!have_shared || (gtap_dev.mode == GTAP_MODE_BLOCK && !GTAP_BLOCK_THREADS_FIT(block_threads))) {
        if (worker == 0 && lane == 0)
            gtap_raise(GTAP_ERR_BLOCK_SIZE, block_threads, GTAP_BLOCK_SIZE, 0, 0, -1, __LINE__);
        return 1;
    }
    return 0;
}

/* The calling worker (lane 0 / thread 0 acts) holds no task and its deques are empty.
 * kNode: the worker serves an attached distributed node (worker_thread.cuh), whose run ends
 * on the proxy's STOP (docs/dist.md T1-T4): a node whose workers all went idle may still
 * import work. */
template <bool kNode = false>
GTAP_DEV void gtap_sched_go_idle_one(void)
{
    gtap_ctl *ctl = gtap_dev.ctl;
    /* Acquire: a thief's claim we observed as "empty" is ordered before our decrement,
     * so its increment of active (made before the claim) precedes ours (docs/termination.md). */
    gtap_fence_acq_rel();
    if (gtap_atomic_add_acq_rel_i32(&ctl->active, -1) == 1 && !kNode)
        gtap_st_release_u32(&ctl->terminate, GTAP_RUN_DONE); /* publishes every task's effects */
}

template <bool kNode = false>
GTAP_DEV void gtap_sched_go_idle(uint32_t lane)
{
    if (lane == 0)
        gtap_sched_go_idle_one<kNode>();
}

/* Thief side of the protocol: announce before claiming. One thread. */
GTAP_DEV void gtap_sched_announce_claim(void)
{
    gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, 1);
    gtap_fence_acq_rel(); /* the increment is ordered before the claim */
}

/* A claim announced with gtap_sched_announce_claim failed. One thread. */
template <bool kNode = false>
GTAP_DEV void gtap_sched_claim_failed(void)
{
    gtap_sched_go_idle_one<kNode>();
}

/* Current run state. Idle workers poll it, so the common read is relaxed (no L1
 * invalidation per poll); a worker that sees the run end acquires, so that it sees the
 * effects of every task (e.g. the root's result). One thread. */
GTAP_DEV uint32_t gtap_sched_run_state(void)
{
    uint32_t s = gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate);
    if (s != GTAP_RUN)
        gtap_fence_acq_rel(); /* pairs with the releasing store of the last idle worker */
    return s;
}

/* Leaves the scheduler: records the worker's statistics and, on a normal end, counts the
 * worker out; the last worker out re-arms the runtime for the next launch (every record is
 * free again, and each worker resets its own pool state when it starts). After an abort the
 * state stays as it is for the host to inspect and reset. Called by all threads of a warp
 * (thread mode) or by warp 0 of a block (block mode). */
GTAP_DEV void gtap_sched_exit(uint32_t worker, uint32_t nworkers, uint32_t lane, const gtap_stats_local *st)
{
    gtap_ctl *ctl = gtap_dev.ctl;
    if (lane != 0)
        return;
    gtap_worker_stats *s = &gtap_dev.stats[worker];
    s->batches = st->batches;
    s->tasks = st->tasks;
    s->steals = st->steals;
    s->steal_attempts = st->steal_attempts;
    s->pool_slow = st->pool_slow;
    s->records_used = st->records_used;
    s->resumed_batches = st->resumed_batches;
    s->spreads = st->spreads;
    s->early_publishes = st->early_publishes;
    s->topup_steals = st->topup_steals;
    if (gtap_ld_acquire_u32(&ctl->terminate) != GTAP_RUN_DONE)
        return;
    gtap_pool_exit(worker);
    gtap_fence_acq_rel(); /* the pool reset is done before we count ourselves out */
    if (atomicAdd(&ctl->exited, 1) == (int)nworkers - 1) {
        /* Last one out: nobody reads the counters of this launch any more. */
        ctl->exited = 0;
        ctl->active = 1;
        gtap_fence_acq_rel();
        gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN);
    }
}

#endif /* GTAP_SCHED_CUH */
