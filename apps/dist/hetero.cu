// hetero.cu - the heterogeneous binary tree (apps/hetero_tree, the upstream's newest
// evaluation) across ranks: a full binary tree of height H in heap numbering, one task per
// node; inner nodes spawn both children, wait and return the sum of their results; leaf
// `node` runs the kernel of its kind (K = 2 or 4 kinds, hashed from the node and the seed:
// apps/hetero_tree/hetero_kernels.h) and returns its 32-bit value. Usage:
// hetero [height=16] [kinds=2] [iters=256] [runs=1] [seed=1].
//
// What makes it distributable: a task's data is (node, height) and its result a 64-bit sum;
// the kernels' parameters are globals that every rank sets from the same arguments. The answer
// (the sum of the leaf values, exact in 64-bit integers in any order) comes back to rank 0 up
// the tree through the tasks' results, and rank 0 checks it against the same sum on the CPU
// (every leaf, so keep 2^H x iters within a few 10^9).
//
// -DAPP_KIND_QUEUES (with GTAP_NUM_QUEUES=K + 1): the divergence-aware variant of
// hetero_tree_kq: EPAQ queue 0 for the inner nodes and their continuations, 1 + k for the
// leaves of kind k; a task migrates with its queue (docs/wire.md), so a rank's warps take
// batches of one kind wherever the leaf runs.
// -DAPP_BLOCK (with GTAP_BLOCK_SIZE): block-level workers as hetero_tree_block: thread 0
// spawns, the block joins; a leaf's iterations are split into one contiguous share per thread
// and XORed (the thread-level value exactly, hetero_kernels.h).
#include <stdint.h>
#include <stdlib.h>
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define HET_SPAWNER (threadIdx.x == 0)
#else
#include "gtap_thread.cuh"
#define HET_SPAWNER 1
#endif
#include "dist_app.h"
#include "hetero_kernels.h"
#if defined(APP_BLOCK)
#include "hetero_block.cuh"
#endif

#define HET_DIST_MAX_HEIGHT 29 // node ids below 2^30 fit in 32 bits, the sum in 64

__device__ unsigned long long d_result;
__device__ uint32_t g_seed;
__device__ int g_kinds, g_iters;

#if defined(APP_KIND_QUEUES)
// The queue of child `child` with `height` levels below it: its kind's for a leaf, 0 for an
// inner node.
__device__ __forceinline__ int het_child_queue(uint32_t child, int height) {
    return height == 0 ? 1 + het_kind_of(child, g_seed, g_kinds) : 0;
}
#endif

#if defined(APP_BLOCK)
// Leaf `node` by the whole block: thread 0 gets its value (the others a partial XOR).
__device__ unsigned long long het_leaf(uint32_t node) {
    const int kind = het_kind_of(node, g_seed, g_kinds);
    int begin, end;
    het_share(g_iters, (int)threadIdx.x, GTAP_BLOCK_SIZE, &begin, &end);
    const uint32_t v = het_block_xor(het_kind_part(kind, node, begin, end));
    return threadIdx.x == 0 ? v ^ het_kind_start(kind, node) : 0;
}
#else
__device__ unsigned long long het_leaf(uint32_t node) {
    const int kind = het_kind_of(node, g_seed, g_kinds);
    return het_kind_start(kind, node) ^ het_kind_part(kind, node, 0, g_iters);
}
#endif

#pragma gtap function
__device__ unsigned long long hetero(uint32_t node, int height) {
    if (height == 0) return het_leaf(node);
    unsigned long long left = 0, right = 0;
#if defined(APP_KIND_QUEUES)
    #pragma gtap task queue(het_child_queue(2 * node + 1, height - 1))
    left = hetero(2 * node + 1, height - 1);
    #pragma gtap task queue(het_child_queue(2 * node + 2, height - 1))
    right = hetero(2 * node + 2, height - 1);
    #pragma gtap taskwait queue(0)
#else
    if (HET_SPAWNER) {
        #pragma gtap task
        left = hetero(2 * node + 1, height - 1);
        #pragma gtap task
        right = hetero(2 * node + 2, height - 1);
    }
    #pragma gtap taskwait
#endif
    return left + right;
}

__global__ void hetero_kernel(int height) {
    #pragma gtap entry
    d_result = hetero(0u, height);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    const int height = (int)app_arg(argc, argv, 1, "height", 16), kinds = (int)app_arg(argc, argv, 2, "kinds", 2);
    const int iters = (int)app_arg(argc, argv, 3, "iters", 256), runs = (int)app_arg(argc, argv, 4, "runs", 1);
    const uint32_t seed = (uint32_t)app_arg(argc, argv, 5, "seed", 1);
    if (height < 0 || height > HET_DIST_MAX_HEIGHT || (kinds != 2 && kinds != 4) || iters < 0 || iters > (1 << 24) ||
        runs < 1) {
        if (gtap_dist_rank() == 0)
            fprintf(stderr, "%s: height %d, kinds %d, iters %d, runs %d: height must be in 0..%d, kinds 2 or 4, "
                    "iters in 0..2^24, runs at least 1\n", argv[0], height, kinds, iters, runs, HET_DIST_MAX_HEIGHT);
        gtap_dist_finalize();
        return 2;
    }
#if defined(APP_KIND_QUEUES)
    if (GTAP_NUM_QUEUES < kinds + 1) {
        if (gtap_dist_rank() == 0)
            fprintf(stderr, "%s: kinds %d: this build has %d queues; the kind queues need K + 1\n", argv[0], kinds,
                    GTAP_NUM_QUEUES);
        gtap_dist_finalize();
        return 2;
    }
#endif
    APP_CUDA(gtap_initialize()); // first: on a distributed run it selects this rank's GPU
    APP_CUDA(cudaMemcpyToSymbol(g_seed, &seed, sizeof seed));
    APP_CUDA(cudaMemcpyToSymbol(g_kinds, &kinds, sizeof kinds));
    APP_CUDA(cudaMemcpyToSymbol(g_iters, &iters, sizeof iters));
    unsigned long long want = 0;
    if (gtap_dist_rank() == 0) {
        const uint32_t first_leaf = (1u << height) - 1u;
        for (uint32_t j = 0; j < (1u << height); j++) want += het_leaf_value(first_leaf + j, seed, kinds, iters);
    }
    int rc = 0;
    char what[128];
    snprintf(what, sizeof what, "%sheterogeneous tree (height %d, %d kinds%s, %d iterations) leaf sum",
#if defined(APP_BLOCK)
             "block-level ",
#else
             "",
#endif
             height, kinds,
#if defined(APP_KIND_QUEUES)
             " in their own queues",
#else
             "",
#endif
             iters);
    for (int r = 0; r < runs; r++) { // every rank makes every launch
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(hetero_kernel, height));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        unsigned long long got = 0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got)); // rank 0 ran the entry task
        rc |= app_report(what, (long long)got, (long long)want, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
