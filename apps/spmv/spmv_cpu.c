/* spmv_cpu.c - CPU baselines of spmv.cu on the same matrices. OpenMP (-fopenmp): the same
 * range halving as tasks down to 16 rows; a 16-row leaf computes its rows itself (a task
 * per row would only add overhead on a CPU). Sequential: a loop over the rows. x = 1. */
#include "app_cpu.h"
#include "app_graph.h"

#define SPMV_RANGE_CUTOFF 16

typedef struct spmv_ctx {
    const app_csr *a;
    const double *x;
    double *y;
} spmv_ctx;

static void rows(const spmv_ctx *c, int begin, int end)
{
    for (int i = begin; i < end; i++) {
        double s = 0.0;
        for (int e = c->a->row[i]; e < c->a->row[i + 1]; e++)
            s += c->a->val[e] * c->x[c->a->col[e]];
        c->y[i] = s;
    }
}

#ifdef _OPENMP
static void range(const spmv_ctx *c, int begin, int end)
{
    if (end - begin > SPMV_RANGE_CUTOFF) {
        int mid = begin + (end - begin) / 2;
#pragma omp task
        range(c, begin, mid);
#pragma omp task
        range(c, mid, end);
        return; /* detached, as on the GPU: the region's barrier waits */
    }
    rows(c, begin, end);
}
#endif

static void reset(void *p, int run)
{
    spmv_ctx *c = (spmv_ctx *)p;
    (void)run;
    memset(c->y, 0xff, (size_t)c->a->nrows * sizeof *c->y); /* NaN */
}

static void body(void *p)
{
    spmv_ctx *c = (spmv_ctx *)p;
#ifdef _OPENMP
    range(c, 0, c->a->nrows);
#else
    rows(c, 0, c->a->nrows);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "spmv", APP_CPU_IMPL, 100000);
    static const char *const keys[] = {"nnz-max", APP_GRAPH_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the number of rows of the random matrix; [--nnz-max 599] [--seed 42]\n"
                           "       or [--input PATH (.mtx, SNAP .txt, .csr)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "spmv: --n must be in [1, 2^31)\n");
        return 2;
    }
    app_csr a;
    if (app_matrix_setup(&c, &a))
        return 1;
    double *x = (double *)malloc((size_t)a.ncols * sizeof *x), *y = (double *)malloc((size_t)a.nrows * sizeof *y);
    double *ref = (double *)malloc((size_t)a.nrows * sizeof *ref);
    if (!x || !y || !ref) {
        fprintf(stderr, "spmv: out of memory\n");
        return 1;
    }
    for (int j = 0; j < a.ncols; j++)
        x[j] = 1.0;
    spmv_ctx ctx = {&a, x, y};
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &ctx);
    app_check_t check = APP_CHECK_SKIPPED;
    double sum = 0.0;
    for (int i = 0; i < a.nrows; i++)
        sum += y[i];
    if (c.check) {
        long long bad = 0;
        app_spmv_reference(&a, x, ref);
        for (int i = 0; i < a.nrows; i++)
            if (!(y[i] == ref[i]) && bad++ < 5) /* same summation order: exact */
                fprintf(c.out, "spmv: y[%d] = %.17g, expected %.17g\n", i, y[i], ref[i]);
        check = bad ? APP_CHECK_FAIL : APP_CHECK_PASS;
    }
    char answer[96];
    snprintf(answer, sizeof answer, "rows=%d;nnz=%lld;sum=%.6e", a.nrows, a.nnz, sum);
    free(x), free(y), free(ref);
    app_csr_free(&a);
    return app_report(&c, &stats, check, answer);
}
