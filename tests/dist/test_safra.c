/* test_safra.c - the Safra token state machine (termination.h) against a simulated job:
 * ranks are active or passive, active ranks send basic messages (which activate their
 * receivers) and become passive at random, every message (basic or token) is delivered
 * after a random delay and out of order. Checks, over many random schedules: termination
 * is never declared while a rank is active or a basic message is in flight, and it is
 * always declared soon after the job really terminated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "termination.h"

typedef struct msg { int to, token; int64_t q; int black; uint32_t wave; int due; } msg;

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static int simulate(int n, int seed)
{
    gtap_safra s[64];
    int active[64], budget[64];
    msg *q = malloc(sizeof(msg) * 100000);
    int nq = 0, t, basic_in_flight = 0, terminated_at = -1, truly_done_at = -1;
    rng = 0x9e3779b97f4a7c15ull * (uint64_t)(seed + 1);
    for (int i = 0; i < n; i++) {
        gtap_safra_reset(&s[i], i, n);
        active[i] = i == 0; /* rank 0 holds the root */
        budget[i] = 0;
    }
    budget[0] = 200 + (int)(next() % 200); /* total basic messages the job may still send */
    for (t = 0; t < 200000; t++) {
        /* deliver due messages in random order */
        for (int k = 0; k < nq; k++) {
            if (q[k].due > t || next() % 3 == 0)
                continue;
            msg m = q[k];
            q[k] = q[--nq];
            k--;
            if (m.token) {
                if (gtap_safra_token_arrived(&s[m.to], m.q, m.black, m.wave) != 0) {
                    printf("FAIL: two tokens at rank %d\n", m.to);
                    return 1;
                }
            } else {
                gtap_safra_received(&s[m.to]);
                active[m.to] = 1;
                basic_in_flight--;
            }
        }
        for (int i = 0; i < n; i++) {
            if (active[i]) {
                int r = (int)(next() % 10);
                if (r < 3 && budget[0] > 0) { /* send work somewhere */
                    int to = (int)(next() % (uint64_t)n);
                    budget[0]--;
                    gtap_safra_sent(&s[i]);
                    q[nq++] = (msg){to, 0, 0, 0, 0, t + 1 + (int)(next() % 20)};
                    basic_in_flight++;
                } else if (r < 5) {
                    active[i] = 0;
                }
                continue;
            }
            /* passive: rank 0 always wants detection, others pass a held token */
            int64_t qq;
            int black;
            uint32_t wave;
            int act = gtap_safra_passive_step(&s[i], &qq, &black, &wave);
            if (act == GTAP_SAFRA_SEND) {
                q[nq++] = (msg){(i + 1) % n, 1, qq, black, wave, t + 1 + (int)(next() % 20)};
            } else if (act == GTAP_SAFRA_TERMINATED) {
                int any = basic_in_flight != 0;
                for (int j = 0; j < n; j++)
                    any |= active[j];
                if (any) {
                    printf("FAIL: n=%d seed=%d: termination declared at t=%d while work exists\n", n, seed, t);
                    return 1;
                }
                terminated_at = t;
                break;
            }
        }
        if (terminated_at >= 0)
            break;
        if (truly_done_at < 0) {
            int any = basic_in_flight != 0;
            for (int j = 0; j < n; j++)
                any |= active[j];
            if (!any)
                truly_done_at = t;
        }
    }
    free(q);
    if (terminated_at < 0) {
        printf("FAIL: n=%d seed=%d: termination never declared\n", n, seed);
        return 1;
    }
    /* the wave under way, one that may carry a stale black, one clean: n hops each */
    if (terminated_at - truly_done_at > 3 * n * 25 + 100) { /* at most three waves */
        printf("FAIL: n=%d seed=%d: detection took %d ticks\n", n, seed, terminated_at - truly_done_at);
        return 1;
    }
    return 0;
}

int main(void)
{
    int bad = 0, runs = 0;
    for (int n = 1; n <= 33; n += (n < 8 ? 1 : 8))
        for (int seed = 0; seed < 300; seed++, runs++)
            bad += simulate(n, seed);
    if (bad) {
        printf("FAIL: %d of %d simulated jobs\n", bad, runs);
        return 1;
    }
    printf("PASS: Safra termination in %d simulated jobs (1-32 ranks)\n", runs);
    return 0;
}
