// detached.cu - a fork-join tree whose inner nodes also spawn "bump" tasks they never wait
// for (detached children, gtap_gen.h R4). Root completion then does not mean the job is
// done; the runtime falls back to the Safra token (docs/dist.md T2). Bumps add into a
// per-rank counter, summed over ranks after the run. Usage: detached [depth=12] [runs=1].
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ long long d_result;
__device__ unsigned long long g_bumps;

#pragma gtap function
__device__ int bump(int d) {
    atomicAdd(&g_bumps, (unsigned long long)d);
    return d;
}

#pragma gtap function
__device__ long long dtree(int d) {
    if (d == 0) return 1;
    long long a, b;
    int ignored;
    #pragma gtap task
    a = dtree(d - 1);
    #pragma gtap task
    b = dtree(d - 1);
    #pragma gtap taskwait
    #pragma gtap task
    bump(d);
    #pragma gtap task
    ignored = bump(d);
    return a + b + 1;
}

__global__ void dtree_kernel(int depth) {
    #pragma gtap entry
    d_result = dtree(depth);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int depth = (int)app_arg(argc, argv, 1, "depth", 12), runs = (int)app_arg(argc, argv, 2, "runs", 1), rc = 0;
    unsigned long long want_bumps = 0;
    for (int d = 1; d <= depth; d++) want_bumps += (1ULL << (depth - d)) * 2ULL * (unsigned long long)d;
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        unsigned long long zero = 0; uint64_t bumps = 0;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        APP_CUDA(cudaMemcpyToSymbol(g_bumps, &zero, sizeof zero));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(dtree_kernel, depth));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        APP_CUDA(cudaMemcpyFromSymbol(&bumps, g_bumps, sizeof bumps));
        if (gtap_dist_allreduce_u64(&bumps, 1, GTAP_DIST_SUM) != 0) return 1;
        char what[64];
        snprintf(what, sizeof what, "detached tree(depth %d) nodes", depth);
        rc = app_report(what, got, (2LL << depth) - 1, ms);
        if (rc == 0) {
            snprintf(what, sizeof what, "detached tree(depth %d) bumps", depth);
            rc = app_report(what, (long long)bumps, (long long)want_bumps, ms);
        }
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
