#include "gtap_thread.cuh"
__device__ int helper(int n) {
    #pragma gtap taskwait
    return n;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: taskwait_outside.cu:3:18: error: '#pragma gtap taskwait' outside a task function (mark the en
