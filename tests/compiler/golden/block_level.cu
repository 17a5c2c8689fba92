// Golden test: a block-level task function (per-thread copies of spilled locals, a
// parameter written in the body, shared memory untouched, return_thread).
#include "gtap_block.cuh"

#pragma gtap function worker_size(block) return_thread(1)
__device__ int sum(int lo, int hi) {
    __shared__ int s_mid;
    if (threadIdx.x == 0) s_mid = (lo + hi) / 2;
    __syncthreads();
    int mid = s_mid;
    if (hi - lo < 4) return hi - lo;
    int a = 0, b = 0;
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = sum(lo, mid);
        #pragma gtap task
        b = sum(mid, hi);
    }
    #pragma gtap taskwait
    lo = a + b;
    return lo;
}
