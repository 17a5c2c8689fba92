/* mergesort.cu - top-down mergesort of int32 (the paper's section 6.2 "memory-bound with a
 * low-parallelism tail"): both halves are tasks while a range has more than --cutoff
 * elements (default 128, as the paper), smaller ranges are sorted by a sequential recursive
 * mergesort on the device, and every merge is sequential on one GPU thread (into a global
 * buffer, then copied back) - so the final merges of n elements run on a single thread.
 * That is the paper's design and its known weak spot; it is kept as it is, so that the
 * comparison stays like with like. Input: the paper's LCG sequence (app_input.h).
 */
#include <vector>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "app_input.h"
#include "mergesort_seq.h"

__device__ int *g_data;
__device__ int *g_buf;
__device__ int g_cutoff;

#pragma gtap function
__device__ void mergesort(int left, int right)
{
    if (left >= right)
        return;
    if (right - left + 1 <= g_cutoff) {
        ms_sort(g_data, g_buf, left, right);
        return;
    }
    int mid = left + ((right - left) >> 1);
#pragma gtap task
    mergesort(left, mid);
#pragma gtap task
    mergesort(mid + 1, right);
#pragma gtap taskwait
    ms_merge(g_data, g_buf, left, mid, right);
}

__global__ void mergesort_kernel(int n)
{
#pragma gtap entry
    mergesort(0, n - 1);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "mergesort", APP_GTAP_IMPL, 100000);
    static const char *const keys[] = {"cutoff", "profile", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff N (default 128)] [--profile DIR (profiling builds)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "mergesort: --n must be in [1, 2^31)\n");
        return 2;
    }
    app_require_device(&c);
    const int n = (int)c.n, cutoff = (int)app_opt_ll(&c, "cutoff", 128);
    app_param(&c, "cutoff=%d", cutoff);
    std::vector<int32_t> host((size_t)n);
    app_sort_input(host.data(), host.size());
    const app_multiset want = app_multiset_of(host.data(), host.size());
    int *d_data = NULL, *d_buf = NULL, *d_orig = NULL;
    const size_t bytes = (size_t)n * sizeof(int);
    if (cudaMalloc(&d_data, bytes) != cudaSuccess || cudaMalloc(&d_buf, bytes) != cudaSuccess ||
        cudaMalloc(&d_orig, bytes) != cudaSuccess) {
        fprintf(stderr, "mergesort: cannot allocate %zu bytes x 3 on the device\n", bytes);
        return 1;
    }
    cudaMemcpy(d_orig, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_data, &d_data, sizeof d_data);
    cudaMemcpyToSymbol(g_buf, &d_buf, sizeof d_buf);
    cudaMemcpyToSymbol(g_cutoff, &cutoff, sizeof cutoff);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice); },
        [&] { return gtap_launch(mergesort_kernel, n); });
    if (rc)
        return 1;
    if (app_export_profile(&c))
        return 1;
    cudaMemcpy(host.data(), d_data, bytes, cudaMemcpyDeviceToHost);
    char answer[64];
    const int wrong = app_sort_result(c.out, "mergesort", c.check, host.data(), host.size(), want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    cudaFree(d_data);
    cudaFree(d_buf);
    cudaFree(d_orig);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
