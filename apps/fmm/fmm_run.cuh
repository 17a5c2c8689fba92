/* fmm_run.cuh - the driver of the FMM's GPU programs (the task programs of fmm.cu and the
 * worklist of fmm_worklist.cu): options, the phases (GPU kernels, or the host's loops on the
 * host target, where only the traversal runs on the CPU reference executor), the counting run
 * that sizes the lists, the timed traversals, the check and the report. Include it after
 * <cuda_runtime.h> (the worklist, which has no tasks) or the runtime header.
 */
#ifndef FMM_RUN_CUH
#define FMM_RUN_CUH

#include <limits.h>

#include "fmm_host.h"
#if !defined(GTAP_TARGET_HOST)
#include "fmm_gpu.cuh"
#endif

/* Exits with 77 (CTest: skipped) when there is no CUDA device; gtap_app.cuh's
 * app_require_device, which the worklist cannot include (it has no task program). */
static void fmm_require_device(const app_cli *c)
{
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA device (%s); nothing to run\n", c->app,
                e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        exit(77);
    }
}

/* One run's data: on the host target the host's arrays, else the GPU's. */
struct fmm_dev {
    fmm_options o;
    fmm_ctx ctx; /* what the traversal reads (device pointers on the GPU) */
#if defined(GTAP_TARGET_HOST)
    fmm_host h;
#else
    fmm_gpu g;
#endif
};

static int fmm_dev_build(fmm_dev *d, fmm_phases *t)
{
#if defined(GTAP_TARGET_HOST)
    double t0 = app_now_ms();
    if (fmm_host_build(&d->h, &d->o))
        return 1;
    t->build = app_now_ms() - t0;
    t0 = app_now_ms();
    fmm_host_upward(&d->h);
    t->upward = app_now_ms() - t0;
    d->ctx = d->h.ctx;
    return 0;
#else
    return fmm_gpu_build(&d->g, &d->ctx, &d->o, t);
#endif
}

static int fmm_dev_reset(fmm_dev *d)
{
#if defined(GTAP_TARGET_HOST)
    fmm_host_reset(&d->h);
    return 0;
#else
    return fmm_gpu_reset(&d->g, &d->ctx);
#endif
}

static int fmm_dev_lists_alloc(fmm_dev *d)
{
#if defined(GTAP_TARGET_HOST)
    if (fmm_host_lists_alloc(&d->h))
        return 1;
    d->ctx.m2l_off = d->h.ctx.m2l_off, d->ctx.p2p_off = d->h.ctx.p2p_off;
    d->ctx.m2l_src = d->h.ctx.m2l_src, d->ctx.p2p_src = d->h.ctx.p2p_src;
    return 0;
#else
    return fmm_gpu_lists_alloc(&d->g, &d->ctx);
#endif
}

/* Lists (list modes), downward pass, counts, check. Returns the check's outcome, or -1 after
 * an error. */
static int fmm_dev_finish(fmm_dev *d, const app_cli *c, fmm_phases *t, fmm_counts *k)
{
#if defined(GTAP_TARGET_HOST)
    fmm_host *h = &d->h;
    fmm_tree_shape(h->node, h->ncells, h->nlevels, k);
    if (d->ctx.mode == FMM_MODE_LIST) {
        fmm_host_list_counts(h, k);
        const double t0 = app_now_ms();
        if (fmm_host_lists(h))
            return -1;
        t->lists = app_now_ms() - t0;
    } else {
        k->m2l = (long long)h->tally[0];
        k->p2p = (long long)h->tally[FMM_TALLY_SLOTS];
    }
    const double t0 = app_now_ms();
    fmm_host_downward(h);
    t->downward = app_now_ms() - t0;
    fmm_print_phases(c->out, t);
    if (!c->check)
        return APP_CHECK_SKIPPED;
    return fmm_host_check(h, c->out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
#else
    if (fmm_gpu_finish(&d->g, &d->ctx, t, k))
        return -1;
    fmm_print_phases(c->out, t);
    if (!c->check)
        return APP_CHECK_SKIPPED;
    return fmm_gpu_check(&d->ctx, &d->o, c->out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
#endif
}

#if defined(GTAP_DISTRIBUTED)
/* Across ranks (fmm_dist): each rank's fused traversal applied the pairs its tasks ran, into its
 * own local coefficients, body fields and counts; their sums over the ranks are the run's. In
 * double, then rounded once to float (the arrays' type); every rank gets them. Returns 0, or 1
 * after a message. */
static int fmm_dev_merge(fmm_dev *d)
{
    const fmm_ctx *x = &d->ctx;
    const size_t nl = (size_t)FMM_NT * x->ncells, no = 4 * (size_t)x->n, nf = nl + no;
    if (nf > (size_t)INT_MAX) {
        fprintf(stderr, "fmm_dist: %zu coefficients and body fields to sum across ranks: at most %d\n", nf, INT_MAX);
        return 1;
    }
    float *f = (float *)malloc(nf * sizeof(float));
    double *v = (double *)malloc(nf * sizeof(double));
    static uint64_t tally[2 * FMM_TALLY_SLOTS];
    int rc = !f || !v;
    rc = rc || cudaMemcpy(f, x->L, nl * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess ||
         cudaMemcpy(f + nl, x->out, no * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess ||
         cudaMemcpy(tally, x->tally, sizeof tally, cudaMemcpyDeviceToHost) != cudaSuccess;
    if (!rc) {
        for (size_t i = 0; i < nf; i++)
            v[i] = f[i];
        rc = gtap_dist_allreduce_f64(v, (int)nf, GTAP_DIST_SUM) != 0 ||
             gtap_dist_allreduce_u64(tally, 2 * FMM_TALLY_SLOTS, GTAP_DIST_SUM) != 0;
    }
    if (!rc) {
        for (size_t i = 0; i < nf; i++)
            f[i] = (float)v[i];
        rc = cudaMemcpy(x->L, f, nl * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess ||
             cudaMemcpy(x->out, f + nl, no * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess ||
             cudaMemcpy(x->tally, tally, sizeof tally, cudaMemcpyHostToDevice) != cudaSuccess;
    }
    if (rc)
        fprintf(stderr, "fmm_dist: summing the ranks' traversals failed\n");
    free(f);
    free(v);
    return rc;
}
#endif

static void fmm_dev_free(fmm_dev *d)
{
#if defined(GTAP_TARGET_HOST)
    fmm_host_free(&d->h);
#else
    fmm_gpu_free(&d->g);
#endif
}

/* The whole program: parse, build, install(ctx) (the traversal's view: __constant__ memory or
 * a kernel argument), the counting run (list modes), the timed runs (run_timed(stats, reset),
 * each run after reset()), finish, report. run_once() runs one traversal. Returns the exit
 * status. */
template <class Install, class RunOnce, class RunTimed>
static int fmm_main(int argc, char **argv, const char *app, const char *impl, int mode, Install install,
                    RunOnce run_once, RunTimed run_timed)
{
    static app_stats stats;
    static fmm_dev d;
    app_cli c;
    fmm_phases t = {0, 0, 0, 0, 0};
    fmm_counts k;
    app_cli_init(&c, app, impl, FMM_DEFAULT_N);
    static const char *const keys[] = {FMM_OPTION_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, FMM_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (fmm_options_read(&c, &d.o, "task-min", FMM_DEFAULT_TASK_MIN))
        return 2;
#if defined(GTAP_DISTRIBUTED)
    /* after the options: --help and usage errors leave before the job starts (every rank
     * reads the same command line) */
    if (gtap_init_distributed(&argc, &argv) != 0)
        return 1;
    const int rank = gtap_dist_rank();
#else
    const int rank = 0;
#endif
    fmm_require_device(&c);
    fmm_options_param(&c, &d.o, "task-min");
#if defined(GTAP_DISTRIBUTED)
    /* gtap_initialize picks this rank's GPU: before the build allocates on one (install()
     * initializes the runtime once; this ctx is replaced below) */
    if (install(&c, d.ctx))
        return 1;
#endif
    if (fmm_dev_build(&d, &t)) /* every rank builds the same bodies and tree from the options */
        return 1;
    d.ctx.mode = mode;
    d.ctx.task_min = d.o.task_min;
    if (install(&c, d.ctx))
        return 1;
    if (rank == 0)
        app_banner(&c);
    auto reset = [&](int) { fmm_dev_reset(&d); };
    if (mode == FMM_MODE_LIST) { /* the counting run sizes the lists (not timed) */
        if (fmm_dev_reset(&d) || run_once() != cudaSuccess || fmm_dev_lists_alloc(&d) || install(&c, d.ctx))
            return 1;
    }
    if (run_timed(&c, &stats, reset))
        return 1;
    t.traversal = app_quantile(stats.kernel_ms, stats.count, 0.5);
#if defined(GTAP_DISTRIBUTED)
    if (fmm_dev_merge(&d))
        return 1;
    if (rank != 0) { /* rank 0 finishes, checks and reports */
        fmm_dev_free(&d);
        gtap_finalize();
        return gtap_dist_finalize() != 0;
    }
#endif
    const int check = fmm_dev_finish(&d, &c, &t, &k);
    if (check < 0)
        return 1;
    char answer[160];
    fmm_answer(answer, sizeof answer, &k);
    fmm_dev_free(&d);
    rc = app_report(&c, &stats, (app_check_t)check, answer);
#if defined(GTAP_DISTRIBUTED)
    gtap_finalize();
    if (gtap_dist_finalize() != 0 && rc == 0)
        rc = 1;
#endif
    return rc;
}

#endif /* FMM_RUN_CUH */
