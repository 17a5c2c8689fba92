/* taskbench_dist.cuh - main() of the distributed Task Bench (taskbench_dist_*: taskbench.cu
 * linked with the distributed layer includes this file in place of its own main()).
 *
 * One MPI rank per GPU (or per CPU reference executor). The fork-join mapping, a launch per
 * step of all graphs at once: rank 0's root (tb_step) splits step t's points through the
 * fork-join tree (fj_step) and the other ranks' empty launches take subtrees and point tasks
 * by stealing. Every rank holds both output fields of every graph in full: a task reads its
 * inputs from the previous step's field, which is the same on every rank, and writes its
 * output into its own rank's copy of step t's field. After the launch tb_dist_merge makes
 * step t's field the same on every rank again (an allreduce of its words), so a step costs a
 * launch, the step's tasks and that merge; the dataflow mapping, whose tasks count their
 * inputs in memory that every task of the run shares, is refused (--mapping dataflow, exit 2).
 *
 * The checks are the single process's, across ranks: each rank counts the wrong inputs its
 * tasks saw and the tasks each point ran; after the runs they are summed, rank 0 prints the
 * first fault of the lowest rank that saw one, checks the last step's outputs and the run
 * counts, and every rank leaves with the same status (1 when anything was wrong). Elapsed
 * Time is rank 0's wall time from a barrier before the first step to the end of the last
 * merge (the median of the --repeat runs); the banner's workers= is the sum over the ranks.
 */
#if defined(GTAP_ASSUME_NO_TASKWAIT)
#error "the distributed Task Bench runs the fork-join mapping: build it without -fgtap-no-taskwait"
#endif

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "gtap_dist.h"

/* Words of one output field of graph d (width slots). */
static size_t tb_dist_field_words(const tb_dev_graph *d)
{
    return (size_t)(d->g.width * d->s.slot_words);
}

/* Collective. Makes step t's output field of every graph that has step t the same on every
 * rank, and resets the field of step t + 1 to "never written" (all bits set, -1). Before the
 * step every rank's field read -1, and a task wrote its slot on the rank where it ran, so
 * each word is summed over the ranks as word + 1: a slot written on one rank comes out as
 * that rank's words, a slot written nowhere as -1 (the checks report "never written"), and
 * one written on k > 1 ranks as k (x + 1) - 1, which differs from the record x >= 0 (the
 * checks report it as wrong). buf: room for every graph's field. Returns 0, or 1 after a
 * message. */
static int tb_dist_merge(const tb_app *app, const tb_dev_graph *dg, long t, uint64_t *buf)
{
    size_t n = 0;
    int bad = 0;
    for (int k = 0; k < app->ngraphs; k++) {
        const tb_dev_graph *d = &dg[k];
        if (t >= d->g.steps)
            continue;
        bad |= cudaMemcpy(buf + n, tb_slot(&d->s, &d->g, t, 0), tb_dist_field_words(d) * 8,
                          cudaMemcpyDeviceToHost) != cudaSuccess;
        n += tb_dist_field_words(d);
    }
    for (size_t i = 0; i < n; i++)
        buf[i] += 1; /* -1 (never written) becomes 0 */
    if (bad || gtap_dist_allreduce_u64(buf, (int)n, GTAP_DIST_SUM) != 0) {
        fprintf(stderr, "%s: rank %d: merging the outputs of step %ld failed\n", app->prog, gtap_dist_rank(), t);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        buf[i] -= 1;
    n = 0;
    for (int k = 0; k < app->ngraphs; k++) {
        const tb_dev_graph *d = &dg[k];
        if (t >= d->g.steps)
            continue;
        bad |= cudaMemcpy(tb_slot(&d->s, &d->g, t, 0), buf + n, tb_dist_field_words(d) * 8,
                          cudaMemcpyHostToDevice) != cudaSuccess;
        n += tb_dist_field_words(d);
        if (t + 1 < d->g.steps)
            bad |= cudaMemset(tb_slot(&d->s, &d->g, t + 1, 0), 0xff, tb_dist_field_words(d) * 8) != cudaSuccess;
    }
    if (bad)
        fprintf(stderr, "%s: rank %d: storing the merged outputs of step %ld failed\n", app->prog, gtap_dist_rank(), t);
    return bad;
}

/* Collective. The wrong inputs the tasks of all ranks saw: their number into *count_p, and on
 * every rank the first fault of the lowest rank that saw one into *first_p (when any).
 * Returns 0, or 1 after a message. */
static int tb_dist_input_faults(const tb_app *app, long *count_p, tb_fault *first_p)
{
    const int rank = gtap_dist_rank(), ranks = gtap_dist_size();
    int faults = 0;
    tb_fault f;
    memset(&f, 0, sizeof f);
    if (cudaMemcpyFromSymbol(&faults, g_tb_faults, sizeof faults) != cudaSuccess ||
        cudaMemcpyFromSymbol(&f, g_tb_first, sizeof f) != cudaSuccess) {
        fprintf(stderr, "%s: rank %d: reading the fault counters failed\n", app->prog, rank);
        return 1;
    }
    uint64_t count = (uint64_t)faults, reporter = faults ? (uint64_t)(ranks - rank) : 0; /* max: lowest rank */
    if (gtap_dist_allreduce_u64(&count, 1, GTAP_DIST_SUM) != 0 ||
        gtap_dist_allreduce_u64(&reporter, 1, GTAP_DIST_MAX) != 0)
        return 1;
    const int mine = reporter && rank == ranks - (int)reporter;
    uint64_t w[9] = {(uint64_t)f.kind,     (uint64_t)f.graph,     (uint64_t)f.step,
                     (uint64_t)f.point,    (uint64_t)f.dep,       (uint64_t)f.got_step,
                     (uint64_t)f.got_point, (uint64_t)f.expected, (uint64_t)f.got};
    for (int i = 0; i < 9; i++)
        w[i] = mine ? w[i] : 0; /* the sum is the reporter's record */
    if (gtap_dist_allreduce_u64(w, 9, GTAP_DIST_SUM) != 0)
        return 1;
    f.kind = (int)w[0];
    f.graph = (long)w[1];
    f.step = (long)w[2];
    f.point = (long)w[3];
    f.dep = (long)w[4];
    f.got_step = (long)w[5];
    f.got_point = (long)w[6];
    f.expected = (long long)w[7];
    f.got = (long long)w[8];
    *count_p = (long)count;
    *first_p = f;
    return 0;
}

/* Collective. The checks after the runs: the tasks each point ran, summed over the ranks, and
 * the last step's outputs (the same on every rank after the last merge), checked on rank 0.
 * Returns the faults found (0 on the other ranks), or -1 after a message (the rank then
 * leaves without the other ranks, which ends the job: docs/dist.md, F2). */
static long tb_dist_check_after(const tb_app *app, const tb_dev_graph *dg, long long runs)
{
    const int rank = gtap_dist_rank();
    long bad = 0;
    for (int k = 0; k < app->ngraphs; k++) {
        const tb_dev_graph *d = &dg[k];
        const long w = d->g.width, sw = d->s.slot_words;
        uint64_t *ran = (uint64_t *)malloc((size_t)w * sizeof(uint64_t));
        long long *last = rank == 0 ? (long long *)malloc((size_t)(w * sw) * sizeof(long long)) : NULL;
        int rc = !ran || (rank == 0 && !last) ||
                 cudaMemcpy(ran, d->ran, (size_t)w * sizeof(uint64_t), cudaMemcpyDeviceToHost) != cudaSuccess ||
                 (last && cudaMemcpy(last, tb_slot(&d->s, &d->g, d->g.steps - 1, 0),
                                     (size_t)(w * sw) * sizeof(long long), cudaMemcpyDeviceToHost) != cudaSuccess);
        if (rc)
            fprintf(stderr, "%s: rank %d: graph %d: cannot read the outputs and run counts to check\n", app->prog,
                    rank, k + 1);
        else
            rc = gtap_dist_allreduce_u64(ran, (int)w, GTAP_DIST_SUM) != 0;
        if (!rc && last)
            bad += tb_check_after_run(&d->g, last, sw, (const unsigned long long *)ran, runs, 0, w, app->prog,
                                      stderr);
        free(ran);
        free(last);
        if (rc)
            return -1;
    }
    return bad;
}

/* Device memory of every graph on this rank (the forkjoin mapping's two fields), the device
 * globals, and the merge buffer into *buf_p. Collective: if any rank fails, every rank
 * returns 1 (the failing ones after a message). */
static int tb_dist_setup(const tb_app *app, tb_dev_graph *dg, long fanout, uint64_t **buf_p)
{
    size_t words = 0;
    int bad = 0;
    for (int k = 0; k < app->ngraphs && !bad; k++) {
        dg[k].g = app->graphs[k];
        bad = tb_alloc_graph(app, k, &dg[k]);
        words += bad ? 0 : tb_dist_field_words(&dg[k]);
    }
    if (!bad && words > (size_t)INT_MAX) { /* one allreduce per step */
        fprintf(stderr, "%s: the graphs' outputs of one step are %zu words; at most %d can be merged\n", app->prog,
                words, INT_MAX);
        bad = 1;
    }
    const int zero = 0;
    bad = bad || cudaMemcpyToSymbol(g_tb, dg, sizeof(tb_dev_graph) * TB_MAX_GRAPHS) != cudaSuccess ||
          cudaMemcpyToSymbol(g_tb_fanout, &fanout, sizeof fanout) != cudaSuccess ||
          cudaMemcpyToSymbol(g_tb_faults, &zero, sizeof zero) != cudaSuccess;
    if (!bad && cudaMallocHost((void **)buf_p, words * sizeof(uint64_t)) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %zu bytes of host memory to merge the outputs\n", app->prog, words * 8);
        bad = 1;
    }
    uint64_t any = (uint64_t)bad;
    if (gtap_dist_allreduce_u64(&any, 1, GTAP_DIST_MAX) != 0)
        return 1;
    return any != 0;
}

/* Runs warmup + repeat runs of every step, merging after each; rank 0's times go into s.
 * Returns 0, or 1 after a message (a failed launch ends the job: docs/dist.md, F1). */
static int tb_dist_run(const app_cli *c, const tb_app *app, const tb_dev_graph *dg, uint64_t *buf, app_stats *s)
{
    long steps = 0;
    for (int k = 0; k < app->ngraphs; k++)
        steps = tb_maxl(steps, app->graphs[k].steps);
    for (int r = 0; r < c->warmup + c->repeat; r++) {
        for (int k = 0; k < app->ngraphs; k++) /* outputs read "never written" (-1, -1) */
            cudaMemset(dg[k].s.out, 0xff, 2 * tb_dist_field_words(&dg[k]) * sizeof(long long));
        if (cudaDeviceSynchronize() != cudaSuccess || gtap_dist_barrier() != 0) {
            fprintf(stderr, "%s: rank %d: preparing run %d failed\n", app->prog, gtap_dist_rank(), r);
            return 1;
        }
        const double t0 = app_now_ms();
        for (long t = 0; t < steps; t++) {
            cudaError_t e = gtap_launch(tb_step_kernel, app->ngraphs, t);
            if (e == cudaSuccess)
                e = gtap_synchronize();
            if (e != cudaSuccess) {
                fprintf(stderr, "%s: rank %d: run %d, step %ld failed: %s\n", app->prog, gtap_dist_rank(), r, t,
                        cudaGetErrorString(e));
                return 1;
            }
            if (tb_dist_merge(app, dg, t, buf))
                return 1;
        }
        const double ms = app_now_ms() - t0;
        if (c->verbose && gtap_dist_rank() == 0)
            fprintf(c->out, "run %d%s ms %.4f\n", r, r < c->warmup ? " (warm-up)" : "", ms);
        if (r >= c->warmup)
            app_stats_add(s, ms, ms);
    }
    return 0;
}

/* This process's rank as the launcher tells it before MPI starts (Open MPI, PMIx, MPICH's PMI,
 * Slurm), or 0 without one: the command line is read before the job starts, and what that
 * prints (help, a bad flag) comes from this rank 0 only. */
static int tb_launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return atoi(getenv(vars[i]));
    return 0;
}

int main(int argc, char **argv)
{
    static app_stats stats;
    static tb_app app;
    static tb_dev_graph dg[TB_MAX_GRAPHS];
    app_cli c;
    app_cli_init(&c, "taskbench", APP_GTAP_IMPL, 0);
    /* before the job starts: --help and bad input leave at once, every rank alike */
    int rc = tb_app_parse_on_rank(tb_launcher_rank(), &app, &c, argc, argv,
                                  TB_ACCEPT_MAPPING | TB_ACCEPT_FORKJOIN_ONLY | TB_ACCEPT_FANOUT | TB_ACCEPT_GPU);
    if (rc)
        return rc < 0 ? 0 : rc;
    app_require_device(&c);
    if (gtap_init_distributed(&argc, &argv) != 0)
        return 1;
    const int rank = gtap_dist_rank(), ranks = gtap_dist_size();
    const long fanout = app.fanout ? app.fanout : TB_DEFAULT_FANOUT;
    tb_size_deques(&c, &app, fanout);
    if (app_gtap_init(&c)) /* first: it selects this rank's GPU */
        return 1;
    uint64_t workers = (uint64_t)c.workers, *buf = NULL;
    if (gtap_dist_allreduce_u64(&workers, 1, GTAP_DIST_SUM) != 0)
        return 1;
    c.workers = (int)workers;
    if (tb_dist_setup(&app, dg, fanout, &buf)) {
        gtap_finalize();
        gtap_dist_finalize();
        return 1;
    }
    app_param(&c, "mapping=%s", tb_mapping_name(app.mapping));
    tb_app_params(&c, &app);
    app_param(&c, "fanout=%ld", fanout);
    app_param(&c, "ranks=%d", ranks);
    if (rank == 0) {
        app_banner(&c);
        tb_app_display(&app, c.out);
        fflush(c.out);
    }
    if (tb_dist_run(&c, &app, dg, buf, &stats))
        return 1;
    long faults = 0;
    tb_fault first;
    if (tb_dist_input_faults(&app, &faults, &first))
        return 1;
    if (faults && rank == 0) {
        tb_fault_print(&first, app.prog, stderr);
        fprintf(stderr, "%s: %ld task thread(s) found a wrong input\n", app.prog, faults);
    }
    const long after = c.check ? tb_dist_check_after(&app, dg, c.warmup + c.repeat) : 0;
    uint64_t bad = after > 0 ? (uint64_t)after : 0; /* rank 0's count, for every rank */
    if (after < 0 || gtap_dist_allreduce_u64(&bad, 1, GTAP_DIST_SUM) != 0)
        return 1;
    bad += (uint64_t)faults;
    if (rank == 0) {
        tb_app_report_timing(&app, app_quantile(stats.kernel_ms, stats.count, 0.5) / 1e3, c.out);
        char answer[96];
        snprintf(answer, sizeof answer, "tasks=%lld;deps=%lld", c.n, tb_app_total_deps(&app));
        app_report(&c, &stats, bad ? APP_CHECK_FAIL : c.check ? APP_CHECK_PASS : APP_CHECK_SKIPPED, answer);
    }
    for (int k = 0; k < app.ngraphs; k++) {
        cudaFree(dg[k].s.out);
        cudaFree(dg[k].s.scratch);
        cudaFree(dg[k].ran);
    }
    cudaFreeHost(buf);
    rc = bad ? 1 : 0;
    if (gtap_finalize() != cudaSuccess)
        rc = 1;
    if (gtap_dist_finalize() != 0)
        rc = 1;
    return rc;
}
