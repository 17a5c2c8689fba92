// bintree.cu - a full binary tree of depth D (nodes in heap numbering), one task per node.
// Usage: bintree [depth=16] [runs=1] [mem_ops=0] [compute_iters=0].
// Without work each task returns the size of its subtree. With work (the paper's tree of
// section 6.3: mem_ops pseudo-random loads from a 2^20-double table and compute_iters FP64
// FMAs per node, apps/common/tree_work.h) each task returns the sum over its subtree of
// 1 + the node's work value, checked against the CPU when that is cheap (at most 2^31 loads
// and FMAs), else reported unchecked. The table is built on rank 0 and reaches the other
// ranks through gtap_replicate, as a program's input data would.
// -DAPP_BLOCK (with GTAP_BLOCK_SIZE): block-level workers. Thread 0 spawns the children and
// every thread joins; the node's work is strided over the block's threads and summed in
// shared memory (each part is an integer below 2^32, so the double sum is exact in any
// order), and the CPU check sums the same parts.
#include <stdlib.h>
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define TREE_FIRST ((int)threadIdx.x)
#define TREE_LANES GTAP_BLOCK_SIZE
#define TREE_LEADER (threadIdx.x == 0)
#else
#include "gtap_thread.cuh"
#define TREE_FIRST 0
#define TREE_LANES 1
#define TREE_LEADER 1
#endif
#include "dist_app.h"
#include "tree_work.h"

__device__ unsigned long long d_result;
__device__ const double *g_input;

// A node's work: the sum of its TREE_LANES strided parts (every thread of the block gets it).
__device__ double tree_node_work(int node, int mem_ops, int compute_iters) {
    double part = tw_work(g_input, (uint32_t)node, mem_ops, compute_iters, TREE_FIRST, TREE_LANES);
#if defined(APP_BLOCK)
    __shared__ double parts[GTAP_BLOCK_SIZE];
    parts[threadIdx.x] = part;
    __syncthreads(); // every part is stored before any is read
    for (int s = GTAP_BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s) parts[threadIdx.x] += parts[threadIdx.x + s];
        __syncthreads(); // this round's sums are stored before the next round reads them
    }
    part = parts[0];
    __syncthreads(); // every thread read the sum before the array is used again
#endif
    return part;
}

// The same sum on the CPU, for the check.
static unsigned long long tree_node_work_cpu(const double *input, long long node, int mem_ops, int compute_iters) {
    double sum = 0;
    for (int l = 0; l < TREE_LANES; l++)
        sum += tw_work(input, (uint32_t)node, mem_ops, compute_iters, l, TREE_LANES);
    return (unsigned long long)sum;
}

// The plain tree: a record of two ints (the work parameters would double it, and the
// no-work tree is bound by record traffic).
#pragma gtap function
__device__ unsigned long long tree(int node, int depth) {
    unsigned long long a = 0, b = 0;
    if (depth == 0) return 1;
    if (TREE_LEADER) {
        #pragma gtap task
        a = tree(2 * node + 1, depth - 1);
        #pragma gtap task
        b = tree(2 * node + 2, depth - 1);
    }
    #pragma gtap taskwait
    return a + b + 1;
}

#pragma gtap function
__device__ unsigned long long tree_work(int node, int depth, int mem_ops, int compute_iters) {
    unsigned long long own = 1, a = 0, b = 0;
    own += (unsigned long long)tree_node_work(node, mem_ops, compute_iters);
    if (depth == 0) return own;
    if (TREE_LEADER) {
        #pragma gtap task
        a = tree_work(2 * node + 1, depth - 1, mem_ops, compute_iters);
        #pragma gtap task
        b = tree_work(2 * node + 2, depth - 1, mem_ops, compute_iters);
    }
    #pragma gtap taskwait
    return a + b + own;
}

__global__ void tree_kernel(int depth) {
    #pragma gtap entry
    d_result = tree(0, depth);
}

__global__ void tree_work_kernel(int depth, int mem_ops, int compute_iters) {
    #pragma gtap entry
    d_result = tree_work(0, depth, mem_ops, compute_iters);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int depth = (int)app_arg(argc, argv, 1, "depth", 16), runs = (int)app_arg(argc, argv, 2, "runs", 1), rc = 0;
    int mem_ops = (int)app_arg(argc, argv, 3, "mem_ops", 0), compute_iters = (int)app_arg(argc, argv, 4, "compute_iters", 0);
    const int work = mem_ops > 0 || compute_iters > 0;
    APP_CUDA(gtap_initialize()); // first: on a distributed run it selects this rank's GPU
    const long long nodes = (2LL << depth) - 1;
    long long want = nodes;
    double *table = NULL;
    if (work) {
        // rank 0 builds the input; the others start with garbage that replicate overwrites
        static double host[TREE_INPUT_N];
        for (uint32_t i = 0; i < TREE_INPUT_N; i++)
            host[i] = gtap_dist_rank() == 0 ? (double)(tw_hash32(i) % 1000003u) * 0.5 : -1.0;
        APP_CUDA(cudaMalloc((void **)&table, sizeof host));
        APP_CUDA(cudaMemcpy(table, host, sizeof host, cudaMemcpyHostToDevice));
        if (gtap_replicate(table, table, sizeof host) != 0) return 1;
        APP_CUDA(cudaMemcpyToSymbol(g_input, &table, sizeof table));
        want = -1; // unchecked unless the CPU can recompute it cheaply
        if (gtap_dist_rank() == 0 && (double)nodes * (mem_ops + compute_iters) <= 2147483648.0) {
            unsigned long long sum = 0;
            for (long long n = 0; n < nodes; n++)
                sum += 1 + tree_node_work_cpu(host, n, mem_ops, compute_iters);
            want = (long long)sum;
        }
    }
    for (int r = 0; r < runs && rc == 0; r++) {
        unsigned long long got = ~0ull;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        if (work)
            APP_CUDA(gtap_launch(tree_work_kernel, depth, mem_ops, compute_iters));
        else
            APP_CUDA(gtap_launch(tree_kernel, depth));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[128];
        if (work)
            snprintf(what, sizeof what, "%sbinary tree(depth %d, mem %d, compute %d) checksum%s",
                     TREE_LANES > 1 ? "block-level " : "", depth, mem_ops, compute_iters,
                     want < 0 ? " (unchecked)" : "");
        else
            snprintf(what, sizeof what, "%sbinary tree(depth %d) nodes", TREE_LANES > 1 ? "block-level " : "",
                     depth);
        rc = app_report(what, (long long)got, want, ms);
    }
    if (table) cudaFree(table);
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
