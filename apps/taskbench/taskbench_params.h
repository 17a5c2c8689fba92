/* taskbench_params.h - the parameters of a run as every driver (GPU, CPU, MPI) reports them on
 * its banner and CSV line (app_param), and the task count the line's n column holds. */
#ifndef TASKBENCH_PARAMS_H
#define TASKBENCH_PARAMS_H

#include "app_cli.h"
#include "taskbench_graph.h"

/* The first graph's shape stands for the run (a run with -and prints graphs=N beside it). */
static inline void tb_app_params(app_cli *c, const tb_app *app)
{
    c->n = tb_app_total_tasks(app);
    app_param(c, "graphs=%d", app->ngraphs);
    app_param(c, "type=%s", tb_pattern_name(app->graphs[0].pattern));
    app_param(c, "steps=%ld", app->graphs[0].steps);
    app_param(c, "width=%ld", app->graphs[0].width);
    app_param(c, "kernel=%s", tb_kernel_name(app->graphs[0].kernel));
    app_param(c, "iter=%ld", app->graphs[0].iterations);
}

#endif /* TASKBENCH_PARAMS_H */
