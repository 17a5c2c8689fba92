/* kclique_cpu.c - CPU baselines of k-clique counting: the same oriented graph, counters and
 * answer as the GPU programs (kclique_sct.h).
 * Sequential: every root in turn, one subgraph and one stack.
 * OpenMP (-fopenmp): the roots as the GPU's thread-level program splits them - a range of
 * roots estimated above --chunk is halved into two tasks, a range at or under it is counted
 * by the task's thread in turn, and a root with --split or more out-neighbours gets its own
 * subgraph and one task per branch of its tree's root node (one level: the GPU programs go
 * down to --split-depth). Counts are summed through the tasks' shared results.
 * --check: the OpenMP build compares with the sequential pivot count; the sequential build with
 * the pivot count of the graph oriented the other way (kc_cpu_check).
 */
#include <stdlib.h>

#include "app_cpu.h"
#include "kclique_common.h"

typedef struct kc_cpu {
    kc_problem pb;
    int threads;         /* scratch sets: one per OpenMP thread */
    size_t adj_words, stack_words;
    kc_word *adj, *stack; /* per thread: a subgraph, a stack */
    uint32_t *state;      /* per thread: the stack's level states */
    unsigned long long count;
    int error;
} kc_cpu;

static int kc_thread(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* The roots [lo, hi) in turn, in the calling thread's scratch. */
static unsigned long long kc_cpu_roots(kc_cpu *x, int lo, int hi)
{
    const int t = kc_thread();
    kc_word *adj = x->adj + (size_t)t * x->adj_words, *stack = x->stack + (size_t)t * x->stack_words;
    uint32_t *state = x->state + (size_t)t * x->pb.levels;
    unsigned long long sum = 0;
    int error = 0;
    for (int v = lo; v < hi; v++)
        sum = kc_sat_add(sum, kc_root_count(&x->pb, x->pb.o.algo, v, adj, stack, state, &error));
    if (error) {
#pragma omp atomic write
        x->error = 1;
    }
    return sum;
}

#ifdef _OPENMP
/* Root v (out-degree d >= --split) with its own subgraph, a task per branch of its tree's
 * root node. The subgraph, the root node and the results live on the heap: the tasks read
 * them in other threads while this one waits. */
static unsigned long long kc_cpu_split_root(kc_cpu *x, int v, int d)
{
    const kc_problem *pb = &x->pb;
    const int W = kc_words(d);
    kc_word *adj = (kc_word *)malloc(((size_t)d * W + 2 * (size_t)W) * sizeof *adj);
    if (!adj)
        return kc_cpu_roots(x, v, v + 1);
    kc_word *C = adj + (size_t)d * W, *R = C + W;
    kc_build(pb->g.row, pb->g.col, v, adj);
    kc_sct s = kc_sct_make(pb->g.row, v, pb->o.k, pb->o.algo, pb->binom, adj, NULL, NULL, pb->levels);
    kc_node nd;
    kc_replay(&s, 0ull, 0, C, R, &nd);
    const int t = kc_branches(&s, C, R, &nd);
    unsigned long long *part = (unsigned long long *)calloc((size_t)t + 1, sizeof *part);
    if (!part) {
        free(adj);
        return kc_cpu_roots(x, v, v + 1);
    }
    for (int b = 0; b < t; b++) {
#pragma omp task firstprivate(b) shared(s, C, R, nd, part)
        {
            /* a task without scheduling points: the thread's scratch is its own until it ends */
            const int th = kc_thread();
            kc_sct mine = s;
            mine.stack = x->stack + (size_t)th * x->stack_words;
            mine.state = x->state + (size_t)th * pb->levels;
            part[b] = kc_count_branch(&mine, C, R, &nd, b);
            if (mine.error) {
#pragma omp atomic write
                x->error = 1;
            }
        }
    }
#pragma omp taskwait
    unsigned long long sum = 0;
    for (int b = 0; b < t; b++)
        sum = kc_sat_add(sum, part[b]);
    free(part);
    free(adj);
    return sum;
}
#endif

static unsigned long long kc_cpu_range(kc_cpu *x, int lo, int hi)
{
    const kc_problem *pb = &x->pb;
    if (hi - lo >= 2 && pb->work[hi] - pb->work[lo] > (unsigned long long)pb->o.chunk) {
        const int mid = kc_range_mid(pb->work, lo, hi);
        unsigned long long left, right;
#pragma omp task shared(left)
        left = kc_cpu_range(x, lo, mid);
#pragma omp task shared(right)
        right = kc_cpu_range(x, mid, hi);
#pragma omp taskwait
        return kc_sat_add(left, right);
    }
#ifdef _OPENMP
    const int d = hi - lo == 1 ? pb->g.row[lo + 1] - pb->g.row[lo] : 0;
    if (hi - lo == 1 && d >= pb->o.split && d >= pb->o.k - 1)
        return kc_cpu_split_root(x, lo, d);
#endif
    return kc_cpu_roots(x, lo, hi);
}

static void reset(void *p, int run)
{
    kc_cpu *x = (kc_cpu *)p;
    (void)run;
    x->count = 0;
    x->error = 0;
}

static void body(void *p)
{
    kc_cpu *x = (kc_cpu *)p;
    x->count = kc_cpu_range(x, 0, x->pb.g.n); /* sequential: a plain recursion */
}

/* The check. OpenMP: the sequential pivot count. Sequential: the pivot count on the graph
 * oriented the other way (degree order for degen and back: other subgraphs, other trees), or,
 * when that orientation passes the out-degree limit, the listing count (slow with many
 * cliques). Returns 0 with *check set, or 1 after a failure to set the reference up. */
static int kc_cpu_check(const app_cli *c, const kc_problem *pb, unsigned long long count, app_check_t *check)
{
    unsigned long long want;
#ifndef _OPENMP
    kc_options o = pb->o;
    kc_problem other;
    app_csr arcs; /* the oriented graph as input: kc_problem_init makes it undirected again */
    memset(&arcs, 0, sizeof arcs);
    arcs.nrows = arcs.ncols = pb->g.n;
    arcs.nnz = pb->g.m;
    arcs.row = pb->g.row;
    arcs.col = pb->g.col;
    o.order = o.order == KC_ORDER_DEGEN ? KC_ORDER_DEGREE : KC_ORDER_DEGEN;
    if (kc_problem_init(&other, &o, &arcs, c->app) == 0) {
        const int rc = kc_reference(c, &other, KC_ALGO_PIVOT, &want);
        kc_problem_free(&other);
        if (rc)
            return 1;
        *check = kc_check(c, count, want, o.order == KC_ORDER_DEGEN ? "the pivot count in degeneracy order"
                                                                     : "the pivot count in degree order");
        return 0;
    }
    kc_problem_free(&other);
    fprintf(c->out, "the other order is over the out-degree limit: checking against the listing count\n");
    if (kc_reference(c, pb, KC_ALGO_ORIENT, &want))
        return 1;
    *check = kc_check(c, count, want, "the sequential listing count");
    return 0;
#else
    if (kc_reference(c, pb, KC_ALGO_PIVOT, &want))
        return 1;
    *check = kc_check(c, count, want, "the sequential pivot count");
    return 0;
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    static kc_cpu x;
    app_cli c;
    kc_options o;
    app_cli_init(&c, "kclique", APP_CPU_IMPL, KC_DEFAULT_N);
    static const char *const keys[] = {KC_OPTION_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, KC_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (kc_options_read(&c, &o, 0))
        return 2;
    if (kc_problem_load(&c, &x.pb, &o))
        return 1;
    app_cpu_init(&c);
    app_param(&c, "split=%d;split_depth=1;chunk=%lld", o.split, o.chunk);
    x.threads = c.workers > 0 ? c.workers : 1;
    x.adj_words = kc_adj_words(&x.pb) + 1;
    x.stack_words = kc_stack_words(&x.pb) + 1;
    x.adj = (kc_word *)malloc((size_t)x.threads * x.adj_words * sizeof *x.adj);
    x.stack = (kc_word *)malloc((size_t)x.threads * x.stack_words * sizeof *x.stack);
    x.state = (uint32_t *)malloc((size_t)x.threads * x.pb.levels * sizeof *x.state);
    if (!x.adj || !x.stack || !x.state) {
        fprintf(stderr, "kclique: out of memory for %d threads' scratch\n", x.threads);
        return 1;
    }
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    if (x.error) {
        fprintf(stderr, "kclique: a counter ran out of stack levels (a bug)\n");
        return 1;
    }
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check && kc_cpu_check(&c, &x.pb, x.count, &check))
        return 1;
    char answer[96];
    kc_answer(answer, sizeof answer, o.k, x.count);
    free(x.adj), free(x.stack), free(x.state);
    kc_problem_free(&x.pb);
    return app_report(&c, &stats, check, answer);
}
