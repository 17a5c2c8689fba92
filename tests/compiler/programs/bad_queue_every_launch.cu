// A user error is reported at its first occurrence, every time: spawns with queue(1) in a
// program built without -DGTAP_NUM_QUEUES (one queue). Ten launches of fib(n), n = 0, 3, ...,
// 27: n = 0 spawns nothing and must succeed with the right value; every other n spawns
// fib(1) with queue(1) and gtap_synchronize() must report "queue(1) ... is outside [0, 1)",
// after which gtap_reset() makes the runtime usable again.
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
    #pragma gtap taskwait
    return a + b;
}

__global__ void exec_kernel(int n) {
    #pragma gtap entry
    d_result = fib(n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    int bad = 0;
    for (int n = 0; n <= 27; n += 3) {
        int got = -1;
        TEST_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        TEST_CUDA(gtap_launch(exec_kernel, n));
        const cudaError_t e = gtap_synchronize();
        if (n == 0) {
            TEST_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
            if (e != cudaSuccess || got != 0) {
                printf("FAIL: fib(0): status %d, result %d\n", (int)e, got);
                bad++;
            }
            continue;
        }
        if (e == cudaSuccess) {
            printf("FAIL: fib(%d) spawned with queue(1) and one queue, and the launch reported no error\n", n);
            bad++;
        } else {
            printf("fib(%d): the error was reported\n", n);
        }
        TEST_CUDA(gtap_reset());
    }
    gtap_finalize();
    if (bad)
        return 1;
    printf("PASS: the bad queue index was reported at every launch that used it\n");
    return 0;
}
