// Three spawns and one taskwait.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long trib(int n) {
    if (n < 3) return n == 2 ? 1 : 0;
    long long a, b, c;
    #pragma gtap task
    a = trib(n - 1);
    #pragma gtap task
    b = trib(n - 2);
    #pragma gtap task
    c = trib(n - 3);
    #pragma gtap taskwait
    return a + b + c;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = trib(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 18;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long t[64] = {0, 0, 1};
    for (int i = 3; i <= n; i++) t[i] = t[i - 1] + t[i - 2] + t[i - 3];
    return test_report("trib(18)", h, t[n]);
}
