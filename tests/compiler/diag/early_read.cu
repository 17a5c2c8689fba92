#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    if (n < 2) return n;
    int a;
    #pragma gtap task
    a = f(n - 1);
    int early = a * 2;
    #pragma gtap taskwait
    return a + early;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXIT: 0
// EXPECT: early_read.cu:8:17: warning: 'a' is read before the taskwait that makes the result of 'f'
