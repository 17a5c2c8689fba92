#include "gtap_thread.cuh"
#pragma gtap parallel
#pragma gtap
__device__ int x;

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: unknown_directive.cu:2:14: error: unknown gtap directive 'parallel' (expected function, task, 
// EXPECT: unknown_directive.cu:3:13: error: expected a gtap directive (function, task, taskwait or entry
