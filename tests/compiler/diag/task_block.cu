#include "gtap_thread.cuh"
#pragma gtap function
__device__ void f(int n) {
    if (n == 0) return;
    #pragma gtap task
    {
        f(n - 1);
    }
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: task_block.cu:6:5: error: a statement block cannot follow '#pragma gtap task'; move th
