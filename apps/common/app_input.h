/* app_input.h - reproducible inputs and CPU references shared by the applications and their
 * baselines (C; app_input.c): the paper's sort input, the tree benchmarks' input table,
 * graphs (R-MAT, a road-like grid, SNAP edge lists, Matrix Market, the paper's binary CSR)
 * and random sparse matrices, all as CSR. Every generator is a pure function of its seed.
 * Host code only; not thread-safe. Functions that allocate return 0 or -1 after printing why.
 */
#ifndef APP_INPUT_H
#define APP_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- random numbers ------------------------------------------------------------------ */

/* xoshiro256** seeded by splitmix64: the generator of every synthetic graph and matrix. */
typedef struct app_rng {
    uint64_t s[4];
} app_rng;
void app_rng_seed(app_rng *r, uint64_t seed);
uint64_t app_rng_next(app_rng *r);
/* Uniform in [0, bound) (bound > 0; Lemire's multiply-shift, negligible bias). */
uint64_t app_rng_below(app_rng *r, uint64_t bound);
/* Uniform double in [0, 1) with 53 random bits. */
double app_rng_unit(app_rng *r);

/* std::mt19937_64 (the C++ standard's engine, same output sequence). */
typedef struct app_mt64 {
    uint64_t mt[312];
    int i;
} app_mt64;
void app_mt64_seed(app_mt64 *m, uint64_t seed);
uint64_t app_mt64_next(app_mt64 *m);

/* ---- sorting benchmarks ----------------------------------------------------------------- */

/* The paper's sort input (evaluation/util/gen_vector.c): x <- x*1103515245 + 12345 mod 2^64
 * from x = 123456789; element i is the low 32 bits of the (i+1)-th x with the sign bit
 * flipped. First values: -1915688918, 1126946331, 1757975480. */
void app_sort_input(int32_t *a, size_t n);

/* With dups > 0, folds a[0, n) into dups distinct values at the top of the int range
 * (INT_MAX - (a[i] mod dups)): many ties, INT_MAX among them. dups == 0 leaves a as it is. */
void app_sort_fold_dups(int32_t *a, size_t n, long long dups);

/* An order-independent fingerprint of a multiset of ints (two 64-bit sums of strong mixes):
 * equal for permutations of the same values, different otherwise except with probability
 * ~2^-128 for unstructured differences. */
typedef struct app_multiset {
    uint64_t h1, h2;
} app_multiset;
app_multiset app_multiset_of(const int32_t *a, size_t n);

/* 0 when a[0..n) is sorted ascending and has the fingerprint `want`; otherwise 1 and the
 * first unsorted index in *bad_p (or n when only the fingerprint differs). */
int app_sort_verify(const int32_t *a, size_t n, app_multiset want, size_t *bad_p);

/* The end of every sort program: writes "min=A;max=B" of a[0..n) to answer (cap bytes) and,
 * when check is nonzero, verifies a against want, telling out where it went wrong ("<app>:
 * output unsorted at index i" / "not a permutation of the input"). Returns -1 when not
 * checked, else app_sort_verify's result (0 = correct). */
int app_sort_result(FILE *out, const char *app, int check, const int32_t *a, size_t n, app_multiset want,
                    char *answer, size_t cap);

/* ---- tree benchmarks ---------------------------------------------------------------------- */

/* The 2^20-double input table of the tree benchmarks: std::mt19937_64(0xC0FFEE) drawn through
 * std::uniform_real_distribution<double>(-1, 1) as libstdc++ computes it. */
#define APP_TREE_INPUT_N (1u << 20)
void app_tree_input(double *t);

/* ---- sparse matrices and graphs (CSR) ------------------------------------------------------ */

typedef struct app_csr {
    int nrows, ncols;
    long long nnz;
    int *row;    /* nrows + 1 offsets */
    int *col;    /* nnz column indices, sorted and unique within a row */
    double *val; /* nnz values, or NULL for a graph */
} app_csr;

void app_csr_free(app_csr *g);

/* R-MAT (Graph500 parameters a=.57 b=.19 c=.19) on 2^scale vertices with edge_factor*2^scale
 * generated edges, vertex labels randomly permuted, self loops and duplicates removed;
 * undirected: every edge stored both ways. */
int app_graph_rmat(app_csr *g, int scale, int edge_factor, uint64_t seed, int undirected);

/* A road-like graph on a side x side grid: each grid edge kept with probability `keep`, and
 * every edge of each 32nd row and column kept (sparse local roads between "highways");
 * undirected, average degree about 2 + 4/32 for keep = 0.5, diameter about 2 side. */
int app_graph_grid(app_csr *g, int side, double keep, uint64_t seed);

/* The SpMV example's synthetic matrix shape: nrows x nrows, each row with a uniform number of
 * entries in [1, nnz_max] at uniform columns (duplicates merged), values uniform in (-1, 1). */
int app_matrix_random(app_csr *g, int nrows, int nnz_max, uint64_t seed);

/* Reads a graph or matrix: *.mtx (Matrix Market coordinate, real/integer/pattern,
 * general/symmetric), *.csr (the paper's binary CSR: int32 N, M, N+1 offsets, M columns),
 * anything else a SNAP edge list ("u v" per line, '#' comments). 1-based Matrix Market
 * indices become 0-based. undirected: also store each edge reversed. want_values: fill
 * val (1.0 for pattern / edge lists). */
int app_csr_load(app_csr *g, const char *path, int undirected, int want_values);

/* The first vertex with at least one edge, scanning from `from` (wrapping), or `from`. */
int app_graph_first_nonisolated(const app_csr *g, int from);

/* ---- CPU references ----------------------------------------------------------------------- */

#define APP_BFS_INF 0x3f3f3f3f

/* Queue BFS from src: depth[v] = hops, APP_BFS_INF when unreachable. Returns the deepest level. */
int app_bfs_reference(const app_csr *g, int src, int *depth);

/* y = A x, each row summed left to right. */
void app_spmv_reference(const app_csr *a, const double *x, double *y);

#ifdef __cplusplus
}
#endif

#endif /* APP_INPUT_H */
