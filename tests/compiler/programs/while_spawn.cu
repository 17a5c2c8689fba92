// Spawns inside a while loop (results into a global array), one taskwait after the loop.
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define N 1000
__device__ int g_out[N];
__device__ int d_total;

#pragma gtap function
__device__ int square(int i) {
    return i * i;
}

#pragma gtap function
__device__ int fill(int lo, int hi) {
    int i = lo;
    while (i < hi) {
        #pragma gtap task
        g_out[i] = square(i);
        i++;
    }
    #pragma gtap taskwait
    int s = 0;
    for (int k = lo; k < hi; k++) s += g_out[k] % 7;
    return s;
}

__global__ void k() {
    #pragma gtap entry
    d_total = fill(0, N);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k));
    TEST_CUDA(gtap_synchronize());
    int h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_total, sizeof h));
    gtap_finalize();
    int want = 0;
    for (int i = 0; i < N; i++) want += (i * i) % 7;
    return test_report("sum of squares mod 7", h, want);
}
