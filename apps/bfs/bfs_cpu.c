/* bfs_cpu.c - CPU baselines of bfs.cu on the same graphs (app_graph.h). OpenMP (-fopenmp):
 * a level-synchronous BFS whose levels are split into tasks (taskloop, 64 frontier vertices
 * per task). Not the GPU's label-correcting algorithm on purpose: with OpenMP tasks that one
 * runs depth first (a full task queue runs new tasks inline) and re-relaxes long paths over
 * and over - 192 s instead of 6 ms on an R-MAT graph of 2^17 vertices with 2 threads.
 * Sequential: a queue BFS. */
#include "app_cpu.h"
#include "app_graph.h"
#include "bfs_result.h"

typedef struct bfs_ctx {
    const app_csr *g;
    int source;
    int *depth;
    int *frontier; /* OpenMP: two frontiers of nrows vertices */
} bfs_ctx;

#ifdef _OPENMP
/* One level: the frontier cur[0..n) is split into tasks (taskloop); a vertex discovered
 * first (compare-and-swap from APP_BFS_INF) goes to the next frontier, through a task-local
 * buffer flushed with one fetch-add. Returns the next frontier's size. */
static int bfs_level(const bfs_ctx *x, const int *cur, int n, int *next, int level)
{
    int count = 0;
#pragma omp taskloop grainsize(64) shared(count)
    for (int i = 0; i < n; i++) {
        int buf[256], k = 0, v = cur[i];
        for (int e = x->g->row[v]; e < x->g->row[v + 1]; e++) {
            int u = x->g->col[e], inf = APP_BFS_INF;
            if (__atomic_load_n(&x->depth[u], __ATOMIC_RELAXED) == APP_BFS_INF &&
                __atomic_compare_exchange_n(&x->depth[u], &inf, level + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                buf[k++] = u;
                if (k == 256) {
                    int at = __atomic_fetch_add(&count, k, __ATOMIC_RELAXED);
                    memcpy(next + at, buf, sizeof buf);
                    k = 0;
                }
            }
        }
        if (k) {
            int at = __atomic_fetch_add(&count, k, __ATOMIC_RELAXED);
            memcpy(next + at, buf, (size_t)k * sizeof *buf);
        }
    }
    return count;
}
#endif

static void reset(void *p, int run)
{
    bfs_ctx *x = (bfs_ctx *)p;
    (void)run;
    for (int v = 0; v < x->g->nrows; v++)
        x->depth[v] = APP_BFS_INF;
    x->depth[x->source] = 0;
}

static void body(void *p)
{
    bfs_ctx *x = (bfs_ctx *)p;
#ifdef _OPENMP
    int *cur = x->frontier, *next = x->frontier + x->g->nrows, n = 1;
    cur[0] = x->source;
    for (int level = 0; n > 0; level++) {
        int *t = cur;
        n = bfs_level(x, cur, n, next, level);
        cur = next;
        next = t;
    }
#else
    app_bfs_reference(x->g, x->source, x->depth);
#endif
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "bfs", APP_CPU_IMPL, 1 << 16);
    static const char *const keys[] = {"source", APP_GRAPH_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "--n is the number of vertices; [--source V] " APP_GRAPH_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    app_csr g;
    if (app_graph_setup(&c, &g))
        return 1;
    bfs_ctx x = {&g, (int)app_opt_ll(&c, "source", app_graph_first_nonisolated(&g, 0)), NULL, NULL};
    if (x.source < 0 || x.source >= g.nrows) {
        fprintf(stderr, "bfs: --source must be a vertex (0..%d)\n", g.nrows - 1);
        return 2;
    }
    app_param(&c, "source=%d", x.source);
    x.depth = (int *)malloc((size_t)g.nrows * sizeof *x.depth);
    int *ref = (int *)malloc((size_t)g.nrows * sizeof *ref);
    x.frontier = (int *)malloc(2 * (size_t)g.nrows * sizeof *x.frontier);
    if (!x.depth || !ref || !x.frontier) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    char answer[96];
    const app_check_t check = bfs_result(&c, &g, x.source, x.depth, ref, answer, sizeof answer);
    free(x.depth), free(ref), free(x.frontier);
    app_csr_free(&g);
    return app_report(&c, &stats, check, answer);
}
