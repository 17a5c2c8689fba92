#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    int x;
    #pragma gtap task
    x = n + 1;
    #pragma gtap taskwait
    return x;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: task_not_call.cu:5:18: error: '#pragma gtap task' must be followed by a call to a task fun
