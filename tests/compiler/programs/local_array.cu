// A local array initialized before a taskwait and read after it (spilled whole), and an
// array used only between joins (stays local).
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ int sq(int v) {
    return v * v;
}

#pragma gtap function
__device__ long long f(int n) {
    int buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int scratch[4];
    for (int i = 0; i < 4; i++) scratch[i] = n + i;
    buf[0] = scratch[0] + scratch[3];
    int s;
    #pragma gtap task
    s = sq(n);
    #pragma gtap taskwait
    long long total = s;
    for (int i = 0; i < 8; i++) total += buf[i] * (i + 1);
    return total;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = f(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 9;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    int buf[8] = {n + n + 3, 2, 3, 4, 5, 6, 7, 8};
    long long want = n * n;
    for (int i = 0; i < 8; i++) want += buf[i] * (i + 1);
    return test_report("f(9)", h, want);
}
