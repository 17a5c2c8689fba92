// Paper Program 4: Fibonacci with EPAQ (three queues), written as in the paper (old API:
// gtap_initialize(), raw launch with GTAP_GRID_SIZE/GTAP_BLOCK_SIZE). Build with
// -DGTAP_NUM_QUEUES=3.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_result;

#pragma gtap function
__device__ int fib(int n) {
    if (n < 2) return n;
    int a, b;
    #pragma gtap task queue((n - 1) < 2 ? 1 : 0)
    a = fib(n - 1);
    #pragma gtap task queue((n - 2) < 2 ? 1 : 0)
    b = fib(n - 2);
    #pragma gtap taskwait queue(2)
    return a + b;
}

__global__ void exec_kernel() {
    #pragma gtap entry
    d_result = fib(30);
}

static int fib_host(int n) { return n < 2 ? n : fib_host(n - 1) + fib_host(n - 2); }

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    exec_kernel<<<GTAP_GRID_SIZE, GTAP_BLOCK_SIZE>>>();
    TEST_CUDA(cudaDeviceSynchronize());
    int h_result;
    cudaMemcpyFromSymbol(&h_result, d_result, sizeof(int));
    printf("result: %d\n", h_result);
    gtap_finalize();
    return test_report("fib(30)", h_result, fib_host(30));
}
