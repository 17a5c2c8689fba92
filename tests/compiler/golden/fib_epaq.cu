// Golden test: the paper's Program 4 (fib with EPAQ queues).
#include "gtap_thread.cuh"
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
    d_result = fib(40);
}
