// The worked example of docs/compiler.md section 5 and the README, as written there: a
// thread-level reduction tree whose leaves are warp tasks (warp_sum), over managed memory.
#include <stdio.h>
#include "gtap_thread.cuh"
#include "test_common.cuh"

// Sums a[0..n) with the whole warp: each lane reads a strided slice, then a warp reduction.
#pragma gtap function warp
__device__ long long warp_sum(const int *a, int n) {
    long long s = 0;
    for (int i = gtap_warp_lane(); i < n; i += GTAP_WARP_LANES)
        s += a[i];
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    return s;                            // lane 0's value is the task's result
}

#pragma gtap function
__device__ long long total(const int *a, int n) {   // a thread-level task
    if (n <= 4096) {
        long long s;
        #pragma gtap task
        s = warp_sum(a, n);              // spawned like any task, by one lane
        #pragma gtap taskwait
        return s;
    }
    long long x, y;
    #pragma gtap task
    x = total(a, n / 2);
    #pragma gtap task
    y = total(a + n / 2, n - n / 2);
    #pragma gtap taskwait
    return x + y;
}

__device__ long long d_sum;

__global__ void sum_kernel(const int *a, int n) {
    #pragma gtap entry
    d_sum = total(a, n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 1000003;
    int *a = NULL;
    TEST_CUDA(cudaMallocManaged(&a, n * sizeof(int)));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        a[i] = i % 1009 - 500;
        want += a[i];
    }
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(sum_kernel, (const int *)a, n));
    TEST_CUDA(gtap_synchronize());
    long long got = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&got, d_sum, sizeof got));
    gtap_finalize();
    cudaFree(a);
    return test_report("sum", got, want);
}
