#include "gtap_block.cuh"
#pragma gtap function
__device__ void f(int n) { (void)n; }

// Expected diagnostics (checked by check_diag.cmake):
// ARGS: --target=host
// EXPECT: host_block.cu:2:14: error: block-level programs (gtap_block.cuh) need a GPU; --target=h
