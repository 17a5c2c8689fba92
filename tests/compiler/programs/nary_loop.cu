// N spawns from a for loop into array elements (r[i] = f(...)), one taskwait after.
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define ARITY 4
__device__ long long d_result;

#pragma gtap function
__device__ long long count_nodes(int depth) {
    if (depth == 0) return 1;
    long long r[ARITY];
    for (int i = 0; i < ARITY; i++) {
        #pragma gtap task
        r[i] = count_nodes(depth - 1);
    }
    #pragma gtap taskwait
    long long sum = 1;
    for (int i = 0; i < ARITY; i++) sum += r[i];
    return sum;
}

__global__ void k(int depth) {
    #pragma gtap entry
    d_result = count_nodes(depth);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int depth = 7;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, depth));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long want = 0, p = 1;
    for (int d = 0; d <= depth; d++) { want += p; p *= ARITY; }
    return test_report("nodes of a 4-ary tree of depth 7", h, want);
}
