/* gtap/policy_topup.cuh - SP4, top-up steals (docs/performance.md): while every warp is busy
 * with long iterations, a warp whose deque is empty and whose resume buffer (SP1) holds 1-31
 * tasks probes once for a steal before running them. Those tasks are a subtree's last levels
 * (16, 8, 4, 2, 1 parents, each a full iteration on a few lanes); a stolen subtree fills the
 * lanes, and its own resumed tasks complete the waiting batch. Thread mode, one queue, work
 * stealing, with SP1 and SP3 (whose clock look, `timing`, it uses).
 *
 * Hook: step 1, after the warp's own deque came up empty (gtap_topup_wanted, then one probe
 * round of the idle loop's, then gtap_topup_took).
 */
#ifndef GTAP_POLICY_TOPUP_CUH
#define GTAP_POLICY_TOPUP_CUH

#include "gtap/device.cuh"
#include "gtap/policy_resume.cuh"
#include "gtap/policy_spread.cuh"

#if GTAP_WITH_TOPUP_STEAL && !(GTAP_WITH_RESUME_BATCHING && GTAP_WITH_SPREAD && GTAP_Q_CLAIM_COVERED)
#error "GTAP_WITH_TOPUP_STEAL needs SP1, SP3 and a queue whose claims an active thief covers"
#endif

typedef struct gtap_topup_sh {
    uint32_t steals; /* steals before a partial resumed batch (GTAP_STATS) */
} gtap_topup_sh;

GTAP_DEV void gtap_topup_init(gtap_topup_sh *t)
{
    t->steals = 0;
}

/* Step 1, every lane (warp-uniform: shared state read after the __syncwarp ending step 5):
 * should the warp probe once before running its partial batch of resumed tasks? */
GTAP_DEV int gtap_topup_wanted(const gtap_resume_sh *resume, const gtap_spread_sh *spread)
{
#if GTAP_WITH_TOPUP_STEAL
    return gtap_dev.topup_steal && resume->hold && spread->timing && resume->n > 0 && resume->n < 32;
#else
    (void)resume;
    (void)spread;
    return 0;
#endif
}

/* Step 1, lane 0, after a top-up probe round claimed tasks. The claim counted this warp
 * active (gtap_q_steal_warp) as it counts an idle thief; this warp already is, and stays so:
 * give the count back (docs/termination.md T3). */
GTAP_DEV void gtap_topup_took(gtap_topup_sh *t)
{
    t->steals++;
    gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, -1);
}

#endif /* GTAP_POLICY_TOPUP_CUH */
