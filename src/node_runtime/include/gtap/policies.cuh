/* gtap/policies.cuh - thread mode's scheduling policies SP1-SP4 (docs/performance.md), each in
 * a header of its own with its own state and hooks into the scheduler loop
 * (worker_thread.cuh), and what they share: the per-warp state block, initialization, the
 * load look that switches SP1 and SP2 with the GPU's load, and their counters.
 *
 * Which policies run is decided twice, once at each level (docs/performance.md SP0):
 *   - compile time: GTAP_WITH_<POLICY> (default 1 where the policy can apply; the global-queue
 *     and Chase-Lev ablations compile every policy out). A policy compiled out has constant
 *     hooks and costs nothing in the loop.
 *   - initialization: gtap_policies_decide() (host/policies.c) combines the macros, the
 *     environment, the mode and the queue count into gtap_dev.resume_batching, .early_publish,
 *     .spread and .topup_steal, and GTAP_STATS prints the decision.
 * Included by worker_thread.cuh after the warp's queue header (gtap_q_*).
 */
#ifndef GTAP_POLICIES_CUH
#define GTAP_POLICIES_CUH

#if defined(GTAP_SCHED_GLOBAL_QUEUE) || defined(GTAP_SCHED_CHASELEV)
#undef GTAP_WITH_RESUME_BATCHING
#undef GTAP_WITH_EARLY_PUBLISH
#undef GTAP_WITH_SPREAD
#undef GTAP_WITH_TOPUP_STEAL
#define GTAP_WITH_RESUME_BATCHING 0
#define GTAP_WITH_EARLY_PUBLISH 0
#define GTAP_WITH_SPREAD 0
#define GTAP_WITH_TOPUP_STEAL 0
#endif
#ifndef GTAP_WITH_RESUME_BATCHING
#define GTAP_WITH_RESUME_BATCHING 1
#endif
#ifndef GTAP_WITH_EARLY_PUBLISH
#define GTAP_WITH_EARLY_PUBLISH 1
#endif
#ifndef GTAP_WITH_SPREAD
#define GTAP_WITH_SPREAD 1
#endif
#ifndef GTAP_WITH_TOPUP_STEAL
#define GTAP_WITH_TOPUP_STEAL (GTAP_WITH_RESUME_BATCHING && GTAP_WITH_SPREAD)
#endif

#include "gtap/policy_resume.cuh"
#include "gtap/policy_early.cuh"
#include "gtap/policy_spread.cuh"
#include "gtap/policy_topup.cuh"
#include "gtap/sched.cuh"

/* The compile-time half of SP0, for gtap_policies_decide: bit i set = policy P(i+1) compiled in. */
#define GTAP_POLICIES_COMPILED                                                                           \
    ((GTAP_WITH_RESUME_BATCHING ? 1 : 0) | (GTAP_WITH_EARLY_PUBLISH ? 2 : 0) | (GTAP_WITH_SPREAD ? 4 : 0) |  \
     (GTAP_WITH_TOPUP_STEAL ? 8 : 0))

/* The policies' per-warp state, beside the queue's (gtap_warp_sh) in shared memory. */
typedef struct gtap_warp_policies {
    gtap_resume_sh resume; /* SP1 */
    gtap_early_sh early;   /* SP2 */
    gtap_spread_sh spread; /* SP3 */
    gtap_topup_sh topup;   /* SP4 */
} gtap_warp_policies;

/* Lane 0, at the start of a launch. */
GTAP_DEV void gtap_policies_init(gtap_warp_policies *p)
{
    gtap_resume_init(&p->resume);
    gtap_early_init(&p->early);
    gtap_topup_init(&p->topup);
    gtap_spread_init(&p->spread);
}

/* The load look, warp-collective, after step 5 of every 8th iteration: SP1 holds resumed tasks
 * back only while (nearly) every warp has work - a waiting task that would spawn, or resume a
 * parent that spawns, is parallelism that idle warps cannot steal (cilksort 10^6 took 1.39x as
 * long when every warp kept waiting). SP2 is the converse: worth its fences and pops only while
 * idle warps wait for work. One L2 load per 8 iterations, by lane 0. */
GTAP_DEV void gtap_policies_look_at_load(gtap_warp_policies *p, uint32_t nworkers, uint32_t lane,
                                         unsigned long long batches)
{
    if (!((GTAP_WITH_RESUME_BATCHING && gtap_dev.resume_batching) ||
          (GTAP_WITH_EARLY_PUBLISH && gtap_dev.early_publish)) ||
        (batches & 7) != 4)
        return;
    if (lane == 0) {
        const int32_t active = (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active);
        const int saturated = active >= (int32_t)(nworkers - nworkers / 16);
        p->resume.hold = gtap_dev.resume_batching && saturated;
        p->early.ok = gtap_dev.early_publish && !saturated;
    }
    __syncwarp(); /* the new hold and ok are read by every lane in the next iteration */
}

/* At the end of a launch: the policies' counters into the worker's statistics. */
GTAP_DEV void gtap_policies_stats(const gtap_warp_policies *p, gtap_stats_local *st)
{
    st->resumed_batches = p->resume.batches;
    st->spreads = p->spread.spreads;
    st->early_publishes = p->early.publishes;
    st->topup_steals = p->topup.steals;
}

#endif /* GTAP_POLICIES_CUH */
