// uts.cu - Unbalanced Tree Search as a GTaP task program: a task per inner node of the tree,
// which counts its leaf children in place and spawns a task for each inner child (children of
// wide nodes go through a binary split of the child range); each task returns the size of the
// subtrees it covers. A leaf is never a task: deciding that a child is a leaf reads only the
// child's state, which the parent has just computed, and 3/4 of a geometric tree's nodes and
// half of a binomial tree's are leaves. Single GPU by default; built with GTAP_DISTRIBUTED
// (CMake target gtap_dist_host, or the GPU distributed build) it runs on every rank of an MPI
// job.
// Usage: uts PRESET [runs=1]   (presets in uts.h: T1, T2, T3, T5, T1L, T3L, T1XXL, T3XXL,
// T1S, T1M, T3S, T3M). Each run prints one line: PASS or FAIL, the node count, "ok" or
// "MISMATCH" against the preset's count, the ranks, "in X ms" (launch to synchronize) and
// Mnodes/s (bench/dist/*.sh and *.py read "PASS: ... in X ms"); exit 1 on a mismatch.
// Counts are 64-bit throughout (T1XXL has more than 2^32 nodes): each task returns its
// subtrees' size as a long long, the distributed layer ships those 8-byte results between
// ranks (docs/wire.md) and the entry's result lands on rank 0, so no cross-rank reduction.
#include <stdio.h>
#include "gtap_thread.cuh"
#include "uts.h"
#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#else
static inline int gtap_dist_rank(void) { return 0; }
static inline int gtap_dist_size(void) { return 1; }
#endif

#define UTS_SPLIT 8 /* a task handles at most this many children itself */

__device__ long long d_result;
__device__ __constant__ uts_params d_params;

// The sizes of the subtrees of children lo..hi-1 of the inner node with state s at depth
// `depth`.
#pragma gtap function
__device__ long long uts_children(uts_state s, int depth, int lo, int hi) {
    long long r[UTS_SPLIT];
    long long sum = 0;
    int k = 0;
    if (hi - lo > UTS_SPLIT) {
        int mid = lo + (hi - lo) / 2;
        #pragma gtap task
        r[0] = uts_children(s, depth, lo, mid);
        #pragma gtap task
        r[1] = uts_children(s, depth, mid, hi);
        k = 2;
    } else {
        uts_params p = d_params;
        for (int i = lo; i < hi; i++) {
            uts_state c;
            uts_rng_spawn(&s, i, &c);
            int n = uts_num_children(&p, &c, depth + 1);
            sum++; // the child itself
            if (n > 0) {
                #pragma gtap task
                r[k] = uts_children(c, depth + 1, 0, n);
                k++;
            }
        }
    }
    #pragma gtap taskwait
    for (int i = 0; i < k; i++) sum += r[i];
    return sum;
}

// The whole tree: the root, and its children's subtrees.
#pragma gtap function
__device__ long long uts_tree(uts_state root) {
    uts_params p = d_params;
    int n = uts_num_children(&p, &root, 0);
    long long sub = 0;
    if (n == 0) return 1;
    #pragma gtap task
    sub = uts_children(root, 0, 0, n);
    #pragma gtap taskwait
    return 1 + sub;
}

__global__ void uts_kernel(uts_state root) {
    #pragma gtap entry
    d_result = uts_tree(root);
}

int main(int argc, char **argv) {
#if defined(GTAP_DISTRIBUTED)
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
#endif
    const uts_preset *pr;
    int runs, rc = 0;
    if (uts_parse_args(argc, argv, "uts", &pr, &runs, NULL, 0) != 0) return 2;
    // gtap_initialize first: on a distributed run it selects this rank's GPU
    if (gtap_initialize() != cudaSuccess) { printf("FAIL: gtap_initialize\n"); return 1; }
    if (cudaMemcpyToSymbol(d_params, &pr->p, sizeof pr->p) != cudaSuccess) return 1;
    uts_state root;
    uts_rng_init(&root, pr->p.seed);
    // every rank does every run (a launch involves all ranks), even after rank 0 saw a mismatch
    for (int r = 0; r < runs; r++) {
        long long got = -1;
        cudaMemcpyToSymbol(d_result, &got, sizeof got);
        double t0 = uts_now_ms();
        gtap_launch(uts_kernel, root);
        if (gtap_synchronize() != cudaSuccess) { printf("FAIL: run failed\n"); return 1; }
        double ms = uts_now_ms() - t0;
        cudaMemcpyFromSymbol(&got, d_result, sizeof got);
        if (gtap_dist_rank() == 0 && uts_report(pr, got, gtap_dist_size(), ms) != 0) rc = 1;
    }
    gtap_finalize();
#if defined(GTAP_DISTRIBUTED)
    gtap_dist_finalize();
#endif
    return rc;
}
