// Void task functions: a binary tree whose nodes write into a global array, with a
// taskwait before the post-order work (the benchmark tree's shape).
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define DEPTH 12
#define NODES ((1 << (DEPTH + 1)) - 1)
__device__ long long g_val[NODES];

#pragma gtap function
__device__ void tree(int node, int height) {
    if (height == 0) {
        g_val[node] = node % 5;
        return;
    }
    #pragma gtap task
    tree(2 * node + 1, height - 1);
    #pragma gtap task
    tree(2 * node + 2, height - 1);
    #pragma gtap taskwait
    g_val[node] = g_val[2 * node + 1] + g_val[2 * node + 2] + 1;
}

__global__ void k(int height) {
    #pragma gtap entry
    tree(0, height);
}

static long long host(int node, int height) {
    if (height == 0) return node % 5;
    return host(2 * node + 1, height - 1) + host(2 * node + 2, height - 1) + 1;
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, DEPTH));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, g_val, sizeof h));
    gtap_finalize();
    return test_report("root value", h, host(0, DEPTH));
}
