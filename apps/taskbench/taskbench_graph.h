/* taskbench_graph.h - Task Bench's task-graph model (Slaughter et al., SC'20), shared by the
 * GPU program (device and host code), its CPU reference-executor builds and the OpenMP,
 * sequential and MPI baselines: which points exist at each time step, which points of the
 * previous step each one depends on (and the reverse), per-task FLOP and byte counts, and the
 * command-line state of a run (parsed and checked in taskbench_graph.c).
 *
 * The model, as Task Bench defines it: a graph is `steps` x `width` points; step t holds the
 * points [offset(t), offset(t) + width(t)) (all of them except for `tree` and `dom`); point p
 * of step t depends on the points of step t - 1 that its pattern names for the step's
 * "dependence set" (fft and the periodic patterns change their edges from step to step), kept
 * only where they exist at t - 1. Dependencies come as spans [first, last] in a fixed order.
 * The reverse relation (who in step t + 1 depends on p) mirrors it exactly; taskbench_graph.c
 * checks that for every graph before a run.
 *
 * Every function below is pure and compiles as C, as the host target's C++ and as CUDA device
 * code; any thread may call it.
 */
#ifndef TASKBENCH_GRAPH_H
#define TASKBENCH_GRAPH_H

#include "app_qualifiers.h"

#include <stdint.h>

#define TB_HD static __host__ __device__ __forceinline__

#define TB_MAX_GRAPHS 64  /* graphs of one run (-and) */
#define TB_RECORD_BYTES 16 /* one output record: the producer's (step, point) as two int64 */

/* Dependence patterns (Task Bench's -type names in tb_pattern_name). */
typedef enum tb_pattern {
    TB_TRIVIAL = 1,
    TB_NO_COMM,
    TB_STENCIL_1D,
    TB_STENCIL_1D_PERIODIC,
    TB_DOM,
    TB_TREE,
    TB_FFT,
    TB_ALL_TO_ALL,
    TB_NEAREST,
    TB_SPREAD,
    TB_RANDOM_NEAREST
} tb_pattern;

/* Kernels (Task Bench's -kernel names in tb_kernel_name). */
typedef enum tb_kernel_kind {
    TB_EMPTY = 1,
    TB_BUSY_WAIT,
    TB_COMPUTE_BOUND,
    TB_MEMORY_BOUND,
    TB_LOAD_IMBALANCE
} tb_kernel_kind;

/* One task graph: Task Bench's parameters of one -and group. */
typedef struct tb_graph {
    long graph_index;    /* position in the run (0 ..), part of the random hashes */
    long steps, width;   /* -steps (time steps), -width (max width) */
    int pattern;         /* tb_pattern (-type) */
    int kernel;          /* tb_kernel_kind (-kernel) */
    long radix;          /* -radix: nearest, spread, random_nearest */
    long period;         /* -period: spread, random_nearest (0 for the others) */
    double fraction;     /* -fraction: random_nearest's probability of an edge */
    long iterations;     /* -iter */
    long samples;        /* -sample: memory_bound's scratch is cut into this many samples */
    double imbalance;    /* -imbalance: load_imbalance's spread of iterations, in [0, 2] */
    long output_bytes;   /* -output: bytes each task writes (records of TB_RECORD_BYTES) */
    long scratch_bytes;  /* -scratch: bytes of scratch memory per point */
    uint64_t seed;       /* -seed (ours): varies random_nearest's edges and load_imbalance */
} tb_graph;

/* A run of dependencies [first, last] (inclusive, as Task Bench's intervals). */
typedef struct tb_span {
    long first, last;
} tb_span;

/* A walk over the dependency spans of one point (tb_deps_init / tb_deps_next). */
typedef struct tb_deps {
    const tb_graph *g;
    long dset, point;
    int reverse; /* 0: the points p depends on; 1: the points that depend on p */
    long i, end; /* cursor: its meaning depends on the pattern */
} tb_deps;

/* ---- points of a step ------------------------------------------------------------------ */

/* The first point of step t (0 before the graph starts). */
TB_HD long tb_offset_at(const tb_graph *g, long t)
{
    if (t < 0)
        return 0;
    if (g->pattern == TB_DOM) {
        long o = t + g->width - g->steps;
        return o > 0 ? o : 0;
    }
    return 0;
}

/* The number of points of step t (0 before the graph starts). */
TB_HD long tb_width_at(const tb_graph *g, long t)
{
    if (t < 0)
        return 0;
    if (g->pattern == TB_DOM) {
        long w = t + 1 < g->steps - t ? t + 1 : g->steps - t;
        return w < g->width ? w : g->width;
    }
    if (g->pattern == TB_TREE) {
        long e = t < 62 ? t : 62;
        long w = 1l << e;
        return w < g->width ? w : g->width;
    }
    return g->width;
}

/* Whether point p exists at step t. */
TB_HD int tb_point_exists(const tb_graph *g, long t, long p)
{
    long o = tb_offset_at(g, t);
    return t >= 0 && t < g->steps && p >= o && p < o + tb_width_at(g, t);
}

/* ---- dependence sets ------------------------------------------------------------------- */

/* ceil(log2(w)) for w >= 1 (exact, in integers). */
TB_HD long tb_ceil_log2(long w)
{
    long k = 0;
    while (k < 62 && (1l << k) < w)
        k++;
    return k;
}

/* How many different edge sets the pattern cycles through: fft one per butterfly level
 * (at least one, so a graph of width 1 is defined), spread and random_nearest -period. */
TB_HD long tb_dsets(const tb_graph *g)
{
    switch (g->pattern) {
    case TB_FFT: {
        long n = tb_ceil_log2(g->width);
        return n > 0 ? n : 1;
    }
    case TB_SPREAD:
    case TB_RANDOM_NEAREST:
        return g->period;
    default:
        return 1;
    }
}

/* The edge set step t uses. fft starts at its last level, so step 1 uses level 0. */
TB_HD long tb_dset_at(const tb_graph *g, long t)
{
    long n = tb_dsets(g);
    if (g->pattern == TB_FFT)
        return (t + n - 1) % n;
    if (g->pattern == TB_SPREAD || g->pattern == TB_RANDOM_NEAREST)
        return t % n;
    return 0;
}

/* Whether any point has a dependency at all. If so, every point of a step t >= 1 has at least
 * one in step t - 1 (each pattern keeps the point itself, its parent, or a neighbour that
 * exists), except for `dom` where the band widens by two points a step (steps < 2 x width):
 * its new last point has none (tb_graph_late_starts lists them). */
TB_HD int tb_has_deps(const tb_graph *g)
{
    if (g->pattern == TB_TRIVIAL)
        return 0;
    if (g->pattern == TB_NEAREST || g->pattern == TB_SPREAD || g->pattern == TB_RANDOM_NEAREST)
        return g->radix > 0;
    return 1;
}

/* ---- deterministic hashing --------------------------------------------------------------- */

/* A 64-bit finalizer (the splitmix64 constants): every input bit affects every output bit. */
TB_HD uint64_t tb_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* A uniform double in [0, 1) from the seed and five words; the same bits on every target. */
TB_HD double tb_uniform5(uint64_t seed, long a, long b, long c, long d, long e)
{
    uint64_t h = tb_mix64(seed + 0x9e3779b97f4a7c15ull);
    h = tb_mix64(h ^ (uint64_t)a);
    h = tb_mix64(h + (uint64_t)b);
    h = tb_mix64(h ^ (uint64_t)c);
    h = tb_mix64(h + (uint64_t)d);
    h = tb_mix64(h ^ (uint64_t)e);
    return (double)(h >> 11) * (1.0 / 9007199254740992.0); /* 53 bits / 2^53 */
}

/* random_nearest: whether `consumer` depends on `dep` in edge set dset. One draw per
 * (dep, consumer) pair serves both directions, so the reverse walk mirrors the forward one. */
TB_HD int tb_random_edge(const tb_graph *g, long dset, long dep, long consumer)
{
    if (dep == consumer)
        return 1; /* a point always keeps its own value */
    return tb_uniform5(g->seed, g->graph_index, g->radix, dset, dep, consumer) < g->fraction;
}

/* ---- dependency walks -------------------------------------------------------------------- */

TB_HD long tb_maxl(long a, long b) { return a > b ? a : b; }
TB_HD long tb_minl(long a, long b) { return a < b ? a : b; }

/* Starts a walk over the dependencies (reverse = 0) or the dependents (reverse = 1) of point
 * `point` in edge set `dset`, over the full width (callers clip to the points that exist). */
TB_HD void tb_deps_init(tb_deps *it, const tb_graph *g, long dset, long point, int reverse)
{
    it->g = g;
    it->dset = dset;
    it->point = point;
    it->reverse = reverse;
    it->i = 0;
    it->end = 0;
    if (g->pattern == TB_RANDOM_NEAREST && g->radix > 0) {
        /* candidates: radix points around p; the reverse window is the mirror image */
        long below = reverse ? (g->radix - 1) / 2 : g->radix / 2;
        long above = reverse ? g->radix / 2 : (g->radix - 1) / 2;
        it->i = tb_maxl(0, point - below);
        it->end = tb_minl(point + above, g->width - 1);
    }
}

/* The next span of the walk into *s; returns 0 when there is none left. */
TB_HD int tb_deps_next(tb_deps *it, tb_span *s)
{
    const tb_graph *g = it->g;
    const long p = it->point, w = g->width;
    switch (g->pattern) {
    case TB_TRIVIAL:
        return 0;
    case TB_NO_COMM:
    case TB_ALL_TO_ALL:
    case TB_STENCIL_1D:
    case TB_DOM:
    case TB_NEAREST:
        if (it->i++ > 0)
            return 0;
        if (g->pattern == TB_NO_COMM) {
            s->first = s->last = p;
        } else if (g->pattern == TB_ALL_TO_ALL) {
            s->first = 0;
            s->last = w - 1;
        } else if (g->pattern == TB_STENCIL_1D) {
            s->first = tb_maxl(0, p - 1);
            s->last = tb_minl(p + 1, w - 1);
        } else if (g->pattern == TB_DOM) { /* p - 1 and p; reverse: p and p + 1 */
            s->first = it->reverse ? p : tb_maxl(0, p - 1);
            s->last = it->reverse ? tb_minl(w - 1, p + 1) : p;
        } else { /* nearest: radix points, more of them below p (reverse: above) */
            if (g->radix <= 0)
                return 0;
            long below = it->reverse ? (g->radix - 1) / 2 : g->radix / 2;
            long above = it->reverse ? g->radix / 2 : (g->radix - 1) / 2;
            s->first = tb_maxl(0, p - below);
            s->last = tb_minl(p + above, w - 1);
        }
        return 1;
    case TB_STENCIL_1D_PERIODIC: /* the neighbours, then the wrapped-around ones */
        for (;;) {
            long k = it->i++;
            if (k == 0) {
                s->first = tb_maxl(0, p - 1);
                s->last = tb_minl(p + 1, w - 1);
                return 1;
            }
            if (k == 1 && p - 1 < 0) {
                s->first = s->last = w - 1;
                return 1;
            }
            if (k == 2 && p + 1 >= w) {
                s->first = s->last = 0;
                return 1;
            }
            if (k >= 2)
                return 0;
        }
    case TB_TREE:
        if (it->i++ > 0)
            return 0;
        if (!it->reverse) {
            s->first = s->last = p / 2; /* the parent */
            return 1;
        }
        if (2 * p >= w) /* a leaf of the previous level's tree */
            return 0;
        s->first = 2 * p;
        s->last = tb_minl(2 * p + 1, w - 1);
        return 1;
    case TB_FFT: /* the butterfly partners at distance 2^dset, and p itself */
        for (;;) {
            long k = it->i++, d = 1l << it->dset;
            if (k == 0 && p - d >= 0) {
                s->first = s->last = p - d;
                return 1;
            }
            if (k == 1) {
                s->first = s->last = p;
                return 1;
            }
            if (k == 2 && p + d < w) {
                s->first = s->last = p + d;
                return 1;
            }
            if (k >= 2)
                return 0;
        }
    case TB_SPREAD: { /* radix points spread over the width, shifted by dset after the first */
        if (it->i >= g->radix)
            return 0;
        long k = it->i++;
        long shift = k * w / g->radix + (k > 0 ? it->dset : 0);
        long q = it->reverse ? (p - shift) % w : (p + shift) % w;
        if (q < 0)
            q += w;
        s->first = s->last = q;
        return 1;
    }
    case TB_RANDOM_NEAREST: { /* the next run of kept candidates */
        if (g->radix <= 0)
            return 0;
        while (it->i <= it->end) {
            long c = it->i;
            int kept = it->reverse ? tb_random_edge(g, it->dset, p, c) : tb_random_edge(g, it->dset, c, p);
            if (!kept) {
                it->i++;
                continue;
            }
            s->first = c;
            while (it->i + 1 <= it->end &&
                   (it->reverse ? tb_random_edge(g, it->dset, p, it->i + 1)
                                : tb_random_edge(g, it->dset, it->i + 1, p)))
                it->i++;
            s->last = it->i++;
            return 1;
        }
        return 0;
    }
    default:
        return 0;
    }
}

/* The number of dependencies (reverse: dependents) of point p in edge set dset that lie in
 * [lo, hi). */
TB_HD long tb_count_in(const tb_graph *g, long dset, long p, int reverse, long lo, long hi)
{
    tb_deps it;
    tb_span s;
    long n = 0;
    tb_deps_init(&it, g, dset, p, reverse);
    while (tb_deps_next(&it, &s)) {
        long a = tb_maxl(s.first, lo), b = tb_minl(s.last, hi - 1);
        if (b >= a)
            n += b - a + 1;
    }
    return n;
}

/* The inputs of task (t, p): its dependencies that exist at step t - 1. */
TB_HD long tb_num_inputs(const tb_graph *g, long t, long p)
{
    long lo = tb_offset_at(g, t - 1);
    return tb_count_in(g, tb_dset_at(g, t), p, 0, lo, lo + tb_width_at(g, t - 1));
}

/* ---- work per task ----------------------------------------------------------------------- */

/* load_imbalance: the iterations of task (t, p), uniformly in iter x [1 - imb/2, 1 + imb/2]
 * (rounded to nearest), a fixed draw per task. */
TB_HD long tb_imbalance_iterations(const tb_graph *g, long t, long p)
{
    double u = tb_uniform5(g->seed ^ 0x5bd1e995ull, g->graph_index, t, p, 0, 1);
    double x = (1.0 + (u - 0.5) * g->imbalance) * (double)g->iterations + 0.5;
    return x > 0 ? (long)x : 0;
}

/* The iterations task (t, p) runs. */
TB_HD long tb_task_iterations(const tb_graph *g, long t, long p)
{
    return g->kernel == TB_LOAD_IMBALANCE ? tb_imbalance_iterations(g, t, p) : g->iterations;
}

/* Task Bench's FLOP count of one task: compute_bound and load_imbalance do 64 FMAs an
 * iteration (2 FLOPs each) plus 64 for the final reduction of Task Bench's kernel. */
TB_HD long long tb_task_flops(const tb_graph *g, long t, long p)
{
    if (g->kernel == TB_COMPUTE_BOUND || g->kernel == TB_LOAD_IMBALANCE)
        return 2ll * 64 * tb_task_iterations(g, t, p) + 64;
    return 0;
}

/* Task Bench's byte count of one task: memory_bound moves one sample (half read, half
 * written) an iteration. */
TB_HD long long tb_task_bytes(const tb_graph *g)
{
    if (g->kernel == TB_MEMORY_BOUND)
        return (long long)g->scratch_bytes * g->iterations / g->samples;
    return 0;
}

/* ---- dataflow starts ----------------------------------------------------------------------- */

/* The tasks a dataflow run spawns before any completes: step 0, or every task of a graph
 * without dependencies (whose steps are then all full width); plus the later tasks without
 * inputs of a `dom` graph (tb_graph_late_starts). */
TB_HD long tb_start_count(const tb_graph *g)
{
    return tb_has_deps(g) ? tb_width_at(g, 0) : g->steps * g->width;
}

/* The k-th start task of tb_start_count's list. */
TB_HD void tb_start_task(const tb_graph *g, long k, long *t_p, long *point_p)
{
    if (tb_has_deps(g)) {
        *t_p = 0;
        *point_p = tb_offset_at(g, 0) + k;
    } else {
        *t_p = k / g->width;
        *point_p = k % g->width;
    }
}

/* ---- the run (taskbench_graph.c) ----------------------------------------------------------- */

#include <stdio.h>

enum { TB_MAP_DATAFLOW = 1, TB_MAP_FORKJOIN = 2 };

/* What a program accepts beyond Task Bench's flags (tb_app_parse's `accepts`). */
enum {
    TB_ACCEPT_MAPPING = 1, /* --mapping forkjoin|dataflow */
    TB_ACCEPT_FANOUT = 2,  /* --fanout N (the GPU fork-join mapping) */
    TB_ACCEPT_GPU = 4,     /* --grid, --block, --queues, --max-tasks mean something */
    TB_ACCEPT_FORKJOIN_ONLY = 8 /* with TB_ACCEPT_MAPPING: forkjoin is the default and the only
                                   mapping (the distributed program); --mapping dataflow is refused */
};

/* A whole run: the graphs and the options around them. */
typedef struct tb_app {
    const char *prog; /* for messages */
    int ngraphs;
    tb_graph graphs[TB_MAX_GRAPHS];
    long nodes;       /* -nodes: estimate local / nonlocal dependencies for this many nodes */
    int verbose;      /* -v, -vv: print the points and dependencies of every step */
    int validate;     /* 0 with -skip-graph-validation */
    int mapping;      /* TB_MAP_* */
    long fanout;      /* --fanout: fork-join leaves spawn at most this many point tasks (0: default) */
    long fault_step, fault_point; /* --inject-fault T,P: graph 0's task (T, P) writes nothing; -1 */
} tb_app;

/* What went wrong in one task (the first of its inputs that was wrong). */
typedef enum tb_fault_kind {
    TB_FAULT_NONE = 0,
    TB_FAULT_INPUT = 1,   /* an input held another task's output, or none */
    TB_FAULT_SCRATCH = 2, /* the point's scratch memory lost its fill pattern */
    TB_FAULT_OUTPUT = 3,  /* after the run: a last-step output was not the task's */
    TB_FAULT_COUNT = 4    /* after the run: a point ran a wrong number of tasks */
} tb_fault_kind;

typedef struct tb_fault {
    int kind;           /* tb_fault_kind */
    long graph, step, point;
    long dep;           /* TB_FAULT_INPUT: the input's point (of step - 1) */
    long got_step, got_point; /* what the input or output held (-1, -1: never written) */
    long long expected, got;  /* TB_FAULT_COUNT: tasks expected and run at the point */
} tb_fault;

#ifdef __cplusplus
extern "C" {
#endif

/* Parses Task Bench's flags (-steps, -width, -type, ..., -and) and hands our --options to
 * app_cli_parse (cli must be app_cli_init'ed; `cli` is an app_cli *, declared void * so that
 * this header does not need app_cli.h). `accepts`: TB_ACCEPT_* bits. Checks every graph.
 * Returns 0; 2 after a one-line error (bad input); -1 after printing help or the CSV header
 * (the caller exits 0). */
int tb_app_parse(tb_app *app, void *cli, int argc, char **argv, unsigned accepts);

const char *tb_pattern_name(int pattern);
const char *tb_kernel_name(int kernel);
const char *tb_mapping_name(int mapping);

/* Task Bench's configuration block ("Running Task Benchmark", ...; with -v the points and
 * dependencies of every step). */
void tb_app_display(const tb_app *app, FILE *out);

/* Task Bench's summary ("Total Tasks N", ..., "Elapsed Time X seconds", "FLOP/s X",
 * "B/s X"), in its format. */
void tb_app_report_timing(const tb_app *app, double elapsed_seconds, FILE *out);

long long tb_app_total_tasks(const tb_app *app);
long long tb_app_total_deps(const tb_app *app);

/* The tasks of steps t >= 1 that have no input (only `dom` has such), as t * width + p into
 * list[] (when not NULL); returns how many there are. */
long tb_graph_late_starts(const tb_graph *g, long *list);

/* At least the most dependents one task of g has in the next step (sizes the GPU's deques). */
long tb_graph_max_dependents(const tb_graph *g);

/* Prints one fault as a one-line FAIL message naming the graph, step, point and input. */
void tb_fault_print(const tb_fault *f, const char *prog, FILE *out);

/* After a run: the outputs of g's last step (`last`: the storage field of step steps - 1,
 * `slot_words` int64 per point) and the tasks each point ran (`ran`, over `runs` runs; NULL to
 * skip), for the points [lo, hi). Prints up to 5 faults; returns how many there were. */
long tb_check_after_run(const tb_graph *g, const long long *last, long slot_words, const unsigned long long *ran,
                        long long runs, long lo, long hi, const char *prog, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* TASKBENCH_GRAPH_H */
