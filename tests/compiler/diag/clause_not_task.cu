#include "gtap_thread.cuh"
__device__ int d_r;
#pragma gtap function final(1)
__device__ int f(int n) {
    if (n < 2) return n;
    int a;
    #pragma gtap task if(n > 8)
    a = f(n - 1);
    #pragma gtap taskwait if(n > 3)
    #pragma gtap taskwait queue(0) final(n > 3)
    return a;
}
__global__ void k(int n) {
    #pragma gtap entry if(n > 3)
    d_r = f(n);
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: clause_not_task.cu:3:23: error: 'final' is a clause of '#pragma gtap task' only, not of '#pragma gtap function'
// EXPECT: clause_not_task.cu:9:27: error: 'if' is a clause of '#pragma gtap task' only, not of '#pragma gtap taskwait'
// EXPECT: clause_not_task.cu:10:36: error: 'final' is a clause of '#pragma gtap task' only, not of '#pragma gtap taskwait'
// EXPECT: clause_not_task.cu:14:24: error: 'if' is a clause of '#pragma gtap task' only, not of '#pragma gtap entry'
