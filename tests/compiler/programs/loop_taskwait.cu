// taskwait inside a loop: many rounds of spawn + join, with state carried across rounds.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long work(long long x, int salt) {
    return (x * 31 + salt) % 1000003;
}

#pragma gtap function
__device__ long long rounds(int n) {
    long long acc = 1;
    for (int r = 0; r < n; r++) {
        long long a, b;
        #pragma gtap task
        a = work(acc, r);
        #pragma gtap task
        b = work(acc + 1, r * 2);
        #pragma gtap taskwait
        acc = (a + b) % 1000003;
    }
    return acc;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = rounds(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 200;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long acc = 1;
    for (int r = 0; r < n; r++) {
        long long a = (acc * 31 + r) % 1000003, b = ((acc + 1) * 31 + r * 2) % 1000003;
        acc = (a + b) % 1000003;
    }
    return test_report("200 rounds", h, acc);
}
