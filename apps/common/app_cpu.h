/* app_cpu.h - the CPU side of the application driver (C): OpenMP or sequential builds of one
 * baseline source. Built with -fopenmp the program is the OpenMP-task baseline (impl "omp"),
 * without it the sequential one (impl "seq"); `#ifdef _OPENMP` selects the algorithm.
 * Timing as the paper's baselines: the wall clock around
 * `#pragma omp parallel { #pragma omp single { root } }` after one empty warm-up parallel
 * region (OpenMP), or around the call (sequential).
 */
#ifndef APP_CPU_H
#define APP_CPU_H

#include "app_cli.h"

#ifdef _OPENMP
#include <omp.h>
#define APP_CPU_IMPL "omp"
#else
#define APP_CPU_IMPL "seq"
#endif

/* Applies --threads and records the worker count; warms the OpenMP runtime up. */
static inline void app_cpu_init(app_cli *c)
{
    c->grid = 0;
    c->block = 0;
    c->queues = 0;
#ifdef _OPENMP
    if (c->threads > 0)
        omp_set_num_threads(c->threads);
    c->workers = omp_get_max_threads();
#pragma omp parallel
    {
        (void)0; /* warm-up: create the thread team outside the timed region */
    }
#else
    c->workers = 1;
#endif
}

/* Runs warmup + repeat times: reset(ctx, run) untimed, then body(ctx) timed - inside
 * `omp parallel` + `omp single` for the OpenMP build. */
static inline void app_cpu_run(const app_cli *c, app_stats *s, void (*reset)(void *, int), void (*body)(void *),
                               void *ctx)
{
    for (int r = 0; r < c->warmup + c->repeat; r++) {
        if (reset)
            reset(ctx, r);
        double t0 = app_now_ms();
#ifdef _OPENMP
#pragma omp parallel
#pragma omp single
        body(ctx);
#else
        body(ctx);
#endif
        double t = app_now_ms() - t0;
        if (c->verbose)
            fprintf(c->out, "run %d%s ms %.4f\n", r, r < c->warmup ? " (warm-up)" : "", t);
        if (r >= c->warmup)
            app_stats_add(s, t, t);
    }
}

#endif /* APP_CPU_H */
