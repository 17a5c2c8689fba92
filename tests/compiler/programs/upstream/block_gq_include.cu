// A block-level program as the paper's newer programs write it: the global-queue ablation
// through "experimental/gtap_block_gq.cuh". Built by tests/compiler/upstream_style.sh with
// -DGTAP_BLOCK_SIZE=32 and a -I path that holds another runtime's headers.
#include "experimental/gtap_block_gq.cuh"
#include "../test_common.cuh"

__device__ int d_result;

#pragma gtap function worker_size(block)
__device__ int fib_block(int n) {
    if (n < 2) return n;
    int a = 0, b = 0;
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = fib_block(n - 1);
        #pragma gtap task
        b = fib_block(n - 2);
    }
    #pragma gtap taskwait
    return a + b;
}

__global__ void exec_kernel(int n) {
    #pragma gtap entry
    d_result = fib_block(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 15;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(exec_kernel, n));
    TEST_CUDA(gtap_synchronize());
    int got = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
    TEST_CUDA(gtap_finalize());
    if (got != 610) {
        printf("FAIL: fib_block(%d) = %d, expected 610\n", n, got);
        return 1;
    }
    printf("PASS: fib_block(%d) = %d through experimental/gtap_block_gq.cuh\n", n, got);
    return 0;
}
