/* fib_cpu.c - CPU baselines of fib.cu. OpenMP (-fopenmp): two `omp task shared` children and
 * a taskwait at every call, no cutoff (the paper runs it with OMP_STACKSIZE=500M up to
 * n = 40). Sequential: the plain recursion. */
#include "app_cpu.h"

typedef struct fib_ctx {
    int n;
    int result;
} fib_ctx;

#ifndef _OPENMP
static int fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }
#else
static int fib_omp(int n)
{
    int a, b;
    if (n < 2)
        return n;
#pragma omp task shared(a)
    a = fib_omp(n - 1);
#pragma omp task shared(b)
    b = fib_omp(n - 2);
#pragma omp taskwait
    return a + b;
}
#endif

static void body(void *p)
{
    fib_ctx *x = (fib_ctx *)p;
#ifdef _OPENMP
    x->result = fib_omp(x->n);
#else
    x->result = fib_seq(x->n);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "fib", APP_CPU_IMPL, 30);
    int rc = app_cli_parse(&c, argc, argv, NULL, NULL);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n > 46) {
        fprintf(stderr, "fib: --n must be at most 46 (int result)\n");
        return 2;
    }
    fib_ctx x = {(int)c.n, -1};
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, NULL, body, &x);
    long long f0 = 0, f1 = 1;
    for (int k = 0; k < x.n; k++) {
        long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    char answer[32];
    snprintf(answer, sizeof answer, "%d", x.result);
    return app_report(&c, &stats, !c.check ? APP_CHECK_SKIPPED : x.result == f0 ? APP_CHECK_PASS : APP_CHECK_FAIL,
                      answer);
}
