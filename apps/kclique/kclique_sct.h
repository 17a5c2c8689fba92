/* kclique_sct.h - the counting core every k-clique program shares (GPU thread and block
 * level, their host-target builds, the C baselines, the tests): the induced subgraph of one
 * root's out-neighbourhood as adjacency bitmaps, the sequential counters over it (Pivoter's
 * succinct clique tree, and plain listing), and the pieces that let tasks split a tree node
 * (its branch list, a branch's child, replaying a path from the root). Compiles as CUDA, C++
 * and C11; nothing here allocates.
 *
 * The subgraph. A root v of the oriented graph (kclique_graph.h: arcs from lower to higher
 * rank, vertices numbered by rank) has the sorted out-neighbours u_0 < ... < u_{d-1}; local
 * vertex i is u_i, so local order is rank order. Row i of `adj` (W = kc_words(d) words) has
 * bit j set iff u_i and u_j are adjacent (both directions: the bitmaps are undirected).
 *
 * Pivot (Jain and Seshadhri's Pivoter). A tree node is (C, h, p): candidates C (a set of local
 * vertices, each adjacent to every vertex chosen so far), h held vertices (v counts as one)
 * and p pivots. The node picks the pivot u in C with the most neighbours in C and has the
 * branches: 0, the pivot branch (C & adj[u], h, p + 1); then one per vertex w_1 < w_2 < ... of
 * R = C \ adj[u] \ {u}: (C & adj[w_i] \ {w_1..w_{i-1}}, h + 1, p). Every clique of the root's
 * neighbourhood lies below exactly one leaf (C empty) as its held vertices plus some of its
 * pivots, so the k-cliques containing v as lowest-ranked vertex number
 * sum over leaves of binom(p, k - h). Pruning for one k: a node with h = k stands for exactly
 * one k-clique (its held set; the only leaf below it with h = k is the all-pivots path), and
 * a node with h + p + |C| < k for none.
 *
 * Orient (listing). A node is (C, h) with h vertices chosen; branch x (each x in C, ascending)
 * is the child (C & adj[x] & {y > x}, h + 1); a node with h = k - 1 completes |C| k-cliques.
 *
 * Counts are 64-bit with saturation: KC_OVERFLOW (2^64 - 1) means "2^64 - 1 or more", and
 * every sum and binomial saturates there, so an overflow anywhere shows in the total.
 */
#ifndef KCLIQUE_SCT_H
#define KCLIQUE_SCT_H

#include <stddef.h>
#include <stdint.h>

#include "app_qualifiers.h"

/* Words of the bitmaps: 32 bits where a GPU runs the code (and its host-target build, which
 * must run the same code), 64 in the C baselines. KC_WORD32 forces 32 (tests). */
#if defined(__CUDACC__) || defined(GTAP_TARGET_HOST) || defined(KC_WORD32)
typedef uint32_t kc_word;
#define KC_WORD_BITS 32
#else
typedef uint64_t kc_word;
#define KC_WORD_BITS 64
#endif

#define KC_MAX_OUT_DEGREE 1024 /* local ids fit the 10 bits of a path step */
#define KC_MAX_WORDS (KC_MAX_OUT_DEGREE / KC_WORD_BITS)
#define KC_MIN_K 3
#define KC_MAX_K 64 /* h fits 7 bits of a level's state */
#define KC_OVERFLOW 0xffffffffffffffffull
#define KC_STEP_BITS 10
#define KC_MAX_SPLIT_DEPTH 6 /* steps of 10 bits in a 64-bit path */

typedef enum { KC_ALGO_PIVOT = 1, KC_ALGO_ORIENT = 2 } kc_algo;

static __host__ __device__ __forceinline__ unsigned long long kc_sat_add(unsigned long long a, unsigned long long b)
{
    const unsigned long long s = a + b;
    return s < a ? KC_OVERFLOW : s;
}

static __host__ __device__ __forceinline__ int kc_words(int d)
{
    return (d + KC_WORD_BITS - 1) / KC_WORD_BITS;
}

static __host__ __device__ __forceinline__ int kc_popc(kc_word x)
{
#if defined(__CUDA_ARCH__)
    return KC_WORD_BITS == 32 ? __popc((unsigned)x) : __popcll((unsigned long long)x);
#elif KC_WORD_BITS == 32
    return __builtin_popcount((unsigned)x);
#else
    return __builtin_popcountll((unsigned long long)x);
#endif
}

/* Index of the lowest set bit; x != 0. */
static __host__ __device__ __forceinline__ int kc_ctz(kc_word x)
{
#if defined(__CUDA_ARCH__)
    return KC_WORD_BITS == 32 ? __ffs((int)x) - 1 : __ffsll((long long)x) - 1;
#elif KC_WORD_BITS == 32
    return __builtin_ctz((unsigned)x);
#else
    return __builtin_ctzll((unsigned long long)x);
#endif
}

static __host__ __device__ __forceinline__ kc_word kc_bit(int x)
{
    return (kc_word)1 << (x % KC_WORD_BITS);
}

/* Bits of word i that stand for local vertices below x (all of them for words below x's,
 * none above). */
static __host__ __device__ __forceinline__ kc_word kc_below(int x, int i)
{
    const int wx = x / KC_WORD_BITS;
    return i < wx ? ~(kc_word)0 : i > wx ? (kc_word)0 : kc_bit(x) - 1;
}

static __host__ __device__ __forceinline__ int kc_count_bits(const kc_word *s, int W)
{
    int n = 0;
    for (int i = 0; i < W; i++)
        n += kc_popc(s[i]);
    return n;
}

/* The set {0, ..., d - 1}. */
static __host__ __device__ __forceinline__ void kc_fill(kc_word *s, int d)
{
    const int W = kc_words(d);
    for (int i = 0; i < W; i++) {
        const int left = d - i * KC_WORD_BITS;
        s[i] = left >= KC_WORD_BITS ? ~(kc_word)0 : ((kc_word)1 << left) - 1;
    }
}

/* The b-th (from 0) set bit of s, or -1. */
static __host__ __device__ __forceinline__ int kc_nth_bit(const kc_word *s, int W, int b)
{
    for (int i = 0; i < W; i++) {
        kc_word x = s[i];
        const int c = kc_popc(x);
        if (b >= c) {
            b -= c;
            continue;
        }
        while (b-- > 0)
            x &= x - 1;
        return i * KC_WORD_BITS + kc_ctz(x);
    }
    return -1;
}

/* ---- the induced subgraph ------------------------------------------------------------------ */

/* Row i of root v's subgraph (nb = v's out-neighbours, d of them): finds u_i's out-neighbours
 * among u_{i+1}.. (a merge of two sorted lists; an arc u_i -> u_j has j > i) and sets bit j of
 * row i and bit i of row j. Rows must be zero before. atomic: another thread may set bits of
 * the same rows at the same time (block-level build); set through atomicOr. */
static __host__ __device__ __forceinline__ void kc_build_row(const int *row, const int *col, const int *nb, int d, int i,
                                                             kc_word *adj, int W, int atomic)
{
    const int u = nb[i];
    int a = row[u], ae = row[u + 1], j = i + 1;
    while (a < ae && j < d) {
        const int x = col[a], y = nb[j];
        if (x < y) {
            a++;
        } else if (x > y) {
            j++;
        } else {
#if defined(__CUDA_ARCH__) || defined(GTAP_TARGET_HOST)
            if (atomic) {
                atomicOr(&adj[(size_t)i * W + j / KC_WORD_BITS], kc_bit(j));
                atomicOr(&adj[(size_t)j * W + i / KC_WORD_BITS], kc_bit(i));
            } else
#endif
            {
                (void)atomic;
                adj[(size_t)i * W + j / KC_WORD_BITS] |= kc_bit(j);
                adj[(size_t)j * W + i / KC_WORD_BITS] |= kc_bit(i);
            }
            a++;
            j++;
        }
    }
}

/* Builds root v's subgraph into adj (d rows of kc_words(d) words) by one thread. Returns d. */
static __host__ __device__ __forceinline__ int kc_build(const int *row, const int *col, int v, kc_word *adj)
{
    const int d = row[v + 1] - row[v], W = kc_words(d);
    const int *nb = col + row[v];
    for (size_t i = 0; i < (size_t)d * W; i++)
        adj[i] = 0;
    for (int i = 0; i < d; i++)
        kc_build_row(row, col, nb, d, i, adj, W, 0);
    return d;
}

/* ---- the sequential counter ---------------------------------------------------------------- */

/* A counter over one subgraph with its own stack; one thread uses it at a time. */
typedef struct kc_sct {
    const kc_word *adj;                /* d rows of W words */
    int d, W, k, algo;
    const unsigned long long *binom;   /* binom[p * (k + 1) + r] = C(p, r), saturated */
    kc_word *stack;                    /* levels x W: the candidates of each level */
    uint32_t *state;                   /* levels: a level's h, p and pivot (kc_pack) */
    int levels;
    int error;                         /* set when the stack was too small (a bug) */
} kc_sct;

static __host__ __device__ __forceinline__ uint32_t kc_pack(int h, int p, int u)
{
    return (uint32_t)h | (uint32_t)p << 7 | (uint32_t)u << 18;
}

/* A counter for root v's subgraph (already built in adj) with the given stack. */
static __host__ __device__ __forceinline__ kc_sct kc_sct_make(const int *row, int v, int k, int algo,
                                                              const unsigned long long *binom, const kc_word *adj,
                                                              kc_word *stack, uint32_t *state, int levels)
{
    kc_sct s;
    s.adj = adj;
    s.d = row[v + 1] - row[v];
    s.W = kc_words(s.d);
    s.k = k;
    s.algo = algo;
    s.binom = binom;
    s.stack = stack;
    s.state = state;
    s.levels = levels;
    s.error = 0;
    return s;
}

/* C(p, r) for 0 <= r <= k; 0 for r < 0 or r > p. */
static __host__ __device__ __forceinline__ unsigned long long kc_binom(const kc_sct *s, int p, int r)
{
    return r < 0 || r > p ? 0ull : s->binom[(size_t)p * (s->k + 1) + r];
}

/* The pivot of C (n = |C| > 0): the candidate with the most neighbours in C, the lowest on a
 * tie; stops early at one adjacent to all the others. */
static __host__ __device__ __forceinline__ int kc_pivot(const kc_word *adj, int W, const kc_word *C, int n)
{
    int best = -1, best_c = -1;
    for (int i = 0; i < W; i++) {
        kc_word bits = C[i];
        while (bits) {
            const int x = i * KC_WORD_BITS + kc_ctz(bits);
            const kc_word *a = adj + (size_t)x * W;
            int c = 0;
            bits &= bits - 1;
            for (int j = 0; j < W; j++)
                c += kc_popc(C[j] & a[j]);
            if (c > best_c) {
                best_c = c;
                best = x;
                if (c == n - 1)
                    return best;
            }
        }
    }
    return best;
}

/* What a node with candidates of size n, h held and p pivots adds without looking further:
 * sets *done when the node is a leaf or pruned (then the return value is its count). */
static __host__ __device__ __forceinline__ unsigned long long kc_settle(const kc_sct *s, int n, int h, int p, int *done)
{
    *done = 1;
    if (s->algo == KC_ALGO_PIVOT) {
        if (h == s->k)
            return 1;
        if (h + p + n < s->k)
            return 0;
        if (n == 0)
            return kc_binom(s, p, s->k - h);
    } else {
        if (h + n < s->k)
            return 0;
        if (h == s->k - 1)
            return (unsigned long long)n;
    }
    *done = 0;
    return 0;
}

/* The k-cliques below the node (stack level 0, h, p): depth-first with the stack, no
 * recursion. Pivot: a level keeps C minus the pivot and minus the branches already taken, so
 * the next branch is the lowest remaining non-neighbour of the pivot. Orient: a level keeps
 * the candidates not yet taken; the next branch is the lowest, whose child is the rest
 * intersected with its row. */
static __host__ __device__ unsigned long long kc_count(kc_sct *s, int h, int p)
{
    const int W = s->W;
    unsigned long long acc = 0;
    int top = 0, entering = 1;
    for (;;) {
        kc_word *C = s->stack + (size_t)top * W;
        if (entering) {
            const int n = kc_count_bits(C, W);
            int done;
            const unsigned long long settled = kc_settle(s, n, h, p, &done);
            if (done) {
                acc = kc_sat_add(acc, settled);
                if (top == 0)
                    return acc;
                top--; /* resume the parent */
                entering = 0;
                continue;
            }
            if (top + 1 >= s->levels) {
                s->error = 1;
                return acc;
            }
            if (s->algo == KC_ALGO_PIVOT) {
                /* the pivot branch first; the pivot leaves this level's candidates */
                const int u = kc_pivot(s->adj, W, C, n);
                const kc_word *au = s->adj + (size_t)u * W;
                for (int i = 0; i < W; i++)
                    C[W + i] = C[i] & au[i];
                C[u / KC_WORD_BITS] &= ~kc_bit(u);
                s->state[top] = kc_pack(h, p, u);
                top++;
                p++;
                continue;
            }
            s->state[top] = kc_pack(h, p, 0);
            entering = 0;
        }
        /* the level's next branch x: the lowest remaining non-neighbour of the pivot, or the
         * lowest remaining candidate */
        const uint32_t st = s->state[top];
        const kc_word *au = s->adj + (size_t)(st >> 18) * W;
        int x = -1;
        for (int i = 0; i < W && x < 0; i++) {
            const kc_word r = s->algo == KC_ALGO_PIVOT ? C[i] & ~au[i] : C[i];
            if (r)
                x = i * KC_WORD_BITS + kc_ctz(r);
        }
        if (x < 0) {
            if (top == 0)
                return acc;
            top--;
            continue;
        }
        C[x / KC_WORD_BITS] &= ~kc_bit(x);
        const kc_word *ax = s->adj + (size_t)x * W;
        for (int i = 0; i < W; i++)
            C[W + i] = C[i] & ax[i];
        h = (int)(st & 127u) + 1;
        p = (int)((st >> 7) & 2047u);
        top++;
        entering = 1;
    }
}

/* ---- splitting a node: branches, children, paths --------------------------------------------- */

/* A node as the tasks see it: its candidates C and, once kc_branches ran, its branch set R
 * (pivot: C \ adj[u] \ {u}; orient: C itself) and pivot u. */
typedef struct kc_node {
    int h, p, u, n;
} kc_node;

/* Fills R and nd->u for the node (C, nd->h, nd->p, nd->n = |C|, not settled); returns its
 * number of branches. */
static __host__ __device__ __forceinline__ int kc_branches(const kc_sct *s, const kc_word *C, kc_word *R, kc_node *nd)
{
    const int W = s->W;
    if (s->algo == KC_ALGO_ORIENT) {
        for (int i = 0; i < W; i++)
            R[i] = C[i];
        nd->u = 0;
        return nd->n;
    }
    nd->u = kc_pivot(s->adj, W, C, nd->n);
    const kc_word *au = s->adj + (size_t)nd->u * W;
    for (int i = 0; i < W; i++)
        R[i] = C[i] & ~au[i];
    R[nd->u / KC_WORD_BITS] &= ~kc_bit(nd->u);
    return 1 + kc_count_bits(R, W);
}

/* The step (local vertex) of branch b of the node (C, R, nd): the pivot for branch 0 of a pivot
 * node, else the branch's vertex. */
static __host__ __device__ __forceinline__ int kc_branch_step(const kc_sct *s, const kc_word *R, const kc_node *nd, int b)
{
    if (s->algo == KC_ALGO_PIVOT)
        return b == 0 ? nd->u : kc_nth_bit(R, s->W, b - 1);
    return kc_nth_bit(R, s->W, b);
}

/* The child of the node (C, R, nd) through step x (kc_branch_step) into `child` (which may be
 * C itself: each word depends on the same word only); sets *ch. Returns |child|. */
static __host__ __device__ __forceinline__ int kc_child(const kc_sct *s, const kc_word *C, const kc_word *R, const kc_node *nd,
                                                        int x, kc_word *child, kc_node *ch)
{
    const int W = s->W;
    const kc_word *ax = s->adj + (size_t)x * W;
    int n = 0;
    *ch = *nd;
    if (s->algo == KC_ALGO_PIVOT && x == nd->u) {
        ch->p++;
        for (int i = 0; i < W; i++)
            n += kc_popc(child[i] = C[i] & ax[i]);
    } else if (s->algo == KC_ALGO_PIVOT) {
        ch->h++;
        for (int i = 0; i < W; i++)
            n += kc_popc(child[i] = C[i] & ax[i] & ~(R[i] & kc_below(x, i)));
    } else {
        ch->h++;
        for (int i = 0; i < W; i++)
            n += kc_popc(child[i] = C[i] & ax[i] & ~kc_below(x + 1, i));
    }
    ch->n = n;
    return n;
}

/* The node at the end of `path` (depth steps of KC_STEP_BITS, the first lowest) from the root
 * (all d vertices, h = 1, p = 0) into C, using R as scratch; the path's nodes are not settled
 * (the tasks descend only into such nodes). */
static __host__ __device__ __forceinline__ void kc_replay(const kc_sct *s, unsigned long long path, int depth, kc_word *C,
                                                          kc_word *R, kc_node *nd)
{
    kc_fill(C, s->d);
    nd->h = 1;
    nd->p = 0;
    nd->n = s->d;
    for (int t = 0; t < depth; t++) {
        const int x = (int)((path >> (KC_STEP_BITS * t)) & ((1u << KC_STEP_BITS) - 1));
        kc_branches(s, C, R, nd);
        kc_node ch;
        kc_child(s, C, R, nd, x, C, &ch);
        *nd = ch;
    }
}

/* The count of one branch of a node, sequentially: its child into stack level 0, counted. */
static __host__ __device__ __forceinline__ unsigned long long kc_count_branch(kc_sct *s, const kc_word *C, const kc_word *R,
                                                                              const kc_node *nd, int b)
{
    kc_node ch;
    kc_child(s, C, R, nd, kc_branch_step(s, R, nd, b), s->stack, &ch);
    return kc_count(s, ch.h, ch.p);
}

/* Where to halve the roots [lo, hi) (hi - lo >= 2) by estimated work, `work` holding the
 * prefix sums: the first m in [lo + 1, hi - 1] with at least half of the range's work before
 * it. */
static __host__ __device__ __forceinline__ int kc_range_mid(const unsigned long long *work, int lo, int hi)
{
    const unsigned long long half = (work[hi] - work[lo]) / 2;
    int a = lo + 1, b = hi - 1;
    while (a < b) {
        const int m = a + (b - a) / 2;
        if (work[m] - work[lo] >= half)
            b = m;
        else
            a = m + 1;
    }
    return a;
}

#endif /* KCLIQUE_SCT_H */
