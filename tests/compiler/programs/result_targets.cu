// Results assigned to local array elements and struct fields (beyond the paper).
#include "gtap_thread.cuh"
#include "test_common.cuh"

struct pair { int lo; int hi; };
__device__ long long d_result;

#pragma gtap function
__device__ int leaf(int i) {
    return i * 2 + 1;
}

#pragma gtap function
__device__ long long gather(int base) {
    int r[6];
    pair p;
    for (int i = 0; i < 6; i++) {
        #pragma gtap task
        r[i] = leaf(base + i);
    }
    #pragma gtap task
    p.lo = leaf(base - 1);
    #pragma gtap task
    p.hi = leaf(base + 100);
    #pragma gtap taskwait
    long long s = p.lo * 1000 + p.hi;
    for (int i = 0; i < 6; i++) s += r[i] * (i + 1);
    return s;
}

__global__ void k(int base) {
    #pragma gtap entry
    d_result = gather(base);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int base = 10;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, base));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long s = (long long)((base - 1) * 2 + 1) * 1000 + (base + 100) * 2 + 1;
    for (int i = 0; i < 6; i++) s += ((base + i) * 2 + 1) * (i + 1);
    return test_report("gather", h, s);
}
