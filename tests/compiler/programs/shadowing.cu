// Same-named locals in different scopes, both live across taskwaits, plus a local that
// shadows a global name.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;
__device__ int x = 1000;

#pragma gtap function
__device__ int id(int v) {
    return v;
}

#pragma gtap function
__device__ long long f(int n) {
    long long total = x;          // the global x
    {
        int x = n * 2;            // shadows the global
        int got;
        #pragma gtap task
        got = id(x + 1);
        #pragma gtap taskwait
        total += x * 10 + got;
    }
    {
        long long x = n * 3;      // same name, other type
        int got;
        #pragma gtap task
        got = id((int)x + 2);
        #pragma gtap taskwait
        total += x * 100 + got;
    }
    for (int i = 0; i < 2; i++) {
        int x = i + n;
        int got;
        #pragma gtap task
        got = id(x);
        #pragma gtap taskwait
        total += x + got;
    }
    return total + x;             // the global again
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = f(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 5;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long want = 1000 + (n * 2) * 10 + (n * 2 + 1) + (n * 3) * 100 + (n * 3 + 2);
    for (int i = 0; i < 2; i++) want += 2 * (i + n);
    want += 1000;
    return test_report("f(5)", h, want);
}
