/* uts.h - Unbalanced Tree Search (Olivier et al., LCPC 2006): SHA-1 (FIPS 180-4), the UTS
 * splittable random number generator built on it, and the tree shapes (binomial, geometric
 * with linear / exponential / cyclic / fixed branching). Header-only; every function is
 * usable in host code, in GPU device code and on the host target.
 *
 * The generator (as the UTS papers describe it): a node's state is a 20-byte SHA-1 digest.
 * The root's state is SHA-1 of 16 zero bytes followed by the 32-bit seed (big-endian); the
 * i-th child's state is SHA-1 of the parent's 20 bytes followed by i (32-bit big-endian).
 * A node's random number is the last four digest bytes read big-endian, masked to 31 bits,
 * and its probability is that number / 2^31.
 */
#ifndef GTAP_UTS_H
#define GTAP_UTS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__CUDACC__)
#define UTS_FN static inline __host__ __device__
#else
#define UTS_FN static inline
#endif

/* ---- SHA-1, FIPS 180-4 section 6.1 ------------------------------------------------------ */

typedef struct uts_sha1_ctx {
    uint32_t h[5];
    uint8_t block[64];
    uint32_t fill;  /* bytes in block */
    uint64_t total; /* message bytes so far */
} uts_sha1_ctx;

UTS_FN uint32_t uts_rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

UTS_FN void uts_sha1_init(uts_sha1_ctx *c)
{
    c->h[0] = 0x67452301u; /* FIPS 180-4 5.3.1 */
    c->h[1] = 0xefcdab89u;
    c->h[2] = 0x98badcfeu;
    c->h[3] = 0x10325476u;
    c->h[4] = 0xc3d2e1f0u;
    c->fill = 0;
    c->total = 0;
}

/* One 512-bit block (FIPS 180-4 6.1.2): message schedule of 80 words, 80 rounds. */
UTS_FN void uts_sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80], a, b, c, d, e;
    int t;
    for (t = 0; t < 16; t++)
        w[t] = ((uint32_t)p[4 * t] << 24) | ((uint32_t)p[4 * t + 1] << 16) |
               ((uint32_t)p[4 * t + 2] << 8) | (uint32_t)p[4 * t + 3];
    for (t = 16; t < 80; t++)
        w[t] = uts_rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4];
    for (t = 0; t < 80; t++) {
        uint32_t f, k, tmp;
        if (t < 20) {
            f = (b & c) ^ (~b & d);         /* Ch */
            k = 0x5a827999u;
        } else if (t < 40) {
            f = b ^ c ^ d;                  /* Parity */
            k = 0x6ed9eba1u;
        } else if (t < 60) {
            f = (b & c) ^ (b & d) ^ (c & d); /* Maj */
            k = 0x8f1bbcdcu;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6u;
        }
        tmp = uts_rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = uts_rotl(b, 30);
        b = a;
        a = tmp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

UTS_FN void uts_sha1_update(uts_sha1_ctx *c, const void *data, uint64_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    c->total += len;
    while (len > 0) {
        uint32_t n = 64 - c->fill;
        if (n > len)
            n = (uint32_t)len;
        memcpy(c->block + c->fill, p, n);
        c->fill += n;
        p += n;
        len -= n;
        if (c->fill == 64) {
            uts_sha1_block(c->h, c->block);
            c->fill = 0;
        }
    }
}

/* Padding (FIPS 180-4 5.1.1): a 1 bit, zeros, the message length in bits (64-bit BE). */
UTS_FN void uts_sha1_final(uts_sha1_ctx *c, uint8_t out[20])
{
    uint64_t bits = c->total * 8;
    int i;
    c->block[c->fill++] = 0x80;
    if (c->fill > 56) {
        memset(c->block + c->fill, 0, 64 - c->fill);
        uts_sha1_block(c->h, c->block);
        c->fill = 0;
    }
    memset(c->block + c->fill, 0, 56 - c->fill);
    for (i = 0; i < 8; i++)
        c->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    uts_sha1_block(c->h, c->block);
    for (i = 0; i < 5; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
}

UTS_FN void uts_sha1(const void *data, uint64_t len, uint8_t out[20])
{
    uts_sha1_ctx c;
    uts_sha1_init(&c);
    uts_sha1_update(&c, data, len);
    uts_sha1_final(&c, out);
}

/* ---- the splittable generator ----------------------------------------------------------- */

/* A node's state: its 20-byte digest as the five 32-bit words SHA-1 computes (byte 4k is the
 * top byte of h[k]), so that spawning a child never packs or unpacks bytes. */
typedef struct uts_state {
    uint32_t h[5];
} uts_state;

#if defined(__CUDA_ARCH__)
#define UTS_UNROLL _Pragma("unroll")
#else
#define UTS_UNROLL
#endif

UTS_FN void uts_rng_init(uts_state *s, int32_t seed)
{
    uint8_t m[20], d[20];
    memset(m, 0, 16);
    m[16] = (uint8_t)((uint32_t)seed >> 24);
    m[17] = (uint8_t)((uint32_t)seed >> 16);
    m[18] = (uint8_t)((uint32_t)seed >> 8);
    m[19] = (uint8_t)seed;
    uts_sha1(m, 20, d);
    for (int k = 0; k < 5; k++)
        s->h[k] = ((uint32_t)d[4 * k] << 24) | ((uint32_t)d[4 * k + 1] << 16) | ((uint32_t)d[4 * k + 2] << 8) |
                  (uint32_t)d[4 * k + 3];
}

/* The i-th child: SHA-1 of the parent's 20 bytes followed by i, 24 bytes, which is one block
 * whose padding is fixed (FIPS 180-4 5.1.1): words 0-4 the parent's digest words, word 5 i,
 * word 6 the padding's 1 bit, words 7-14 zero, word 15 the length, 192 bits. The schedule is
 * the 16-word ring of FIPS 180-4 6.1.3, so the whole hash stays in registers (uts_sha1, with
 * its byte buffers indexed at run time, puts them in local memory on the GPU). Equal to
 * uts_sha1 of those 24 bytes: the unit test tests/dist uts_seq --sha1-selftest checks it. */
UTS_FN void uts_rng_spawn(const uts_state *parent, int32_t i, uts_state *child)
{
    uint32_t w[16], a, b, c, d, e;
    for (int t = 0; t < 5; t++)
        w[t] = parent->h[t];
    w[5] = (uint32_t)i;
    w[6] = 0x80000000u;
    for (int t = 7; t < 15; t++)
        w[t] = 0;
    w[15] = 24 * 8;
    a = 0x67452301u; b = 0xefcdab89u; c = 0x98badcfeu; d = 0x10325476u; e = 0xc3d2e1f0u;
    UTS_UNROLL
    for (int t = 0; t < 80; t++) {
        uint32_t f, k, wt, tmp;
        if (t < 16) {
            wt = w[t];
        } else {
            wt = uts_rotl(w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[t & 15], 1);
            w[t & 15] = wt;
        }
        if (t < 20) {
            f = (b & c) ^ (~b & d);
            k = 0x5a827999u;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1u;
        } else if (t < 60) {
            f = (b & c) ^ (b & d) ^ (c & d);
            k = 0x8f1bbcdcu;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6u;
        }
        tmp = uts_rotl(a, 5) + f + e + k + wt;
        e = d;
        d = c;
        c = uts_rotl(b, 30);
        b = a;
        a = tmp;
    }
    child->h[0] = 0x67452301u + a;
    child->h[1] = 0xefcdab89u + b;
    child->h[2] = 0x98badcfeu + c;
    child->h[3] = 0x10325476u + d;
    child->h[4] = 0xc3d2e1f0u + e;
}

/* The node's random number: its last four digest bytes, big-endian, masked to 31 bits. */
UTS_FN int32_t uts_rng_rand(const uts_state *s) { return (int32_t)(s->h[4] & 0x7fffffffu); }

UTS_FN double uts_rng_prob(int32_t r) { return r < 0 ? 0.0 : (double)r / 2147483648.0; }

/* ---- tree shapes ------------------------------------------------------------------------ */

enum { UTS_BIN = 0, UTS_GEO = 1 };
enum { UTS_LINEAR = 0, UTS_EXPDEC = 1, UTS_CYCLIC = 2, UTS_FIXED = 3 };
#define UTS_MAX_CHILDREN 100 /* cap on children (the binomial root is exempt) */

typedef struct uts_params {
    int type;        /* UTS_BIN / UTS_GEO */
    int shape;       /* geometric: UTS_LINEAR ... UTS_FIXED */
    int gen_mx;      /* geometric: depth parameter */
    int seed;        /* root seed */
    int m;           /* binomial: children of a non-leaf */
    double b0;       /* root branching factor (binomial root: floor(b0) children) */
    double q;        /* binomial: probability that a node has m children */
} uts_params;

/* Expected branching factor of a geometric node at depth > 0. */
UTS_FN double uts_geo_b(const uts_params *p, int depth)
{
    switch (p->shape) {
    case UTS_EXPDEC:
        return p->b0 * pow((double)depth, -log(p->b0) / log((double)p->gen_mx));
    case UTS_CYCLIC:
        if (depth > 5 * p->gen_mx)
            return 0.0;
        return pow(p->b0, sin(2.0 * 3.141592653589793 * (double)depth / (double)p->gen_mx));
    case UTS_FIXED:
        return depth < p->gen_mx ? p->b0 : 0.0;
    case UTS_LINEAR:
    default:
        return p->b0 * (1.0 - (double)depth / (double)p->gen_mx);
    }
}

/* Number of children of the node with state s at depth `depth` (root: 0). */
UTS_FN int uts_num_children(const uts_params *p, const uts_state *s, int depth)
{
    int n;
    if (p->type == UTS_BIN) {
        if (depth == 0)
            return (int)floor(p->b0); /* <= ceil(b0): no cap needed */
        n = uts_rng_prob(uts_rng_rand(s)) < p->q ? p->m : 0;
    } else {
        /* geometric: inverse CDF of the geometric distribution with mean b */
        double b = depth > 0 ? uts_geo_b(p, depth) : p->b0;
        double prob = 1.0 / (1.0 + b);
        double u = uts_rng_prob(uts_rng_rand(s));
        n = (int)floor(log(1.0 - u) / log(1.0 - prob));
    }
    return n > UTS_MAX_CHILDREN ? UTS_MAX_CHILDREN : n;
}

/* Named configurations with their size / depth / leaves: `published` = the statistics
 * listed with the UTS distribution's sample workloads (sample_workloads.csh; our sequential
 * count reproduces them exactly), else our own sequential count (uts_seq), used by tests.
 * UTS_UNKNOWN: a statistic the table does not give (the XXL trees list only their size, T1XXL
 * also its depth). Every count is 64-bit: T1XXL has more than 2^32 nodes, T3XXL 2^31. */
#define UTS_UNKNOWN (-1LL)
typedef struct uts_preset {
    const char *name;
    uts_params p;
    long long size, depth, leaves;
    int published;
} uts_preset;

static const uts_preset uts_presets[] = {
    /* T1 geometric fixed: -t 1 -a 3 -d 10 -b 4 -r 19 */
    {"T1", {UTS_GEO, UTS_FIXED, 10, 19, 0, 4.0, 0.0}, 4130071, 10, 3305118, 1},
    /* T5 geometric linear: -t 1 -a 0 -d 20 -b 4 -r 34 */
    {"T5", {UTS_GEO, UTS_LINEAR, 20, 34, 0, 4.0, 0.0}, 4147582, 20, 2181318, 1},
    /* T2 geometric cyclic: -t 1 -a 2 -d 16 -b 6 -r 502 */
    {"T2", {UTS_GEO, UTS_CYCLIC, 16, 502, 0, 6.0, 0.0}, 4117769, 81, 2342762, 1},
    /* T3 binomial: -t 0 -b 2000 -q 0.124875 -m 8 -r 42 */
    {"T3", {UTS_BIN, 0, 0, 42, 8, 2000.0, 0.124875}, 4112897, 1572, 3599034, 1},
    /* large (~100 M nodes): T1L geometric fixed: -t 1 -a 3 -d 13 -b 4 -r 29 */
    {"T1L", {UTS_GEO, UTS_FIXED, 13, 29, 0, 4.0, 0.0}, 102181082LL, 13, 81746377LL, 1},
    /* T3L binomial: -t 0 -b 2000 -q 0.200014 -m 5 -r 7 */
    {"T3L", {UTS_BIN, 0, 0, 7, 5, 2000.0, 0.200014}, 111345631LL, 17844, 89076904LL, 1},
    /* extra extra large (T1XXL > 2^32 nodes, T3XXL > 2^31; GPU runs): T1XXL geometric fixed:
     * -t 1 -a 3 -d 15 -b 4 -r 19; T3XXL binomial: -t 0 -b 2000 -q 0.499995 -m 2 -r 316 */
    {"T1XXL", {UTS_GEO, UTS_FIXED, 15, 19, 0, 4.0, 0.0}, 4230646601LL, 15, UTS_UNKNOWN, 1},
    {"T3XXL", {UTS_BIN, 0, 0, 316, 2, 2000.0, 0.499995}, 2793220501LL, UTS_UNKNOWN, UTS_UNKNOWN, 1},
    /* smaller T1-like (depth 7, 8) and T3-like (q 0.11, 0.12) trees for tests */
    {"T1S", {UTS_GEO, UTS_FIXED, 7, 19, 0, 4.0, 0.0}, 63914, 7, 51124, 0},
    {"T1M", {UTS_GEO, UTS_FIXED, 8, 19, 0, 4.0, 0.0}, 257042, 8, 205878, 0},
    {"T3S", {UTS_BIN, 0, 0, 42, 8, 2000.0, 0.11}, 14929, 47, 13312, 0},
    {"T3M", {UTS_BIN, 0, 0, 42, 8, 2000.0, 0.12}, 62689, 124, 55102, 0},
};

/* The preset called `name`, or NULL. Host code only. */
static inline const uts_preset *uts_find_preset(const char *name)
{
    for (size_t i = 0; i < sizeof uts_presets / sizeof uts_presets[0]; i++)
        if (strcmp(uts_presets[i].name, name) == 0)
            return &uts_presets[i];
    return NULL;
}

/* The task programs' command line, PRESET [runs=1] and, with budget_p, [budget=default_budget]
 * (each >= 1, the budget < 2^31). Returns 0, or 2 after a one-line error naming the value.
 * Host code only. */
static inline int uts_parse_args(int argc, char **argv, const char *prog, const uts_preset **pr_p, int *runs_p,
                                 long *budget_p, long default_budget)
{
    const int max_args = budget_p ? 4 : 3;
    char *end = NULL;
    *pr_p = uts_find_preset(argc > 1 ? argv[1] : "T1S");
    if (!*pr_p) {
        fprintf(stderr, "%s: unknown UTS preset %s (uts.h lists them)\n", prog, argv[1]);
        return 2;
    }
    const long runs = argc > 2 ? strtol(argv[2], &end, 10) : 1;
    if (argc > 2 && (*end || runs < 1 || runs > 1000000)) {
        fprintf(stderr, "%s: runs %s: must be a number in [1, 10^6]\n", prog, argv[2]);
        return 2;
    }
    *runs_p = (int)runs;
    if (budget_p) {
        *budget_p = argc > 3 ? strtol(argv[3], &end, 10) : default_budget;
        if (argc > 3 && (*end || *budget_p < 1 || *budget_p > 0x7fffffffL)) {
            fprintf(stderr, "%s: budget %s: must be a number in [1, 2^31 - 1]\n", prog, argv[3]);
            return 2;
        }
    }
    if (argc > max_args) {
        fprintf(stderr, "%s: unexpected argument %s\n", prog, argv[max_args]);
        return 2;
    }
    return 0;
}

static inline double uts_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Prints a task program's line for one run (PASS or FAIL, the count against the preset's,
 * ranks, time, rate; apps/uts/README.md) and returns 0, or 1 on a mismatch. Host code only. */
static inline int uts_report(const uts_preset *pr, long long nodes, int ranks, double ms)
{
    const char *src = pr->published ? "published count" : "sequential count";
    const double mnps = ms > 0 ? (double)nodes / (ms * 1e3) : 0.0;
    if (nodes == pr->size) {
        printf("PASS: UTS %s = %lld nodes (%s: ok) on %d rank(s) in %.3f ms, %.2f Mnodes/s\n", pr->name, nodes, src,
               ranks, ms, mnps);
        return 0;
    }
    printf("FAIL: UTS %s = %lld nodes, expected %lld (%s: MISMATCH) on %d rank(s) in %.3f ms, %.2f Mnodes/s\n",
           pr->name, nodes, pr->size, src, ranks, ms, mnps);
    return 1;
}

#endif /* GTAP_UTS_H */
