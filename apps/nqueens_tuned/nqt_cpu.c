/* nqt_cpu.c - CPU baselines of nqueens_tuned.cu, with the same leaf (nqt_search.h). OpenMP
 * (-fopenmp): one task per placement of the first --cutoff rows (the GPU program's leaves),
 * each running the DFS to the end and adding its count once. Sequential: the DFS below each
 * first-row column of the left half. Both count mirror images by weight, as the GPU does. */
#include "app_cpu.h"
#include "nqt_search.h"

typedef struct nqt_cpu {
    int n, cutoff;
    unsigned long long solutions;
} nqt_cpu;

/* Solutions below one prefix (its weight not applied). */
static unsigned long long count_below(int n, int row, const nqt_prefix *x)
{
    uint32_t stack[NQT_STACK_DEPTH];
    nqt_dfs s;
    nqt_dfs_begin(&s, n, row, x->cols, x->left, x->right, x->avail);
    while (!nqt_dfs_run(&s, stack, 1, 0xffffffffu))
        ;
    return s.count;
}

static void reset(void *p, int run)
{
    (void)run;
    ((nqt_cpu *)p)->solutions = 0;
}

static void body(void *p)
{
    nqt_cpu *x = (nqt_cpu *)p;
#ifdef _OPENMP
    const int depth = x->cutoff;
#else
    const int depth = 1;
#endif
    /* Enumerating inside the timed region: the GPU program's range tasks are timed too. */
    const long long k = nqt_prefixes(x->n, depth, NULL);
    nqt_prefix *pre = (nqt_prefix *)malloc((size_t)(k ? k : 1) * sizeof *pre);
    if (!pre) {
        fprintf(stderr, "nqueens_tuned: out of memory for %lld prefixes\n", k);
        exit(1);
    }
    nqt_prefixes(x->n, depth, pre);
    for (long long i = 0; i < k; i++) {
#ifdef _OPENMP
#pragma omp task firstprivate(i)
        {
            const unsigned long long c = pre[i].weight * count_below(x->n, depth, &pre[i]);
#pragma omp atomic
            x->solutions += c;
        }
#else
        x->solutions += pre[i].weight * count_below(x->n, depth, &pre[i]);
#endif
    }
#ifdef _OPENMP
#pragma omp taskwait
#endif
    free(pre);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "nqueens_tuned", APP_CPU_IMPL, 12);
    static const char *const keys[] = {"cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff ROW (OpenMP: tasks of the first ROW rows)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > NQT_MAX_N) {
        fprintf(stderr, "nqueens_tuned: --n %lld: must be in [1, %d]\n", c.n, NQT_MAX_N);
        return 2;
    }
    nqt_cpu x = {(int)c.n, 0, 0};
    const long long cutoff = app_opt_ll(&c, "cutoff", nqt_default_cutoff(x.n));
    if (cutoff < 1 || cutoff > x.n) {
        fprintf(stderr, "nqueens_tuned: --cutoff %lld: must be in [1, n]\n", cutoff);
        return 2;
    }
    x.cutoff = (int)cutoff;
#ifdef _OPENMP
    app_param(&c, "cutoff=%d", x.cutoff);
#endif
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    char answer[32];
    snprintf(answer, sizeof answer, "%llu", x.solutions);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = x.solutions == nqt_known[x.n] ? APP_CHECK_PASS : APP_CHECK_FAIL;
    return app_report(&c, &stats, check, answer);
}
