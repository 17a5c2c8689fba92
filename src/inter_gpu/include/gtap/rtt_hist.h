/* gtap/rtt_hist.h - a histogram of steal round trips (ns) and its percentiles, the same on
 * the host (the proxy's steals) and on a GPU (the agent's direct steals), so that
 * GTAP_STATS compares the two paths bucket for bucket (docs/dist.md, "Direct steals within
 * a host"). Inline C, no state: the caller owns the GTAP_RTT_BUCKETS counters.
 *
 * Buckets: 0.5 us wide below 64 us (128 of them), then 8 per octave from 64 us to 64 us x
 * 2^16 (about 4 s; 128 more), and one for everything longer. A percentile is reported as
 * the middle of its bucket: within 0.25 us below 64 us, within 6% above.
 */
#ifndef GTAP_RTT_HIST_H
#define GTAP_RTT_HIST_H

#include <stdint.h>

#if defined(__CUDACC__)
#define GTAP_RTT_FN static inline __host__ __device__
#else
#define GTAP_RTT_FN static inline
#endif

#define GTAP_RTT_LINEAR 128u       /* 0.5 us buckets below 64 us */
#define GTAP_RTT_LINEAR_NS 500ull
#define GTAP_RTT_OCTAVES 16u
#define GTAP_RTT_PER_OCTAVE 8u
#define GTAP_RTT_BUCKETS (GTAP_RTT_LINEAR + GTAP_RTT_OCTAVES * GTAP_RTT_PER_OCTAVE + 1u)
#define GTAP_RTT_LINEAR_END (GTAP_RTT_LINEAR * GTAP_RTT_LINEAR_NS) /* 64 us */

/* The bucket of a round trip of ns nanoseconds. */
GTAP_RTT_FN uint32_t gtap_rtt_bucket(uint64_t ns)
{
    if (ns < GTAP_RTT_LINEAR_END)
        return (uint32_t)(ns / GTAP_RTT_LINEAR_NS);
    uint64_t x = ns / GTAP_RTT_LINEAR_END; /* >= 1 */
    uint32_t octave = 0;
    while (x > 1) {
        x >>= 1;
        octave++;
    }
    if (octave >= GTAP_RTT_OCTAVES)
        return GTAP_RTT_BUCKETS - 1u;
    const uint64_t lo = GTAP_RTT_LINEAR_END << octave; /* the octave is [lo, 2 lo) */
    const uint32_t sub = (uint32_t)((ns - lo) * GTAP_RTT_PER_OCTAVE / lo);
    return GTAP_RTT_LINEAR + octave * GTAP_RTT_PER_OCTAVE + sub;
}

/* The middle of bucket b in ns (the last bucket: its lower end). */
GTAP_RTT_FN uint64_t gtap_rtt_bucket_mid(uint32_t b)
{
    if (b < GTAP_RTT_LINEAR)
        return (uint64_t)b * GTAP_RTT_LINEAR_NS + GTAP_RTT_LINEAR_NS / 2;
    if (b >= GTAP_RTT_BUCKETS - 1u)
        return GTAP_RTT_LINEAR_END << GTAP_RTT_OCTAVES;
    const uint32_t octave = (b - GTAP_RTT_LINEAR) / GTAP_RTT_PER_OCTAVE;
    const uint32_t sub = (b - GTAP_RTT_LINEAR) % GTAP_RTT_PER_OCTAVE;
    const uint64_t lo = GTAP_RTT_LINEAR_END << octave, width = lo / GTAP_RTT_PER_OCTAVE;
    return lo + sub * width + width / 2;
}

/* The round trip below which a fraction num/den of the n samples in hist lie (0 when n is 0). */
GTAP_RTT_FN uint64_t gtap_rtt_percentile(const uint32_t *hist, uint64_t n, uint64_t num, uint64_t den)
{
    if (n == 0)
        return 0;
    uint64_t want = (n * num + den - 1) / den, seen = 0; /* the want-th smallest sample, 1-based */
    if (want == 0)
        want = 1;
    for (uint32_t b = 0; b < GTAP_RTT_BUCKETS; b++) {
        seen += hist[b];
        if (seen >= want)
            return gtap_rtt_bucket_mid(b);
    }
    return gtap_rtt_bucket_mid(GTAP_RTT_BUCKETS - 1u);
}

#endif /* GTAP_RTT_HIST_H */
