// bintree.cu - a full binary tree of depth D, one task per node, each returning the size of
// its subtree. Usage: bintree [depth=16] [runs=1].
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ long long d_result;

#pragma gtap function
__device__ long long tree(int depth) {
    if (depth == 0) return 1;
    long long a, b;
    #pragma gtap task
    a = tree(depth - 1);
    #pragma gtap task
    b = tree(depth - 1);
    #pragma gtap taskwait
    return a + b + 1;
}

__global__ void tree_kernel(int depth) {
    #pragma gtap entry
    d_result = tree(depth);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int depth = (int)app_arg(argc, argv, 1, 16), runs = (int)app_arg(argc, argv, 2, 1), rc = 0;
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(tree_kernel, depth));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[64];
        snprintf(what, sizeof what, "binary tree(depth %d) nodes", depth);
        rc = app_report(what, got, (2LL << depth) - 1, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
