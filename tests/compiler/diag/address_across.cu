#include "gtap_thread.cuh"
#pragma gtap function
__device__ void add(int *p, int v) { atomicAdd(p, v); }
#pragma gtap function
__device__ int f(int n) {
    int sum = 0;
    #pragma gtap task
    add(&sum, n);
    #pragma gtap taskwait
    int local = n;
    int *p = &local;
    #pragma gtap task
    add(0, n);
    #pragma gtap taskwait
    return sum + *p;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: address_across.cu:8:9: error: address of local variable 'sum' is passed to task 'add'; a t
// EXPECT: address_across.cu:11:14: error: address of local variable 'local' is stored in 'p', which is
