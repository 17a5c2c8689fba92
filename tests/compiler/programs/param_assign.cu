// Parameters reassigned (swapped) before spawning, and two task functions spawning each
// other (cilkmerge-style), with pointer arguments.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ long long d_result;

#pragma gtap function
__device__ long long merge_count(int a_len, int b_len, int depth) {
    if (a_len < b_len) { int t = a_len; a_len = b_len; b_len = t; }
    if (b_len == 0 || depth > 6) return a_len + b_len;
    long long x, y;
    #pragma gtap task
    x = merge_count(a_len / 2, b_len / 2, depth + 1);
    #pragma gtap task
    y = merge_count(a_len - a_len / 2, b_len - b_len / 2, depth + 1);
    #pragma gtap taskwait
    return x + y + 1;
}

#pragma gtap function
__device__ long long sort_count(int n, int depth) {
    if (n < 4) return n;
    int q = n / 4;
    long long a, b, c;
    #pragma gtap task
    a = sort_count(q, depth + 1);
    #pragma gtap task
    b = sort_count(n - 3 * q, depth + 1);
    #pragma gtap taskwait
    #pragma gtap task
    c = merge_count(q, n - 3 * q, 0);
    #pragma gtap taskwait
    n = n - 1;
    return a + b + c + n;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = sort_count(n, 0);
}

static long long mc(int a, int b, int d) {
    if (a < b) { int t = a; a = b; b = t; }
    if (b == 0 || d > 6) return a + b;
    return mc(a / 2, b / 2, d + 1) + mc(a - a / 2, b - b / 2, d + 1) + 1;
}
static long long sc(int n, int d) {
    if (n < 4) return n;
    int q = n / 4;
    return sc(q, d + 1) + sc(n - 3 * q, d + 1) + mc(q, n - 3 * q, 0) + (n - 1);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, 5000));
    TEST_CUDA(gtap_synchronize());
    long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    return test_report("sort_count(5000)", h, sc(5000, 0));
}
