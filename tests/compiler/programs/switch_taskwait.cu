// taskwait inside a switch case (the resume label lands inside the user's switch).
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_result;

#pragma gtap function
__device__ int g(int n) {
    int r = 0;
    switch (n % 3) {
    case 0: {
        if (n == 0) return 1;
        int a;
        #pragma gtap task
        a = g(n - 1);
        #pragma gtap taskwait
        r = a + 1;
        break;
    }
    case 1:
        #pragma gtap task
        r = g(n - 1);
        #pragma gtap taskwait
        r = r * 2 % 1000;
        break;
    default:
        r = n;
        break;
    }
    return r;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = g(n);
}

static int g_host(int n) {
    switch (n % 3) {
    case 0: return n == 0 ? 1 : g_host(n - 1) + 1;
    case 1: return g_host(n - 1) * 2 % 1000;
    default: return n;
    }
}

int main() {
    TEST_REQUIRE_DEVICE();
    int fails = 0;
    TEST_CUDA(gtap_initialize());
    for (int n = 0; n < 12; n++) {
        TEST_CUDA(gtap_launch(k, n));
        TEST_CUDA(gtap_synchronize());
        int h;
        TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
        if (h != g_host(n)) { printf("n=%d got %d want %d\n", n, h, g_host(n)); fails++; }
    }
    gtap_finalize();
    return test_report("mismatches over n=0..11", fails, 0);
}
