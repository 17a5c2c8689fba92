// A file that also holds ordinary kernels, launched before and after the task graph.
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define N 256
__device__ int d_result;

__global__ void init_kernel(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += blockDim.x * gridDim.x) a[i] = i % 10;
}

__global__ void double_kernel(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += blockDim.x * gridDim.x) a[i] *= 2;
}

#pragma gtap function
__device__ int sum(const int *a, int lo, int hi) {
    if (hi - lo <= 16) {
        int s = 0;
        for (int i = lo; i < hi; i++) s += a[i];
        return s;
    }
    int mid = (lo + hi) / 2, x, y;
    #pragma gtap task
    x = sum(a, lo, mid);
    #pragma gtap task
    y = sum(a, mid, hi);
    #pragma gtap taskwait
    return x + y;
}

__global__ void exec_kernel(const int *a, int n) {
    #pragma gtap entry
    d_result = sum(a, 0, n);
}

int main() {
    TEST_REQUIRE_DEVICE();
    int *a;
    TEST_CUDA(cudaMalloc(&a, N * sizeof(int)));
    init_kernel<<<4, 64>>>(a, N);
    double_kernel<<<2, 32, 0>>>(a, N);
    TEST_CUDA(cudaDeviceSynchronize());
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(exec_kernel, (const int *)a, N));
    TEST_CUDA(gtap_synchronize());
    int h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    cudaFree(a);
    int want = 0;
    for (int i = 0; i < N; i++) want += 2 * (i % 10);
    return test_report("sum", h, want);
}
