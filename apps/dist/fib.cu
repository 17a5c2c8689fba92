// fib.cu - fib(n) with every call a task, on any number of ranks (one per GPU).
// Usage: fib [n=27] [runs=1]. The only distributed lines: gtap_init_distributed and
// gtap_dist_finalize, and printing on rank 0.
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ long long d_result;

#pragma gtap function
__device__ long long fib(int n) {
    if (n < 2) return n;
    long long a, b;
    #pragma gtap task
    a = fib(n - 1);
    #pragma gtap task
    b = fib(n - 2);
    #pragma gtap taskwait
    return a + b;
}

__global__ void fib_kernel(int n) {
    #pragma gtap entry
    d_result = fib(n);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int n = (int)app_arg(argc, argv, 1, "n", 27), runs = (int)app_arg(argc, argv, 2, "runs", 1), rc = 0;
    long long want = 0, prev = 1;
    for (int i = 0; i < n; i++) { long long t = want + prev; prev = want; want = t; }
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(fib_kernel, n));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[64];
        snprintf(what, sizeof what, "fib(%d)", n);
        rc = app_report(what, got, want, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
