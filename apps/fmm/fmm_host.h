/* fmm_host.h - the FMM's phases on the host: bodies, tree build, upward pass, the plain
 * variant's list interactions, downward pass, reset between runs and the accuracy check. Used
 * by the C baselines (fmm_cpu.c) and by the task programs' host-target builds, whose task
 * traversal runs on the CPU reference executor (C11, also compiled as C++; header-only).
 * OpenMP builds parallelize the loops over cells and bodies.
 */
#ifndef FMM_HOST_H
#define FMM_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmm_check.h"
#include "fmm_dtt.h"

typedef struct fmm_host {
    fmm_options o;
    float *bx, *by, *bz, *bq, *out, *M, *L;
    fmm_node *node;
    int *m2l_count, *p2p_count, *m2l_src, *p2p_src;
    long long *m2l_off, *p2p_off;
    unsigned long long tally[2 * FMM_TALLY_SLOTS]; /* fused modes' counts */
    int ncells, nlevels;
    int level_begin[FMM_KEY_BITS + 3]; /* level l: cells level_begin[l] .. level_begin[l + 1] */
    fmm_ctx ctx;
} fmm_host;

static inline void *fmm_xalloc(size_t bytes, const char *what)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        fprintf(stderr, "fmm: out of memory for %s (%zu bytes)\n", what, bytes);
    return p;
}

/* Counts the tree's leaves and depth. */
static inline void fmm_tree_shape(const fmm_node *node, int ncells, int nlevels, fmm_counts *k)
{
    k->cells = ncells;
    k->leaves = 0;
    for (int c = 0; c < ncells; c++)
        k->leaves += node[c].nchild == 0;
    k->depth = nlevels - 1;
}

/* Generates the bodies, sorts them by key and builds the tree (host memory). Returns 0, or 1
 * after a message (out of memory). */
static inline int fmm_host_build(fmm_host *h, const fmm_options *o)
{
    const long long n = o->n;
    memset(h, 0, sizeof *h);
    h->o = *o;
    fmm_bodies raw;
    raw.x = (float *)fmm_xalloc((size_t)n * 4 * sizeof(float), "bodies");
    uint64_t *keys = (uint64_t *)fmm_xalloc((size_t)n * 2 * sizeof(uint64_t), "keys");
    uint32_t *idx = (uint32_t *)fmm_xalloc((size_t)n * 2 * sizeof(uint32_t), "key indices");
    h->bx = (float *)fmm_xalloc((size_t)n * 4 * sizeof(float), "sorted bodies");
    h->out = (float *)fmm_xalloc((size_t)n * 4 * sizeof(float), "results");
    if (!raw.x || !keys || !idx || !h->bx || !h->out)
        return 1;
    raw.y = raw.x + n, raw.z = raw.x + 2 * n, raw.q = raw.x + 3 * n;
    h->by = h->bx + n, h->bz = h->bx + 2 * n, h->bq = h->bx + 3 * n;
    fmm_bodies_generate(o, &raw);
    for (long long i = 0; i < n; i++) {
        keys[i] = fmm_morton(raw.x[i], raw.y[i], raw.z[i]);
        idx[i] = (uint32_t)i;
    }
    fmm_radix_sort(keys, idx, keys + n, idx + n, n);
    for (long long i = 0; i < n; i++) {
        h->bx[i] = raw.x[idx[i]];
        h->by[i] = raw.y[idx[i]];
        h->bz[i] = raw.z[idx[i]];
        h->bq[i] = raw.q[idx[i]];
    }
    free(raw.x);
    free(idx);

    /* level by level: count each cell's children, then write them (fmm_tree.h) */
    int cap = 1024;
    h->node = (fmm_node *)fmm_xalloc((size_t)cap * sizeof(fmm_node), "cells");
    if (!h->node)
        return 1;
    fmm_root(&h->node[0], (int)n);
    h->ncells = 1;
    h->level_begin[0] = 0;
    h->level_begin[1] = 1;
    int level = 0;
    while (level < FMM_KEY_BITS + 1 && h->level_begin[level + 1] > h->level_begin[level]) {
        const int lo = h->level_begin[level], hi = h->level_begin[level + 1];
        int total = 0, begin[9];
        for (int c = lo; c < hi; c++)
            total += fmm_split_ranges(&h->node[c], keys, level, o->leaf_size, begin);
        if (h->ncells + total > cap) {
            while (h->ncells + total > cap)
                cap *= 2;
            fmm_node *grown = (fmm_node *)realloc(h->node, (size_t)cap * sizeof(fmm_node));
            if (!grown) {
                fprintf(stderr, "fmm: out of memory for %d cells\n", cap);
                return 1;
            }
            h->node = grown;
        }
        for (int c = lo; c < hi; c++) {
            const int k = fmm_split_ranges(&h->node[c], keys, level, o->leaf_size, begin);
            if (k) {
                fmm_split_write(h->node, c, h->ncells, keys, level, o->leaf_size);
                h->ncells += k;
            }
        }
        level++;
        h->level_begin[level + 1] = h->ncells;
    }
    h->nlevels = level;
    free(keys);

    const size_t nc = (size_t)h->ncells;
    h->M = (float *)fmm_xalloc(nc * FMM_NT * sizeof(float), "multipoles");
    h->L = (float *)fmm_xalloc(nc * FMM_NT * sizeof(float), "locals");
    h->m2l_count = (int *)fmm_xalloc(nc * 2 * sizeof(int), "list counts");
    h->m2l_off = (long long *)fmm_xalloc((nc + 1) * 2 * sizeof(long long), "list offsets");
    if (!h->M || !h->L || !h->m2l_count || !h->m2l_off)
        return 1;
    h->p2p_count = h->m2l_count + nc;
    h->p2p_off = h->m2l_off + nc + 1;

    fmm_ctx *x = &h->ctx;
    x->node = h->node;
    x->bx = h->bx, x->by = h->by, x->bz = h->bz, x->bq = h->bq;
    x->out = h->out, x->M = h->M, x->L = h->L;
    x->m2l_count = h->m2l_count, x->p2p_count = h->p2p_count;
    x->m2l_off = NULL, x->p2p_off = NULL; /* counting only until fmm_host_lists_alloc */
    x->tally = h->tally;
    x->theta2 = o->theta * o->theta;
    x->task_min = o->task_min;
    x->mode = FMM_MODE_LIST;
    x->n = (int)n, x->ncells = h->ncells;
    return 0;
}

/* P2M at the leaves, then M2M level by level up to the root. */
static inline void fmm_host_upward(fmm_host *h)
{
    const fmm_ctx *x = &h->ctx;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 256)
#endif
    for (int c = 0; c < h->ncells; c++)
        fmm_p2m_cell(x, c);
    for (int l = h->nlevels - 2; l >= 0; l--) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 64)
#endif
        for (int c = h->level_begin[l]; c < h->level_begin[l + 1]; c++)
            fmm_m2m_cell(x, c);
    }
}

/* Before a traversal: no interactions yet (local coefficients, results, lists). */
static inline void fmm_host_reset(fmm_host *h)
{
    memset(h->L, 0, (size_t)h->ncells * FMM_NT * sizeof(float));
    memset(h->out, 0, (size_t)h->o.n * 4 * sizeof(float));
    memset(h->m2l_count, 0, (size_t)h->ncells * 2 * sizeof(int));
    memset(h->tally, 0, sizeof h->tally);
}

/* count[0..ncells) -> off[0..ncells]: the exclusive prefix sums and the total. */
static inline long long fmm_lists_offsets(const int *count, int ncells, long long *off)
{
    long long sum = 0;
    for (int c = 0; c < ncells; c++) {
        off[c] = sum;
        sum += count[c];
    }
    off[ncells] = sum;
    return sum;
}

/* After the counting traversal: lists of exactly the lengths it counted. Returns 0 or 1 (out
 * of memory). */
static inline int fmm_host_lists_alloc(fmm_host *h)
{
    const long long m2l = fmm_lists_offsets(h->m2l_count, h->ncells, h->m2l_off);
    const long long p2p = fmm_lists_offsets(h->p2p_count, h->ncells, h->p2p_off);
    h->m2l_src = (int *)fmm_xalloc((size_t)m2l * sizeof(int), "M2L lists");
    h->p2p_src = (int *)fmm_xalloc((size_t)p2p * sizeof(int), "P2P lists");
    if (!h->m2l_src || !h->p2p_src)
        return 1;
    h->ctx.m2l_src = h->m2l_src, h->ctx.p2p_src = h->p2p_src;
    h->ctx.m2l_off = h->m2l_off, h->ctx.p2p_off = h->p2p_off;
    return 0;
}

/* Every list as long as the counting traversal said (a traversal that visits other pairs
 * than the counting one is a bug). Returns 0, or 1 after a message. */
static inline int fmm_lists_check(const int *m2l_count, const int *p2p_count, const long long *m2l_off,
                                  const long long *p2p_off, int ncells)
{
    for (int c = 0; c < ncells; c++)
        if (m2l_off[c + 1] - m2l_off[c] != m2l_count[c] || p2p_off[c + 1] - p2p_off[c] != p2p_count[c]) {
            fprintf(stderr, "fmm: cell %d: the traversal built lists of %d M2L and %d P2P sources, the counting run %lld and %lld\n",
                    c, m2l_count[c], p2p_count[c], m2l_off[c + 1] - m2l_off[c], p2p_off[c + 1] - p2p_off[c]);
            return 1;
        }
    return 0;
}

/* After a list traversal: the M2L and P2P of every list. Returns 0, or 1 after a message. */
static inline int fmm_host_lists(fmm_host *h)
{
    const fmm_ctx *x = &h->ctx;
    if (fmm_lists_check(h->m2l_count, h->p2p_count, h->m2l_off, h->p2p_off, h->ncells))
        return 1;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 64)
#endif
    for (int c = 0; c < h->ncells; c++)
        fmm_m2l_list_cell(x, c);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16)
#endif
    for (int c = 0; c < h->ncells; c++)
        if (!h->node[c].nchild)
            for (int i = h->node[c].body; i < h->node[c].body + h->node[c].nbody; i++)
                fmm_p2p_list_body(x, c, i);
    return 0;
}

/* L2L level by level down from the root, then L2P at the leaves. */
static inline void fmm_host_downward(fmm_host *h)
{
    const fmm_ctx *x = &h->ctx;
    for (int l = 0; l < h->nlevels - 1; l++) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 64)
#endif
        for (int c = h->level_begin[l]; c < h->level_begin[l + 1]; c++)
            fmm_l2l_cell(x, c);
    }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 64)
#endif
    for (int c = 0; c < h->ncells; c++)
        fmm_l2p_cell(x, c);
}

/* The list traversal's counts: the lists' total lengths. */
static inline void fmm_host_list_counts(const fmm_host *h, fmm_counts *k)
{
    k->m2l = k->p2p = 0;
    for (int c = 0; c < h->ncells; c++) {
        k->m2l += h->m2l_count[c];
        k->p2p += h->p2p_count[c];
    }
}

/* Compares the results at the samples with direct summation; 0 = within the bounds. */
static inline int fmm_host_check(const fmm_host *h, FILE *log)
{
    const long long s = h->o.samples;
    float *got = (float *)fmm_xalloc((size_t)s * 4 * sizeof(float), "samples");
    double *ref = (double *)fmm_xalloc((size_t)s * 4 * sizeof(double), "reference");
    if (!got || !ref)
        return 1;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (long long k = 0; k < s; k++) {
        const long long i = fmm_sample_body(k, s, h->o.n);
        fmm_direct_one(h->bx, h->by, h->bz, h->bq, h->o.n, i, &ref[4 * k]);
        for (int c = 0; c < 4; c++)
            got[4 * k + c] = h->out[4 * i + c];
    }
    const int rc = fmm_check_compare(got, ref, s, h->o.theta, log);
    free(got);
    free(ref);
    return rc;
}

static inline void fmm_host_free(fmm_host *h)
{
    free(h->bx);
    free(h->out);
    free(h->node);
    free(h->M);
    free(h->L);
    free(h->m2l_count);
    free(h->m2l_off);
    free(h->m2l_src);
    free(h->p2p_src);
}

#endif /* FMM_HOST_H */
