/* cilksort.cu - Cilk-style four-way mergesort with parallel merges (the paper's section 6.2):
 * sort the four quarters as tasks, merge them pairwise into tmp as tasks, merge tmp back;
 * a merge splits the longer run in half, finds the split point in the other by binary
 * search and recurses. Below --cut-sort elements (default 64) a quarter is sorted by a
 * bitonic network, below --cut-merge (default 256) a merge is sequential; data is read
 * through L2. Input: the paper's LCG sequence (app_input.h).
 *
 * -DCILK_QUEUES=3 with GTAP_NUM_QUEUES=3 is the paper's EPAQ variant (section 6.4): small
 * sorts go to queue 1, small merges to queue 2, everything else to queue 0.
 */
#include <vector>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "app_input.h"
#include "cilksort_seq.h"

#ifndef CILK_QUEUES
#define CILK_QUEUES 1
#endif

__device__ int g_cut_sort;
__device__ int g_cut_merge;

#if CILK_QUEUES == 3
#define CILK_SORT_Q(len) ((len) < g_cut_sort ? 1 : 0)
#define CILK_MERGE_Q(len) ((len) < g_cut_merge ? 2 : 0)
#else
#define CILK_SORT_Q(len) 0
#define CILK_MERGE_Q(len) 0
#endif

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
#pragma gtap task queue(CILK_MERGE_Q(sa + sb))
    cilkmerge(a, sa, b, sb, dst);
#pragma gtap task queue(CILK_MERGE_Q(na - sa + nb - sb))
    cilkmerge(a + sa, na - sa, b + sb, nb - sb, dst + sa + sb);
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
#pragma gtap task queue(CILK_SORT_Q(n1))
    cilksort(a, n1, tmp);
#pragma gtap task queue(CILK_SORT_Q(n2))
    cilksort(a + n1, n2, tmp + n1);
#pragma gtap task queue(CILK_SORT_Q(n3))
    cilksort(a + n12, n3, tmp + n12);
#pragma gtap task queue(CILK_SORT_Q(n4))
    cilksort(a + n12 + n3, n4, tmp + n12 + n3);
#pragma gtap taskwait
#pragma gtap task queue(CILK_MERGE_Q(n12))
    cilkmerge(a, n1, a + n1, n2, tmp);
#pragma gtap task queue(CILK_MERGE_Q(n34))
    cilkmerge(a + n12, n3, a + n12 + n3, n4, tmp + n12);
#pragma gtap taskwait
#pragma gtap task queue(CILK_MERGE_Q(n))
    cilkmerge(tmp, n12, tmp + n12, n34, a);
#pragma gtap taskwait
}

__global__ void cilksort_kernel(int *a, int n, int *tmp)
{
#pragma gtap entry
    cilksort(a, n, tmp);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "cilksort", APP_GTAP_IMPL, 1000000);
    static const char *const keys[] = {"cut-sort", "cut-merge", "cutoff", "profile", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "[--cut-sort N (default 64)] [--cut-merge N (default 256)] [--cutoff N (both)]\n"
                           "       [--profile DIR (profiling builds)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "cilksort: --n must be in [1, 2^31)\n");
        return 2;
    }
    app_require_device(&c);
    const int n = (int)c.n;
    const int both = (int)app_opt_ll(&c, "cutoff", 0);
    int cut_sort = (int)app_opt_ll(&c, "cut-sort", both ? both : 64);
    int cut_merge = (int)app_opt_ll(&c, "cut-merge", both ? both : 256);
    if (cut_sort < 2 || cut_merge < 3) {
        /* a merge of 1 + 1 elements would split into itself forever */
        fprintf(stderr, "cilksort: --cut-sort must be at least 2 and --cut-merge at least 3\n");
        return 2;
    }
    app_param(&c, "cut_sort=%d", cut_sort);
    app_param(&c, "cut_merge=%d", cut_merge);
    std::vector<int32_t> host((size_t)n);
    app_sort_input(host.data(), host.size());
    const app_multiset want = app_multiset_of(host.data(), host.size());
    int *d_data = NULL, *d_tmp = NULL, *d_orig = NULL;
    const size_t bytes = (size_t)n * sizeof(int);
    if (cudaMalloc(&d_data, bytes) != cudaSuccess || cudaMalloc(&d_tmp, bytes) != cudaSuccess ||
        cudaMalloc(&d_orig, bytes) != cudaSuccess) {
        fprintf(stderr, "cilksort: cannot allocate %zu bytes x 3 on the device\n", bytes);
        return 1;
    }
    cudaMemcpy(d_orig, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_cut_sort, &cut_sort, sizeof cut_sort);
    cudaMemcpyToSymbol(g_cut_merge, &cut_merge, sizeof cut_merge);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice); },
        [&] { return gtap_launch(cilksort_kernel, d_data, n, d_tmp); });
    if (rc)
        return 1;
    if (app_export_profile(&c))
        return 1;
    cudaMemcpy(host.data(), d_data, bytes, cudaMemcpyDeviceToHost);
    char answer[64];
    const int wrong = app_sort_result(c.out, "cilksort", c.check, host.data(), host.size(), want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    cudaFree(d_data);
    cudaFree(d_tmp);
    cudaFree(d_orig);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
