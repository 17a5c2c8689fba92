#include "gtap_thread.cuh"
#pragma gtap function
__device__ void f(int n) { (void)n; }
__global__ void k() {
    #pragma gtap task
    f(1);
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: task_in_kernel.cu:5:18: error: '#pragma gtap task' outside a task function (mark the enclos
// EXPECT: task_in_kernel.cu:6:5: error: task function 'f' is called without '#pragma gtap task' (or 
