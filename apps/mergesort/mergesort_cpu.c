/* mergesort_cpu.c - CPU baselines of mergesort.cu, same merge (mergesort_seq.h). OpenMP
 * (-fopenmp): both halves are tasks while a range has more than --cutoff elements (default
 * 4096, the paper's OpenMP setting), sequential mergesort below, sequential merges.
 * Sequential: the full recursion down to single elements. */
#include "app_cpu.h"
#include "app_input.h"
#include "mergesort_seq.h"

typedef struct ms_ctx {
    int n, cutoff;
    int *data, *buf;
    const int *orig;
} ms_ctx;

#ifdef _OPENMP
static void ms_task(ms_ctx *x, int left, int right)
{
    if (left >= right)
        return;
    if (right - left + 1 <= x->cutoff) {
        ms_sort(x->data, x->buf, left, right);
        return;
    }
    int mid = left + ((right - left) >> 1);
#pragma omp task
    ms_task(x, left, mid);
#pragma omp task
    ms_task(x, mid + 1, right);
#pragma omp taskwait
    ms_merge(x->data, x->buf, left, mid, right);
}
#endif

static void reset(void *p, int run)
{
    ms_ctx *x = (ms_ctx *)p;
    (void)run;
    memcpy(x->data, x->orig, (size_t)x->n * sizeof *x->data);
}

static void body(void *p)
{
    ms_ctx *x = (ms_ctx *)p;
#ifdef _OPENMP
    ms_task(x, 0, x->n - 1);
#else
    ms_sort(x->data, x->buf, 0, x->n - 1);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "mergesort", APP_CPU_IMPL, 100000);
    static const char *const keys[] = {"cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff N (OpenMP, default 4096)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "mergesort: --n must be in [1, 2^31)\n");
        return 2;
    }
    ms_ctx x = {(int)c.n, (int)app_opt_ll(&c, "cutoff", 4096), NULL, NULL, NULL};
#ifdef _OPENMP
    app_param(&c, "cutoff=%d", x.cutoff);
#endif
    int *orig = (int *)malloc((size_t)x.n * sizeof *orig);
    x.data = (int *)malloc((size_t)x.n * sizeof *x.data);
    x.buf = (int *)malloc((size_t)x.n * sizeof *x.buf);
    if (!orig || !x.data || !x.buf) {
        fprintf(stderr, "mergesort: out of memory\n");
        return 1;
    }
    app_sort_input(orig, (size_t)x.n);
    x.orig = orig;
    const app_multiset want = app_multiset_of(orig, (size_t)x.n);
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    char answer[64];
    const int wrong = app_sort_result(c.out, "mergesort", c.check, x.data, (size_t)x.n, want, answer, sizeof answer);
    const app_check_t check = wrong < 0 ? APP_CHECK_SKIPPED : wrong ? APP_CHECK_FAIL : APP_CHECK_PASS;
    free(orig), free(x.data), free(x.buf);
    return app_report(&c, &stats, check, answer);
}
