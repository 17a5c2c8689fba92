// Block-level fib: thread 0 spawns, every thread joins; __shared__ memory and
// __syncthreads() between joins; threads that did not spawn keep their own copies.
// Build with -DGTAP_BLOCK_SIZE=32.
#include "gtap_block.cuh"
#include "../test_common.cuh"

__device__ int d_result;
__device__ int d_non_spawner_got_result;

__device__ int block_sum(int v) {
    __shared__ int partial[GTAP_BLOCK_SIZE];
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    int r = partial[0];
    __syncthreads();
    return r;
}

#pragma gtap function worker_size(block)
__device__ int fib_block(int n) {
    if (n < 2) return n;
    __shared__ int s_n;
    if (threadIdx.x == 0) s_n = n;
    __syncthreads();
    int check = block_sum(s_n == n ? 1 : 0);   // every thread saw the same n
    int a = 0;
    int b = 0;
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = fib_block(n - 1);
        #pragma gtap task
        b = fib_block(n - 2);
    }
    #pragma gtap taskwait
    if (threadIdx.x != 0 && (a != 0 || b != 0)) atomicExch(&d_non_spawner_got_result, 1);
    if (check != (int)blockDim.x) atomicExch(&d_non_spawner_got_result, 2);
    return a + b;
}

__global__ void exec_block_kernel(int n) {
    #pragma gtap entry
    d_result = fib_block(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 18;
    gtap_block_config config;
    config.grid_size = 264;
    config.max_tasks_per_block = 10000;
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(exec_block_kernel, n));
    TEST_CUDA(gtap_synchronize());
    int h, flag;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(cudaMemcpyFromSymbol(&flag, d_non_spawner_got_result, sizeof flag));
    gtap_finalize();
    int bad = test_report("block fib(18)", h, 2584);
    bad |= test_report("non-spawner/shared-memory flag", flag, 0);
    return bad;
}
