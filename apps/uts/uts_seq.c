/* uts_seq.c - sequential UTS: counts a tree's nodes, depth and leaves with an explicit
 * stack, checks SHA-1 against the FIPS 180-4 examples, and compares named trees with their
 * published statistics. Usage:
 *   uts_seq --sha1-selftest
 *   uts_seq PRESET [--check]   e.g. T1, T3, T1L (--check: exit 1 unless the preset's numbers
 *                              match; statistics the table does not give are not compared)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uts.h"

typedef struct item {
    uts_state s;
    int depth;
} item;

/* Counts the tree; returns 0, or -1 when out of memory. */
static int uts_count(const uts_params *p, long long *size_p, long long *depth_p, long long *leaves_p)
{
    size_t cap = 1 << 16, n = 0;
    item *st = (item *)malloc(cap * sizeof *st);
    long long size = 0, depth = 0, leaves = 0;
    if (!st)
        return -1;
    uts_rng_init(&st[0].s, p->seed);
    st[0].depth = 0;
    n = 1;
    while (n > 0) {
        item it = st[--n];
        int nc = uts_num_children(p, &it.s, it.depth);
        size++;
        if (it.depth > depth)
            depth = it.depth;
        if (nc == 0) {
            leaves++;
            continue;
        }
        if (n + (size_t)nc > cap) {
            while (n + (size_t)nc > cap)
                cap *= 2;
            item *ns = (item *)realloc(st, cap * sizeof *st);
            if (!ns) {
                free(st);
                return -1;
            }
            st = ns;
        }
        for (int i = 0; i < nc; i++) {
            uts_rng_spawn(&it.s, i, &st[n].s);
            st[n].depth = it.depth + 1;
            n++;
        }
    }
    free(st);
    *size_p = size;
    *depth_p = depth;
    *leaves_p = leaves;
    return 0;
}

static int hex_equal(const uint8_t d[20], const char *hex)
{
    char buf[41];
    for (int i = 0; i < 20; i++)
        snprintf(buf + 2 * i, 3, "%02x", d[i]);
    return strcmp(buf, hex) == 0;
}

/* FIPS 180-4 examples (NIST CSRC "SHA1.pdf") plus the one-million-'a' message. */
static int sha1_selftest(void)
{
    static const struct { const char *msg; const char *digest; } v[] = {
        {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
        {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
    };
    uint8_t d[20];
    int bad = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uts_sha1(v[i].msg, strlen(v[i].msg), d);
        if (!hex_equal(d, v[i].digest)) {
            printf("FAIL: SHA-1(\"%s\")\n", v[i].msg);
            bad = 1;
        }
    }
    {
        uts_sha1_ctx c;
        char a[1000];
        memset(a, 'a', sizeof a);
        uts_sha1_init(&c);
        for (int i = 0; i < 1000; i++)
            uts_sha1_update(&c, a, sizeof a);
        uts_sha1_final(&c, d);
        if (!hex_equal(d, "34aa973cd4c4daa4f61eeb2bdbad27316534016f")) {
            printf("FAIL: SHA-1 of one million 'a'\n");
            bad = 1;
        }
    }
    /* uts_rng_spawn's one-block hash against the general one, on a chain of states */
    {
        uts_state s, c;
        uts_rng_init(&s, 19);
        for (int32_t i = 0; i < 4096 && !bad; i++) {
            uint8_t m[24];
            for (int k = 0; k < 5; k++)
                for (int j = 0; j < 4; j++)
                    m[4 * k + j] = (uint8_t)(s.h[k] >> (24 - 8 * j));
            for (int j = 0; j < 4; j++)
                m[20 + j] = (uint8_t)((uint32_t)i >> (24 - 8 * j));
            uts_sha1(m, 24, d);
            uts_rng_spawn(&s, i, &c);
            for (int k = 0; k < 20; k++)
                if (d[k] != (uint8_t)(c.h[k / 4] >> (24 - 8 * (k % 4)))) {
                    printf("FAIL: uts_rng_spawn's hash of child %d differs from SHA-1\n", (int)i);
                    bad = 1;
                    break;
                }
            s = c;
        }
    }
    if (!bad)
        printf("PASS: SHA-1 matches the FIPS 180-4 examples, and uts_rng_spawn matches SHA-1\n");
    return bad;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One statistic against the table's (UTS_UNKNOWN: not compared). */
static int stat_mismatch(long long got, long long want) { return want != UTS_UNKNOWN && got != want; }

static const char *stat_verdict(long long got, long long want)
{
    if (want == UTS_UNKNOWN)
        return "not published";
    return stat_mismatch(got, want) ? "MISMATCH" : "ok";
}

int main(int argc, char **argv)
{
    const uts_preset *pr;
    long long size, depth, leaves;
    double t0, s;
    int check = argc > 2 && strcmp(argv[2], "--check") == 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s --sha1-selftest | PRESET [--check]\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "--sha1-selftest") == 0)
        return sha1_selftest();
    pr = uts_find_preset(argv[1]);
    if (!pr) {
        fprintf(stderr, "unknown preset %s\n", argv[1]);
        return 2;
    }
    t0 = now_s();
    if (uts_count(&pr->p, &size, &depth, &leaves) != 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    s = now_s() - t0;
    printf("%s: size %lld, depth %lld, leaves %lld in %.3f s, %.2f Mnodes/s\n", pr->name, size, depth,
           leaves, s, s > 0 ? (double)size / s / 1e6 : 0.0);
    if (check) {
        const char *src = pr->published ? "published" : "recorded";
        printf("%s: %s size %lld: %s, depth %lld: %s, leaves %lld: %s\n", pr->name, src, pr->size,
               stat_verdict(size, pr->size), pr->depth, stat_verdict(depth, pr->depth), pr->leaves,
               stat_verdict(leaves, pr->leaves));
        if (stat_mismatch(size, pr->size) || stat_mismatch(depth, pr->depth) ||
            stat_mismatch(leaves, pr->leaves)) {
            printf("FAIL: %s does not match the %s statistics\n", pr->name, src);
            return 1;
        }
        printf("PASS: %s matches the %s statistics\n", pr->name, src);
    }
    return 0;
}
