// The single-GPU watchdog and progress report (GTAP_WATCHDOG_S, GTAP_PROGRESS; docs/debug.md
// WD1-WD4). A binary tree of depth 12 whose leftmost leaf spawns held_leaf, a task that holds
// its lane:
//   watchdog slow        held_leaf returns after 0.6 s of device time: the run must give the
//                        right count (no false alarm under GTAP_WATCHDOG_S above 0.6 s)
//   watchdog stuck       held_leaf never returns: GTAP_WATCHDOG_S must end the process and
//                        name it; the program waits with gtap_synchronize
//   watchdog stuck-cuda  the same, launched <<<...>>> and waited for with cudaDeviceSynchronize
//                        as the paper's programs do (WD4: the watchdog needs no runtime call)
#include <string.h>
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_stuck;
__device__ int d_count;

static __device__ unsigned long long device_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

#pragma gtap function
__device__ int held_leaf(void) {
    const unsigned long long t0 = device_ns();
    while (*(volatile int *)&d_stuck || device_ns() - t0 < 600000000ull)
        __nanosleep(10000);
    return 1;
}

#pragma gtap function
__device__ int tree(int depth, int id) {
    if (depth == 0) {
        if (id != 0)
            return 1;
        int held;
        #pragma gtap task
        held = held_leaf();
        #pragma gtap taskwait
        return held;
    }
    int a, b;
    #pragma gtap task
    a = tree(depth - 1, 2 * id);
    #pragma gtap task
    b = tree(depth - 1, 2 * id + 1);
    #pragma gtap taskwait
    return a + b;
}

__global__ void tree_kernel(int depth) {
    #pragma gtap entry
    d_count = tree(depth, 0);
}

int main(int argc, char **argv) {
    TEST_REQUIRE_DEVICE();
    const char *mode = argc > 1 ? argv[1] : "slow";
    const int stuck = strncmp(mode, "stuck", 5) == 0;
    TEST_CUDA(cudaMemcpyToSymbol(d_stuck, &stuck, sizeof stuck));
    TEST_CUDA(gtap_initialize());
    if (!strcmp(mode, "stuck-cuda")) {
        tree_kernel<<<GTAP_GRID_SIZE, GTAP_BLOCK_SIZE>>>(12);
        TEST_CUDA(cudaDeviceSynchronize());
    } else {
        TEST_CUDA(gtap_launch(tree_kernel, 12));
        TEST_CUDA(gtap_synchronize());
    }
    int got = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&got, d_count, sizeof got));
    TEST_CUDA(gtap_finalize());
    return test_report("leaves of a depth-12 tree", got, 1 << 12);
}
