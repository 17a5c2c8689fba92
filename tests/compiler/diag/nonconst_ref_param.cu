#include "gtap_thread.cuh"
#pragma gtap function
__device__ void f(int &out) { out = 1; }

// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: nonconst_ref_param.cu:3:24: error: parameter 'out' of task function 'f' is a non-const referenc
