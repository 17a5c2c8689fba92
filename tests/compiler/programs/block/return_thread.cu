// Block-level function whose result is thread 3's return value (return_thread(3)): every
// thread returns a different value, and only thread 3's may reach the parent (gtap_gen.h,
// block mode). Thread 0 spawns; the sum over a tree of depth d is checked on the host.
// Build with -DGTAP_BLOCK_SIZE=32.
#include "gtap_block.cuh"
#include "../test_common.cuh"

__device__ long long d_result;

#pragma gtap function worker_size(block) return_thread(3)
__device__ long long tree3(int depth) {
    long long a = 0, b = 0;
    if (depth == 0) return 3 + (long long)threadIdx.x * 1000; // thread 3: 3003
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = tree3(depth - 1);
        #pragma gtap task
        b = tree3(depth - 1);
    }
    #pragma gtap taskwait
    // thread 0 holds the children's results; thread 3 returns them (through shared memory)
    __shared__ long long s_sum;
    if (threadIdx.x == 0) s_sum = a + b;
    __syncthreads();
    return s_sum + 1 + (long long)threadIdx.x * 1000000 - 3000000; // thread 3: s_sum + 1
}

__global__ void return_thread_kernel(int depth) {
    #pragma gtap entry
    d_result = tree3(depth);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int depth = 10;
    gtap_block_config config;
    config.grid_size = 64;
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(return_thread_kernel, depth));
    TEST_CUDA(gtap_synchronize());
    long long h = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    // 2^depth leaves of 3003 each, plus 1 per inner node (2^depth - 1 of them)
    const long long want = (1LL << depth) * 3003 + ((1LL << depth) - 1);
    return test_report("return_thread(3) tree", h, want);
}
