// taskwait in an inner loop; outer-loop variables, a running sum and an initialized local
// declared before the loops all live across it.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ int mul(int a, int b) {
    return a * b;
}

#pragma gtap function
__device__ long long table(int n) {
    long long sum = 0;
    int scale = n % 7 + 1;
    int unused_after = n * 3;   // used only before the first join: stays a register
    sum += unused_after;
    for (int i = 1; i <= n; i++) {
        int row = 0;
        for (int j = 1; j <= n; j++) {
            int p;
            #pragma gtap task
            p = mul(i, j);
            #pragma gtap taskwait
            row += p * scale;
        }
        sum += row;
    }
    return sum;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = table(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 12;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long want = n * 3;
    for (int i = 1; i <= n; i++) for (int j = 1; j <= n; j++) want += (long long)i * j * (n % 7 + 1);
    return test_report("table(12)", h, want);
}
