/* kclique_brute_test.c - an independent k-clique counter for the pinned answers of
 * tests/kclique, and property tests of the counting core (apps/kclique/kclique_sct.h).
 *
 *   kclique_brute_test count (--input FILE | --rmat SCALE EDGE_FACTOR SEED) --k K [--expect N]
 *       counts the k-cliques by brute force: the simple undirected graph built here from the
 *       raw edges, cliques listed with ascending vertex ids by intersecting sorted neighbour
 *       lists; no orientation, no bitmaps, no pivots. Prints the count; with --expect exits 1
 *       unless it equals N. The R-MAT graph is app_graph_rmat's, as `--graph rmat` makes it.
 *   kclique_brute_test props
 *       random graphs (Erdos-Renyi densities 0..1, 0..130 vertices, both orders): the pivot
 *       and listing counters agree with the brute force for every k; for every root, the
 *       branches of the tree's nodes down to depth 2, each reached by replaying its path as
 *       the GPU tasks do, sum to the node's count; the binomial table saturates.
 * Built twice: with the C baselines' 64-bit bitmap words and with -DKC_WORD32, the GPU's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_input.h"
#include "kclique_common.h"

static int failures;

static void expect(int ok, const char *what, long long a, long long b)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s (%lld, %lld)\n", what, a, b);
        failures++;
    }
}

/* ---- brute force ------------------------------------------------------------------------ */

typedef struct bf_graph {
    int n;
    int *deg, **nb; /* sorted, unique neighbour lists */
} bf_graph;

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* From raw edges (any direction, loops and duplicates allowed). */
static void bf_make(bf_graph *g, int n, long long m, const int *src, const int *dst)
{
    g->n = n;
    g->deg = (int *)calloc((size_t)n + 1, sizeof *g->deg);
    g->nb = (int **)calloc((size_t)n + 1, sizeof *g->nb);
    int *cap = (int *)calloc((size_t)n + 1, sizeof *cap);
    for (long long i = 0; i < m; i++) {
        const int e[2][2] = {{src[i], dst[i]}, {dst[i], src[i]}};
        if (src[i] == dst[i])
            continue;
        for (int s = 0; s < 2; s++) {
            const int u = e[s][0];
            if (g->deg[u] == cap[u]) {
                cap[u] = cap[u] ? 2 * cap[u] : 4;
                g->nb[u] = (int *)realloc(g->nb[u], (size_t)cap[u] * sizeof(int));
            }
            g->nb[u][g->deg[u]++] = e[s][1];
        }
    }
    for (int u = 0; u < n; u++) {
        int out = 0;
        qsort(g->nb[u], (size_t)g->deg[u], sizeof(int), cmp_int);
        for (int i = 0; i < g->deg[u]; i++)
            if (i == 0 || g->nb[u][i] != g->nb[u][i - 1])
                g->nb[u][out++] = g->nb[u][i];
        g->deg[u] = out;
    }
    free(cap);
}

static void bf_free(bf_graph *g)
{
    for (int u = 0; u < g->n; u++)
        free(g->nb[u]);
    free(g->nb);
    free(g->deg);
}

/* Cliques of `need` more vertices from cand[0..nc) (ascending ids, all adjacent to the clique
 * so far); buf holds room for the deeper candidate lists. */
static unsigned long long bf_extend(const bf_graph *g, const int *cand, int nc, int need, int *buf)
{
    if (need == 0)
        return 1;
    if (need == 1)
        return (unsigned long long)nc;
    unsigned long long total = 0;
    for (int i = 0; i + need <= nc; i++) {
        const int x = cand[i];
        int nn = 0;
        for (int a = i + 1, b = 0; a < nc && b < g->deg[x];) {
            if (cand[a] < g->nb[x][b])
                a++;
            else if (cand[a] > g->nb[x][b])
                b++;
            else {
                buf[nn++] = cand[a];
                a++, b++;
            }
        }
        total += bf_extend(g, buf, nn, need - 1, buf + nn);
    }
    return total;
}

static unsigned long long bf_count(const bf_graph *g, int k)
{
    int maxd = 0;
    for (int u = 0; u < g->n; u++)
        maxd = g->deg[u] > maxd ? g->deg[u] : maxd;
    int *buf = (int *)malloc(((size_t)maxd + 1) * (size_t)(k + 1) * sizeof *buf);
    int *cand = (int *)malloc(((size_t)maxd + 1) * sizeof *cand);
    unsigned long long total = 0;
    for (int u = 0; u < g->n; u++) {
        int nc = 0;
        for (int i = 0; i < g->deg[u]; i++)
            if (g->nb[u][i] > u)
                cand[nc++] = g->nb[u][i];
        total += bf_extend(g, cand, nc, k - 1, buf);
    }
    free(buf), free(cand);
    return total;
}

/* ---- the core under test ------------------------------------------------------------------ */

/* The raw edges as the app's input CSR (as stored, like a directed SNAP file). */
static void csr_of(app_csr *c, int n, long long m, const int *src, const int *dst)
{
    memset(c, 0, sizeof *c);
    c->nrows = c->ncols = n;
    c->row = (int *)calloc((size_t)n + 1, sizeof *c->row);
    c->col = (int *)malloc((size_t)(m ? m : 1) * sizeof *c->col);
    for (long long i = 0; i < m; i++)
        c->row[src[i] + 1]++;
    for (int u = 0; u < n; u++)
        c->row[u + 1] += c->row[u];
    int *fill = (int *)malloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, c->row, ((size_t)n + 1) * sizeof *fill);
    for (long long i = 0; i < m; i++)
        c->col[fill[src[i]]++] = dst[i];
    c->nnz = m;
    free(fill);
}

/* Sum of the branches of the node reached by `path` (depth steps), each counted
 * sequentially, and recursively down to depth 2 where a branch is not settled; checks each
 * node's branch sum against its own count. Returns the node's count. */
static unsigned long long split_count(kc_sct *s, kc_word *node, unsigned long long path, int depth)
{
    const int W = s->W;
    kc_word *C = node + 2 * depth * W, *R = C + W;
    kc_node nd;
    kc_replay(s, path, depth, C, R, &nd);
    int done;
    const unsigned long long settled = kc_settle(s, nd.n, nd.h, nd.p, &done);
    for (int i = 0; i < W; i++)
        s->stack[i] = C[i];
    const unsigned long long whole = kc_count(s, nd.h, nd.p);
    if (done) {
        expect(settled == whole, "a settled node counts what its tree counts", (long long)settled, (long long)whole);
        return whole;
    }
    const int t = kc_branches(s, C, R, &nd);
    unsigned long long sum = 0;
    for (int b = 0; b < t; b++) {
        const int x = kc_branch_step(s, R, &nd, b);
        if (depth < 2)
            sum += split_count(s, node, path | (unsigned long long)x << (KC_STEP_BITS * depth), depth + 1);
        else
            sum += kc_count_branch(s, C, R, &nd, b);
    }
    expect(sum == whole, "a node's branches sum to its count", (long long)sum, (long long)whole);
    return whole;
}

static unsigned long long core_count(const kc_problem *pb, int algo, int with_split)
{
    const size_t adj_words = kc_adj_words(pb) + 1, stack_words = kc_stack_words(pb) + 1;
    const int W = kc_words(pb->g.max_out > 0 ? pb->g.max_out : 1);
    kc_word *adj = (kc_word *)malloc(adj_words * sizeof *adj), *stack = (kc_word *)malloc(stack_words * sizeof *stack);
    kc_word *node = (kc_word *)malloc((size_t)(2 * 3 * W + 1) * sizeof *node);
    uint32_t *state = (uint32_t *)malloc((size_t)pb->levels * sizeof *state);
    unsigned long long total = 0;
    int error = 0;
    for (int v = 0; v < pb->g.n; v++) {
        const int d = pb->g.row[v + 1] - pb->g.row[v];
        const unsigned long long r = kc_root_count(pb, algo, v, adj, stack, state, &error);
        total = kc_sat_add(total, r);
        if (with_split && d >= pb->o.k - 1) {
            kc_sct s = kc_sct_make(pb->g.row, v, pb->o.k, algo, pb->binom, adj, stack, state, pb->levels);
            const unsigned long long again = split_count(&s, node, 0ull, 0);
            expect(again == r, "the split count of a root equals its count", (long long)again, (long long)r);
            error |= s.error;
        }
    }
    expect(!error, "the stack is deep enough", error, 0);
    free(adj), free(stack), free(node), free(state);
    return total;
}

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned long long rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* C(n, r) exactly (small arguments). */
static unsigned long long choose(int n, int r)
{
    unsigned long long c = 1;
    if (r < 0 || r > n)
        return 0;
    for (int i = 1; i <= r; i++)
        c = c * (unsigned long long)(n - r + i) / (unsigned long long)i;
    return c;
}

/* The expected number of j-cliques of G(n, p), the most over j <= k: what listing costs. */
static double expected_cliques(int n, double p, int k)
{
    double most = 0;
    for (int j = 1; j <= k; j++) {
        double e = (double)choose(n, j);
        for (int i = 0; i < j * (j - 1) / 2; i++)
            e *= p;
        most = e > most ? e : most;
    }
    return most;
}

static int props(void)
{
    static const int sizes[] = {0, 1, 2, 5, 12, 33, 64, 65, 100, 130};
    static const int percent[] = {0, 10, 30, 60, 90, 100};
    int graphs = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t pi = 0; pi < sizeof percent / sizeof percent[0]; pi++) {
            const int n = sizes[si], complete = percent[pi] == 100;
            long long m = 0;
            int *src = (int *)malloc(((size_t)n * n + 8) * sizeof *src), *dst = (int *)malloc(((size_t)n * n + 8) * sizeof *dst);
            /* each pair with the given chance, in a random direction, now and then both ways
             * or twice; a loop at the last vertex (the input may hold any of these) */
            for (int u = 0; u < n; u++)
                for (int v = u + 1; v < n; v++)
                    if ((int)(rng() % 100) < percent[pi]) {
                        const unsigned long long r = rng();
                        src[m] = r & 1 ? u : v, dst[m] = r & 1 ? v : u, m++;
                        if (r % 7 == 0)
                            src[m] = dst[m - 1], dst[m] = src[m - 1], m++;
                    }
            if (n > 0)
                src[m] = n - 1, dst[m] = n - 1, m++;
            bf_graph bf;
            bf_make(&bf, n, m, src, dst);
            app_csr in;
            csr_of(&in, n, m, src, dst);
            for (int order = KC_ORDER_DEGEN; order <= KC_ORDER_DEGREE; order++)
                for (int k = 3; k <= 9; k++) {
                    /* complete graphs: C(n, k), pivot only (listing lists them all) */
                    const int listable = expected_cliques(n, percent[pi] / 100.0, k) < 2e5;
                    if (!complete && !listable)
                        continue;
                    const unsigned long long want = complete ? choose(n, k) : bf_count(&bf, k);
                    kc_options o = {k, KC_ALGO_PIVOT, (kc_order)order, 8, 2, 64, 0};
                    kc_problem pb;
                    if (kc_problem_init(&pb, &o, &in, "props")) {
                        expect(0, "the problem sets up", n, k);
                        continue;
                    }
                    const int split = n <= 65;
                    const unsigned long long piv = core_count(&pb, KC_ALGO_PIVOT, split && listable);
                    expect(piv == want, "pivot counts what the brute force does", (long long)piv, (long long)want);
                    if (listable) {
                        pb.o.algo = KC_ALGO_ORIENT;
                        pb.levels = kc_levels(&pb, KC_ALGO_ORIENT);
                        const unsigned long long lst = core_count(&pb, KC_ALGO_ORIENT, split);
                        expect(lst == want, "listing counts what the brute force does", (long long)lst, (long long)want);
                    }
                    kc_problem_free(&pb);
                    graphs++;
                }
            app_csr_free(&in);
            bf_free(&bf);
            free(src), free(dst);
        }

    /* the binomial table saturates: C(70, 35) > 2^64 - 1 > C(67, 33); a complete graph K_70
     * has C(70, 35) 35-cliques: the count reports the overflow */
    {
        const int n = 70;
        long long m = 0;
        int *src = (int *)malloc((size_t)n * n * sizeof *src), *dst = (int *)malloc((size_t)n * n * sizeof *dst);
        for (int u = 0; u < n; u++)
            for (int v = u + 1; v < n; v++)
                src[m] = u, dst[m] = v, m++;
        app_csr in;
        csr_of(&in, n, m, src, dst);
        kc_options o = {35, KC_ALGO_PIVOT, KC_ORDER_DEGEN, 8, 2, 64, 0};
        kc_problem pb;
        expect(kc_problem_init(&pb, &o, &in, "props") == 0, "K_70 sets up", 0, 0);
        expect(pb.binom[69 * 36 + 34] == KC_OVERFLOW, "C(69, 34) saturates", 0, 0);
        expect(pb.binom[67 * 36 + 33] == 14226520737620288370ull, "C(67, 33) is exact", 0, 0);
        expect(core_count(&pb, KC_ALGO_PIVOT, 0) == KC_OVERFLOW, "K_70's 35-cliques overflow", 0, 0);
        kc_problem_free(&pb);
        o.k = 20;
        expect(kc_problem_init(&pb, &o, &in, "props") == 0, "K_70 sets up", 0, 0);
        expect(core_count(&pb, KC_ALGO_PIVOT, 1) == 161884603662657876ull, "K_70 has C(70, 20) 20-cliques", 0, 0);
        kc_problem_free(&pb);
        app_csr_free(&in);
        free(src), free(dst);
    }
    expect(kc_sat_add(KC_OVERFLOW - 1, 1) == KC_OVERFLOW && kc_sat_add(KC_OVERFLOW - 1, 2) == KC_OVERFLOW &&
               kc_sat_add(KC_OVERFLOW, 0) == KC_OVERFLOW && kc_sat_add(3, 4) == 7,
           "saturating sums", 0, 0);
    if (failures)
        return 1;
    printf("kclique_brute_test props: %d graphs x k x order, %d-bit words: all checks passed\n", graphs, KC_WORD_BITS);
    return 0;
}

static int count_mode(int argc, char **argv)
{
    const char *input = NULL;
    int scale = 0, ef = 0, k = 0, have_expect = 0;
    unsigned long long seed = 0, want = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--input") && i + 1 < argc)
            input = argv[++i];
        else if (!strcmp(argv[i], "--rmat") && i + 3 < argc) {
            scale = atoi(argv[++i]);
            ef = atoi(argv[++i]);
            seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--k") && i + 1 < argc)
            k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
            want = strtoull(argv[++i], NULL, 10);
            have_expect = 1;
        } else {
            fprintf(stderr, "kclique_brute_test: bad argument %s\n", argv[i]);
            return 2;
        }
    }
    app_csr g;
    if (k < 1 || (!input && scale < 1) || (input ? app_csr_load(&g, input, 0, 0) : app_graph_rmat(&g, scale, ef, seed, 1)))
        return 2;
    /* the raw entries of the CSR, as edges */
    int *src = (int *)malloc((size_t)(g.nnz ? g.nnz : 1) * sizeof *src);
    for (int u = 0; u < g.nrows; u++)
        for (int e = g.row[u]; e < g.row[u + 1]; e++)
            src[e] = u;
    bf_graph bf;
    bf_make(&bf, g.nrows > g.ncols ? g.nrows : g.ncols, g.nnz, src, g.col);
    const unsigned long long got = bf_count(&bf, k);
    printf("brute force: %llu %d-cliques\n", got, k);
    bf_free(&bf);
    free(src);
    app_csr_free(&g);
    if (have_expect && got != want) {
        fprintf(stderr, "FAIL: expected %llu\n", want);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "props"))
        return props();
    if (argc >= 2 && !strcmp(argv[1], "count"))
        return count_mode(argc, argv);
    fprintf(stderr, "usage: kclique_brute_test props | count (--input F | --rmat SCALE EF SEED) --k K [--expect N]\n");
    return 2;
}
