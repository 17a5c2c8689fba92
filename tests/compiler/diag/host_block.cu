#include "gtap_block.cuh"
#pragma gtap function worker_size(thread)
__device__ void f(int n) { (void)n; }

// The host target runs block-level programs (on a simulated block), and checks them as the
// GPU build does: here the clause disagrees with the header.
// Expected diagnostics (checked by check_diag.cmake):
// ARGS: --target=host
// EXPECT: host_block.cu:2:14: error: worker_size(thread) does not match the included runtime header (gtap_block.cuh)
