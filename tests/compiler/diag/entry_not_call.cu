#include "gtap_thread.cuh"
__device__ int d;
#pragma gtap function
__device__ int f(int n) { return n; }
__global__ void k() {
    #pragma gtap entry
    d = 3;
}
__global__ void k2() {
    #pragma gtap entry
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: entry_not_call.cu:6:18: error: '#pragma gtap entry' must be followed by a call to a task fu
// EXPECT: entry_not_call.cu:10:18: error: '#pragma gtap entry' must be followed by a call to a task fu
