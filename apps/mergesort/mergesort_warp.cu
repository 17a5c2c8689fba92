/* mergesort_warp.cu - mergesort.cu's top-down mergesort with its large merges on whole warps
 * (warp task functions, docs/compiler.md section 5). The recursion is mergesort.cu's: both
 * halves are thread-level tasks while a range has more than --cutoff elements (default
 * 128), ms_sort below. A merge of at most --warp-merge elements (default 1024) stays the
 * paper's sequential ms_merge in one lane; a larger one is a warp task that merges by merge
 * path (apps/common/warp_merge.cuh), and one of more than --split elements (default 2048)
 * is first cut by merge path into up to 32 pieces, one child warp task per lane, until
 * every piece has at most --split elements. Input: the paper's LCG sequence (app_input.h),
 * or with --dups D, D distinct values at the top of the int range (ties, INT_MAX among
 * them).
 *
 * Buffers: the lane merges keep the paper's merge into g_buf and copy back, so a range of at
 * most --warp-merge elements ends sorted in g_data and in g_buf (ms_merge leaves its result in
 * both). A warp merge does not copy back: it merges from one array into the other, the
 * sorted halves sit in the array that the parent's merge reads (ping-pong by depth, the
 * `to_buf` argument), and the root's merge writes g_data.
 *
 * Defaults, from 10^7 elements on an H200 (kernel ms, median of 5): --split 2048 (this
 * merge: 21.7, 4096: 25.9; an earlier merge with L1-cached loads: 8192: 47, 65536: 121):
 * pieces of at most 2048 elements spread the last merges of n elements over thousands of
 * warps and keep every warp task short (a warp runs its thread tasks' segments, then one
 * warp task, per iteration: a long warp task holds up the other 31 lanes' work).
 * --warp-merge 1024: 2048 was 6% slower (lanes merge sequentially up to 2048 elements), 512
 * the same.
 */
#include <limits.h>
#include <vector>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "app_input.h"
#include "mergesort_seq.h"
#include "warp_merge.cuh"

#define MSW_APP "mergesort_warp"
#define MSW_CUTOFF 128
#define MSW_WARP_MERGE 1024
#define MSW_SPLIT 2048

__device__ int *g_data;
__device__ int *g_buf;
__device__ int g_cutoff;
__device__ int g_warp_merge;
__device__ int g_split;

/* Merges a[0, na) and b[0, nb) into dst (another array) on the whole warp; more than
 * --split elements: cut into up to 32 pieces by merge path, each a child warp task. */
#pragma gtap function warp
__device__ void warp_merge(const int *a, int na, const int *b, int nb, int *dst)
{
    if (na + nb <= g_split) {
        wm_merge(a, na, b, nb, dst, wm_warp_stage(), (int)gtap_warp_lane());
        return;
    }
    {
        const int lane = (int)gtap_warp_lane();
        const long long want = (na + (long long)nb + g_split - 1) / g_split;
        const int pieces = want < WM_LANES ? (int)want : WM_LANES;
        const wm_piece p = wm_cut(a, na, b, nb, pieces, lane);
        if (lane < pieces) {
#pragma gtap task
            warp_merge(a + p.a_off, p.na, b + p.b_off, p.nb, dst + p.a_off + p.b_off);
        }
    }
#pragma gtap taskwait
}

/* Sorts g_data[left, right]; the sorted run ends in g_buf when to_buf, else in g_data (a
 * range of at most --warp-merge elements: in both, see the file comment). */
#pragma gtap function
__device__ void mergesort(int left, int right, int to_buf)
{
    int n = right - left + 1;
    if (n <= g_cutoff) {
        ms_sort(g_data, g_buf, left, right);
        if (to_buf && n == 1) /* ms_sort merged nothing into g_buf */
            g_buf[left] = g_data[left];
        return;
    }
    int mid = left + ((right - left) >> 1);
    int on_warp = n > g_warp_merge;
    /* a warp merge reads its halves from the array it does not write */
    int halves_to_buf = on_warp && !to_buf;
#pragma gtap task
    mergesort(left, mid, halves_to_buf);
#pragma gtap task
    mergesort(mid + 1, right, halves_to_buf);
#pragma gtap taskwait
    if (!on_warp) {
        ms_merge(g_data, g_buf, left, mid, right);
        return;
    }
    int *src = halves_to_buf ? g_buf : g_data, *dst = halves_to_buf ? g_data : g_buf;
#pragma gtap task
    warp_merge(src + left, mid - left + 1, src + mid + 1, right - mid, dst + left);
#pragma gtap taskwait
}

__global__ void mergesort_kernel(int n)
{
#pragma gtap entry
    mergesort(0, n - 1, 0);
}

/* --key's value in [lo, 2^31), def when absent; otherwise prints one line naming the option
 * and returns -1. */
static long long opt_in_range(const app_cli *c, const char *key, long long def, long long lo, const char *why)
{
    const long long v = app_opt_ll(c, key, def);
    if (v < lo || v > INT_MAX) {
        fprintf(stderr, "%s: --%s %lld: %s\n", c->app, key, v, why);
        return -1;
    }
    return v;
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, MSW_APP, APP_GTAP_IMPL, 100000);
    static const char *const keys[] = {"cutoff", "warp-merge", "split", "dups", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "[--cutoff N (default 128)] [--warp-merge N (default 1024)]\n"
                           "       [--split N (default 2048, at least --warp-merge)]\n"
                           "       [--dups D (default 0: the LCG input)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "%s: --n %lld: must be in [1, 2^31)\n", c.app, c.n);
        return 2;
    }
    const long long cutoff = opt_in_range(&c, "cutoff", MSW_CUTOFF, 1, "must be in [1, 2^31)");
    const long long warp_merge = opt_in_range(&c, "warp-merge", MSW_WARP_MERGE, 1, "must be in [1, 2^31)");
    if (cutoff < 0 || warp_merge < 0)
        return 2;
    const long long split = opt_in_range(&c, "split", warp_merge > MSW_SPLIT ? warp_merge : MSW_SPLIT, warp_merge,
                                         "must be at least --warp-merge and below 2^31");
    const long long dups = opt_in_range(&c, "dups", 0, 0, "must be in [0, 2^31) (0: the LCG input)");
    if (split < 0 || dups < 0)
        return 2;
    app_require_device(&c);
    const int n = (int)c.n, h_cutoff = (int)cutoff, h_warp_merge = (int)warp_merge, h_split = (int)split;
    app_param(&c, "cutoff=%d", h_cutoff);
    app_param(&c, "warp_merge=%d", h_warp_merge);
    app_param(&c, "split=%d", h_split);
    if (dups)
        app_param(&c, "dups=%lld", dups);
    std::vector<int32_t> host((size_t)n);
    app_sort_input(host.data(), host.size());
    app_sort_fold_dups(host.data(), host.size(), dups);
    const app_multiset want = app_multiset_of(host.data(), host.size());
    int *d_data = NULL, *d_buf = NULL, *d_orig = NULL;
    const size_t bytes = (size_t)n * sizeof(int);
    if (cudaMalloc(&d_data, bytes) != cudaSuccess || cudaMalloc(&d_buf, bytes) != cudaSuccess ||
        cudaMalloc(&d_orig, bytes) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %zu bytes x 3 on the device\n", c.app, bytes);
        return 1;
    }
    cudaMemcpy(d_orig, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_data, &d_data, sizeof d_data);
    cudaMemcpyToSymbol(g_buf, &d_buf, sizeof d_buf);
    cudaMemcpyToSymbol(g_cutoff, &h_cutoff, sizeof h_cutoff);
    cudaMemcpyToSymbol(g_warp_merge, &h_warp_merge, sizeof h_warp_merge);
    cudaMemcpyToSymbol(g_split, &h_split, sizeof h_split);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice); },
        [&] { return gtap_launch(mergesort_kernel, n); });
    if (rc)
        return 1;
    cudaMemcpy(host.data(), d_data, bytes, cudaMemcpyDeviceToHost);
    char answer[64];
    const int wrong = app_sort_result(c.out, c.app, c.check, host.data(), host.size(), want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    cudaFree(d_data);
    cudaFree(d_buf);
    cudaFree(d_orig);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
