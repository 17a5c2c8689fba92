/* taskbench_params.h - the parameters of a run as every driver (GPU, CPU, MPI) reports them on
 * its banner and CSV line (app_param), the task count the line's n column holds, and the
 * command line parsed on every rank of a job with one rank's messages. */
#ifndef TASKBENCH_PARAMS_H
#define TASKBENCH_PARAMS_H

#include <fcntl.h>
#include <unistd.h>

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

/* tb_app_parse on every rank of a job (each reads the same command line), with what the parse
 * prints (help, a bad flag's line) shown by rank 0 only: the other ranks' stdout and stderr
 * go to /dev/null meanwhile. Returns what tb_app_parse returns. */
static inline int tb_app_parse_on_rank(int rank, tb_app *app, app_cli *c, int argc, char **argv, unsigned accepts)
{
    int saved_out = -1, saved_err = -1;
    if (rank > 0) {
        int null = open("/dev/null", O_WRONLY);
        fflush(stdout);
        fflush(stderr);
        saved_out = dup(1);
        saved_err = dup(2);
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    int rc = tb_app_parse(app, c, argc, argv, accepts);
    if (rank > 0) {
        fflush(stdout);
        fflush(stderr);
        dup2(saved_out, 1);
        dup2(saved_err, 2);
        close(saved_out);
        close(saved_err);
    }
    return rc;
}

#endif /* TASKBENCH_PARAMS_H */
