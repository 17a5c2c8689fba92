#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) { return n; }
#pragma gtap function
__device__ double g(int n) {
    double x;
    #pragma gtap task
    x = f(n);
    #pragma gtap taskwait
    return x;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: result_type.cu:8:5: error: the result of 'f' has type 'int' but is stored into an objec
