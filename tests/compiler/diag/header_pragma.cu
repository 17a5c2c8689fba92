#include "gtap_thread.cuh"
#include "header_pragma_tasks.cuh"
__device__ int d;
__global__ void k() {
    #pragma gtap entry
    d = f(1);
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: header_pragma_tasks.cuh:2:1: error: '#pragma gtap' in an included header is not translated
