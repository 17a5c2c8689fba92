// fib with the config-style API (gtap_thread_config, gtap_launch, gtap_synchronize).
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long fib(int n) {
    if (n < 2) return n;
    long long a, b;
    #pragma gtap task
    a = fib(n - 1);
    #pragma gtap task
    b = fib(n - 2);
    #pragma gtap taskwait
    return a + b;
}

__global__ void exec_kernel(int n) {
    #pragma gtap entry
    d_result = fib(n);
}

int main(int argc, char **argv) {
    TEST_REQUIRE_DEVICE();
    int n = argc > 1 ? atoi(argv[1]) : 24;
    gtap_thread_config config{ .grid_size = 64, .block_size = 32, .max_tasks_per_warp = 100000, .num_queues = 1, };
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(exec_kernel, n));
    TEST_CUDA(gtap_synchronize());
    long long h = 0;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(gtap_finalize());
    long long x = 0, y = 1;
    for (int i = 0; i < n; i++) { long long z = x + y; x = y; y = z; }
    return test_report("fib", h, x);
}
