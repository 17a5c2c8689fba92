#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    if (n < 2) return n;
    int a, b;
    #pragma gtap task queue
    a = f(n - 1);
    #pragma gtap task queue()
    b = f(n - 2);
    #pragma gtap taskwait priority(2)
    #pragma gtap taskwait queue(1
    return a + b;
}
#pragma gtap function worker_size(lane)
__device__ void g() {}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: malformed_clause.cu:6:28: error: expected '(' after 'queue'
// EXPECT: malformed_clause.cu:8:29: error: expected an expression in 'queue(...)'
// EXPECT: malformed_clause.cu:10:27: error: unknown clause 'priority' on '#pragma gtap taskwait'
// EXPECT: malformed_clause.cu:11:32: error: expected ')' to close 'queue('
// EXPECT: malformed_clause.cu:14:23: error: worker_size must be 'thread', 'warp' or 'block', not 'lane'
// EXPECT: malformed_clause.cu:7:9: error: task function 'f' is called without '#pragma gtap task' (or 
// EXPECT: malformed_clause.cu:9:9: error: task function 'f' is called without '#pragma gtap task' (or 
