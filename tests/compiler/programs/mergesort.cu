// Mergesort with a cutoff (paper Program 3 shape): spawns and taskwait inside an if, the
// merge after it; pointer arguments to device memory.
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define CUTOFF 32
__device__ int *g_data;
__device__ int *g_tmp;

__device__ void insertion_sort(int *a, int lo, int hi) {
    for (int i = lo + 1; i <= hi; i++) {
        int v = a[i], j = i - 1;
        while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

#pragma gtap function
__device__ void mergesort(int left, int right) {
    int n = right - left + 1;
    int mid = left + n / 2 - 1;
    if (n > CUTOFF) {
        #pragma gtap task
        mergesort(left, mid);
        #pragma gtap task
        mergesort(mid + 1, right);
        #pragma gtap taskwait
    } else {
        insertion_sort(g_data, left, right);
        return;
    }
    int i = left, j = mid + 1, k = left;
    while (i <= mid && j <= right) g_tmp[k++] = g_data[i] <= g_data[j] ? g_data[i++] : g_data[j++];
    while (i <= mid) g_tmp[k++] = g_data[i++];
    while (j <= right) g_tmp[k++] = g_data[j++];
    for (k = left; k <= right; k++) g_data[k] = g_tmp[k];
}

__global__ void k(int n) {
    #pragma gtap entry
    mergesort(0, n - 1);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int n = 20000;
    int *h = (int *)malloc(n * sizeof(int));
    unsigned s = 12345;
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (int)(s >> 8) % 100000; }
    int *d, *t;
    TEST_CUDA(cudaMalloc(&d, n * sizeof(int)));
    TEST_CUDA(cudaMalloc(&t, n * sizeof(int)));
    TEST_CUDA(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    TEST_CUDA(cudaMemcpyToSymbol(g_data, &d, sizeof d));
    TEST_CUDA(cudaMemcpyToSymbol(g_tmp, &t, sizeof t));
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, n));
    TEST_CUDA(gtap_synchronize());
    TEST_CUDA(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    gtap_finalize();
    int unsorted = 0;
    for (int i = 1; i < n; i++) unsorted += h[i - 1] > h[i];
    free(h);
    cudaFree(d);
    cudaFree(t);
    return test_report("out-of-order pairs", unsorted, 0);
}
