#include "gtap_block.cuh"
#pragma gtap function
__device__ int f(int n) {
    if (n < 2) return n;
    int a, b;
    #pragma gtap task if(n > 10)
    a = f(n - 1);
    #pragma gtap task queue(1) final(n < 5)
    b = f(n - 2);
    #pragma gtap taskwait
    return a + b;
}

// Block-level tasks run on every thread of a block: a serial clone cannot stand in for one.
// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: clause_block.cu:6:23: error: 'if(...)' is not supported in block-level task functions; spawn unconditionally
// EXPECT: clause_block.cu:8:32: error: 'final(...)' is not supported in block-level task functions
