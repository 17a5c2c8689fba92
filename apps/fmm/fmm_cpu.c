/* fmm_cpu.c - the CPU baselines of the FMM: the same bodies, tree, passes and traversal rules
 * (fmm_dtt.h), the traversal building the interaction lists as the task programs' plain
 * variant does. Sequential: one depth-first walk from (root, root). OpenMP (-fopenmp): a task
 * per pair with --cutoff (512) bodies or more, smaller pairs walked inside their parent's task;
 * no taskwait, the single region's barrier waits for every task. Timed: the traversal (as the
 * upstream's host DTT baselines); the other phases are reported once. */
#include "app_cpu.h"
#include "fmm_host.h"

typedef struct fmm_cpu {
    fmm_host h;
} fmm_cpu;

#ifdef _OPENMP
static void dtt_omp(const fmm_ctx *x, int a, int b, int cutoff)
{
    fmm_tally t = {0, 0};
    fmm_frame f;
    if (fmm_pair_bodies(x, a, b) < cutoff) {
        fmm_walk(x, a, b, &t);
        return;
    }
    if (fmm_pair_visit(x, a, b, &f, &t) == FMM_PAIR_DONE)
        return;
    const int pairs = fmm_frame_pairs(&f);
    for (int k = 0; k < pairs; k++) {
        int ca, cb;
        fmm_frame_pair(&f, k, &ca, &cb);
#pragma omp task firstprivate(ca, cb)
        dtt_omp(x, ca, cb, cutoff);
    }
}
#endif

static void reset(void *p, int run)
{
    (void)run;
    fmm_host_reset(&((fmm_cpu *)p)->h);
}

static void body(void *p)
{
    fmm_host *h = &((fmm_cpu *)p)->h;
#ifdef _OPENMP
    dtt_omp(&h->ctx, 0, 0, h->o.task_min);
#else
    fmm_tally t = {0, 0};
    fmm_walk(&h->ctx, 0, 0, &t);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    static fmm_cpu x;
    app_cli c;
    fmm_options o;
    fmm_phases t = {0, 0, 0, 0, 0};
    fmm_counts k;
    app_cli_init(&c, "fmm", APP_CPU_IMPL, FMM_DEFAULT_N);
    static const char *const keys[] = {FMM_OPTION_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, FMM_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (fmm_options_read(&c, &o, "cutoff", FMM_DEFAULT_OMP_CUTOFF))
        return 2;
    fmm_options_param(&c, &o, "cutoff");
    app_cpu_init(&c);
    app_banner(&c);

    double t0 = app_now_ms();
    if (fmm_host_build(&x.h, &o))
        return 1;
    t.build = app_now_ms() - t0;
    t0 = app_now_ms();
    fmm_host_upward(&x.h);
    t.upward = app_now_ms() - t0;
    /* the counting traversal sizes the lists (not timed: the upstream preallocates them) */
    reset(&x, 0);
#ifdef _OPENMP
#pragma omp parallel
#pragma omp single
#endif
    body(&x);
    if (fmm_host_lists_alloc(&x.h))
        return 1;
    app_cpu_run(&c, &stats, reset, body, &x);
    t.traversal = app_quantile(stats.kernel_ms, stats.count, 0.5);
    t0 = app_now_ms();
    if (fmm_host_lists(&x.h))
        return 1;
    t.lists = app_now_ms() - t0;
    t0 = app_now_ms();
    fmm_host_downward(&x.h);
    t.downward = app_now_ms() - t0;

    fmm_tree_shape(x.h.node, x.h.ncells, x.h.nlevels, &k);
    fmm_host_list_counts(&x.h, &k);
    fmm_print_phases(c.out, &t);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = fmm_host_check(&x.h, c.out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
    char answer[160];
    fmm_answer(answer, sizeof answer, &k);
    fmm_host_free(&x.h);
    return app_report(&c, &stats, check, answer);
}
