#include "gtap_thread.cuh"
__device__ int d;
#pragma gtap function
__device__ int f(int n) {
    if (n < 2) return n;
    return f(n - 1) + 1;
}
__global__ void k() { d = f(3); }

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: direct_call.cu:6:12: error: task function 'f' is called without '#pragma gtap task' (or 
// EXPECT: direct_call.cu:8:27: error: task function 'f' is called without '#pragma gtap task' (or 
