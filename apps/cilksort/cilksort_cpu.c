/* cilksort_cpu.c - CPU baselines of cilksort.cu, same merge and split search
 * (cilksort_seq.h). OpenMP (-fopenmp): the same four-way recursion and parallel merges as
 * tasks; below --cut-sort (default 4096, the paper's OpenMP setting) a quarter is sorted by
 * qsort, below --cut-merge (default 4096) a merge is sequential; the paper's "OMP256" is
 * --cut-sort 64 --cut-merge 256. Sequential: the same four-way recursion down to single
 * elements, every merge sequential. */
#include "app_cpu.h"
#include "app_input.h"
#include "cilksort_seq.h"

typedef struct cs_ctx {
    int n, cut_sort, cut_merge;
    int *data, *tmp;
    const int *orig;
} cs_ctx;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

static void merge_rec(const cs_ctx *x, int *a, int na, int *b, int nb, int *dst)
{
    if (na < nb) {
        int *t = a;
        a = b;
        b = t;
        int tn = na;
        na = nb;
        nb = tn;
    }
    if (nb == 0) {
        memcpy(dst, a, (size_t)na * sizeof *a);
        return;
    }
    if (na + nb < x->cut_merge) {
        cs_merge(a, na, b, nb, dst);
        return;
    }
    int sa = (na + 1) / 2;
    int sb = cs_split(b, nb, a[sa - 1]) + 1;
#pragma omp task
    merge_rec(x, a, sa, b, sb, dst);
#pragma omp task
    merge_rec(x, a + sa, na - sa, b + sb, nb - sb, dst + sa + sb);
#pragma omp taskwait
}

static void sort_rec(const cs_ctx *x, int *a, int n, int *tmp)
{
    if (n < x->cut_sort) {
        if (n > 1)
            qsort(a, (size_t)n, sizeof *a, cmp_int);
        return;
    }
    int n12 = n / 2, n1 = n12 / 2, n2 = n12 - n1;
    int n34 = n - n12, n3 = n34 / 2, n4 = n34 - n3;
#pragma omp task
    sort_rec(x, a, n1, tmp);
#pragma omp task
    sort_rec(x, a + n1, n2, tmp + n1);
#pragma omp task
    sort_rec(x, a + n12, n3, tmp + n12);
#pragma omp task
    sort_rec(x, a + n12 + n3, n4, tmp + n12 + n3);
#pragma omp taskwait
#pragma omp task
    merge_rec(x, a, n1, a + n1, n2, tmp);
#pragma omp task
    merge_rec(x, a + n12, n3, a + n12 + n3, n4, tmp + n12);
#pragma omp taskwait
    merge_rec(x, tmp, n12, tmp + n12, n34, a);
}

static void reset(void *p, int run)
{
    cs_ctx *x = (cs_ctx *)p;
    (void)run;
    memcpy(x->data, x->orig, (size_t)x->n * sizeof *x->data);
}

static void body(void *p)
{
    cs_ctx *x = (cs_ctx *)p;
    sort_rec(x, x->data, x->n, x->tmp);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "cilksort", APP_CPU_IMPL, 1000000);
    static const char *const keys[] = {"cut-sort", "cut-merge", "cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "[--cut-sort N] [--cut-merge N] [--cutoff N (both; OpenMP defaults 4096)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "cilksort: --n must be in [1, 2^31)\n");
        return 2;
    }
    cs_ctx x = {(int)c.n, 2, 0x7fffffff, NULL, NULL, NULL};
#ifdef _OPENMP
    const int both = (int)app_opt_ll(&c, "cutoff", 0);
    x.cut_sort = (int)app_opt_ll(&c, "cut-sort", both ? both : 4096);
    x.cut_merge = (int)app_opt_ll(&c, "cut-merge", both ? both : 4096);
    if (x.cut_sort < 2 || x.cut_merge < 3) {
        /* a merge of 1 + 1 elements would split into itself forever */
        fprintf(stderr, "cilksort: --cut-sort must be at least 2 and --cut-merge at least 3\n");
        return 2;
    }
    app_param(&c, "cut_sort=%d", x.cut_sort);
    app_param(&c, "cut_merge=%d", x.cut_merge);
#endif
    int *orig = (int *)malloc((size_t)x.n * sizeof *orig);
    x.data = (int *)malloc((size_t)x.n * sizeof *x.data);
    x.tmp = (int *)malloc((size_t)x.n * sizeof *x.tmp);
    if (!orig || !x.data || !x.tmp) {
        fprintf(stderr, "cilksort: out of memory\n");
        return 1;
    }
    app_sort_input(orig, (size_t)x.n);
    x.orig = orig;
    const app_multiset want = app_multiset_of(orig, (size_t)x.n);
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    char answer[64];
    const int wrong = app_sort_result(c.out, "cilksort", c.check, x.data, (size_t)x.n, want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    free(orig), free(x.data), free(x.tmp);
    return app_report(&c, &stats, check, answer);
}
