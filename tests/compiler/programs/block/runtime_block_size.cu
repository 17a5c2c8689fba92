// Block-level tasks on blocks smaller than GTAP_BLOCK_SIZE, chosen at run time: the newest
// upstream programs set gtap_block_config.block_size (32 to 128) and leave GTAP_BLOCK_SIZE at
// its default (256). Each configuration runs a block-level fib whose every segment checks
// that the block it runs on has the configured size and that all its threads took part;
// sizes that do not fit (above GTAP_BLOCK_SIZE, or not whole warps) are refused at
// gtap_initialize. Built with the default GTAP_BLOCK_SIZE.
#include "gtap_block.cuh"
#include "../test_common.cuh"

__device__ int d_result;
__device__ int d_threads;       // the configured block size
__device__ int d_bad_segments;  // segments that saw another block size or missed threads

__device__ int count_threads(void) {
    __shared__ int n;
    if (threadIdx.x == 0) n = 0;
    __syncthreads();
    atomicAdd(&n, 1);
    __syncthreads();
    int r = n;
    __syncthreads();
    return r;
}

#pragma gtap function worker_size(block)
__device__ int fib_sized(int n) {
    if ((int)blockDim.x != d_threads || count_threads() != d_threads)
        atomicAdd(&d_bad_segments, 1);
    if (n < 2) return n;
    int a = 0, b = 0;
    if (threadIdx.x == 0) {
        #pragma gtap task
        a = fib_sized(n - 1);
        #pragma gtap task
        b = fib_sized(n - 2);
    }
    #pragma gtap taskwait
    if ((int)blockDim.x != d_threads || count_threads() != d_threads)
        atomicAdd(&d_bad_segments, 1);
    return a + b;
}

__global__ void sized_kernel(int n) {
    #pragma gtap entry
    d_result = fib_sized(n);
}

static int run_with(int threads) {
    gtap_block_config config;
    config.block_size = threads;
    config.max_tasks_per_block = 4096;
    int zero = 0, bad = 0, h = 0;
    TEST_CUDA(cudaMemcpyToSymbol(d_threads, &threads, sizeof threads));
    TEST_CUDA(cudaMemcpyToSymbol(d_bad_segments, &zero, sizeof zero));
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(sized_kernel, 15));
    TEST_CUDA(gtap_synchronize());
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    TEST_CUDA(cudaMemcpyFromSymbol(&bad, d_bad_segments, sizeof bad));
    TEST_CUDA(gtap_finalize());
    char what[64];
    snprintf(what, sizeof what, "fib(15) on %d-thread blocks", threads);
    int failed = test_report(what, h, 610);
    snprintf(what, sizeof what, "segments off size on %d-thread blocks", threads);
    return failed | test_report(what, bad, 0);
}

static int refused(int threads) {
    gtap_block_config config;
    config.block_size = threads;
    cudaError_t e = gtap_initialize(config);
    char what[64];
    snprintf(what, sizeof what, "config.block_size=%d refused", threads);
    if (e == cudaSuccess)
        gtap_finalize();
    return test_report(what, e == cudaErrorInvalidConfiguration, 1);
}

int main() {
    TEST_REQUIRE_DEVICE();
    int bad = 0;
    bad |= run_with(64);
    bad |= run_with(32);
    bad |= run_with(128);
    bad |= run_with(GTAP_BLOCK_SIZE);
    bad |= refused(GTAP_BLOCK_SIZE + 32);
    bad |= refused(48);
    return bad;
}
