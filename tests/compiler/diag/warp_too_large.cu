#include "gtap_thread.cuh"
#pragma gtap function
__device__ int leaf(int n) { return n; }

#pragma gtap function warp
__device__ int w(int n) {
    int keep[40];
    for (int i = 0; i < 40; i++) keep[i] = n + i;
    int r;
    #pragma gtap task
    r = leaf(n);
    #pragma gtap taskwait
    return r + keep[gtap_warp_lane() % 40];
}

// A warp task keeps 32 copies of every local that lives across a taskwait: 40 ints are 5 KiB.
// EXPECT: warp_too_large.cu:6:1: error: task data of 'w' is 5252 bytes (arguments and locals that live across a taskwait, one copy per lane of the warp), more than GTAP_MAX_TASK_DATA_SIZE=4096
