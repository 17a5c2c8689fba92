#define GTAP_MAX_TASK_DATA_SIZE 64
#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    int buf[32];
    for (int i = 0; i < 32; i++) buf[i] = i * n;
    int r;
    #pragma gtap task
    r = f(n - 1);
    #pragma gtap taskwait
    return r + buf[n % 32];
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: too_large.cu:4:1: error: task data of 'f' is 136 bytes (arguments and locals that liv
