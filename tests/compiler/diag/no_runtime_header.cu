#include <cuda_runtime.h>
#pragma gtap function
__device__ int f(int n) { return n; }

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: no_runtime_header.cu:2:14: error: task functions need the runtime: #include "gtap_thread.cuh" 
