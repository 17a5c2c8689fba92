#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    int r;
    #pragma gtap entry
    r = f(n);
    return r;
}

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: entry_in_task.cu:5:18: error: '#pragma gtap entry' inside task function 'f'; the entry sta
// EXPECT: entry_in_task.cu:6:9: error: task function 'f' is called without '#pragma gtap task' (or 
