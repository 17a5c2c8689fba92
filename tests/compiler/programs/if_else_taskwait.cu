// taskwaits inside both branches of an if/else, and code after the if.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long f(int n) {
    if (n < 2) return n + 1;
    long long x, y = 0;
    if (n % 2 == 0) {
        #pragma gtap task
        x = f(n - 1);
        #pragma gtap taskwait
        x *= 2;
    } else {
        #pragma gtap task
        x = f(n - 1);
        #pragma gtap task
        y = f(n - 2);
        #pragma gtap taskwait
        x += 3;
    }
    return (x + y) % 1000000007;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = f(n);
}

static long long f_host(int n) {
    if (n < 2) return n + 1;
    long long x, y = 0;
    if (n % 2 == 0) { x = f_host(n - 1) * 2; }
    else { x = f_host(n - 1) + 3; y = f_host(n - 2); }
    return (x + y) % 1000000007;
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 22));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    return test_report("f(22)", h, f_host(22));
}
