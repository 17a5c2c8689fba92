// break and continue around a taskwait inside loops.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long val(int i) {
    return (long long)i * i % 17;
}

#pragma gtap function
__device__ long long scan(int n) {
    long long total = 0;
    int i = 0;
    while (true) {
        if (i >= n) break;
        if (i % 3 == 1) { i++; continue; }
        long long v;
        #pragma gtap task
        v = val(i);
        #pragma gtap taskwait
        if (v == 13) { i++; continue; }
        total += v;
        if (total > 100000) break;
        i++;
    }
    for (int j = 0; j < 50; j++) {
        long long w;
        #pragma gtap task
        w = val(j + 1000);
        #pragma gtap taskwait
        if (w > 15) break;
        total += w * 2;
    }
    return total;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = scan(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 400;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 1) continue;
        long long v = (long long)i * i % 17;
        if (v == 13) continue;
        total += v;
        if (total > 100000) break;
    }
    for (int j = 0; j < 50; j++) {
        long long w = (long long)(j + 1000) * (j + 1000) % 17;
        if (w > 15) break;
        total += w * 2;
    }
    return test_report("scan", h, total);
}
