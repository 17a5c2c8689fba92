/* taskbench_cpu.c - Task Bench's graphs on the CPU, with the GPU program's flags, output and
 * checks. OpenMP (-fopenmp, taskbench_omp): --mapping dataflow (default) creates every task up
 * front with `depend(in:)` on the output slots of its dependencies (an OpenMP 5 iterator over
 * a list of any length) and `depend(out:)` on its own, one slot per task and step, so the
 * runtime orders exactly the graph's edges; --mapping forkjoin creates a step's tasks and
 * waits for them (`taskwait`) before the next step, one task per graph running its steps.
 * Sequential (taskbench_seq): the steps in order. Workers: the OpenMP threads (cores).
 */
#include <stdlib.h>

#include "app_cpu.h"
#include "taskbench_graph.h"
#include "taskbench_kernel.h"
#include "taskbench_params.h"

typedef struct cpu_graph {
    tb_graph g;
    tb_store s;
    unsigned long long *ran; /* tasks run per point, over all runs */
    long *inputs;            /* dataflow: the creating thread's list of one task's inputs */
} cpu_graph;

typedef struct cpu_run {
    const tb_app *app;
    cpu_graph graphs[TB_MAX_GRAPHS];
    long faults;
    tb_fault first; /* the first fault seen (under the critical section) */
    double sink;
} cpu_run;

static void run_task(cpu_run *x, cpu_graph *cg, long t, long p)
{
    tb_fault f;
    double sink = 0;
    if (tb_task_run(&cg->g, &cg->s, t, p, 0, 1, &f, &sink)) {
#pragma omp critical(tb_fault)
        {
            if (x->faults++ == 0)
                x->first = f;
        }
    }
    if (sink == TB_NEVER)
        x->sink = sink;
#pragma omp atomic
    cg->ran[p]++;
}

#ifdef _OPENMP
/* The inputs of task (t, p) that exist, into cg->inputs; returns their number. */
static long list_inputs(cpu_graph *cg, long t, long p)
{
    const tb_graph *g = &cg->g;
    const long lo = tb_offset_at(g, t - 1), hi = lo + tb_width_at(g, t - 1);
    tb_deps it;
    tb_span s;
    long n = 0;
    tb_deps_init(&it, g, tb_dset_at(g, t), p, 0);
    while (tb_deps_next(&it, &s))
        for (long d = tb_maxl(s.first, lo); d <= tb_minl(s.last, hi - 1); d++)
            cg->inputs[n++] = d;
    return n;
}

/* Dataflow: every task, step by step (graphs interleaved), each ordered after the tasks that
 * write its inputs; the parallel region's end waits for all of them. */
static void run_dataflow(cpu_run *x)
{
    long steps = 0;
    for (int k = 0; k < x->app->ngraphs; k++)
        steps = tb_maxl(steps, x->graphs[k].g.steps);
    for (long t = 0; t < steps; t++)
        for (int k = 0; k < x->app->ngraphs; k++) {
            cpu_graph *cg = &x->graphs[k];
            const tb_graph *g = &cg->g;
            if (t >= g->steps)
                continue;
            for (long p = tb_offset_at(g, t); p < tb_offset_at(g, t) + tb_width_at(g, t); p++) {
                const long n = t > 0 ? list_inputs(cg, t, p) : 0;
                const long *in = cg->inputs;
                long long *prev = t > 0 ? tb_slot(&cg->s, g, t - 1, 0) : cg->s.out, *own = tb_slot(&cg->s, g, t, p);
                const long sw = cg->s.slot_words;
                (void)n, (void)prev, (void)own; /* GCC 12 does not count uses in depend clauses */
#pragma omp task default(none) firstprivate(x, cg, t, p) depend(iterator(j = 0 : n), in : prev[in[j] * sw]) \
    depend(out : own[0])
                run_task(x, cg, t, p);
            }
        }
}

/* Fork-join, one graph: each step's tasks, then a taskwait. */
static void run_forkjoin_graph(cpu_run *x, cpu_graph *cg)
{
    const tb_graph *g = &cg->g;
    for (long t = 0; t < g->steps; t++) {
        for (long p = tb_offset_at(g, t); p < tb_offset_at(g, t) + tb_width_at(g, t); p++) {
#pragma omp task default(none) firstprivate(x, cg, t, p)
            run_task(x, cg, t, p);
        }
#pragma omp taskwait
    }
}
#endif

static void body(void *ctx)
{
    cpu_run *x = (cpu_run *)ctx;
#ifdef _OPENMP
    if (x->app->mapping == TB_MAP_DATAFLOW) {
        run_dataflow(x);
        return;
    }
    for (int k = 0; k < x->app->ngraphs; k++) {
        cpu_graph *cg = &x->graphs[k];
#pragma omp task default(none) firstprivate(x, cg)
        run_forkjoin_graph(x, cg);
    }
#pragma omp taskwait
#else
    for (int k = 0; k < x->app->ngraphs; k++) {
        cpu_graph *cg = &x->graphs[k];
        for (long t = 0; t < cg->g.steps; t++)
            for (long p = tb_offset_at(&cg->g, t); p < tb_offset_at(&cg->g, t) + tb_width_at(&cg->g, t); p++)
                run_task(x, cg, t, p);
    }
#endif
}

/* Before each run: every output slot reads "never written" (-1, -1). */
static void reset(void *ctx, int run)
{
    cpu_run *x = (cpu_run *)ctx;
    (void)run;
    for (int k = 0; k < x->app->ngraphs; k++) {
        const cpu_graph *cg = &x->graphs[k];
        memset(cg->s.out, 0xff, (size_t)(cg->s.fields * cg->g.width * cg->s.slot_words) * sizeof(long long));
    }
}

/* Allocates graph k's storage. Returns 0, or 1 after a message. */
static int setup_graph(cpu_run *x, const tb_app *app, int k)
{
    cpu_graph *cg = &x->graphs[k];
    const tb_graph *g = &app->graphs[k];
    cg->g = *g;
    cg->s.fields = app->mapping == TB_MAP_DATAFLOW && APP_CPU_IMPL[0] == 'o' ? g->steps : 2;
    cg->s.slot_words = (g->output_bytes + TB_RECORD_BYTES - 1) / TB_RECORD_BYTES * 2;
    cg->s.scratch_words = g->scratch_bytes / 8;
    cg->s.fault_step = k == 0 ? app->fault_step : -1;
    cg->s.fault_point = k == 0 ? app->fault_point : -1;
    cg->s.out = (long long *)malloc((size_t)(cg->s.fields * g->width * cg->s.slot_words) * sizeof(long long));
    cg->ran = (unsigned long long *)calloc((size_t)g->width, sizeof *cg->ran);
    cg->inputs = (long *)malloc((size_t)g->width * sizeof *cg->inputs);
    if (g->scratch_bytes)
        cg->s.scratch = (unsigned long long *)malloc((size_t)(g->width * cg->s.scratch_words) * sizeof(long long));
    if (!cg->s.out || !cg->ran || !cg->inputs || (g->scratch_bytes && !cg->s.scratch)) {
        fprintf(stderr, "%s: graph %d: out of memory (%ld fields of %ld x %ld bytes)\n", app->prog, k + 1,
                cg->s.fields, g->width, g->output_bytes);
        return 1;
    }
    for (long i = 0; g->scratch_bytes && i < g->width * cg->s.scratch_words; i++)
        cg->s.scratch[i] = TB_SCRATCH_FILL;
    return 0;
}

int main(int argc, char **argv)
{
    static app_stats stats;
    static tb_app app;
    static cpu_run x;
    app_cli c;
    app_cli_init(&c, "taskbench", APP_CPU_IMPL, 0);
    int rc = tb_app_parse(&app, &c, argc, argv, TB_ACCEPT_MAPPING);
    if (rc)
        return rc < 0 ? 0 : rc;
    x.app = &app;
    for (int k = 0; k < app.ngraphs; k++)
        if (setup_graph(&x, &app, k))
            return 1;
    app_cpu_init(&c);
    app_param(&c, "mapping=%s", tb_mapping_name(app.mapping));
    tb_app_params(&c, &app);
    app_banner(&c);
    tb_app_display(&app, c.out);
    app_cpu_run(&c, &stats, reset, body, &x);
    long bad = 0;
    if (x.faults) {
        tb_fault_print(&x.first, app.prog, stderr);
        fprintf(stderr, "%s: %ld task(s) found a wrong input\n", app.prog, x.faults);
        bad += x.faults;
    }
    for (int k = 0; k < app.ngraphs && c.check; k++) {
        const cpu_graph *cg = &x.graphs[k];
        bad += tb_check_after_run(&cg->g, tb_slot(&cg->s, &cg->g, cg->g.steps - 1, 0), cg->s.slot_words, cg->ran,
                                  c.warmup + c.repeat, 0, cg->g.width, app.prog, stderr);
    }
    tb_app_report_timing(&app, app_quantile(stats.kernel_ms, stats.count, 0.5) / 1e3, c.out);
    char answer[96];
    snprintf(answer, sizeof answer, "tasks=%lld;deps=%lld", c.n, tb_app_total_deps(&app));
    for (int k = 0; k < app.ngraphs; k++) {
        free(x.graphs[k].s.out);
        free(x.graphs[k].s.scratch);
        free(x.graphs[k].ran);
        free(x.graphs[k].inputs);
    }
    return app_report(&c, &stats, bad ? APP_CHECK_FAIL : c.check ? APP_CHECK_PASS : APP_CHECK_SKIPPED, answer);
}
