// Children that are never waited for (R4: detached) next to joined ones; the task graph
// still finishes and every child runs.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_hits[256];
__device__ int d_result;

#pragma gtap function
__device__ void touch(int i) {
    atomicAdd(&d_hits[i], 1);
}

#pragma gtap function
__device__ int spread(int lo, int hi) {
    if (hi - lo == 1) {
        #pragma gtap task
        touch(lo);
        return 1;
    }
    int mid = (lo + hi) / 2, a, b;
    #pragma gtap task
    a = spread(lo, mid);
    #pragma gtap task
    b = spread(mid, hi);
    #pragma gtap taskwait
    #pragma gtap task
    touch(lo);
    return a + b;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = spread(0, n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 256));
    TEST_CUDA(gtap_synchronize());
    int h, hits[256];
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(cudaMemcpyFromSymbol(hits, d_hits, sizeof hits));
    gtap_finalize();
    long long total = 0;
    for (int i = 0; i < 256; i++) total += hits[i];
    int bad = test_report("leaves", h, 256);
    bad |= test_report("touches", total, 256 + 255);
    return bad;
}
