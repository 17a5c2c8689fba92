/* hetero_common.h - what the heterogeneous tree's programs (GPU, host target, C baselines)
 * share besides the kernels: the command-line options and their checks, the tree's shape,
 * and the host-side check of a run's answer (C11 and CUDA C++; header-only).
 *
 * The tree: the full binary tree of height --n in heap numbering (node i has children 2i + 1
 * and 2i + 2; 2^(n+1) - 1 nodes). Inner nodes only spawn and join; leaf j (node 2^n - 1 + j)
 * runs its kind's kernel (hetero_kernels.h), stores its 32-bit value in leaf_out[j] and
 * returns it; the tree's answer is the sum of the leaf values in 64-bit integer arithmetic,
 * summed up the tree by the tasks' return values, so it is exact and the same in every
 * implementation and order.
 */
#ifndef HETERO_COMMON_H
#define HETERO_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "app_cli.h"
#include "hetero_kernels.h"

#define HET_MAX_HEIGHT 29 /* node ids (< 2^30) fit in 32 bits, the sum in 64 */
#define HET_MAX_ITERS (1 << 24)
#define HET_DEFAULT_HEIGHT 20
#define HET_DEFAULT_ITERS 1024  /* the upstream's default compute per leaf */
#define HET_DEFAULT_CUTOFF 5    /* the upstream's default: 32 leaves per block task */

typedef struct het_options {
    int height;             /* --n */
    int kinds;              /* --k: 2 or 4 */
    int iters;              /* --compute: iterations per leaf */
    uint32_t seed;          /* --seed: hashed with the node id into its kind */
    int cutoff;             /* --cutoff: subtrees of this height or less run inside one task */
    long long check_budget; /* --check-budget: iterations the check may recompute */
} het_options;

/* The option names a program passes to app_cli_parse: those of every program, then --cutoff
 * for the programs that have one. */
#define HET_OPTION_KEYS "k", "compute", "seed", "check-budget"
#define HET_USAGE                                                                                  \
    "--n is the tree's height (default 20, at most 29); [--k KINDS (2 or 4, default 2)]\n"         \
    "       [--compute ITERS per leaf (default 1024)] [--seed S (kind hash, default 1)]\n"         \
    "       [--check-budget ITERS (leaf iterations the check recomputes, default 2^28)]"

/* Reads the options into o; cutoff_default < 0: the program has no --cutoff. Returns 0, or
 * 2 after printing one line that names the option and its value (malformed numbers exit 2
 * in app_opt_ll with such a line too). */
static inline int het_options_read(const app_cli *c, het_options *o, int cutoff_default)
{
    long long k = app_opt_ll(c, "k", 2), iters = app_opt_ll(c, "compute", HET_DEFAULT_ITERS);
    long long seed = app_opt_ll(c, "seed", 1), budget = app_opt_ll(c, "check-budget", 1ll << 28);
    long long cutoff = cutoff_default < 0 ? 0 : app_opt_ll(c, "cutoff", cutoff_default);
    if (c->n < 0 || c->n > HET_MAX_HEIGHT) {
        fprintf(stderr, "%s: --n %lld: the height must be in [0, %d]\n", c->app, c->n, HET_MAX_HEIGHT);
        return 2;
    }
    if (k != 2 && k != 4) {
        fprintf(stderr, "%s: --k %lld: the number of kinds must be 2 or 4\n", c->app, k);
        return 2;
    }
    if (iters < 0 || iters > HET_MAX_ITERS) {
        fprintf(stderr, "%s: --compute %lld: the iterations per leaf must be in [0, %d]\n", c->app, iters,
                HET_MAX_ITERS);
        return 2;
    }
    if (seed < 0 || seed > 0xffffffffll) {
        fprintf(stderr, "%s: --seed %lld: the seed must be in [0, 2^32 - 1]\n", c->app, seed);
        return 2;
    }
    if (cutoff < 0 || cutoff > HET_MAX_HEIGHT) {
        fprintf(stderr, "%s: --cutoff %lld: the cutoff height must be in [0, %d]\n", c->app, cutoff,
                HET_MAX_HEIGHT);
        return 2;
    }
    if (budget < 1) {
        fprintf(stderr, "%s: --check-budget %lld: the budget must be positive\n", c->app, budget);
        return 2;
    }
    o->height = (int)c->n;
    o->kinds = (int)k;
    o->iters = (int)iters;
    o->seed = (uint32_t)seed;
    o->cutoff = (int)cutoff;
    o->check_budget = budget;
    return 0;
}

/* Records the options in the CSV params (k, compute, seed, and cutoff when has_cutoff). */
static inline void het_options_param(app_cli *c, const het_options *o, int has_cutoff)
{
    app_param(c, "k=%d", o->kinds);
    app_param(c, "compute=%d", o->iters);
    app_param(c, "seed=%u", o->seed);
    if (has_cutoff)
        app_param(c, "cutoff=%d", o->cutoff);
}

static inline long long het_leaves(int height)
{
    return 1ll << height;
}

/* Node id of leaf 0 (the leftmost). */
static inline uint32_t het_first_leaf(int height)
{
    return (uint32_t)((1ull << height) - 1);
}

/* The answer line: the same in every implementation for the same options. */
static inline void het_answer(char *buf, size_t size, int height, uint64_t sum)
{
    snprintf(buf, size, "leaves=%lld;sum=%llu", het_leaves(height), (unsigned long long)sum);
}

/* Checks a run: (1) the tree's reduction `sum` equals the sum of leaf_out[] (every leaf's
 * value reached the root once), and (2) leaf_out[j] equals the CPU's het_leaf_value for every
 * j when all leaves fit in o->check_budget iterations, else for every stride-th leaf and the
 * last (poison left by a leaf that never ran fails (1), or (2) when sampled). With every leaf
 * recomputed, (1) and (2) make `sum` the CPU's sum exactly. Prints what it checked and up to
 * five mismatches to `log`; returns the number of mismatches. */
static inline long long het_check(const het_options *o, const uint32_t *leaf_out, uint64_t sum, FILE *log)
{
    const long long leaves = het_leaves(o->height);
    const uint32_t first = het_first_leaf(o->height);
    const long long per_leaf = (long long)o->iters + 16;
    const long long all = leaves * per_leaf;
    const long long stride = all <= o->check_budget ? 1 : (all + o->check_budget - 1) / o->check_budget;
    long long bad = 0, checked = 0;
    uint64_t leaf_sum = 0;
    for (long long j = 0; j < leaves; j++) {
        leaf_sum += leaf_out[j];
        if (j % stride != 0 && j != leaves - 1)
            continue;
        uint32_t node = first + (uint32_t)j;
        uint32_t want = het_leaf_value(node, o->seed, o->kinds, o->iters);
        checked++;
        if (want != leaf_out[j] && bad++ < 5)
            fprintf(log, "hetero_tree: leaf %lld (node %u, kind %d) = %u, expected %u\n", j, node,
                    het_kind_of(node, o->seed, o->kinds), leaf_out[j], want);
    }
    if (leaf_sum != sum) {
        fprintf(log, "hetero_tree: the tree's reduction is %llu, its leaves sum to %llu\n", (unsigned long long)sum,
                (unsigned long long)leaf_sum);
        bad++;
    }
    fprintf(log, "checked: reduction = sum of %lld leaves; %lld of them recomputed on the CPU%s\n", leaves, checked,
            stride == 1 ? " (all: exact)" : "");
    return bad;
}

#endif /* HETERO_COMMON_H */
