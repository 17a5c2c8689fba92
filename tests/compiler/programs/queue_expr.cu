// queue(expr) on task and taskwait with expressions over arguments, locals and a
// __device__ helper. Build with -DGTAP_NUM_QUEUES=3.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ unsigned long long d_result;
__device__ int d_cutoff;

__device__ __forceinline__ unsigned hash32(unsigned x) {
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15;
    return x;
}

#pragma gtap function
__device__ unsigned long long tree(unsigned node, int depth) {
    if (depth == 0) return hash32(node) & 0xff;
    unsigned l = 2 * node + 1, r = 2 * node + 2;
    int child_depth = depth - 1;
    unsigned long long a, b;
    #pragma gtap task queue(hash32(l) % 3)
    a = tree(l, child_depth);
    #pragma gtap task queue(child_depth < d_cutoff ? 1 : 0)
    b = tree(r, child_depth);
    #pragma gtap taskwait queue((node + depth) % 3)
    return a + b + 1;
}

__global__ void k(int depth) {
    #pragma gtap entry
    d_result = tree(0, depth);
}

static unsigned long long host(unsigned node, int depth) {
    if (depth == 0) { unsigned x = node; x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; return x & 0xff; }
    return host(2 * node + 1, depth - 1) + host(2 * node + 2, depth - 1) + 1;
}

int main() {
    TEST_REQUIRE_DEVICE();
    int cutoff = 4;
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(cudaMemcpyToSymbol(d_cutoff, &cutoff, sizeof cutoff));
    TEST_CUDA(gtap_launch(k, 12));
    TEST_CUDA(gtap_synchronize());
    unsigned long long h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    return test_report("tree(12)", (long long)h, (long long)host(0, 12));
}
