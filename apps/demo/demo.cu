/* demo.cu - the project's main job: fib and N-Queens written with #pragma gtap, run through
 * the runtime on the GPU, with results checked and kernel times printed. The same source
 * built for the host target (gtap_demo_host) runs them on the CPU reference executor, which
 * is what scripts/demo.sh runs on a machine without a CUDA device (gtap_demo exits 77 there).
 * Usage: gtap_demo [FIB_N] [NQUEENS_N] */
#include <stdio.h>
#include <stdlib.h>

#include "gtap_thread.cuh"

#define NQ_CUTOFF 7

__device__ int d_fib;
__device__ unsigned long long d_solutions;
__device__ int d_nq_n;

#pragma gtap function
__device__ int fib(int n)
{
    if (n < 2)
        return n;
    int a, b;
#pragma gtap task
    a = fib(n - 1);
#pragma gtap task
    b = fib(n - 2);
#pragma gtap taskwait
    return a + b;
}

/* Solutions below a partial placement, searched sequentially (rows past the cutoff). */
__device__ unsigned long long nq_count(int n, int row, unsigned cols, unsigned left, unsigned right)
{
    if (row == n)
        return 1;
    unsigned long long count = 0;
    unsigned avail = ((1u << n) - 1) & ~(cols | left | right);
    while (avail) {
        unsigned p = avail & (0u - avail);
        avail ^= p;
        count += nq_count(n, row + 1, cols | p, (left | p) << 1, (right | p) >> 1);
    }
    return count;
}

#pragma gtap function
__device__ void nqueens(int row, unsigned cols, unsigned left, unsigned right)
{
    int n = d_nq_n;
    if (row > NQ_CUTOFF || row == n) {
        atomicAdd(&d_solutions, nq_count(n, row, cols, left, right));
        return;
    }
    unsigned avail = ((1u << n) - 1) & ~(cols | left | right);
    while (avail) {
        unsigned p = avail & (0u - avail);
        avail ^= p;
#pragma gtap task
        nqueens(row + 1, cols | p, (left | p) << 1, (right | p) >> 1);
    }
}

__global__ void fib_kernel(int n)
{
#pragma gtap entry
    d_fib = fib(n);
}

__global__ void nqueens_kernel(void)
{
#pragma gtap entry
    nqueens(0, 0u, 0u, 0u);
}

static float elapsed_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    return ms;
}

int main(int argc, char **argv)
{
    static const unsigned long long queens[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712,
                                                365596, 2279184, 14772512, 95815104};
#if defined(GTAP_TARGET_HOST)
    /* one CPU thread runs every task: smaller defaults */
    int fib_n = argc > 1 ? atoi(argv[1]) : 32;
    int nq_n = argc > 2 ? atoi(argv[2]) : 13;
#else
    int fib_n = argc > 1 ? atoi(argv[1]) : 35;
    int nq_n = argc > 2 ? atoi(argv[2]) : 14;
#endif
    int ndev = 0;
    if (fib_n < 0 || fib_n > 46 || nq_n < 1 || nq_n > 17) {
        fprintf(stderr, "usage: gtap_demo [FIB_N (0..46)] [NQUEENS_N (1..17)]\n");
        return 2;
    }
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("gtap demo: this machine has no CUDA device; gtap_demo_host runs the demo on the CPU "
               "reference executor (scripts/demo.sh does that)\n");
        return 77;
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    size_t bytes = 0;
    if (gtap_initialize(&bytes) != cudaSuccess)
        return 1;
    printf("gtap demo on %s: %zu MiB of task pools\n", prop.name, bytes >> 20);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    int ok = 1;

    long long f0 = 0, f1 = 1;
    for (int k = 0; k < fib_n; k++) {
        long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    for (int rep = 0; rep < 2; rep++) { /* the first launch warms up */
        cudaEventRecord(t0);
        gtap_launch(fib_kernel, fib_n);
        cudaEventRecord(t1);
        if (gtap_synchronize() != cudaSuccess)
            return 1;
    }
    int got = 0;
    cudaMemcpyFromSymbol(&got, d_fib, sizeof got);
    printf("fib(%d) = %d (%s), every call a task: %.3f ms\n", fib_n, got, got == f0 ? "correct" : "WRONG",
           elapsed_ms(t0, t1));
    ok &= got == f0;

    cudaMemcpyToSymbol(d_nq_n, &nq_n, sizeof nq_n);
    unsigned long long solutions = 0;
    for (int rep = 0; rep < 2; rep++) {
        unsigned long long zero = 0;
        cudaMemcpyToSymbol(d_solutions, &zero, sizeof zero);
        cudaEventRecord(t0);
        gtap_launch(nqueens_kernel);
        cudaEventRecord(t1);
        if (gtap_synchronize() != cudaSuccess)
            return 1;
    }
    cudaMemcpyFromSymbol(&solutions, d_solutions, sizeof solutions);
    printf("N-Queens(%d) = %llu (%s), tasks down to row %d: %.3f ms\n", nq_n, solutions,
           solutions == queens[nq_n] ? "correct" : "WRONG", NQ_CUTOFF, elapsed_ms(t0, t1));
    ok &= solutions == queens[nq_n];

    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    printf("%s\n", ok ? "demo: all results correct" : "demo: WRONG RESULTS");
    return ok ? 0 : 1;
}
