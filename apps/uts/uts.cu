// uts.cu - Unbalanced Tree Search as a GTaP task program: one task per tree node (children
// of wide nodes are spawned through a binary split of the child range), each returning the
// size of its subtree. Single GPU by default; built with GTAP_DISTRIBUTED (CMake target
// gtap_dist_host, or the GPU distributed build) it runs on every rank of an MPI job.
// Usage: uts PRESET [runs=1]   (presets in uts.h: T1, T2, T3, T5, T1L, T3L, T1XXL, T3XXL,
// T1S, T1M, T3S, T3M). Each run prints one line: PASS or FAIL, the node count, "ok" or
// "MISMATCH" against the preset's count, the ranks, "in X ms" (launch to synchronize) and
// Mnodes/s (bench/dist/*.sh and *.py read "PASS: ... in X ms"); exit 1 on a mismatch.
// Counts are 64-bit throughout (T1XXL has more than 2^32 nodes): each task returns its
// subtree's size as a long long, the distributed layer ships those 8-byte results between
// ranks (docs/wire.md) and the entry's result lands on rank 0, so no cross-rank reduction.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gtap_thread.cuh"
#include "uts.h"
#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#else
static inline int gtap_dist_rank(void) { return 0; }
static inline int gtap_dist_size(void) { return 1; }
#endif

#define UTS_SPLIT 8 /* a node spawns at most this many children directly */

__device__ long long d_result;
__device__ __constant__ uts_params d_params;

__device__ long long uts_node(uts_state s, int depth); // a task function, defined below

// The children lo..hi-1 of the node with state s at depth `depth`.
#pragma gtap function
__device__ long long uts_range(uts_state s, int depth, int lo, int hi) {
    long long r[UTS_SPLIT];
    long long sum = 0;
    int k = 0;
    if (hi - lo > UTS_SPLIT) {
        int mid = lo + (hi - lo) / 2;
        #pragma gtap task
        r[0] = uts_range(s, depth, lo, mid);
        #pragma gtap task
        r[1] = uts_range(s, depth, mid, hi);
        k = 2;
    } else {
        for (int i = lo; i < hi; i++) {
            uts_state c;
            uts_rng_spawn(&s, i, &c);
            #pragma gtap task
            r[k] = uts_node(c, depth + 1);
            k++;
        }
    }
    #pragma gtap taskwait
    for (int i = 0; i < k; i++) sum += r[i];
    return sum;
}

#pragma gtap function
__device__ long long uts_node(uts_state s, int depth) {
    uts_params p = d_params;
    int n = uts_num_children(&p, &s, depth);
    long long sub = 0;
    if (n == 0) return 1;
    #pragma gtap task
    sub = uts_range(s, depth, 0, n);
    #pragma gtap taskwait
    return 1 + sub;
}

__global__ void uts_kernel(uts_state root) {
    #pragma gtap entry
    d_result = uts_node(root, 0);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
#if defined(GTAP_DISTRIBUTED)
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
#endif
    const uts_preset *pr = uts_find_preset(argc > 1 ? argv[1] : "T1S");
    int runs = argc > 2 ? atoi(argv[2]) : 1, rc = 0;
    if (!pr) { printf("FAIL: unknown UTS preset %s\n", argv[1]); return 1; }
    // gtap_initialize first: on a distributed run it selects this rank's GPU
    if (gtap_initialize() != cudaSuccess) { printf("FAIL: gtap_initialize\n"); return 1; }
    if (cudaMemcpyToSymbol(d_params, &pr->p, sizeof pr->p) != cudaSuccess) return 1;
    uts_state root;
    uts_rng_init(&root, pr->p.seed);
    // every rank does every run (a launch involves all ranks), even after rank 0 saw a mismatch
    for (int r = 0; r < runs; r++) {
        long long got = -1;
        cudaMemcpyToSymbol(d_result, &got, sizeof got);
        double t0 = now_ms();
        gtap_launch(uts_kernel, root);
        if (gtap_synchronize() != cudaSuccess) { printf("FAIL: run failed\n"); return 1; }
        double ms = now_ms() - t0;
        cudaMemcpyFromSymbol(&got, d_result, sizeof got);
        if (gtap_dist_rank() == 0) {
            const char *src = pr->published ? "published count" : "sequential count";
            double mnps = ms > 0 ? (double)got / (ms * 1e3) : 0.0;
            if (got == pr->size) {
                printf("PASS: UTS %s = %lld nodes (%s: ok) on %d rank(s) in %.3f ms, %.2f Mnodes/s\n",
                       pr->name, got, src, gtap_dist_size(), ms, mnps);
            } else {
                printf("FAIL: UTS %s = %lld nodes, expected %lld (%s: MISMATCH) on %d rank(s) in %.3f ms, "
                       "%.2f Mnodes/s\n", pr->name, got, pr->size, src, gtap_dist_size(), ms, mnps);
                rc = 1;
            }
        }
    }
    gtap_finalize();
#if defined(GTAP_DISTRIBUTED)
    gtap_dist_finalize();
#endif
    return rc;
}
