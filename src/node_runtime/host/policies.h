/* policies.h - SP0 (docs/performance.md): which of thread mode's scheduling policies SP1-SP4 run,
 * decided once at initialization. */
#ifndef GTAP_HOST_POLICIES_H
#define GTAP_HOST_POLICIES_H

#include "gtap/state.h"

typedef struct gtap_policy_decision {
    int32_t resume_batching; /* SP1: 0 or 1 */
    int32_t early_publish;   /* SP2: 0 or 1 */
    int32_t spread;          /* SP3: 0 (off) or sixteenths of the warps, 1..16 */
    int32_t topup_steal;     /* SP4: 0 or 1 */
    const char *why_off[4];  /* for SP1..SP4: why a policy is off; NULL when on */
} gtap_policy_decision;

/* Decides SP1-SP4 from, in this order: the worker mode, scheduler and queue count (each
 * policy needs thread mode, the work-stealing deque and one queue); whether the program
 * compiled the policy in (cfg->policies_compiled, GTAP_WITH_<POLICY>); the environment variable of the policy's knob, which overrides the
 * macro value the program was built with (cfg->resume_batching, ...); and SP4's need of SP1
 * and SP3. Writes *d. Returns 0, or nonzero after printing an error naming the knob when an
 * environment value is out of its range (checked in every configuration). */
int gtap_policies_decide(const gtap_config_t *cfg, gtap_policy_decision *d);

/* Prints the decision as one line to stderr ("gtap: policies: SP1 resume batching on; ..."). */
void gtap_policies_print(const gtap_policy_decision *d);

#endif /* GTAP_HOST_POLICIES_H */
