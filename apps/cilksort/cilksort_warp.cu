/* cilksort_warp.cu - cilksort.cu's four-way mergesort with its mid-sized merges on whole
 * warps (warp task functions, docs/compiler.md section 5). The algorithm is cilksort.cu's:
 * sort the quarters as tasks, merge them pairwise into tmp, merge tmp back; a merge splits
 * the longer run in half and binary-searches the other. Below --cut-sort elements (default
 * 64) a quarter is sorted by the bitonic base case (cilksort_seq.h), below --cut-merge
 * (default 256) a merge is sequential in one lane. A merge of at least --cut-merge and fewer
 * than --warp-merge elements (default 2048) is not split any further: one warp task merges
 * it by merge path (apps/common/warp_merge.cuh). Input: the paper's LCG sequence
 * (app_input.h), or with --dups D, D distinct values at the top of the int range.
 *
 * Default --warp-merge 2048, from 10^8 elements on an H200 (kernel ms, median of 5; this
 * merge: 1536: 41.6, 2048: 39.2, 3072: 39.3; an earlier merge without the prefetch: 1024:
 * 44.6, 4096: 46-47, 16384: 74; cilksort.cu: 67.5). Below, more merges stay in lanes and
 * more warp tasks share the runtime's per-task cost; above, a warp task holds its warp
 * longer (a warp runs its thread tasks' segments, then one warp task, per iteration) and
 * fewer of them spread the work.
 */
#include <limits.h>
#include <vector>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "app_input.h"
#include "cilksort_seq.h"
#include "warp_merge.cuh"

#define CSW_APP "cilksort_warp"
#define CSW_CUT_SORT 64
#define CSW_CUT_MERGE 256
#define CSW_WARP_MERGE 2048

__device__ int g_cut_sort;
__device__ int g_cut_merge;
__device__ int g_warp_merge;

/* Merges a[0, na) and b[0, nb) into dst on the whole warp. */
#pragma gtap function warp
__device__ void warp_merge(int *a, int na, int *b, int nb, int *dst)
{
    wm_merge(a, na, b, nb, dst, wm_warp_stage(), (int)gtap_warp_lane());
}

/* A merge of n elements runs as one warp task. */
static __device__ __forceinline__ int on_warp(int n)
{
    return n >= g_cut_merge && n < g_warp_merge;
}

/* Merges a[0, na) and b[0, nb) into dst: sequentially below --cut-merge, else split in two
 * merges, each a warp task when on_warp, else a cilkmerge task. */
#pragma gtap function
__device__ void cilkmerge(int *a, int na, int *b, int nb, int *dst)
{
    if (na < nb) { /* a is the longer run */
        int *t = a;
        a = b;
        b = t;
        int tn = na;
        na = nb;
        nb = tn;
    }
    if (nb == 0) {
        for (int i = 0; i < na; i++)
            dst[i] = __ldcg(a + i);
        return;
    }
    if (na + nb < g_cut_merge) {
        cs_merge(a, na, b, nb, dst);
        return;
    }
    int sa = (na + 1) / 2;
    int sb = cs_split(b, nb, __ldcg(a + sa - 1)) + 1;
    if (on_warp(sa + sb)) {
#pragma gtap task
        warp_merge(a, sa, b, sb, dst);
    } else {
#pragma gtap task
        cilkmerge(a, sa, b, sb, dst);
    }
    if (on_warp(na - sa + nb - sb)) {
#pragma gtap task
        warp_merge(a + sa, na - sa, b + sb, nb - sb, dst + sa + sb);
    } else {
#pragma gtap task
        cilkmerge(a + sa, na - sa, b + sb, nb - sb, dst + sa + sb);
    }
#pragma gtap taskwait
}

#pragma gtap function
__device__ void cilksort(int *a, int n, int *tmp)
{
    if (n < g_cut_sort) {
        cs_sort_small(a, n, tmp);
        return;
    }
    int n12 = n / 2, n1 = n12 / 2, n2 = n12 - n1;
    int n34 = n - n12, n3 = n34 / 2, n4 = n34 - n3;
#pragma gtap task
    cilksort(a, n1, tmp);
#pragma gtap task
    cilksort(a + n1, n2, tmp + n1);
#pragma gtap task
    cilksort(a + n12, n3, tmp + n12);
#pragma gtap task
    cilksort(a + n12 + n3, n4, tmp + n12 + n3);
#pragma gtap taskwait
    if (on_warp(n12)) {
#pragma gtap task
        warp_merge(a, n1, a + n1, n2, tmp);
    } else {
#pragma gtap task
        cilkmerge(a, n1, a + n1, n2, tmp);
    }
    if (on_warp(n34)) {
#pragma gtap task
        warp_merge(a + n12, n3, a + n12 + n3, n4, tmp + n12);
    } else {
#pragma gtap task
        cilkmerge(a + n12, n3, a + n12 + n3, n4, tmp + n12);
    }
#pragma gtap taskwait
    if (on_warp(n)) {
#pragma gtap task
        warp_merge(tmp, n12, tmp + n12, n34, a);
    } else {
#pragma gtap task
        cilkmerge(tmp, n12, tmp + n12, n34, a);
    }
#pragma gtap taskwait
}

__global__ void cilksort_kernel(int *a, int n, int *tmp)
{
#pragma gtap entry
    cilksort(a, n, tmp);
}

/* Reads --key (or --cutoff, which sets both cuts, when --key is absent) into *v_p: def when
 * neither is given. A value outside [lo, 2^31) prints one line naming the option that gave
 * it and returns 2; else 0. */
static int read_cut(const app_cli *c, const char *key, long long def, long long lo, int *v_p)
{
    const char *from = app_opt_str(c, key, NULL) ? key : app_opt_str(c, "cutoff", NULL) ? "cutoff" : key;
    const long long v = app_opt_ll(c, from, def);
    if (v < lo || v > INT_MAX) {
        fprintf(stderr, "%s: --%s %lld: must be in [%lld, 2^31)\n", c->app, from, v, lo);
        return 2;
    }
    *v_p = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, CSW_APP, APP_GTAP_IMPL, 1000000);
    static const char *const keys[] = {"cut-sort", "cut-merge", "cutoff", "warp-merge", "dups", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "[--cut-sort N (default 64)] [--cut-merge N (default 256)] [--cutoff N (both)]\n"
                           "       [--warp-merge N (default 2048, or --cut-merge if larger)]\n"
                           "       [--dups D (default 0: the LCG input)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "%s: --n %lld: must be in [1, 2^31)\n", c.app, c.n);
        return 2;
    }
    int cut_sort = 0, cut_merge = 0;
    /* a merge of 1 + 1 elements would split into itself forever: --cut-merge >= 3 */
    if (read_cut(&c, "cut-sort", CSW_CUT_SORT, 2, &cut_sort) || read_cut(&c, "cut-merge", CSW_CUT_MERGE, 3, &cut_merge))
        return 2;
    const long long warp_merge = app_opt_ll(&c, "warp-merge", cut_merge > CSW_WARP_MERGE ? cut_merge : CSW_WARP_MERGE);
    if (warp_merge < cut_merge || warp_merge > INT_MAX) {
        fprintf(stderr, "%s: --warp-merge %lld: must be at least --cut-merge (%d) and below 2^31\n", c.app, warp_merge,
                cut_merge);
        return 2;
    }
    const long long dups = app_opt_ll(&c, "dups", 0);
    if (dups < 0 || dups > INT_MAX) {
        fprintf(stderr, "%s: --dups %lld: must be in [0, 2^31) (0: the LCG input)\n", c.app, dups);
        return 2;
    }
    app_require_device(&c);
    const int n = (int)c.n, h_warp_merge = (int)warp_merge;
    app_param(&c, "cut_sort=%d", cut_sort);
    app_param(&c, "cut_merge=%d", cut_merge);
    app_param(&c, "warp_merge=%d", h_warp_merge);
    if (dups)
        app_param(&c, "dups=%lld", dups);
    std::vector<int32_t> host((size_t)n);
    app_sort_input(host.data(), host.size());
    app_sort_fold_dups(host.data(), host.size(), dups);
    const app_multiset want = app_multiset_of(host.data(), host.size());
    int *d_data = NULL, *d_tmp = NULL, *d_orig = NULL;
    const size_t bytes = (size_t)n * sizeof(int);
    if (cudaMalloc(&d_data, bytes) != cudaSuccess || cudaMalloc(&d_tmp, bytes) != cudaSuccess ||
        cudaMalloc(&d_orig, bytes) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %zu bytes x 3 on the device\n", c.app, bytes);
        return 1;
    }
    cudaMemcpy(d_orig, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_cut_sort, &cut_sort, sizeof cut_sort);
    cudaMemcpyToSymbol(g_cut_merge, &cut_merge, sizeof cut_merge);
    cudaMemcpyToSymbol(g_warp_merge, &h_warp_merge, sizeof h_warp_merge);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice); },
        [&] { return gtap_launch(cilksort_kernel, d_data, n, d_tmp); });
    if (rc)
        return 1;
    cudaMemcpy(host.data(), d_data, bytes, cudaMemcpyDeviceToHost);
    char answer[64];
    const int wrong = app_sort_result(c.out, c.app, c.check, host.data(), host.size(), want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    cudaFree(d_data);
    cudaFree(d_tmp);
    cudaFree(d_orig);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
