// single_mode.cu - fib(n) as a plain single-node program: no gtap_init_distributed. Built
// twice (apps/dist/CMakeLists.txt): alone, and linked with the distributed layer, to show
// that the distributed build costs a program that does not ask for distribution nothing
// (bench/dist/single_mode.sh). Usage: single_mode [n=30] [runs=5]; prints one time per run.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gtap_thread.cuh"

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
    int n = argc > 1 ? atoi(argv[1]) : 30, runs = argc > 2 ? atoi(argv[2]) : 5;
    if (gtap_initialize() != cudaSuccess) return 1;
    for (int r = 0; r < runs; r++) {
        struct timespec a, b;
        long long got = 0;
        clock_gettime(CLOCK_MONOTONIC, &a);
        gtap_launch(fib_kernel, n);
        if (gtap_synchronize() != cudaSuccess) return 1;
        clock_gettime(CLOCK_MONOTONIC, &b);
        cudaMemcpyFromSymbol(&got, d_result, sizeof got);
        printf("run %d: fib(%d) = %lld in %.3f ms\n", r, n, got,
               (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
    }
    return gtap_finalize() == cudaSuccess ? 0 : 1;
}
