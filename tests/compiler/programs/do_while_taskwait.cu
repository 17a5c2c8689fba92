// taskwait inside a do/while loop whose condition reads a value computed after the join.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_result;

#pragma gtap function
__device__ int halve(int x) {
    return x / 2;
}

#pragma gtap function
__device__ int steps(int x) {
    int count = 0;
    do {
        #pragma gtap task
        x = halve(x);
        #pragma gtap taskwait
        count++;
    } while (x > 0);
    return count;
}

__global__ void k(int x) {
    #pragma gtap entry
    d_result = steps(x);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 1000000));
    TEST_CUDA(gtap_synchronize());
    int h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    int x = 1000000, c = 0;
    do { x /= 2; c++; } while (x > 0);
    return test_report("halvings of 1e6", h, c);
}
