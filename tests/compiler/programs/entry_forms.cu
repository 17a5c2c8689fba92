// entry with and without assignment: a void entry, an entry into a kernel local used after
// the entry statement, statements before and after the entry.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_marks[64];
__device__ int d_result;
__device__ int d_before, d_after;

#pragma gtap function
__device__ void mark(int lo, int hi) {
    if (hi - lo == 1) { d_marks[lo] = lo * 3; return; }
    int mid = (lo + hi) / 2;
    #pragma gtap task
    mark(lo, mid);
    #pragma gtap task
    mark(mid, hi);
}

#pragma gtap function
__device__ int sum(int lo, int hi) {
    if (hi - lo == 1) return d_marks[lo];
    int mid = (lo + hi) / 2, a, b;
    #pragma gtap task
    a = sum(lo, mid);
    #pragma gtap task
    b = sum(mid, hi);
    #pragma gtap taskwait
    return a + b;
}

__global__ void k_mark(int n) {
    d_before = 7;
    #pragma gtap entry
    mark(0, n);
    d_after = 9;
}

__global__ void k_sum(int n) {
    int result = -1;
    #pragma gtap entry
    result = sum(0, n);
    if (blockIdx.x == 0 && threadIdx.x == 0) d_result = result;
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k_mark, 64));
    TEST_CUDA(gtap_synchronize());
    TEST_CUDA(gtap_launch(k_sum, 64));
    TEST_CUDA(gtap_synchronize());
    int h, before, after;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(cudaMemcpyFromSymbol(&before, d_before, sizeof before));
    TEST_CUDA(cudaMemcpyFromSymbol(&after, d_after, sizeof after));
    gtap_finalize();
    int bad = test_report("sum of marks", h, 3 * 63 * 64 / 2);
    bad |= test_report("statements around the entry", before * 10 + after, 79);
    return bad;
}
