/* policies.c - SP0 (docs/performance.md): the one place that decides which scheduling
 * policies run. */
#include <stdio.h>
#include <string.h>

#include "host_internal.h"
#include "policies.h"

/* Why no policy can run in this configuration, or NULL. */
static const char *scope_off(const gtap_config_t *cfg)
{
    if (cfg->mode != GTAP_MODE_THREAD)
        return "block mode";
    if (cfg->sched == GTAP_SCHED_GQ)
        return "global-queue scheduler";
    if (cfg->sched == GTAP_SCHED_CL)
        return "Chase-Lev scheduler";
    if (cfg->num_queues != 1)
        return "EPAQ (GTAP_NUM_QUEUES > 1)";
    return NULL;
}

/* The knob's value: the environment's if set, else the program's macro value. Range-checked. */
static int knob(const char *name, int32_t macro, int32_t lo, int32_t hi, const char *range, int32_t *value_p)
{
    const long long v = gtap_host_env_ll(name, macro);
    if (v < lo || v > hi) {
        fprintf(stderr, "gtap: error: %s=%lld must be %s\n", name, v, range);
        return 1;
    }
    *value_p = (int32_t)v;
    return 0;
}

int gtap_policies_decide(const gtap_config_t *cfg, gtap_policy_decision *d)
{
    static const char *const names[4] = {"GTAP_RESUME_BATCHING", "GTAP_EARLY_PUBLISH", "GTAP_SPREAD",
                                         "GTAP_TOPUP_STEAL"};
    int32_t want[4];
    if (knob(names[0], cfg->resume_batching, 0, 1, "0 (off) or 1 (on)", &want[0]) ||
        knob(names[1], cfg->early_publish, 0, 1, "0 (off) or 1 (on)", &want[1]) ||
        knob(names[2], cfg->spread, 0, 16, "in [0, 16] (sixteenths of the warps; 0 = off)", &want[2]) ||
        knob(names[3], cfg->topup_steal, 0, 1, "0 (off) or 1 (on)", &want[3]))
        return 1;
    const char *scope = scope_off(cfg);
    for (int i = 0; i < 4; i++) {
        d->why_off[i] = NULL;
        if (scope)
            d->why_off[i] = scope;
        else if (!(cfg->policies_compiled & (1 << i)))
            d->why_off[i] = "compiled out";
        else if (!want[i])
            d->why_off[i] = names[i];
        if (d->why_off[i])
            want[i] = 0;
    }
    if (want[3] && (!want[0] || !want[2])) { /* SP4 runs on SP1's buffer and SP3's clock look */
        d->why_off[3] = !want[0] ? "needs SP1" : "needs SP3";
        want[3] = 0;
    }
    d->resume_batching = want[0];
    d->early_publish = want[1];
    d->spread = want[2];
    d->topup_steal = want[3];
    return 0;
}

void gtap_policies_print(const gtap_policy_decision *d)
{
    static const char *const what[4] = {"SP1 resume batching", "SP2 early publishing", "SP3 spreading",
                                        "SP4 top-up steals"};
    fprintf(stderr, "gtap: policies:");
    for (int i = 0; i < 4; i++) {
        const char *sep = i < 3 ? ";" : "";
        if (!d->why_off[i] && i == 2)
            fprintf(stderr, " %s on (below %d/16 of the warps busy)%s", what[i], d->spread, sep);
        else if (!d->why_off[i])
            fprintf(stderr, " %s on%s", what[i], sep);
        else if (!strncmp(d->why_off[i], "GTAP_", 5)) /* a knob's name: the user turned it off */
            fprintf(stderr, " %s off (%s=0)%s", what[i], d->why_off[i], sep);
        else
            fprintf(stderr, " %s off (%s)%s", what[i], d->why_off[i], sep);
    }
    fprintf(stderr, "\n");
}
