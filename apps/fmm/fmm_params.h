/* fmm_params.h - the FMM programs' options (every implementation: GTaP task programs, the GPU
 * worklist, the serial and OpenMP baselines), their checks, and the answer line (C11 and CUDA
 * C++; header-only).
 *
 * A bad value exits with status 2 and one line naming the option and the value, e.g.
 * `fmm: --theta 1.5: theta must be in (0, 1)`.
 */
#ifndef FMM_PARAMS_H
#define FMM_PARAMS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_cli.h"

#define FMM_DEFAULT_N 1000000
#define FMM_MAX_N 400000000ll         /* cell and body indices are 32-bit ints */
#define FMM_DEFAULT_LEAF 64           /* the upstream's NCRIT */
#define FMM_MAX_LEAF 4096
#define FMM_DEFAULT_THETA 0.5
#define FMM_DEFAULT_SEED 42
#define FMM_DEFAULT_SAMPLES 1000
#define FMM_DEFAULT_TASK_MIN 256      /* a pair with this many bodies or more is a task */
#define FMM_DEFAULT_OMP_CUTOFF 512    /* the OpenMP baseline: the same rule, its own default */

typedef enum { FMM_DIST_CUBE = 1, FMM_DIST_PLUMMER = 2 } fmm_dist_t;

typedef struct fmm_options {
    long long n;          /* --n: bodies */
    fmm_dist_t dist;      /* --dist cube|plummer */
    uint64_t seed;        /* --seed: the body generator's */
    double theta;         /* --theta: the opening criterion's, in (0, 1) */
    int leaf_size;        /* --leaf-size: at most this many bodies in a leaf (unless at depth 21) */
    long long samples;    /* --check-samples: bodies compared with direct summation */
    int task_min;         /* --task-min: a pair with this many bodies (both cells) is a task */
    long long frontier_cap; /* --frontier-cap: the worklist's pairs per level (0: from the tree) */
} fmm_options;

#define FMM_OPTION_KEYS                                                                            \
    "dist", "seed", "theta", "leaf-size", "check-samples", "task-min",       \
        "frontier-cap", "cutoff"
#define FMM_USAGE                                                                                  \
    "--n BODIES (default 1e6) [--dist cube|plummer] [--seed S (42)] [--theta T in (0,1) (0.5)]\n"  \
    "       [--leaf-size L (64)] [--check-samples K (1000)]\n"                                    \
    "       [--task-min B (task programs: pairs with >= B bodies are tasks, 256)]\n"              \
    "       [--cutoff B (OpenMP: pairs with < B bodies run without tasks, 512)]\n"                \
    "       [--frontier-cap PAIRS (worklist: frontier capacity, 0 = 1024 x cells)]"

static inline const char *fmm_dist_name(fmm_dist_t d)
{
    return d == FMM_DIST_PLUMMER ? "plummer" : "cube";
}

/* An integer option in [lo, hi]; prints the one-line error and returns -1 otherwise. */
static inline int fmm_opt_range(const app_cli *c, const char *key, long long def, long long lo, long long hi,
                                const char *what, long long *v_p)
{
    const long long v = app_opt_ll(c, key, def);
    if (v < lo || v > hi) {
        fprintf(stderr, "%s: --%s %lld: %s must be in [%lld, %lld]\n", c->app, key, v, what, lo, hi);
        return -1;
    }
    *v_p = v;
    return 0;
}

/* Reads the options into o (task_min_default: --task-min's or --cutoff's default, read from
 * `task_key`). Returns 0, or 2 after one line naming the option and its value. */
static inline int fmm_options_read(const app_cli *c, fmm_options *o, const char *task_key, int task_min_default)
{
    long long v;
    memset(o, 0, sizeof *o);
    if (c->n <= 0 || c->n > FMM_MAX_N) {
        fprintf(stderr, "%s: --n %lld: the number of bodies must be in [1, %lld]\n", c->app, c->n, FMM_MAX_N);
        return 2;
    }
    o->n = c->n;
    const char *dist = app_opt_str(c, "dist", "cube");
    if (!strcmp(dist, "cube")) {
        o->dist = FMM_DIST_CUBE;
    } else if (!strcmp(dist, "plummer")) {
        o->dist = FMM_DIST_PLUMMER;
    } else {
        fprintf(stderr, "%s: --dist %s: the distribution must be cube or plummer\n", c->app, dist);
        return 2;
    }
    const char *theta = app_opt_str(c, "theta", NULL);
    o->theta = FMM_DEFAULT_THETA;
    if (theta) {
        char *end = NULL;
        o->theta = strtod(theta, &end);
        if (end == theta || *end || !(o->theta > 0.0 && o->theta < 1.0)) {
            fprintf(stderr, "%s: --theta %s: theta must be in (0, 1)\n", c->app, theta);
            return 2;
        }
    }
    if (fmm_opt_range(c, "seed", FMM_DEFAULT_SEED, 0, 0x7fffffffffffffffll, "the seed", &v))
        return 2;
    o->seed = (uint64_t)v;
    if (fmm_opt_range(c, "leaf-size", FMM_DEFAULT_LEAF, 1, FMM_MAX_LEAF, "the leaf size", &v))
        return 2;
    o->leaf_size = (int)v;
    if (fmm_opt_range(c, "check-samples", FMM_DEFAULT_SAMPLES, 1, FMM_MAX_N, "the sample count", &v))
        return 2;
    o->samples = v < o->n ? v : o->n;
    if (fmm_opt_range(c, task_key, task_min_default, 1, 1ll << 31, "the task threshold", &v))
        return 2;
    o->task_min = v > 0x7fffffff ? 0x7fffffff : (int)v;
    if (fmm_opt_range(c, "frontier-cap", 0, 0, 1ll << 40, "the frontier capacity", &v))
        return 2;
    o->frontier_cap = v;
    return 0;
}

/* Records the options in the CSV params. */
static inline void fmm_options_param(app_cli *c, const fmm_options *o, const char *task_key)
{
    app_param(c, "dist=%s", fmm_dist_name(o->dist));
    app_param(c, "theta=%g", o->theta);
    app_param(c, "seed=%llu", (unsigned long long)o->seed);
    app_param(c, "leaf=%d", o->leaf_size);
    app_param(c, "%s=%d", task_key, o->task_min);
}

/* What every implementation must agree on for the same input (pinned by the tests). */
typedef struct fmm_counts {
    long long cells, leaves, depth; /* the tree */
    long long m2l, p2p;             /* interactions: ordered (target, source) cell pairs */
} fmm_counts;

static inline void fmm_answer(char *buf, size_t size, const fmm_counts *k)
{
    snprintf(buf, size, "cells=%lld;leaves=%lld;depth=%lld;m2l=%lld;p2p=%lld", k->cells, k->leaves, k->depth, k->m2l,
             k->p2p);
}

/* The per-phase times of one program run (ms; traversal: the median of the timed runs). */
typedef struct fmm_phases {
    double build, upward, traversal, lists, downward;
} fmm_phases;

/* Prints the phase lines; "traversal ms:" is the line bench/fmm/sweep.sh parses. */
static inline void fmm_print_phases(FILE *o, const fmm_phases *t)
{
    fprintf(o, "build ms: %.3f\n", t->build);
    fprintf(o, "upward ms: %.3f\n", t->upward);
    fprintf(o, "traversal ms: %.3f\n", t->traversal);
    fprintf(o, "list interactions ms: %.3f\n", t->lists);
    fprintf(o, "downward ms: %.3f\n", t->downward);
}

#endif /* FMM_PARAMS_H */
