/* taskbench.cu - Task Bench's task graphs (taskbench_graph.h) as GTaP tasks: every point of
 * every step is one task that checks its inputs, runs the kernel and writes its output
 * (taskbench_kernel.h). Two mappings, chosen with --mapping:
 *
 *   dataflow (default): no barrier. A finished task (t, p) counts itself in at each of its
 *     dependents in step t + 1 (an atomic counter per task); the task that brings a counter to
 *     the dependent's number of inputs spawns it, detached. The first tasks (step 0, or all
 *     of a graph without edges) are spawned by a tree of start tasks.
 *   forkjoin: a task per graph runs its steps in order; each step is a task that splits its
 *     points in halves until at most --fanout remain, spawns those as point tasks and waits
 *     (`taskwait`), so a step ends when all its points have.
 *
 * Thread-level tasks by default; -DAPP_BLOCK (with GTAP_BLOCK_SIZE) runs each task on a
 * whole block, its kernel iterations, input checks and output records spread over the block's
 * threads. Built with -fgtap-no-taskwait (GTAP_ASSUME_NO_TASKWAIT) the program has only the
 * dataflow mapping. Outputs: a dataflow run keeps one output field per step (a point may run
 * steps ahead of its neighbours), a fork-join run two. Every run fails loudly (exit 1, a line
 * naming the step, the point and the input) when a task saw a wrong input, a point ran a
 * wrong number of tasks, or the last step's outputs are not the tasks' own.
 *
 * Linked with the distributed layer (GTAP_DISTRIBUTED: taskbench_dist_*), the fork-join
 * mapping runs across ranks with a launch per step (tb_step_kernel) and its main() is
 * taskbench_dist.cuh's.
 */
#include <vector>

#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define TB_LANE ((int)threadIdx.x)
#define TB_LANES ((int)blockDim.x)
#define TB_LEADER (threadIdx.x == 0)
#define TB_DEFAULT_FANOUT GTAP_BLOCK_SIZE /* a leaf: one point task per thread */
#else
#include "gtap_thread.cuh"
#define TB_LANE 0
#define TB_LANES 1
#define TB_LEADER 1
#define TB_DEFAULT_FANOUT 8
#endif
#include "gtap_app.cuh"
#include "taskbench_graph.h"
#include "taskbench_kernel.h"
#include "taskbench_params.h"

/* A graph as the device sees it. */
typedef struct tb_dev_graph {
    tb_graph g;
    tb_store s;
    int *arrived;            /* dataflow: inputs completed of task (t, p), at [t * width + p] */
    unsigned long long *ran; /* tasks run per point, over all launches */
    long *late;              /* dataflow: tasks after step 0 without inputs (tb_graph_late_starts) */
    long nlate;
} tb_dev_graph;

__device__ tb_dev_graph g_tb[TB_MAX_GRAPHS];
__device__ long g_tb_fanout;
__device__ int g_tb_faults;     /* task threads that found a wrong input */
__device__ tb_fault g_tb_first; /* written by the one that counted g_tb_faults from 0 */
__device__ double g_tb_sink;    /* kernel results equal to TB_NEVER (none): keeps them computed */

/* Runs task (t, p) of graph gi (every thread of a block-level task calls it). */
__device__ void tb_run_point(int gi, long t, long p)
{
    const tb_dev_graph *d = &g_tb[gi];
    tb_fault f;
    double sink = 0;
    /* counts only: the host reads the count and the first record after the launch ends */
    if (tb_task_run(&d->g, &d->s, t, p, TB_LANE, TB_LANES, &f, &sink) && atomicAdd(&g_tb_faults, 1) == 0)
        g_tb_first = f;
    if (sink == TB_NEVER)
        g_tb_sink = sink;
    if (TB_LEADER)
        atomicAdd(&d->ran[p], 1ull); /* a count for the check after the launch; orders nothing */
}

/* ---- dataflow --------------------------------------------------------------------------- */

#pragma gtap function
__device__ void df_task(int gi, long t, long p)
{
    tb_run_point(gi, t, p);
    const tb_dev_graph *d = &g_tb[gi];
    const tb_graph *g = &d->g;
    if (t + 1 >= g->steps || !tb_has_deps(g))
        return;
    /* Publishes this task's output records (each thread its share) before any arrival below:
     * the task that completes a dependent's count spawns it, and it reads them (pairs with the
     * fence after that atomicAdd). */
    __threadfence();
#if defined(APP_BLOCK)
    __syncthreads(); /* every thread's records are fenced before the first arrival */
#endif
    const long dset = tb_dset_at(g, t + 1);
    const long lo = tb_offset_at(g, t + 1), hi = lo + tb_width_at(g, t + 1);
    const long plo = tb_offset_at(g, t), phi = plo + tb_width_at(g, t);
    tb_deps it;
    tb_span s;
    long k = 0;
    tb_deps_init(&it, g, dset, p, 1);
    while (tb_deps_next(&it, &s)) {
        for (long q = tb_maxl(s.first, lo); q <= tb_minl(s.last, hi - 1); q++, k++) {
            if (k % TB_LANES != TB_LANE)
                continue; /* block-level: the dependents are shared out over the threads */
            const long need = tb_count_in(g, dset, q, 0, plo, phi);
            if (atomicAdd(&d->arrived[(t + 1) * g->width + q], 1) + 1 == need) {
                /* the last input of q: the other inputs' fences came before their arrivals,
                 * which this atomicAdd saw; this fence orders them before the spawn */
                __threadfence();
#pragma gtap task
                df_task(gi, t + 1, q);
            }
        }
    }
}

/* Spawns start tasks [first, first + count) of graph gi: halves (the upper half as a task)
 * until at most g_tb_fanout remain, then one task each. */
#pragma gtap function
__device__ void df_start(int gi, long first, long count)
{
    while (count > g_tb_fanout) {
        const long half = count / 2;
        if (TB_LEADER) {
#pragma gtap task
            df_start(gi, first + half, count - half);
        }
        count = half;
    }
    const tb_dev_graph *d = &g_tb[gi];
    const long early = tb_start_count(&d->g);
    for (long k = first + TB_LANE; k < first + count; k += TB_LANES) {
        long t, p;
        if (k < early) {
            tb_start_task(&d->g, k, &t, &p);
        } else {
            t = d->late[k - early] / d->g.width;
            p = d->late[k - early] % d->g.width;
        }
#pragma gtap task
        df_task(gi, t, p);
    }
}

/* ---- fork-join ---------------------------------------------------------------------------- */

#if !defined(GTAP_ASSUME_NO_TASKWAIT)
#pragma gtap function
__device__ void fj_task(int gi, long t, long p)
{
    tb_run_point(gi, t, p);
}

/* Step t's points [lo, hi): the upper halves as tasks until at most g_tb_fanout remain, a
 * task for each of those, and a wait for them all (the halves wait for theirs). */
#pragma gtap function
__device__ void fj_step(int gi, long t, long lo, long hi)
{
    while (hi - lo > g_tb_fanout) {
        const long mid = lo + (hi - lo) / 2;
        if (TB_LEADER) {
#pragma gtap task
            fj_step(gi, t, mid, hi);
        }
        hi = mid;
    }
    for (long p = lo + TB_LANE; p < hi; p += TB_LANES) {
#pragma gtap task
        fj_task(gi, t, p);
    }
#pragma gtap taskwait
}

/* Graph gi's steps, one after the other. */
#pragma gtap function
__device__ void fj_graph(int gi)
{
    const long steps = g_tb[gi].g.steps;
    for (long t = 0; t < steps; t++) {
        if (TB_LEADER) {
            const long lo = tb_offset_at(&g_tb[gi].g, t), hi = lo + tb_width_at(&g_tb[gi].g, t);
#pragma gtap task
            fj_step(gi, t, lo, hi);
        }
#pragma gtap taskwait
    }
}
#endif

#if defined(GTAP_DISTRIBUTED)
/* Step t of every graph that has one: the root of a launch of the distributed program (rank
 * 0 runs it; the step's tasks reach the other ranks by stealing). */
#pragma gtap function
__device__ void tb_step(int ngraphs, long t)
{
    for (int gi = 0; gi < ngraphs; gi++) {
        if (!TB_LEADER || t >= g_tb[gi].g.steps)
            continue;
        const long lo = tb_offset_at(&g_tb[gi].g, t), hi = lo + tb_width_at(&g_tb[gi].g, t);
#pragma gtap task
        fj_step(gi, t, lo, hi);
    }
#pragma gtap taskwait
}

__global__ void tb_step_kernel(int ngraphs, long t)
{
#pragma gtap entry
    tb_step(ngraphs, t);
}
#endif

/* The run: every graph at once, in the chosen mapping. */
#pragma gtap function
__device__ void tb_root(int ngraphs, int mapping)
{
    (void)mapping;
    for (int gi = 0; gi < ngraphs; gi++) {
        if (!TB_LEADER)
            continue;
#if !defined(GTAP_ASSUME_NO_TASKWAIT)
        if (mapping == TB_MAP_FORKJOIN) {
#pragma gtap task
            fj_graph(gi);
            continue;
        }
#endif
#pragma gtap task
        df_start(gi, 0, tb_start_count(&g_tb[gi].g) + g_tb[gi].nlate);
    }
#if !defined(GTAP_ASSUME_NO_TASKWAIT)
#pragma gtap taskwait
#endif
}

__global__ void tb_kernel(int ngraphs, int mapping)
{
#pragma gtap entry
    tb_root(ngraphs, mapping);
}

/* ---- host ------------------------------------------------------------------------------------ */

/* Device memory of graph k (d->g set); its scratch filled. Returns 0, or 1 after a message. */
static int tb_alloc_graph(const tb_app *app, int k, tb_dev_graph *d)
{
    const tb_graph *g = &d->g;
    d->s.fields = app->mapping == TB_MAP_DATAFLOW ? g->steps : 2;
    d->s.slot_words = (g->output_bytes + TB_RECORD_BYTES - 1) / TB_RECORD_BYTES * 2;
    d->s.scratch_words = g->scratch_bytes / 8;
    d->s.fault_step = k == 0 ? app->fault_step : -1;
    d->s.fault_point = k == 0 ? app->fault_point : -1;
    const size_t out_bytes = (size_t)(d->s.fields * g->width * d->s.slot_words) * sizeof(long long);
    const size_t arrived_bytes =
        app->mapping == TB_MAP_DATAFLOW && tb_has_deps(g) ? (size_t)(g->steps * g->width) * sizeof(int) : 0;
    const size_t scratch_words = (size_t)(g->width * d->s.scratch_words);
    if (cudaMalloc(&d->s.out, out_bytes) != cudaSuccess ||
        (arrived_bytes && cudaMalloc(&d->arrived, arrived_bytes) != cudaSuccess) ||
        cudaMalloc(&d->ran, (size_t)g->width * sizeof(unsigned long long)) != cudaSuccess ||
        (scratch_words && cudaMalloc(&d->s.scratch, scratch_words * 8) != cudaSuccess)) {
        fprintf(stderr, "%s: graph %d: cannot allocate device memory (%zu bytes of outputs, %zu of counters, "
                        "%zu of scratch)\n", app->prog, k + 1, out_bytes, arrived_bytes, scratch_words * 8);
        return 1;
    }
    cudaMemset(d->ran, 0, (size_t)g->width * sizeof(unsigned long long));
    if (app->mapping == TB_MAP_DATAFLOW && (d->nlate = tb_graph_late_starts(g, NULL)) > 0) {
        std::vector<long> late((size_t)d->nlate);
        tb_graph_late_starts(g, late.data());
        if (cudaMalloc(&d->late, late.size() * sizeof(long)) != cudaSuccess) {
            fprintf(stderr, "%s: graph %d: cannot allocate device memory\n", app->prog, k + 1);
            return 1;
        }
        cudaMemcpy(d->late, late.data(), late.size() * sizeof(long), cudaMemcpyHostToDevice);
    }
    std::vector<unsigned long long> fill(scratch_words < (1u << 20) ? scratch_words : (1u << 20), TB_SCRATCH_FILL);
    for (size_t i = 0; i < scratch_words; i += fill.size()) {
        size_t n = scratch_words - i < fill.size() ? scratch_words - i : fill.size();
        cudaMemcpy(d->s.scratch + i, fill.data(), n * 8, cudaMemcpyHostToDevice);
    }
    return 0;
}

/* Deque capacity per worker when the default would not hold what one iteration spawns: a task
 * may spawn one task per dependent (or --fanout), and all the lanes of a warp may do so. */
static void tb_size_deques(app_cli *c, const tb_app *app, long fanout)
{
    long most = fanout;
    for (int k = 0; k < app->ngraphs; k++)
        most = tb_maxl(most, tb_graph_max_dependents(&app->graphs[k]));
#if defined(APP_BLOCK)
    long long need = 2ll * (most + 64), deflt = GTAP_MAX_TASKS_PER_BLOCK;
    long long workers = c->grid ? c->grid : gtap_default_grid_size();
#else
    long long need = 32ll * (most + 64), deflt = GTAP_MAX_TASKS_PER_WARP;
    long long workers = (long long)(c->grid ? c->grid : gtap_default_grid_size()) *
                        ((c->block ? c->block : GTAP_BLOCK_SIZE) / 32);
#endif
    if (c->max_tasks || need <= deflt)
        return;
    long long ring = 1;
    while (ring < need)
        ring <<= 1;
    while (ring > deflt && ring * 4 * workers > (16ll << 30)) /* deque rings under 16 GiB */
        ring >>= 1;
    c->max_tasks = need < ring ? need : ring;
    app_param(c, "max_tasks=%lld", c->max_tasks);
}

#if defined(GTAP_DISTRIBUTED)
#include "taskbench_dist.cuh"
#else
int main(int argc, char **argv)
{
    static app_stats stats;
    static tb_app app;
    static tb_dev_graph dg[TB_MAX_GRAPHS];
    app_cli c;
    app_cli_init(&c, "taskbench", APP_GTAP_IMPL, 0);
    int rc = tb_app_parse(&app, &c, argc, argv, TB_ACCEPT_MAPPING | TB_ACCEPT_FANOUT | TB_ACCEPT_GPU);
    if (rc)
        return rc < 0 ? 0 : rc;
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    if (app.mapping == TB_MAP_FORKJOIN) {
        fprintf(stderr, "%s: this build (-fgtap-no-taskwait) has only --mapping dataflow\n", app.prog);
        return 2;
    }
#endif
    app_require_device(&c);
    const long fanout = app.fanout ? app.fanout : TB_DEFAULT_FANOUT;
    for (int k = 0; k < app.ngraphs; k++) {
        dg[k].g = app.graphs[k];
        if (tb_alloc_graph(&app, k, &dg[k]))
            return 1;
    }
    const int zero = 0;
    cudaMemcpyToSymbol(g_tb, dg, sizeof dg);
    cudaMemcpyToSymbol(g_tb_fanout, &fanout, sizeof fanout);
    cudaMemcpyToSymbol(g_tb_faults, &zero, sizeof zero);
    tb_size_deques(&c, &app, fanout);
    if (app_gtap_init(&c))
        return 1;
    app_param(&c, "mapping=%s", tb_mapping_name(app.mapping));
    tb_app_params(&c, &app);
    app_param(&c, "fanout=%ld", fanout);
    app_banner(&c);
    tb_app_display(&app, c.out);
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            for (int k = 0; k < app.ngraphs; k++) { /* outputs read "never written" (-1, -1) */
                const tb_dev_graph *d = &dg[k];
                cudaMemset(d->s.out, 0xff, (size_t)(d->s.fields * d->g.width * d->s.slot_words) * sizeof(long long));
                if (d->arrived)
                    cudaMemset(d->arrived, 0, (size_t)(d->g.steps * d->g.width) * sizeof(int));
            }
        },
        [&] { return gtap_launch(tb_kernel, app.ngraphs, app.mapping); });
    if (rc)
        return 1;
    int faults = 0;
    tb_fault first;
    cudaMemcpyFromSymbol(&faults, g_tb_faults, sizeof faults);
    cudaMemcpyFromSymbol(&first, g_tb_first, sizeof first);
    long bad = faults;
    if (faults) {
        tb_fault_print(&first, app.prog, stderr);
        fprintf(stderr, "%s: %d task thread(s) found a wrong input\n", app.prog, faults);
    }
    for (int k = 0; k < app.ngraphs && c.check; k++) {
        const tb_dev_graph *d = &dg[k];
        const long w = d->g.width, sw = d->s.slot_words;
        long long *last = (long long *)malloc((size_t)(w * sw) * sizeof(long long));
        unsigned long long *ran = (unsigned long long *)malloc((size_t)w * sizeof(unsigned long long));
        if (!last || !ran) {
            fprintf(stderr, "%s: FAIL: graph %d: no host memory to check the last step\n", app.prog, k + 1);
            bad++;
        } else {
            cudaMemcpy(last, tb_slot(&d->s, &d->g, d->g.steps - 1, 0), (size_t)(w * sw) * sizeof(long long),
                       cudaMemcpyDeviceToHost);
            cudaMemcpy(ran, d->ran, (size_t)w * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
            bad += tb_check_after_run(&d->g, last, sw, ran, c.warmup + c.repeat, 0, w, app.prog, stderr);
        }
        free(last);
        free(ran);
    }
    tb_app_report_timing(&app, app_quantile(stats.kernel_ms, stats.count, 0.5) / 1e3, c.out);
    char answer[96];
    snprintf(answer, sizeof answer, "tasks=%lld;deps=%lld", c.n, tb_app_total_deps(&app));
    for (int k = 0; k < app.ngraphs; k++) {
        cudaFree(dg[k].s.out);
        cudaFree(dg[k].s.scratch);
        cudaFree(dg[k].arrived);
        cudaFree(dg[k].ran);
        cudaFree(dg[k].late);
    }
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, bad ? APP_CHECK_FAIL : c.check ? APP_CHECK_PASS : APP_CHECK_SKIPPED, answer);
}
#endif /* !GTAP_DISTRIBUTED */
