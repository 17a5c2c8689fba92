// Early returns before any spawn, between spawn and taskwait is not allowed to read the
// result, and after the taskwait.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long f(int n, int limit) {
    if (n <= 0) return 1;                 // before any spawn
    long long a;
    #pragma gtap task
    a = f(n - 1, limit);
    if (n > limit) return 100;            // after a spawn, before the taskwait (child detached)
    #pragma gtap taskwait
    if (a > 50) return a - 50;            // after the taskwait
    long long b;
    #pragma gtap task
    b = f(n - 2, limit);
    #pragma gtap taskwait
    return a + b;
}

__global__ void k(int n, int limit) {
    #pragma gtap entry
    d_result = f(n, limit);
}

static long long host(int n, int limit) {
    if (n <= 0) return 1;
    long long a = host(n - 1, limit);
    if (n > limit) return 100;
    if (a > 50) return a - 50;
    return a + host(n - 2, limit);
}

int main() {
    TEST_REQUIRE_DEVICE();
    int fails = 0;
    TEST_CUDA(gtap_initialize());
    int cases[][2] = {{10, 20}, {14, 12}, {16, 30}, {3, 1}};
    for (auto &c : cases) {
        TEST_CUDA(gtap_launch(k, c[0], c[1]));
        TEST_CUDA(gtap_synchronize());
        long long h;
        TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
        if (h != host(c[0], c[1])) { printf("f(%d,%d)=%lld want %lld\n", c[0], c[1], h, host(c[0], c[1])); fails++; }
    }
    gtap_finalize();
    return test_report("mismatches", fails, 0);
}
