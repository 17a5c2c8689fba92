// Several taskwaits in one function (three phases, as in cilksort), and a spawn of a task
// function that is defined later in the file.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

__device__ long long combine(int n, long long a, long long b);

__device__ long long phase(int n);   // declared here, defined (as a task function) below

#pragma gtap function
__device__ long long three_phases(int n) {
    if (n <= 1) return 1;
    long long a, b, c, d;
    #pragma gtap task
    a = phase(n - 1);
    #pragma gtap task
    b = phase(n - 2);
    #pragma gtap taskwait
    long long ab = a * 3 + b;
    #pragma gtap task
    c = three_phases(n - 1);
    #pragma gtap taskwait
    #pragma gtap task
    d = three_phases(n - 2);
    #pragma gtap taskwait
    return (ab + c + 2 * d) % 1000000007;
}

#pragma gtap function
__device__ long long phase(int n) {
    return n < 0 ? 0 : n * 7 + 1;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = three_phases(n);
}

static long long host(int n) {
    if (n <= 1) return 1;
    long long a = n - 1 < 0 ? 0 : (n - 1) * 7 + 1, b = n - 2 < 0 ? 0 : (n - 2) * 7 + 1;
    return (a * 3 + b + host(n - 1) + 2 * host(n - 2)) % 1000000007;
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 16));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    return test_report("three_phases(16)", h, host(16));
}
