// Task functions calling ordinary __device__ helpers (including a recursive one used below
// a cutoff), plus atomics on a global.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_calls;
__device__ long long d_result;

__device__ long long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }
__device__ __noinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

#pragma gtap function
__device__ long long fib(int n, int cutoff) {
    atomicAdd(&d_calls, 1);
    if (n < clampi(cutoff, 2, 30)) return fib_seq(n);
    long long a, b;
    #pragma gtap task
    a = fib(n - 1, cutoff);
    #pragma gtap task
    b = fib(n - 2, cutoff);
    #pragma gtap taskwait
    return a + b;
}

__global__ void k(int n, int cutoff) {
    #pragma gtap entry
    d_result = fib(n, cutoff);
}

static long long tasks(int n, int c) { return n < c ? 1 : 1 + tasks(n - 1, c) + tasks(n - 2, c); }

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 25, 12));
    TEST_CUDA(gtap_synchronize());
    long long h; int calls;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(cudaMemcpyFromSymbol(&calls, d_calls, sizeof calls));
    gtap_finalize();
    int bad = test_report("fib(25)", h, 75025);
    bad |= test_report("task count", calls, tasks(25, 12));
    return bad;
}
