/* test_policies.c - SP0 (docs/performance.md): gtap_policies_decide turns the program's
 * macros, the environment, the mode, the scheduler and the queue count into the policies
 * that run, and refuses out-of-range knobs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policies.h"

static int failures;

#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);          \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

/* A thread-mode program built with the defaults: every policy compiled in and on. */
static gtap_config_t defaults(void)
{
    gtap_config_t c;
    memset(&c, 0, sizeof c);
    c.mode = GTAP_MODE_THREAD;
    c.sched = GTAP_SCHED_WS;
    c.num_queues = 1;
    c.resume_batching = 1;
    c.early_publish = 1;
    c.spread = 4;
    c.topup_steal = 1;
    c.policies_compiled = 15;
    return c;
}

static void clear_env(void)
{
    unsetenv("GTAP_RESUME_BATCHING");
    unsetenv("GTAP_EARLY_PUBLISH");
    unsetenv("GTAP_SPREAD");
    unsetenv("GTAP_TOPUP_STEAL");
}

static int all_off_because(const gtap_policy_decision *d, const char *why)
{
    return !d->resume_batching && !d->early_publish && !d->spread && !d->topup_steal &&
           strstr(d->why_off[0], why) && strstr(d->why_off[1], why) && strstr(d->why_off[2], why) &&
           strstr(d->why_off[3], why);
}

int main(void)
{
    gtap_policy_decision d;
    gtap_config_t c = defaults();

    clear_env();
    EXPECT(gtap_policies_decide(&c, &d) == 0);
    EXPECT(d.resume_batching == 1 && d.early_publish == 1 && d.spread == 4 && d.topup_steal == 1);
    EXPECT(!d.why_off[0] && !d.why_off[1] && !d.why_off[2] && !d.why_off[3]);

    c.num_queues = 2; /* EPAQ */
    EXPECT(gtap_policies_decide(&c, &d) == 0 && all_off_because(&d, "EPAQ"));
    c = defaults();
    c.mode = GTAP_MODE_BLOCK;
    EXPECT(gtap_policies_decide(&c, &d) == 0 && all_off_because(&d, "block mode"));
    c = defaults();
    c.sched = GTAP_SCHED_GQ;
    EXPECT(gtap_policies_decide(&c, &d) == 0 && all_off_because(&d, "global-queue"));

    /* compiled out: off whatever the knobs say */
    c = defaults();
    c.policies_compiled = 15 & ~2;
    setenv("GTAP_EARLY_PUBLISH", "1", 1);
    EXPECT(gtap_policies_decide(&c, &d) == 0 && !d.early_publish && strstr(d.why_off[1], "compiled out"));
    EXPECT(d.resume_batching && d.spread && d.topup_steal);
    clear_env();

    /* the environment overrides the macro, both ways */
    c = defaults();
    c.spread = 0;
    setenv("GTAP_SPREAD", "16", 1);
    EXPECT(gtap_policies_decide(&c, &d) == 0 && d.spread == 16);
    setenv("GTAP_SPREAD", "0", 1);
    c.spread = 4;
    EXPECT(gtap_policies_decide(&c, &d) == 0 && d.spread == 0 && !strcmp(d.why_off[2], "GTAP_SPREAD"));
    /* SP4 needs SP1 and SP3 */
    EXPECT(!d.topup_steal && strstr(d.why_off[3], "SP3"));
    clear_env();
    setenv("GTAP_RESUME_BATCHING", "0", 1);
    EXPECT(gtap_policies_decide(&c, &d) == 0 && !d.resume_batching && !d.topup_steal &&
           strstr(d.why_off[3], "SP1") && d.early_publish && d.spread == 4);
    clear_env();

    /* out of range: refused, every time */
    setenv("GTAP_SPREAD", "17", 1);
    EXPECT(gtap_policies_decide(&c, &d) != 0);
    EXPECT(gtap_policies_decide(&c, &d) != 0);
    clear_env();
    setenv("GTAP_RESUME_BATCHING", "2", 1);
    EXPECT(gtap_policies_decide(&c, &d) != 0);
    clear_env();
    setenv("GTAP_TOPUP_STEAL", "-1", 1);
    EXPECT(gtap_policies_decide(&c, &d) != 0);
    clear_env();
    setenv("GTAP_EARLY_PUBLISH", "2", 1);
    EXPECT(gtap_policies_decide(&c, &d) != 0);
    clear_env();

    gtap_policies_decide(&c, &d);
    gtap_policies_print(&d);
    if (failures)
        fprintf(stderr, "test_policies: %d failure(s)\n", failures);
    else
        printf("test_policies: ok\n");
    return failures != 0;
}
