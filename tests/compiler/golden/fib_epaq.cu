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

// GTAP_ENTRY_KERNEL goes before the name of a kernel with entries, once; a kernel that names
// its own __launch_bounds__ keeps them alone.
__global__ void twice_kernel(int n) {
    #pragma gtap entry
    d_result = fib(n);
    #pragma gtap entry
    int more = fib(n - 1);
    d_result += more;
}

__global__ void __launch_bounds__(128) bounded_kernel() {
    #pragma gtap entry
    d_result = fib(20);
}
