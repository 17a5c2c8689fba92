// N-Queens without taskwait (counts into a global with atomics), spawns in a while loop.
// Built with -fgtap-no-taskwait.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ unsigned long long d_answer;
__device__ __constant__ int d_n;

#pragma gtap function
__device__ void nq(int row, unsigned column, unsigned left, unsigned right) {
    unsigned full = (1u << d_n) - 1;
    if (row == d_n) { atomicAdd(&d_answer, 1ull); return; }
    unsigned avail = full & ~(column | left | right);
    while (avail) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        #pragma gtap task
        nq(row + 1, column | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
}

__global__ void k() {
    #pragma gtap entry
    nq(0, 0, 0, 0);
}

int main() {
    TEST_REQUIRE_DEVICE();
    int n = 8;
    TEST_CUDA(cudaMemcpyToSymbol(d_n, &n, sizeof n));
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k));
    TEST_CUDA(gtap_synchronize());
    unsigned long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_answer, sizeof h));
    gtap_finalize();
    return test_report("N-Queens(8)", (long long)h, 92);
}
