/* taskbench_graph.c - the host side of the Task Bench model: the command line (Task Bench's
 * flags plus our --options), the checks of every graph before a run, Task Bench's
 * configuration and summary output, and the checks after a run. */
#include "taskbench_graph.h"

#include <stdlib.h>
#include <string.h>

#include "app_cli.h"

static const char *const pattern_names[] = {NULL, "trivial", "no_comm", "stencil_1d", "stencil_1d_periodic", "dom",
                                            "tree", "fft", "all_to_all", "nearest", "spread", "random_nearest"};
static const char *const kernel_names[] = {NULL, "empty", "busy_wait", "compute_bound", "memory_bound",
                                           "load_imbalance"};
/* Task Bench's other kernels (BLAS, I/O): named so that the error says what is missing. */
static const char *const kernels_not_here[] = {"compute_dgemm", "memory_daxpy", "compute_bound2", "io_bound",
                                               "compute_and_mem", NULL};

#define NPATTERNS ((int)(sizeof pattern_names / sizeof pattern_names[0]) - 1)
#define NKERNELS ((int)(sizeof kernel_names / sizeof kernel_names[0]) - 1)

const char *tb_pattern_name(int pattern)
{
    return pattern >= 1 && pattern <= NPATTERNS ? pattern_names[pattern] : "?";
}

const char *tb_kernel_name(int kernel)
{
    return kernel >= 1 && kernel <= NKERNELS ? kernel_names[kernel] : "?";
}

const char *tb_mapping_name(int mapping)
{
    return mapping == TB_MAP_FORKJOIN ? "forkjoin" : "dataflow";
}

/* Task Bench's defaults: a 4 x 4 trivial graph of empty tasks with 16-byte outputs. The
 * period stays -1 (unset) until the graph is complete. */
static tb_graph default_graph(long index)
{
    tb_graph g;
    memset(&g, 0, sizeof g);
    g.graph_index = index;
    g.steps = 4;
    g.width = 4;
    g.pattern = TB_TRIVIAL;
    g.kernel = TB_EMPTY;
    g.radix = 3;
    g.period = -1;
    g.fraction = 0.25;
    g.iterations = 0;
    g.samples = 16;
    g.imbalance = 0;
    g.output_bytes = TB_RECORD_BYTES;
    g.scratch_bytes = 0;
    g.seed = 0;
    return g;
}

static void print_help(const char *prog, unsigned accepts)
{
    printf("%s: Task Bench's task graphs on this runtime\n\n", prog);
    printf("Task graph (each -and starts the next graph, with the defaults again):\n"
           "  -steps N          time steps (default 4)\n"
           "  -width N          points per step (default 4)\n"
           "  -type PATTERN     dependence pattern (default trivial):\n                   ");
    for (int k = 1; k <= NPATTERNS; k++)
        printf(" %s", pattern_names[k]);
    printf("\n  -radix N          nearest, spread, random_nearest: dependencies per point (default 3)\n"
           "  -period N         spread, random_nearest: steps before the edges repeat (default 3)\n"
           "  -fraction F       random_nearest: probability of each candidate edge (default 0.25)\n"
           "  -seed N           random_nearest, load_imbalance: another deterministic draw (default 0)\n"
           "  -and              start the next graph\n"
           "Kernel:\n"
           "  -kernel KERNEL    (default empty):");
    for (int k = 1; k <= NKERNELS; k++)
        printf(" %s", kernel_names[k]);
    printf("\n  -iter N           iterations (compute_bound: 64 FMAs each; busy_wait: one step each;\n"
           "                    memory_bound: one sample copied each)\n"
           "  -output BYTES     output bytes per task, at least 16 (default 16)\n"
           "  -scratch BYTES    scratch bytes per point (memory_bound), a multiple of 16 x -sample\n"
           "  -sample N         memory_bound: samples the scratch is cut into (default 16)\n"
           "  -imbalance F      load_imbalance: iterations vary by this fraction, in [0, 2]\n"
           "Run:\n"
           "  -nodes N          estimate local / nonlocal dependencies for N nodes\n"
           "  -skip-graph-validation   skip the graph checks before the run\n"
           "  -v, -vv           print every step's points and dependencies (-vv: also dependents)\n"
           "  -h                this help\n"
           "  --repeat R --warmup W    timed runs (median reported) after untimed ones (5, 1)\n"
           "  --check | --no-check     final output and task-count checks (inputs: always)\n"
           "  --csv, --verbose, --threads T (OpenMP)\n");
    if ((accepts & TB_ACCEPT_MAPPING) && (accepts & TB_ACCEPT_FORKJOIN_ONLY))
        printf("  --mapping M       forkjoin (the only one here: a launch per step spreads the step's points\n"
               "                    over the ranks by stealing; their outputs are merged between launches)\n");
    else if (accepts & TB_ACCEPT_MAPPING)
        printf("  --mapping M       dataflow (default: a task spawns each successor whose last input it\n"
               "                    completes) or forkjoin (a task per step spawns the step's points, waits)\n");
    if (accepts & TB_ACCEPT_FANOUT)
        printf("  --fanout N        forkjoin: a step's task splits until it spawns at most N point tasks\n");
    if (accepts & TB_ACCEPT_GPU)
        printf("  --grid G --block B --queues Q --max-tasks M   GPU runtime geometry and capacity\n");
    printf("  --inject-fault T,P   testing: graph 0's task (T, P) writes no output (the run must FAIL)\n");
}

/* A whole-number flag value (also 1e6, 2^20) of at least `min`. */
static int flag_long(const char *prog, const char *flag, const char *v, long min, long *out)
{
    long long x;
    if (app_parse_ll(v, &x) != 0) {
        fprintf(stderr, "%s: %s %s: not a whole number\n", prog, flag, v);
        return 2;
    }
    if (x < min) {
        fprintf(stderr, "%s: %s %s: must be >= %ld\n", prog, flag, v, min);
        return 2;
    }
    *out = (long)x;
    return 0;
}

static int flag_double(const char *prog, const char *flag, const char *v, double lo, double hi, double *out)
{
    char *end = NULL;
    double x = strtod(v, &end);
    if (end == v || *end) {
        fprintf(stderr, "%s: %s %s: not a number\n", prog, flag, v);
        return 2;
    }
    if (!(x >= lo && x <= hi)) {
        fprintf(stderr, "%s: %s %s: must be in [%g, %g]\n", prog, flag, v, lo, hi);
        return 2;
    }
    *out = x;
    return 0;
}

static int lookup(const char *const *names, int n, const char *s)
{
    for (int k = 1; k <= n; k++)
        if (!strcmp(names[k], s))
            return k;
    return 0;
}

/* The flags of one graph; returns 0, 1 when `a` is not one of them, or 2 after an error.
 * *i is advanced past the value. */
static int graph_flag(const char *prog, tb_graph *g, int argc, char **argv, int *i)
{
    static const char *const valued[] = {"-steps", "-width", "-type", "-radix", "-period", "-fraction", "-kernel",
                                         "-iter", "-output", "-scratch", "-sample", "-imbalance", "-seed", NULL};
    const char *a = argv[*i];
    int k = 0;
    while (valued[k] && strcmp(valued[k], a))
        k++;
    if (!valued[k])
        return 1;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", prog, a);
        return 2;
    }
    const char *v = argv[++*i];
    long x;
    if (!strcmp(a, "-steps") || !strcmp(a, "-width")) {
        if (flag_long(prog, a, v, 1, &x))
            return 2;
        if (x > 0x7fffffffl) {
            fprintf(stderr, "%s: %s %s: must be < 2^31\n", prog, a, v);
            return 2;
        }
        *(a[1] == 's' ? &g->steps : &g->width) = x;
    } else if (!strcmp(a, "-type")) {
        if (!(g->pattern = lookup(pattern_names, NPATTERNS, v))) {
            fprintf(stderr, "%s: -type %s: unknown dependence pattern (-h lists them)\n", prog, v);
            return 2;
        }
    } else if (!strcmp(a, "-kernel")) {
        if (!(g->kernel = lookup(kernel_names, NKERNELS, v))) {
            for (int j = 0; kernels_not_here[j]; j++)
                if (!strcmp(kernels_not_here[j], v)) {
                    fprintf(stderr, "%s: -kernel %s: a Task Bench kernel this implementation does not have\n",
                            prog, v);
                    return 2;
                }
            fprintf(stderr, "%s: -kernel %s: unknown kernel (-h lists them)\n", prog, v);
            return 2;
        }
    } else if (!strcmp(a, "-radix")) {
        return flag_long(prog, a, v, 0, &g->radix);
    } else if (!strcmp(a, "-period")) {
        return flag_long(prog, a, v, 0, &g->period);
    } else if (!strcmp(a, "-fraction")) {
        return flag_double(prog, a, v, 0, 1, &g->fraction);
    } else if (!strcmp(a, "-iter")) {
        return flag_long(prog, a, v, 0, &g->iterations);
    } else if (!strcmp(a, "-output") || !strcmp(a, "-scratch") || !strcmp(a, "-sample")) {
        long *dst = a[1] == 'o' ? &g->output_bytes : a[2] == 'c' ? &g->scratch_bytes : &g->samples;
        if (flag_long(prog, a, v, a[1] == 'o' ? TB_RECORD_BYTES : a[2] == 'c' ? 0 : 1, dst))
            return 2;
        if (*dst > (1l << 30)) { /* sizes per task or point: keep the products in range */
            fprintf(stderr, "%s: %s %s: must be at most 2^30\n", prog, a, v);
            return 2;
        }
    } else if (!strcmp(a, "-imbalance")) {
        return flag_double(prog, a, v, 0, 2, &g->imbalance);
    } else if (!strcmp(a, "-seed")) {
        if (flag_long(prog, a, v, 0, &x))
            return 2;
        g->seed = (uint64_t)x;
    }
    return 0;
}

/* Fills in the period and checks that the flags of graph g fit together. */
static int finish_graph(const char *prog, tb_graph *g)
{
    const int periodic = g->pattern == TB_SPREAD || g->pattern == TB_RANDOM_NEAREST;
    const int n = (int)g->graph_index + 1;
    if (g->period < 0)
        g->period = periodic ? 3 : 0;
    if (periodic && g->period == 0) {
        fprintf(stderr, "%s: graph %d: -type %s needs -period > 0\n", prog, n, tb_pattern_name(g->pattern));
        return 2;
    }
    if (!periodic && g->period != 0) {
        fprintf(stderr, "%s: graph %d: -type %s takes no -period\n", prog, n, tb_pattern_name(g->pattern));
        return 2;
    }
    if (g->pattern == TB_SPREAD) {
        if (g->radix < 1) {
            fprintf(stderr, "%s: graph %d: -type spread needs -radix >= 1\n", prog, n);
            return 2;
        }
        long spread = (g->width + g->radix - 1) / g->radix; /* later edge sets must not wrap around */
        if (g->period > spread) {
            fprintf(stderr, "%s: graph %d: -type spread -width %ld -radix %ld needs -period <= %ld\n", prog, n,
                    g->width, g->radix, spread);
            return 2;
        }
    }
    if (g->pattern == TB_FFT && g->width > (1l << 40)) {
        fprintf(stderr, "%s: graph %d: -type fft -width %ld is too wide\n", prog, n, g->width);
        return 2;
    }
    if (g->steps * g->width > (1l << 40)) {
        fprintf(stderr, "%s: graph %d: -steps %ld x -width %ld is more than 2^40 tasks\n", prog, n, g->steps,
                g->width);
        return 2;
    }
    if (g->scratch_bytes % 8) {
        fprintf(stderr, "%s: graph %d: -scratch %ld: must be a multiple of 8\n", prog, n, g->scratch_bytes);
        return 2;
    }
    /* each sample is two halves of whole 8-byte words */
    if (g->kernel == TB_MEMORY_BOUND && (g->scratch_bytes == 0 || g->scratch_bytes % (16 * g->samples) != 0)) {
        fprintf(stderr, "%s: graph %d: -kernel memory_bound needs -scratch to be a positive multiple of 16 x "
                        "-sample (%ld bytes)\n", prog, n, 16 * g->samples);
        return 2;
    }
    return 0;
}

/* The checks Task Bench makes of every edge set: each dependency is a point of the graph and
 * appears once; the dependents of every point are exactly the points that list it; and, for
 * a graph with dependencies, every point has one (tb_has_deps). Returns 0 or 2. */
static int validate_graph(const char *prog, const tb_graph *g)
{
    const int n = (int)g->graph_index + 1;
    const char *type = tb_pattern_name(g->pattern);
    if (g->pattern == TB_ALL_TO_ALL)
        return 0; /* one span [0, width - 1] per point in both directions: nothing to check */
    if (tb_dsets(g) * g->width > (1l << 24)) { /* seconds of checking and a stamp per point */
        fprintf(stderr, "%s: graph %d: too wide to validate before the run (tests/taskbench checks the "
                        "patterns); going on\n", prog, n);
        return 0;
    }
    long *stamp = (long *)malloc((size_t)g->width * sizeof *stamp);
    int rc = 0;
    if (!stamp) {
        fprintf(stderr, "%s: out of memory validating graph %d\n", prog, n);
        return 2;
    }
    for (long dset = 0; dset < tb_dsets(g) && !rc; dset++) {
        long long forward = 0, reverse = 0;
        for (int dir = 0; dir < 2 && !rc; dir++) {
            for (long p = 0; p < g->width; p++)
                stamp[p] = -1;
            for (long p = 0; p < g->width && !rc; p++) {
                tb_deps it;
                tb_span s;
                long count = 0;
                tb_deps_init(&it, g, dset, p, dir);
                while (!rc && tb_deps_next(&it, &s)) {
                    for (long q = s.first; q <= s.last && !rc; q++, count++) {
                        if (q < 0 || q >= g->width) {
                            fprintf(stderr, "%s: graph %d (-type %s): point %ld has %s %ld outside the width\n",
                                    prog, n, type, p, dir ? "dependent" : "dependency", q);
                            rc = 2;
                        } else if (stamp[q] == p) {
                            fprintf(stderr, "%s: graph %d (-type %s -width %ld): point %ld has %s %ld twice (Task "
                                            "Bench rejects such graphs)\n",
                                    prog, n, type, g->width, p, dir ? "dependent" : "dependency", q);
                            rc = 2;
                        } else if (dir && tb_count_in(g, dset, q, 0, p, p + 1) != 1) {
                            fprintf(stderr, "%s: graph %d (-type %s): point %ld lists %ld as a dependent, which does "
                                            "not depend on it\n", prog, n, type, p, q);
                            rc = 2;
                        }
                        if (q >= 0 && q < g->width)
                            stamp[q] = p;
                    }
                }
                if (!rc && !dir && count == 0 && tb_has_deps(g)) {
                    fprintf(stderr, "%s: graph %d (-type %s): point %ld has no dependency\n", prog, n, type, p);
                    rc = 2;
                }
                *(dir ? &reverse : &forward) += count;
            }
        }
        if (!rc && forward != reverse) {
            fprintf(stderr, "%s: graph %d (-type %s): %lld dependencies but %lld dependents\n", prog, n, type,
                    forward, reverse);
            rc = 2;
        }
    }
    free(stamp);
    return rc;
}

static int name_in(const char *const *names, const char *name, size_t len)
{
    for (int k = 0; names[k]; k++)
        if (strlen(names[k]) == len && !strncmp(names[k], name, len))
            return 1;
    return 0;
}

/* app_cli's --options: those that take no value, and the others. */
static const char *const cli_flags[] = {"check", "no-check", "csv", "verbose", "csv-header", NULL};
static const char *const cli_valued[] = {"n", "grid", "block", "repeat", "warmup", "threads", "queues", "max-tasks",
                                         NULL};

int tb_app_parse(tb_app *app, void *cli_v, int argc, char **argv, unsigned accepts)
{
    app_cli *cli = (app_cli *)cli_v;
    const char *prog = cli->app;
    memset(app, 0, sizeof *app);
    app->prog = prog;
    app->validate = 1;
    app->mapping = accepts & TB_ACCEPT_FORKJOIN_ONLY ? TB_MAP_FORKJOIN : TB_MAP_DATAFLOW;
    app->fault_step = app->fault_point = -1;
    const char *keys[4]; /* our program options, for app_cli_parse */
    int nk = 0;
    if (accepts & TB_ACCEPT_MAPPING)
        keys[nk++] = "mapping";
    if (accepts & TB_ACCEPT_FANOUT)
        keys[nk++] = "fanout";
    keys[nk++] = "inject-fault";
    keys[nk] = NULL;
    char **ours = (char **)calloc((size_t)argc + 1, sizeof *ours);
    int nours = 1, rc = 0;
    if (!ours)
        return 2;
    ours[0] = argv[0];
    tb_graph g = default_graph(0);
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--", 2)) { /* ours: app_cli_parse below */
            const char *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (len == 4 && !strncmp(a + 2, "help", 4)) {
                print_help(prog, accepts);
                free(ours);
                return -1;
            }
            const int flag = name_in(cli_flags, a + 2, len);
            if (!flag && !name_in(cli_valued, a + 2, len) && !name_in(keys, a + 2, len)) {
                fprintf(stderr, "%s: unknown option %.*s (-h lists the options)\n", prog, (int)len + 2, a);
                rc = 2;
                break;
            }
            ours[nours++] = argv[i];
            if (!eq && !flag && i + 1 < argc)
                ours[nours++] = argv[++i];
            continue;
        }
        if (a[0] != '-' || !a[1]) {
            fprintf(stderr, "%s: unexpected argument '%s' (-h lists the flags)\n", prog, a);
            rc = 2;
        } else if (!strcmp(a, "-h")) {
            print_help(prog, accepts);
            free(ours);
            return -1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "-vv")) {
            app->verbose += a[2] ? 2 : 1;
        } else if (!strcmp(a, "-skip-graph-validation")) {
            app->validate = 0;
        } else if (!strcmp(a, "-nodes")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: -nodes needs a value\n", prog);
                rc = 2;
            } else {
                rc = flag_long(prog, a, argv[++i], 1, &app->nodes);
            }
        } else if (!strcmp(a, "-and")) {
            if (app->ngraphs + 1 >= TB_MAX_GRAPHS) {
                fprintf(stderr, "%s: at most %d graphs (-and)\n", prog, TB_MAX_GRAPHS);
                rc = 2;
            } else if (!(rc = finish_graph(prog, &g))) {
                app->graphs[app->ngraphs++] = g;
                g = default_graph(app->ngraphs);
            }
        } else if ((rc = graph_flag(prog, &g, argc, argv, &i)) == 1) {
            fprintf(stderr, "%s: unknown flag %s (-h lists the flags)\n", prog, a);
            rc = 2;
        }
    }
    if (!rc && !(rc = finish_graph(prog, &g)))
        app->graphs[app->ngraphs++] = g;
    if (!rc)
        rc = app_cli_parse(cli, nours, ours, keys, "Task Bench flags: -h lists them");
    free(ours);
    if (rc)
        return rc;
    if (cli->n != 0) {
        fprintf(stderr, "%s: --n is not used: the graph is -steps x -width\n", prog);
        return 2;
    }
    const char *m = app_opt_str(cli, "mapping", NULL);
    if (m) {
        if (!strcmp(m, "dataflow")) {
            app->mapping = TB_MAP_DATAFLOW;
        } else if (!strcmp(m, "forkjoin") || !strcmp(m, "fork-join")) {
            app->mapping = TB_MAP_FORKJOIN;
        } else {
            fprintf(stderr, "%s: --mapping %s: must be dataflow or forkjoin\n", prog, m);
            return 2;
        }
        if (app->mapping == TB_MAP_DATAFLOW && (accepts & TB_ACCEPT_FORKJOIN_ONLY)) {
            fprintf(stderr, "%s: --mapping dataflow: not across ranks (its tasks count their inputs in memory "
                            "that all tasks of the run share); use --mapping forkjoin\n", prog);
            return 2;
        }
    }
    const char *fo = app_opt_str(cli, "fanout", NULL);
    if (fo && flag_long(prog, "--fanout", fo, 1, &app->fanout))
        return 2;
    const char *fault = app_opt_str(cli, "inject-fault", NULL);
    if (fault) {
        char *end = NULL;
        app->fault_step = strtol(fault, &end, 10);
        if (end == fault || *end != ',' || (app->fault_point = strtol(end + 1, &end, 10), *end) ||
            !tb_point_exists(&app->graphs[0], app->fault_step, app->fault_point)) {
            fprintf(stderr, "%s: --inject-fault %s: must be STEP,POINT of a task of graph 1\n", prog, fault);
            return 2;
        }
    }
    for (int k = 0; app->validate && k < app->ngraphs; k++)
        if (validate_graph(prog, &app->graphs[k]))
            return 2;
    return 0;
}

/* ---- Task Bench's output ------------------------------------------------------------------ */

static void display_steps(const tb_graph *g, int verbose, FILE *out)
{
    for (long t = 0; t < g->steps; t++) {
        const long off = tb_offset_at(g, t), w = tb_width_at(g, t);
        const long loff = tb_offset_at(g, t - 1), lw = tb_width_at(g, t - 1);
        const long noff = tb_offset_at(g, t + 1), nw = t + 1 < g->steps ? tb_width_at(g, t + 1) : 0;
        fprintf(out, "      Timestep %ld (offset %ld, width %ld, last offset %ld, last width %ld):\n", t, off, w,
                loff, lw);
        fprintf(out, "        Points:");
        for (long p = off; p < off + w; p++)
            fprintf(out, " %ld", p);
        fprintf(out, "\n        Dependencies:\n");
        for (int dir = 0; dir < (verbose > 1 ? 2 : 1); dir++) {
            if (dir)
                fprintf(out, "        Reverse Dependencies:\n");
            for (long p = off; p < off + w; p++) {
                tb_deps it;
                tb_span s;
                const long lo = dir ? noff : loff, hi = dir ? noff + nw : loff + lw;
                fprintf(out, "          Point %ld:", p);
                tb_deps_init(&it, g, tb_dset_at(g, dir ? t + 1 : t), p, dir);
                while (tb_deps_next(&it, &s))
                    for (long q = s.first; q <= s.last; q++)
                        if (q >= lo && q < hi)
                            fprintf(out, " %ld", q);
                fprintf(out, "\n");
            }
        }
    }
}

void tb_app_display(const tb_app *app, FILE *out)
{
    fprintf(out, "Running Task Benchmark\n  Configuration:\n");
    for (int k = 0; k < app->ngraphs; k++) {
        const tb_graph *g = &app->graphs[k];
        fprintf(out, "    Task Graph %d:\n", k + 1);
        fprintf(out, "      Time Steps: %ld\n      Max Width: %ld\n", g->steps, g->width);
        fprintf(out, "      Dependence Type: %s\n      Radix: %ld\n      Period: %ld\n", tb_pattern_name(g->pattern),
                g->radix, g->period);
        fprintf(out, "      Fraction Connected: %f\n      Kernel:\n        Type: %s\n", g->fraction,
                tb_kernel_name(g->kernel));
        fprintf(out, "        Iterations: %ld\n        Samples: %ld\n        Imbalance: %f\n", g->iterations,
                g->samples, g->imbalance);
        fprintf(out, "      Output Bytes: %ld\n      Scratch Bytes: %ld\n", g->output_bytes, g->scratch_bytes);
        if (app->verbose)
            display_steps(g, app->verbose, out);
    }
}

/* Dependencies of one step, and with -nodes how many of them stay on the point's node. */
typedef struct step_deps {
    long long deps, local;
} step_deps;

static step_deps count_step(const tb_graph *g, long t, long nodes)
{
    step_deps r = {0, 0};
    const long off = tb_offset_at(g, t), w = tb_width_at(g, t), dset = tb_dset_at(g, t);
    const long lo = tb_offset_at(g, t - 1), hi = lo + tb_width_at(g, t - 1);
    for (long p = off; p < off + w; p++) {
        r.deps += tb_count_in(g, dset, p, 0, lo, hi);
        if (nodes > 0) { /* Task Bench's estimate: the points are cut into `nodes` even blocks */
            long node = p * nodes / g->width;
            long first = node * g->width / nodes, last = (node + 1) * g->width / nodes - 1;
            r.local += tb_count_in(g, dset, p, 0, tb_maxl(lo, first), tb_minl(hi, last + 1));
        }
    }
    return r;
}

/* The dependencies of a whole graph. Steps whose points and previous points are the full
 * width depend only on their edge set, so each set is counted once. */
static step_deps count_graph(const tb_graph *g, long nodes)
{
    step_deps total = {0, 0}, cache[64];
    char have[64] = {0};
    for (long t = 1; t < g->steps; t++) {
        const long dset = tb_dset_at(g, t);
        const int full = tb_width_at(g, t) == g->width && tb_width_at(g, t - 1) == g->width &&
                         tb_offset_at(g, t) == 0 && tb_offset_at(g, t - 1) == 0 && dset < 64;
        step_deps s;
        if (full && have[dset]) {
            s = cache[dset];
        } else {
            s = count_step(g, t, nodes);
            if (full) {
                cache[dset] = s;
                have[dset] = 1;
            }
        }
        total.deps += s.deps;
        total.local += s.local;
    }
    return total;
}

static long long graph_tasks(const tb_graph *g)
{
    if (g->pattern != TB_DOM && g->pattern != TB_TREE)
        return (long long)g->steps * g->width;
    long long n = 0;
    for (long t = 0; t < g->steps; t++)
        n += tb_width_at(g, t);
    return n;
}

static long long graph_flops(const tb_graph *g)
{
    if (g->kernel == TB_LOAD_IMBALANCE) { /* per task: each draws its own iterations */
        long long f = 0;
        for (long t = 0; t < g->steps; t++)
            for (long p = tb_offset_at(g, t); p < tb_offset_at(g, t) + tb_width_at(g, t); p++)
                f += tb_task_flops(g, t, p);
        return f;
    }
    return graph_tasks(g) * tb_task_flops(g, 0, 0);
}

long long tb_app_total_tasks(const tb_app *app)
{
    long long n = 0;
    for (int k = 0; k < app->ngraphs; k++)
        n += graph_tasks(&app->graphs[k]);
    return n;
}

long long tb_app_total_deps(const tb_app *app)
{
    long long n = 0;
    for (int k = 0; k < app->ngraphs; k++)
        n += count_graph(&app->graphs[k], 0).deps;
    return n;
}

void tb_app_report_timing(const tb_app *app, double elapsed, FILE *out)
{
    long long tasks = 0, deps = 0, local = 0, flops = 0, bytes = 0, local_bytes = 0, nonlocal_bytes = 0;
    for (int k = 0; k < app->ngraphs; k++) {
        const tb_graph *g = &app->graphs[k];
        step_deps d = count_graph(g, app->nodes);
        tasks += graph_tasks(g);
        deps += d.deps;
        local += d.local;
        flops += graph_flops(g);
        bytes += graph_tasks(g) * tb_task_bytes(g);
        local_bytes += d.local * g->output_bytes;
        nonlocal_bytes += (d.deps - d.local) * g->output_bytes;
    }
    fprintf(out, "Total Tasks %lld\n", tasks);
    fprintf(out, "Total Dependencies %lld\n", deps);
    if (app->nodes > 0) {
        fprintf(out, "  Local Dependencies %lld (estimated)\n", local);
        fprintf(out, "  Nonlocal Dependencies %lld (estimated)\n", deps - local);
        fprintf(out, "  Number of Nodes (used for estimate) %ld\n", app->nodes);
    } else {
        fprintf(out, "  Unable to estimate local/nonlocal dependencies\n");
    }
    fprintf(out, "Total FLOPs %lld\n", flops);
    fprintf(out, "Total Bytes %lld\n", bytes);
    fprintf(out, "Elapsed Time %e seconds\n", elapsed);
    fprintf(out, "FLOP/s %e\n", flops / elapsed);
    fprintf(out, "B/s %e\n", bytes / elapsed);
    fprintf(out, "Transfer (estimated):\n");
    if (app->nodes > 0) {
        fprintf(out, "  Local Bytes %lld\n  Nonlocal Bytes %lld\n", local_bytes, nonlocal_bytes);
        fprintf(out, "  Local Bandwidth %e B/s\n  Nonlocal Bandwidth %e B/s\n", local_bytes / elapsed,
                nonlocal_bytes / elapsed);
    } else {
        fprintf(out, "  Unable to estimate local/nonlocal transfer\n");
    }
}

long tb_graph_late_starts(const tb_graph *g, long *list)
{
    long n = 0;
    if (g->pattern != TB_DOM)
        return 0;
    for (long t = 1; t < g->steps; t++)
        for (long p = tb_offset_at(g, t); p < tb_offset_at(g, t) + tb_width_at(g, t); p++)
            if (tb_num_inputs(g, t, p) == 0) {
                if (list)
                    list[n] = t * g->width + p;
                n++;
            }
    return n;
}

long tb_graph_max_dependents(const tb_graph *g)
{
    long most; /* the most points one walk can name, by pattern (an upper bound) */
    switch (g->pattern) {
    case TB_TRIVIAL:
        most = 0;
        break;
    case TB_NO_COMM:
        most = 1;
        break;
    case TB_DOM:
    case TB_TREE:
        most = 2;
        break;
    case TB_STENCIL_1D:
    case TB_STENCIL_1D_PERIODIC:
    case TB_FFT:
        most = 3;
        break;
    case TB_NEAREST:
    case TB_SPREAD:
    case TB_RANDOM_NEAREST:
        most = g->radix;
        break;
    default:
        most = g->width;
    }
    return most < g->width ? most : g->width;
}

/* ---- checks after a run -------------------------------------------------------------------- */

void tb_fault_print(const tb_fault *f, const char *prog, FILE *out)
{
    switch (f->kind) {
    case TB_FAULT_INPUT:
        fprintf(out, "%s: FAIL: graph %ld step %ld point %ld: the input from point %ld of step %ld ", prog,
                f->graph + 1, f->step, f->point, f->dep, f->step - 1);
        if (f->got_step == -1 && f->got_point == -1)
            fprintf(out, "is missing (never written)\n");
        else
            fprintf(out, "is wrong: it holds the output of step %ld point %ld\n", f->got_step, f->got_point);
        break;
    case TB_FAULT_SCRATCH:
        fprintf(out, "%s: FAIL: graph %ld step %ld point %ld: the point's scratch memory was overwritten\n", prog,
                f->graph + 1, f->step, f->point);
        break;
    case TB_FAULT_OUTPUT:
        fprintf(out, "%s: FAIL: graph %ld step %ld point %ld: the last step's output ", prog, f->graph + 1, f->step,
                f->point);
        if (f->got_step == -1 && f->got_point == -1)
            fprintf(out, "is missing (never written)\n");
        else
            fprintf(out, "holds step %ld point %ld instead\n", f->got_step, f->got_point);
        break;
    case TB_FAULT_COUNT:
        fprintf(out, "%s: FAIL: graph %ld point %ld: %lld tasks ran, expected %lld\n", prog, f->graph + 1, f->point,
                f->got, f->expected);
        break;
    default:
        fprintf(out, "%s: FAIL: unknown fault %d\n", prog, f->kind);
    }
}

/* The steps at which point p exists. */
static long steps_of_point(const tb_graph *g, long p)
{
    if (g->pattern != TB_DOM && g->pattern != TB_TREE)
        return g->steps;
    long n = 0;
    for (long t = 0; t < g->steps; t++)
        n += tb_point_exists(g, t, p);
    return n;
}

long tb_check_after_run(const tb_graph *g, const long long *last, long slot_words, const unsigned long long *ran,
                        long long runs, long lo, long hi, const char *prog, FILE *out)
{
    const long t = g->steps - 1, records = g->output_bytes / TB_RECORD_BYTES;
    long bad = 0;
    for (long p = lo; p < hi; p++) {
        tb_fault f;
        memset(&f, 0, sizeof f);
        f.graph = g->graph_index;
        f.point = p;
        if (tb_point_exists(g, t, p)) {
            const long long *o = last + p * slot_words;
            for (long r = 0; r < records; r++)
                if (o[2 * r] != t || o[2 * r + 1] != p) {
                    f.kind = TB_FAULT_OUTPUT;
                    f.step = t;
                    f.got_step = (long)o[2 * r];
                    f.got_point = (long)o[2 * r + 1];
                    break;
                }
            if (f.kind && bad++ < 5)
                tb_fault_print(&f, prog, out);
        }
        if (ran && (long long)ran[p] != runs * steps_of_point(g, p)) {
            f.kind = TB_FAULT_COUNT;
            f.expected = runs * steps_of_point(g, p);
            f.got = (long long)ran[p];
            if (bad++ < 5)
                tb_fault_print(&f, prog, out);
        }
    }
    return bad;
}
