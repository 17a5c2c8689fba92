#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    int a;
    #pragma gtap task
    a = f(n - 1);
    #pragma gtap taskwait
    return a;
}

// Expected diagnostics (checked by check_diag.cmake):
// ARGS: -fgtap-no-taskwait
// EXPECT: no_taskwait_flag.cu:7:18: error: taskwait in a program built with -fgtap-no-taskwait (GTAP_AS
// EXPECT: no_taskwait_flag.cu:8:12: warning: 'a' is read before the taskwait that makes the result of 'f'
