/* tree_common.h - what the tree benchmarks (binary_tree.cu, bary_tree.cu) and their CPU
 * baselines share: the per-node work (tree_work.h), the pruned B-ary tree's child rule, and
 * the host-side checks against a CPU recomputation. */
#ifndef TREE_COMMON_H
#define TREE_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree_work.h"

#define BARY_SINK_N (1u << 20)

/* The sink slot of a B-ary tree node (last writer wins). */
static __host__ __device__ __forceinline__ uint32_t bary_slot(uint32_t id)
{
    return tw_hash32(id) & (BARY_SINK_N - 1);
}

/* Children of node id with rem_h levels below it in a pruned B-ary tree of depth D: at depth
 * d = D - rem_h, candidate k (0 <= k < B) exists when the k-th draw s = xs(s + k) from
 * s = hash32(id ^ d * 0x9e3779b9) has s mod D < rem_h (probability ~ 1 - d/D); its id is
 * id * B + k + 1 (mod 2^32). Writes the ids to child[] and returns how many. */
static __host__ __device__ __forceinline__ int bary_children(uint32_t id, int rem_h, int D, int B, uint32_t *child)
{
    int cnt = 0;
    if (rem_h == 0)
        return 0;
    uint32_t s = tw_hash32(id ^ (uint32_t)(D - rem_h) * 0x9e3779b9u);
    for (int k = 0; k < B; ++k) {
        s = tw_xs(s + (uint32_t)k);
        if ((int)(s % (uint32_t)D) < rem_h)
            child[cnt++] = id * (uint32_t)B + (uint32_t)(k + 1);
    }
    return cnt;
}

/* ---- host-side checks -------------------------------------------------------------------- */

/* Every how many nodes to recompute so that about `budget` work units (loads + FMAs) are
 * spent: 1 (all) for small trees. */
static inline long long tree_check_stride(long long nodes, int mem_ops, int compute_iters, long long budget)
{
    long long per = (long long)mem_ops + compute_iters + 16, all = nodes * per;
    return all <= budget ? 1 : (all + budget - 1) / budget;
}

/* Full binary tree: out[0..nodes) must all be written (no NaN poison left) and the sampled
 * nodes (every stride-th, plus the root and the last leaf) must equal the CPU's value for a
 * worker of `lanes` threads (1: thread-level; the block size: thread 0's partial value).
 * Returns the number of wrong nodes; *checked_p counts the recomputed ones. */
static inline long long tree_check_binary(const double *input, const double *out, long long nodes, int mem_ops,
                                          int compute_iters, int lanes, long long stride, long long *checked_p)
{
    long long bad = 0, checked = 0;
    for (long long i = 0; i < nodes; i++) {
        int sample = i % stride == 0 || i == nodes - 1;
        if (out[i] != out[i]) { /* NaN: never written */
            if (bad++ < 5)
                fprintf(stderr, "tree: node %lld was not computed\n", i);
            continue;
        }
        if (!sample)
            continue;
        double want = tw_work(input, (uint32_t)i, mem_ops, compute_iters, 0, lanes);
        checked++;
        if (memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 5)
            fprintf(stderr, "tree: node %lld = %.17g, expected %.17g\n", i, out[i], want);
    }
    *checked_p = checked;
    return bad;
}

/* Number of nodes of the pruned B-ary tree of depth D (iterative DFS on the host). When
 * sink != NULL, also checks every slot s with s % slot_stride == 0: its value must be the
 * value of one of the nodes that map to it (last writer wins), or still the NaN poison when
 * none does; *bad_slots_p counts the slots that fail, *checked_p the slots checked. */
static inline long long bary_enumerate(int D, int B, const double *input, int mem_ops, int compute_iters,
                                       int lanes, const double *sink, uint32_t slot_stride,
                                       long long *bad_slots_p, long long *checked_p)
{
    typedef struct { uint32_t id; int rem; } item;
    size_t cap = 1024, top = 0;
    item *st = (item *)malloc(cap * sizeof *st);
    unsigned char *seen = NULL, *match = NULL;
    long long nodes = 0;
    if (sink) {
        seen = (unsigned char *)calloc(BARY_SINK_N, 1);
        match = (unsigned char *)calloc(BARY_SINK_N, 1);
    }
    st[top].id = 0;
    st[top++].rem = D;
    while (top > 0) {
        item it = st[--top];
        uint32_t child[16];
        nodes++;
        if (sink) {
            uint32_t s = bary_slot(it.id);
            if (s % slot_stride == 0) {
                double v = tw_work(input, it.id, mem_ops, compute_iters, 0, lanes);
                seen[s] = 1;
                if (memcmp(&v, &sink[s], sizeof v) == 0)
                    match[s] = 1;
            }
        }
        int k = bary_children(it.id, it.rem, D, B, child);
        if (top + (size_t)k > cap) {
            cap *= 2;
            st = (item *)realloc(st, cap * sizeof *st);
        }
        for (int j = 0; j < k; j++) {
            st[top].id = child[j];
            st[top++].rem = it.rem - 1;
        }
    }
    if (sink) {
        long long bad = 0, checked = 0;
        for (uint32_t s = 0; s < BARY_SINK_N; s += slot_stride) {
            int ok = seen[s] ? match[s] : sink[s] != sink[s];
            checked++;
            if (!ok && bad++ < 5)
                fprintf(stderr, "bary tree: sink slot %u = %.17g matches none of its nodes\n", s, sink[s]);
        }
        *bad_slots_p = bad;
        *checked_p = checked;
    }
    free(st);
    free(seen);
    free(match);
    return nodes;
}

#endif /* TREE_COMMON_H */
