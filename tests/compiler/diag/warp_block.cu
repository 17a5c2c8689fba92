#include "gtap_block.cuh"
#pragma gtap function warp
__device__ int w(int n) { return n; }

// A block-level program has no warp task functions: its tasks already run on whole blocks.
// EXPECT: warp_block.cu:2:14: error: warp task functions belong to thread-level programs (gtap_thread.cuh)
