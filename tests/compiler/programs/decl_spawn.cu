// The declaration form `T x = f(...)` after #pragma gtap task, and a condition variable.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long f(int n) {
    if (n < 2) return n;
    #pragma gtap task
    long long a = f(n - 1);
    #pragma gtap task
    long long b = f(n - 2);
    #pragma gtap taskwait
    if (long long s = a + b) return s;
    return 0;
}

__global__ void k(int n) {
    #pragma gtap entry
    long long r = f(n);
    if (blockIdx.x == 0 && threadIdx.x == 0) d_result = r;   // r is set on the master only
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 20));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    return test_report("fib(20)", h, 6765);
}
