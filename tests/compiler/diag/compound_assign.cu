#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    int a = 0;
    #pragma gtap task
    a += f(n - 1);
    #pragma gtap taskwait
    return a;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: compound_assign.cu:6:5: error: the result of a task can only be stored with '=' (store it i
