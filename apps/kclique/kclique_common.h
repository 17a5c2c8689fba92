/* kclique_common.h - what the k-clique programs (GPU thread and block level, their host-target
 * builds, the C baselines) share besides the counting core: the command-line options and
 * their checks, the problem (the oriented graph, the binomial table, the work estimates),
 * the CPU reference count and the answer line (host code, C11 and C++; header-only).
 */
#ifndef KCLIQUE_COMMON_H
#define KCLIQUE_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_cli.h"
#include "app_graph.h"
#include "kclique_graph.h"
#include "kclique_sct.h"

#define KC_DEFAULT_N (1 << 14)
#define KC_DEFAULT_K 5
#define KC_DEFAULT_SPLIT 32
#define KC_DEFAULT_SPLIT_DEPTH 3
#define KC_SLOTS_AUTO (-1)           /* --slots default: a slot per worker, at most 1 GiB of them */
#define KC_AUTO_SLOT_BYTES (1ull << 30)
#define KC_MAX_SLOTS (1 << 20)

typedef struct kc_options {
    int k;
    kc_algo algo;
    kc_order order;
    int split;       /* --split S: a root or tree node with S or more candidates is split */
    int split_depth; /* --split-depth D: tree levels below a root that may become tasks */
    long long chunk; /* --chunk W: a range of roots or branches estimated above W is halved */
    int slots;       /* --slots N: subgraphs that split roots may hold at once (GPU; KC_SLOTS_AUTO) */
} kc_options;

/* The option names of every program (the GPU ones add "slots"). */
#define KC_OPTION_KEYS APP_GRAPH_KEYS, "k", "algo", "order", "split", "split-depth", "chunk"
#define KC_USAGE                                                                                   \
    "--k K (3..64, default 5) [--algo pivot|orient (default pivot)] [--order degen|degree\n"       \
    "       (default degen)] [--split S (default 32)] [--split-depth D (0..6, default 3)]\n"        \
    "       [--chunk W (default S^2)] " APP_GRAPH_USAGE "\n"                                        \
    "       --n is the R-MAT's vertex count (default 2^14)"
#define KC_SLOTS_USAGE                                                                             \
    "\n       [--slots N (subgraphs of split roots held at once; default: one per worker, at most 1 GiB)]"

/* Reads and checks the options (has_slots: the program takes --slots). Returns 0, or 2 after
 * printing one line naming the option and its value (malformed numbers exit 2 in app_opt_ll
 * with such a line too). */
static inline int kc_options_read(const app_cli *c, kc_options *o, int has_slots)
{
    const long long k = app_opt_ll(c, "k", KC_DEFAULT_K), split = app_opt_ll(c, "split", KC_DEFAULT_SPLIT);
    const long long depth = app_opt_ll(c, "split-depth", KC_DEFAULT_SPLIT_DEPTH);
    const long long slots = has_slots ? app_opt_ll(c, "slots", KC_SLOTS_AUTO) : 0;
    const long long ef = app_opt_ll(c, "edge-factor", 16), seed = app_opt_ll(c, "seed", 1);
    const char *algo = app_opt_str(c, "algo", "pivot"), *order = app_opt_str(c, "order", "degen");
    const char *input = app_opt_str(c, "input", NULL), *graph = app_opt_str(c, "graph", "rmat");
    if (k < KC_MIN_K || k > KC_MAX_K) {
        fprintf(stderr, "%s: --k %lld: k must be in [%d, %d]\n", c->app, k, KC_MIN_K, KC_MAX_K);
        return 2;
    }
    if (strcmp(algo, "pivot") && strcmp(algo, "orient")) {
        fprintf(stderr, "%s: --algo %s: the algorithm must be pivot or orient\n", c->app, algo);
        return 2;
    }
    if (strcmp(order, "degen") && strcmp(order, "degree")) {
        fprintf(stderr, "%s: --order %s: the order must be degen or degree\n", c->app, order);
        return 2;
    }
    if (split < 1 || split > KC_MAX_OUT_DEGREE + 1) {
        fprintf(stderr, "%s: --split %lld: the split size must be in [1, %d]\n", c->app, split, KC_MAX_OUT_DEGREE + 1);
        return 2;
    }
    if (depth < 0 || depth > KC_MAX_SPLIT_DEPTH) {
        fprintf(stderr, "%s: --split-depth %lld: the split depth must be in [0, %d]\n", c->app, depth,
                KC_MAX_SPLIT_DEPTH);
        return 2;
    }
    const long long chunk = app_opt_ll(c, "chunk", split * split);
    if (chunk < 1) {
        fprintf(stderr, "%s: --chunk %lld: the chunk work must be positive\n", c->app, chunk);
        return 2;
    }
    if ((slots < 0 && slots != KC_SLOTS_AUTO) || slots > KC_MAX_SLOTS) {
        fprintf(stderr, "%s: --slots %lld: the slots must be in [0, %d]\n", c->app, slots, KC_MAX_SLOTS);
        return 2;
    }
    if (input) {
        FILE *f = fopen(input, "rb");
        if (!f) {
            fprintf(stderr, "%s: --input %s: cannot open the file (%s)\n", c->app, input, strerror(errno));
            return 2;
        }
        fclose(f);
    } else if (strcmp(graph, "rmat") && strcmp(graph, "grid")) {
        fprintf(stderr, "%s: --graph %s: the generator must be rmat or grid\n", c->app, graph);
        return 2;
    } else if (c->n < 1 || c->n > (1ll << 30)) {
        fprintf(stderr, "%s: --n %lld: the vertex count must be in [1, 2^30]\n", c->app, c->n);
        return 2;
    }
    if (ef < 1 || ef > 1024) {
        fprintf(stderr, "%s: --edge-factor %lld: the edge factor must be in [1, 1024]\n", c->app, ef);
        return 2;
    }
    if (seed < 0) {
        fprintf(stderr, "%s: --seed %lld: the seed must not be negative\n", c->app, seed);
        return 2;
    }
    o->k = (int)k;
    o->algo = strcmp(algo, "pivot") ? KC_ALGO_ORIENT : KC_ALGO_PIVOT;
    o->order = strcmp(order, "degen") ? KC_ORDER_DEGREE : KC_ORDER_DEGEN;
    o->split = (int)split;
    o->split_depth = (int)depth;
    o->chunk = chunk;
    o->slots = (int)slots;
    return 0;
}

/* A loaded problem: the oriented graph and the tables the counters read. */
typedef struct kc_problem {
    kc_options o;
    kc_graph g;
    unsigned long long *binom; /* (g.max_out + 1) x (k + 1): C(p, r), saturated */
    unsigned long long *work;  /* n + 1: prefix sums of each root's estimated work */
    int levels;                /* stack levels a counter needs */
} kc_problem;

static inline void kc_problem_free(kc_problem *pb)
{
    kc_graph_free(&pb->g);
    free(pb->binom);
    free(pb->work);
    pb->binom = pb->work = NULL;
}

/* A root's estimated work: its subgraph's d^2 bits when it can hold a k-clique, plus one for
 * looking at it (so that ranges of hopeless roots are split too, into chunks). */
static inline unsigned long long kc_root_work(int d, int k)
{
    return 1ull + (d >= k - 1 ? (unsigned long long)d * (unsigned long long)d : 0ull);
}

/* Stack levels a counter with `algo` needs. Pivot: a level per vertex of the clique being built
 * below a root, at most min(out-degree, degeneracy) (a clique in v's out-neighbourhood plus v
 * is a clique of G, of at most degeneracy + 1 vertices), plus the root's; orient: k at most. */
static inline int kc_levels(const kc_problem *pb, int algo)
{
    const int bound = pb->g.max_out < pb->g.degeneracy ? pb->g.max_out : pb->g.degeneracy;
    return algo == KC_ALGO_PIVOT ? bound + 2 : pb->o.k + 1;
}

/* Orients the graph `in` and builds the tables for the options o. Returns 0, or 1 after
 * printing why (to stderr; `app` names the program). */
static inline int kc_problem_init(kc_problem *pb, const kc_options *o, const app_csr *in, const char *app)
{
    memset(pb, 0, sizeof *pb);
    pb->o = *o;
    if (kc_graph_build(&pb->g, in, o->order))
        return 1;
    const kc_graph *g = &pb->g;
    if (g->max_out > KC_MAX_OUT_DEGREE) {
        fprintf(stderr, "%s: the oriented graph's largest out-degree is %d, above the limit %d%s\n", app, g->max_out,
                KC_MAX_OUT_DEGREE, o->order == KC_ORDER_DEGREE ? " (--order degen gives the smallest)" : "");
        return 1;
    }
    const int rows = g->max_out + 1, cols = o->k + 1;
    pb->binom = (unsigned long long *)malloc((size_t)rows * cols * sizeof *pb->binom);
    pb->work = (unsigned long long *)malloc(((size_t)g->n + 1) * sizeof *pb->work);
    if (!pb->binom || !pb->work) {
        fprintf(stderr, "%s: out of memory for the tables\n", app);
        return 1;
    }
    /* Pascal's rule with saturation: an entry of 2^64 - 1 or more stays KC_OVERFLOW */
    for (int p = 0; p < rows; p++)
        for (int r = 0; r < cols; r++)
            pb->binom[(size_t)p * cols + r] = r == 0 ? 1ull : p == 0 ? 0ull
                                              : kc_sat_add(pb->binom[(size_t)(p - 1) * cols + r - 1],
                                                           pb->binom[(size_t)(p - 1) * cols + r]);
    pb->work[0] = 0;
    for (int v = 0; v < g->n; v++)
        pb->work[v + 1] = pb->work[v] + kc_root_work(g->row[v + 1] - g->row[v], o->k);
    pb->levels = kc_levels(pb, o->algo);
    return 0;
}

/* Loads or generates the graph (app_graph.h) and sets the problem up (kc_problem_init);
 * records the parameters in c's params and prints the graph's shape. Returns 0 or 1
 * (message printed). */
static inline int kc_problem_load(app_cli *c, kc_problem *pb, const kc_options *o)
{
    app_csr in;
    memset(pb, 0, sizeof *pb);
    app_param(c, "k=%d", o->k);
    app_param(c, "algo=%s", o->algo == KC_ALGO_PIVOT ? "pivot" : "orient");
    app_param(c, "order=%s", o->order == KC_ORDER_DEGEN ? "degen" : "degree");
    if (app_graph_setup(c, &in))
        return 1;
    const double t0 = app_now_ms();
    const int rc = kc_problem_init(pb, o, &in, c->app);
    app_csr_free(&in);
    if (rc)
        return 1;
    fprintf(c->out, "oriented (%s order): %lld edges, max degree %d, degeneracy %d, max out-degree %d (%.0f ms)\n",
            o->order == KC_ORDER_DEGEN ? "degeneracy" : "degree", pb->g.m, pb->g.max_degree, pb->g.degeneracy,
            pb->g.max_out, app_now_ms() - t0);
    return 0;
}

/* Words a counter over any root's subgraph needs: its rows and its stack. */
static inline size_t kc_adj_words(const kc_problem *pb)
{
    return (size_t)pb->g.max_out * kc_words(pb->g.max_out > 0 ? pb->g.max_out : 1);
}
static inline size_t kc_stack_words(const kc_problem *pb)
{
    return (size_t)pb->levels * kc_words(pb->g.max_out > 0 ? pb->g.max_out : 1);
}

/* Root v's k-cliques (those with v as lowest-ranked vertex), by one thread, with `adj` and
 * `stack` of kc_adj_words / kc_stack_words words and `state` of pb->levels. *error is set
 * when the stack was too small (a bug). */
static inline unsigned long long kc_root_count(const kc_problem *pb, int algo, int v, kc_word *adj, kc_word *stack,
                                               uint32_t *state, int *error)
{
    const int d = pb->g.row[v + 1] - pb->g.row[v];
    if (d < pb->o.k - 1)
        return 0;
    kc_build(pb->g.row, pb->g.col, v, adj);
    kc_sct s = kc_sct_make(pb->g.row, v, pb->o.k, algo, pb->binom, adj, stack, state, pb->levels);
    kc_fill(s.stack, d);
    const unsigned long long r = kc_count(&s, 1, 0);
    if (s.error)
        *error = 1;
    return r;
}

/* The whole graph's count by one CPU thread with the given algorithm (the reference of the
 * checks). Returns 0 with the count in *count_p, or 1 after printing why. */
static inline int kc_reference(const app_cli *c, const kc_problem *pb, int algo, unsigned long long *count_p)
{
    kc_problem q = *pb;
    int error = 0;
    q.levels = kc_levels(pb, algo);
    kc_word *adj = (kc_word *)malloc((kc_adj_words(&q) + 1) * sizeof *adj);
    kc_word *stack = (kc_word *)malloc((kc_stack_words(&q) + 1) * sizeof *stack);
    uint32_t *state = (uint32_t *)malloc((size_t)q.levels * sizeof *state);
    if (!adj || !stack || !state) {
        fprintf(stderr, "%s: out of memory for the reference count\n", c->app);
        free(adj), free(stack), free(state);
        return 1;
    }
    unsigned long long total = 0;
    for (int v = 0; v < q.g.n; v++)
        total = kc_sat_add(total, kc_root_count(&q, algo, v, adj, stack, state, &error));
    free(adj), free(stack), free(state);
    if (error) {
        fprintf(stderr, "%s: the reference count ran out of stack levels (a bug)\n", c->app);
        return 1;
    }
    *count_p = total;
    return 0;
}

/* The answer line: the same in every implementation for the same graph and k. */
static inline void kc_answer(char *buf, size_t size, int k, unsigned long long count)
{
    if (count == KC_OVERFLOW)
        snprintf(buf, size, "k=%d;count=overflow", k);
    else
        snprintf(buf, size, "k=%d;count=%llu", k, count);
}

/* Compares a run's count with the reference; prints what it compared. */
static inline app_check_t kc_check(const app_cli *c, unsigned long long got, unsigned long long want, const char *what)
{
    fprintf(c->out, "checked: against %s = %llu%s\n", what, want, want == KC_OVERFLOW ? " (overflow)" : "");
    if (got == want)
        return APP_CHECK_PASS;
    fprintf(stderr, "%s: the count is %llu, the reference %llu\n", c->app, got, want);
    return APP_CHECK_FAIL;
}

#endif /* KCLIQUE_COMMON_H */
