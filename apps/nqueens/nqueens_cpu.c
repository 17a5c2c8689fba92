/* nqueens_cpu.c - CPU baselines of nqueens.cu. OpenMP (-fopenmp): one task per placement for
 * rows up to the cutoff (default 7, as the GPU program and the paper's OpenMP baseline), the
 * sequential search below, solutions added atomically. Sequential: the whole search
 * without tasks. Both use nq_search.h. */
#include "app_cpu.h"
#include "nq_search.h"

typedef struct nq_ctx {
    int n, cutoff;
    unsigned long long solutions;
} nq_ctx;

#ifdef _OPENMP
static void nq_task(nq_ctx *x, int row, uint32_t cols, uint32_t left, uint32_t right)
{
    if (row > x->cutoff || row == x->n) {
        unsigned long long k = nq_count(x->n, row, cols, left, right);
#pragma omp atomic
        x->solutions += k;
        return;
    }
    const uint32_t mask = x->n == 32 ? 0xffffffffu : (1u << x->n) - 1u;
    uint32_t avail = mask & ~(cols | left | right);
    while (avail) {
        const uint32_t p = avail & (0u - avail);
        avail ^= p;
#pragma omp task firstprivate(row, cols, left, right, p)
        nq_task(x, row + 1, cols | p, (left | p) << 1, (right | p) >> 1);
    }
}
#endif

static void reset(void *p, int run)
{
    (void)run;
    ((nq_ctx *)p)->solutions = 0;
}

static void body(void *p)
{
    nq_ctx *x = (nq_ctx *)p;
#ifdef _OPENMP
    nq_task(x, 0, 0, 0, 0); /* the region's closing barrier waits for every task */
#else
    x->solutions = nq_count(x->n, 0, 0, 0, 0);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "nqueens", APP_CPU_IMPL, 12);
    static const char *const keys[] = {"cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff ROW (OpenMP, default 7)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > NQ_MAX_N) {
        fprintf(stderr, "nqueens: --n must be in [1, %d]\n", NQ_MAX_N);
        return 2;
    }
    nq_ctx x = {(int)c.n, (int)app_opt_ll(&c, "cutoff", 7), 0};
#ifdef _OPENMP
    app_param(&c, "cutoff=%d", x.cutoff);
#endif
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    char answer[32];
    snprintf(answer, sizeof answer, "%llu", x.solutions);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check && x.n < (int)(sizeof nq_known / sizeof nq_known[0]))
        check = x.solutions == nq_known[x.n] ? APP_CHECK_PASS : APP_CHECK_FAIL;
    return app_report(&c, &stats, check, answer);
}
