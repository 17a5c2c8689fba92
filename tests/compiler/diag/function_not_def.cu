#include "gtap_thread.cuh"
#pragma gtap function
__device__ int not_a_function;
#pragma gtap function
__global__ void kernel(int n) { (void)n; }

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: function_not_def.cu:2:14: error: '#pragma gtap function' must be followed by the definition o
// EXPECT: function_not_def.cu:5:1: error: a __global__ kernel cannot be a task function; use a __devic
