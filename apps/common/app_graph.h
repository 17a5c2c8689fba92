/* app_graph.h - graph / matrix selection from the command line, shared by the graph programs
 * and their baselines (header-only; needs app_cli.h and app_input.h):
 *   --input PATH          a SNAP edge list, *.mtx (Matrix Market) or *.csr (the paper's binary
 *                         CSR); --undirected 1 stores each edge both ways (default: as stored,
 *                         Matrix Market symmetric files always both ways)
 *   --graph rmat|grid     otherwise generate: R-MAT with 2^ceil(log2 n) vertices and
 *                         --edge-factor (default 16) x vertices edges, undirected; or the road-like
 *                         grid of about n vertices (side round(sqrt n), --keep 0.5)
 *   --seed S              generator seed (default 1)
 */
#ifndef APP_GRAPH_H
#define APP_GRAPH_H

#include "app_cli.h"
#include "app_input.h"

#define APP_GRAPH_KEYS "input", "graph", "edge-factor", "seed", "undirected", "keep"
#define APP_GRAPH_USAGE                                                                          \
    "[--input PATH (SNAP .txt, .mtx, .csr) [--undirected 0|1]] | [--graph rmat|grid (default rmat)\n" \
    "       [--edge-factor 16] [--keep 0.5 (grid)] [--seed 1]]"

/* Loads or generates the graph the options name; records the choice in c's params. Returns 0
 * or 1 (message printed). */
static inline int app_graph_setup(app_cli *c, app_csr *g)
{
    const char *path = app_opt_str(c, "input", NULL), *kind = app_opt_str(c, "graph", "rmat");
    const unsigned long long seed = (unsigned long long)app_opt_ll(c, "seed", 1);
    double t0 = app_now_ms();
    int rc;
    if (path) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        int undirected = (int)app_opt_ll(c, "undirected", 0);
        rc = app_csr_load(g, path, undirected, 0);
        app_param(c, "input=%s", base);
        if (undirected)
            app_param(c, "undirected=1");
    } else if (!strcmp(kind, "rmat")) {
        int scale = 1, ef = (int)app_opt_ll(c, "edge-factor", 16);
        while ((1ll << scale) < c->n)
            scale++;
        rc = app_graph_rmat(g, scale, ef, seed, 1);
        app_param(c, "graph=rmat;scale=%d;edge_factor=%d;seed=%llu", scale, ef, seed);
    } else if (!strcmp(kind, "grid")) {
        int side = (int)(sqrt((double)c->n) + 0.5);
        const char *ks = app_opt_str(c, "keep", "0.5");
        double keep = atof(ks);
        if (side < 1)
            side = 1;
        rc = app_graph_grid(g, side, keep, seed);
        app_param(c, "graph=grid;side=%d;keep=%s;seed=%llu", side, ks, seed);
    } else {
        fprintf(stderr, "%s: --graph must be rmat or grid\n", c->app);
        return 1;
    }
    if (rc != 0)
        return 1;
    c->n = g->nrows;
    fprintf(c->out, "graph: %d vertices, %lld edges (%.0f ms to %s)\n", g->nrows, g->nnz, app_now_ms() - t0,
            path ? "read" : "generate");
    return 0;
}

/* The SpMV programs' matrix: --input PATH as above (always stored as read, values kept), else
 * a random c->n x c->n matrix with 1..--nnz-max (default 599) entries per row from --seed
 * (default 42). Records the choice in c's params; c->n becomes the row count. Returns 0 or
 * 1 (message printed). */
static inline int app_matrix_setup(app_cli *c, app_csr *a)
{
    const char *path = app_opt_str(c, "input", NULL);
    if (path) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (app_csr_load(a, path, (int)app_opt_ll(c, "undirected", 0), 1))
            return 1;
        app_param(c, "input=%s", base);
        c->n = a->nrows;
    } else {
        const int nnz_max = (int)app_opt_ll(c, "nnz-max", 599);
        const unsigned long long seed = (unsigned long long)app_opt_ll(c, "seed", 42);
        if (app_matrix_random(a, (int)c->n, nnz_max, seed))
            return 1;
        app_param(c, "nnz_max=%d;seed=%llu", nnz_max, seed);
    }
    fprintf(c->out, "matrix: %d x %d, %lld entries\n", a->nrows, a->ncols, a->nnz);
    return 0;
}

#endif /* APP_GRAPH_H */
