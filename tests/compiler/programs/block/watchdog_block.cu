// The single-GPU watchdog in block mode (docs/debug.md WD1-WD4): a block-level tree whose
// leftmost leaf spawns held_block, a task whose threads never leave it. GTAP_WATCHDOG_S must
// end the process and name the task. (GPU only, run by the watchdog tests.)
#include "gtap_block.cuh"
#include "../test_common.cuh"

__device__ int d_count;

#pragma gtap function worker_size(block)
__device__ int held_block(void) {
    for (;;)
        __nanosleep(10000);
    return 1;
}

#pragma gtap function worker_size(block)
__device__ int block_tree(int depth, int id) {
    int a = 0, b = 0;
    if (depth == 0) {
        if (id != 0)
            return 1;
        if (threadIdx.x == 0) {
            #pragma gtap task
            a = held_block();
        }
        #pragma gtap taskwait
        return a;
    }
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = block_tree(depth - 1, 2 * id);
        #pragma gtap task
        b = block_tree(depth - 1, 2 * id + 1);
    }
    #pragma gtap taskwait
    return a + b;
}

__global__ void block_tree_kernel(int depth) {
    #pragma gtap entry
    d_count = block_tree(depth, 0);
}

int main() {
    TEST_REQUIRE_DEVICE();
    gtap_block_config config;
    config.grid_size = 264;
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(block_tree_kernel, 8));
    TEST_CUDA(gtap_synchronize());
    int got = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&got, d_count, sizeof got));
    TEST_CUDA(gtap_finalize());
    return test_report("leaves of a depth-8 block tree", got, 1 << 8);
}
