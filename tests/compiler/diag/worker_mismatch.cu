#include "gtap_thread.cuh"
#pragma gtap function worker_size(block)
__device__ void f(int n) { (void)n; }

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: worker_mismatch.cu:2:14: error: worker_size(block) does not match the included runtime heade
