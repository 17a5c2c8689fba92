#include "gtap_thread.cuh"
#pragma gtap function
__device__ int leaf(int n) {
    static __device__ int calls;
    extern __device__ int d_total;
    calls++;
    d_total += n;
    return n;
}
__device__ int d_total;

#pragma gtap function
__device__ int f(int n) {
    static __device__ int seen;
    int a, b;
    #pragma gtap task final(n < 4)
    a = leaf(n);
    #pragma gtap task
    b = f(n - 1);
    #pragma gtap taskwait
    return a + b + seen;
}

// The clone of leaf (reached through final) would have its own 'calls'; f needs no clone
// (nothing spawns it with a clause) and keeps its static local.
// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: clause_static_local.cu:4:27: error: 'calls' is a static or __shared__ local of task function 'leaf', which if(...) or final(...) runs through a serial clone
