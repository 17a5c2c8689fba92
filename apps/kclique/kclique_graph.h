/* kclique_graph.h - the oriented graph every k-clique program counts in (host code, C11 and
 * C++; header-only): the input made simple and undirected, its vertices ranked, renumbered by
 * rank, and each edge kept once as an arc from its lower- to its higher-ranked end.
 *
 * Every k-clique then has exactly one lowest-ranked vertex v and lies in v's out-
 * neighbourhood plus v, which is what the counters search (kclique_sct.h). Two rankings:
 *   degen   the degeneracy order (Matula-Beck peeling: repeatedly remove a vertex of least
 *           remaining degree, rank = removal time); a vertex's out-degree is at most its core
 *           number, so the largest out-degree is the degeneracy, the least any order gives;
 *           Pivoter's and the upstream pivot benchmark's order.
 *   degree  by degree, ties by input id; out-degrees are at most about sqrt(2m), usually
 *           more than the degeneracy (the upstream orientation benchmark's order).
 * Out-neighbour lists are sorted ascending, i.e. in rank order. Core numbers are computed in
 * both cases: the degeneracy bounds the depth of a pivot search.
 */
#ifndef KCLIQUE_GRAPH_H
#define KCLIQUE_GRAPH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_input.h"

typedef enum { KC_ORDER_DEGEN = 1, KC_ORDER_DEGREE = 2 } kc_order;

typedef struct kc_graph {
    int n;          /* vertices (numbered by rank) */
    long long m;    /* edges of the simple undirected graph = arcs */
    int *row;       /* n + 1 offsets into col */
    int *col;       /* m out-neighbours, ascending in each row */
    int max_out;    /* the largest out-degree */
    int max_degree; /* the largest undirected degree */
    int degeneracy; /* the largest core number */
} kc_graph;

static inline void kc_graph_free(kc_graph *g)
{
    free(g->row);
    free(g->col);
    memset(g, 0, sizeof *g);
}

static int kc_cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* The simple undirected graph of g (every stored entry u-v, u != v, both ways, duplicates
 * merged) as offsets *off_p (n + 1, 64-bit: twice the entries may pass 2^31) and *adj_p. */
static int kc_symmetrize(const app_csr *g, long long **off_p, int **adj_p)
{
    const int n = g->nrows;
    long long *off = (long long *)calloc((size_t)n + 1, sizeof *off);
    long long *fill = (long long *)malloc(((size_t)n + 1) * sizeof *fill);
    int *adj = NULL;
    long long out = 0;
    if (!off || !fill)
        goto oom;
    for (int u = 0; u < n; u++)
        for (int e = g->row[u]; e < g->row[u + 1]; e++)
            if (g->col[e] != u && g->col[e] < n) {
                off[u + 1]++;
                off[g->col[e] + 1]++;
            }
    for (int u = 0; u < n; u++)
        off[u + 1] += off[u];
    adj = (int *)malloc((size_t)(off[n] ? off[n] : 1) * sizeof *adj);
    if (!adj)
        goto oom;
    memcpy(fill, off, ((size_t)n + 1) * sizeof *fill);
    for (int u = 0; u < n; u++)
        for (int e = g->row[u]; e < g->row[u + 1]; e++) {
            const int v = g->col[e];
            if (v != u && v < n) {
                adj[fill[u]++] = v;
                adj[fill[v]++] = u;
            }
        }
    /* sort and merge each list, compacting in place */
    for (int u = 0; u < n; u++) {
        const long long b = off[u], e = off[u + 1];
        qsort(adj + b, (size_t)(e - b), sizeof *adj, kc_cmp_int);
        off[u] = out;
        for (long long i = b; i < e; i++)
            if (i == b || adj[i] != adj[i - 1])
                adj[out++] = adj[i];
    }
    off[n] = out;
    free(fill);
    *off_p = off;
    *adj_p = adj;
    return 0;
oom:
    fprintf(stderr, "kclique: out of memory making the graph undirected (%d vertices)\n", n);
    free(off), free(fill), free(adj);
    return -1;
}

/* Core numbers by bucket peeling (Batagelj-Zaversnik): vert[] receives the vertices in removal
 * order (the degeneracy order), core[] each one's core number. O(n + m). */
static int kc_peel(int n, const long long *off, const int *adj, int *vert, int *core)
{
    int maxd = 0;
    for (int v = 0; v < n; v++)
        if (off[v + 1] - off[v] > maxd)
            maxd = (int)(off[v + 1] - off[v]);
    int *bin = (int *)calloc((size_t)maxd + 2, sizeof *bin), *pos = (int *)malloc(((size_t)n + 1) * sizeof *pos);
    if (!bin || !pos) {
        free(bin), free(pos);
        fprintf(stderr, "kclique: out of memory ordering %d vertices\n", n);
        return -1;
    }
    for (int v = 0; v < n; v++)
        bin[core[v] = (int)(off[v + 1] - off[v])]++;
    for (int d = 0, start = 0; d <= maxd; d++) {
        const int c = bin[d];
        bin[d] = start;
        start += c;
    }
    for (int v = 0; v < n; v++) {
        pos[v] = bin[core[v]]++;
        vert[pos[v]] = v;
    }
    for (int d = maxd; d > 0; d--)
        bin[d] = bin[d - 1];
    bin[0] = 0;
    for (int i = 0; i < n; i++) {
        const int v = vert[i]; /* least remaining degree: its core number is final */
        for (long long e = off[v]; e < off[v + 1]; e++) {
            const int u = adj[e];
            if (core[u] > core[v]) {
                /* move u to the front of its bucket, then into the bucket below */
                const int du = core[u], pu = pos[u], pw = bin[du], w = vert[pw];
                if (u != w) {
                    pos[u] = pw;
                    vert[pu] = w;
                    pos[w] = pu;
                    vert[pw] = u;
                }
                bin[du]++;
                core[u]--;
            }
        }
    }
    free(bin), free(pos);
    return 0;
}

/* Sorting by degree, ties by id. */
static const long long *kc_sort_off;
static int kc_cmp_degree(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    const long long dx = kc_sort_off[x + 1] - kc_sort_off[x], dy = kc_sort_off[y + 1] - kc_sort_off[y];
    return dx != dy ? (dx < dy ? -1 : 1) : kc_cmp_int(a, b);
}

/* Builds the oriented graph of g (any CSR: directed or not, loops and duplicates allowed) in
 * the given order. Returns 0, or -1 after printing why. */
static int kc_graph_build(kc_graph *dag, const app_csr *g, kc_order order)
{
    const int n = g->nrows;
    long long *off = NULL;
    int *adj = NULL, *vert = NULL, *core = NULL, *rank = NULL;
    long long e = 0;
    memset(dag, 0, sizeof *dag);
    if (kc_symmetrize(g, &off, &adj))
        return -1;
    vert = (int *)malloc(((size_t)n + 1) * sizeof *vert);
    core = (int *)malloc(((size_t)n + 1) * sizeof *core);
    rank = (int *)malloc(((size_t)n + 1) * sizeof *rank);
    dag->row = (int *)malloc(((size_t)n + 1) * sizeof *dag->row);
    dag->n = n;
    dag->m = off[n] / 2;
    if (dag->m > 0x7fffffffll) {
        fprintf(stderr, "kclique: %lld edges do not fit 32-bit offsets\n", dag->m);
        goto fail;
    }
    dag->col = (int *)malloc((size_t)(dag->m ? dag->m : 1) * sizeof *dag->col);
    if (!vert || !core || !rank || !dag->row || !dag->col) {
        fprintf(stderr, "kclique: out of memory orienting %d vertices, %lld edges\n", n, dag->m);
        goto fail;
    }
    if (kc_peel(n, off, adj, vert, core))
        goto fail;
    for (int v = 0; v < n; v++) {
        if (core[v] > dag->degeneracy)
            dag->degeneracy = core[v];
        if (off[v + 1] - off[v] > dag->max_degree)
            dag->max_degree = (int)(off[v + 1] - off[v]);
    }
    if (order == KC_ORDER_DEGREE) {
        for (int v = 0; v < n; v++)
            vert[v] = v;
        kc_sort_off = off;
        qsort(vert, (size_t)n, sizeof *vert, kc_cmp_degree);
    }
    for (int i = 0; i < n; i++)
        rank[vert[i]] = i;
    /* vertex i of the result is vert[i]; its arcs go to the neighbours of higher rank */
    for (int i = 0; i < n; i++) {
        const int v = vert[i];
        const long long first = e;
        dag->row[i] = (int)e;
        for (long long a = off[v]; a < off[v + 1]; a++)
            if (rank[adj[a]] > i)
                dag->col[e++] = rank[adj[a]];
        qsort(dag->col + first, (size_t)(e - first), sizeof *dag->col, kc_cmp_int);
        if (e - first > dag->max_out)
            dag->max_out = (int)(e - first);
    }
    dag->row[n] = (int)e;
    free(off), free(adj), free(vert), free(core), free(rank);
    return 0;
fail:
    free(off), free(adj), free(vert), free(core), free(rank);
    kc_graph_free(dag);
    return -1;
}

#endif /* KCLIQUE_GRAPH_H */
