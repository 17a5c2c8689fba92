/* bfs.cu - hand-compiled asynchronous (label-correcting) BFS, the paper's Program 5:
 * block-level (-DHC_BLOCK, edges strided over the block) or thread-level (one thread per
 * vertex), detached tasks, GTAP_ASSUME_NO_TASKWAIT. Graph: a reproducible random graph
 * (seeded) with a long path through it, so depths are deep and uneven. Checks every depth
 * against a CPU BFS. */
#include <queue>
#include <random>
#include <vector>

#include "handcomp.h"

#ifndef GTAP_ASSUME_NO_TASKWAIT
#error "build with -DGTAP_ASSUME_NO_TASKWAIT"
#endif

__device__ const int *g_row;
__device__ const int *g_col;
__device__ int *g_depth;

#if defined(HC_BLOCK)
#define BFS_FIRST ((int)threadIdx.x)
#define BFS_STRIDE ((int)blockDim.x)
#else
#define BFS_FIRST 0
#define BFS_STRIDE 1
#endif

/* #pragma gtap function
 * __device__ void bfs(int v) {
 *   int dv = g_depth[v];
 *   for (int e = g_row[v] + threadIdx.x; e < g_row[v + 1]; e += blockDim.x) {
 *     int u = g_col[e];
 *     int old = atomicMin(&g_depth[u], dv + 1);
 *     if (old > dv + 1) {
 *       #pragma gtap task
 *       bfs(u);
 *     }
 *   }
 * } */
enum { GTAPGEN_FN_bfs = 0 };
struct gtapgen_bfs_data {
    int v;
};

GTAP_TASK_FN void gtapgen_bfs(gtap_worker *w, gtap_task t)
{
    struct gtapgen_bfs_data *__restrict__ self = (struct gtapgen_bfs_data *)gtap_task_data(w, t);
    int dv = __ldcg(&g_depth[self->v]);
    int end = g_row[self->v + 1];
    for (int e = g_row[self->v] + BFS_FIRST; e < end; e += BFS_STRIDE) {
        int u = g_col[e];
        int old = atomicMin(&g_depth[u], dv + 1);
        if (old > dv + 1) {
            struct gtapgen_bfs_data *c = (struct gtapgen_bfs_data *)gtap_task_spawn(w, t, GTAPGEN_FN_bfs, sizeof *c, 0, NULL);
            c->v = u;
        }
    }
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    if (fn == GTAPGEN_FN_bfs)
        gtapgen_bfs(w, t);
    else
        gtap_task_bad_state(w, t);
}

static const gtap_function_desc gtapgen_functions[] = {
    {"bfs", sizeof(struct gtapgen_bfs_data), alignof(struct gtapgen_bfs_data), 0, GTAP_FN_MIGRATABLE, 0xb1u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 1, sizeof(struct gtapgen_bfs_data),
                                           alignof(struct gtapgen_bfs_data), 0, 0, 0xb2u, gtapgen_functions};

__global__ void exec_kernel(int source)
{
    g_depth[source] = 0;
    struct gtapgen_bfs_data *r = (struct gtapgen_bfs_data *)gtap_entry_begin(GTAPGEN_FN_bfs, sizeof *r, 0);
    if (r)
        r->v = source;
    gtap_entry_run();
}

int main(int argc, char **argv)
{
    int nv = argc > 1 ? atoi(argv[1]) : 20000;
    int degree = argc > 2 ? atoi(argv[2]) : 6;
    unsigned seed = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
    std::mt19937 rng(seed);
    std::vector<std::vector<int>> adj(nv);
    for (int v = 0; v + 1 < nv; v++) /* a path, so the graph is connected and deep */
        adj[v].push_back(v + 1);
    std::uniform_int_distribution<int> pick(0, nv - 1);
    for (int v = 0; v < nv; v++)
        for (int k = 0; k < degree; k++) {
            int u = pick(rng);
            if ((rng() & 63) == 0) /* a few hubs of high degree */
                u = pick(rng) % 16;
            adj[v].push_back(u);
            adj[u].push_back(v);
        }
    std::vector<int> row(nv + 1, 0), col;
    for (int v = 0; v < nv; v++) {
        row[v + 1] = row[v] + (int)adj[v].size();
        col.insert(col.end(), adj[v].begin(), adj[v].end());
    }
    std::vector<int> ref(nv, 0x3f3f3f3f), depth(nv);
    std::queue<int> q;
    ref[0] = 0;
    q.push(0);
    while (!q.empty()) {
        int v = q.front();
        q.pop();
        for (int e = row[v]; e < row[v + 1]; e++)
            if (ref[col[e]] > ref[v] + 1) {
                ref[col[e]] = ref[v] + 1;
                q.push(col[e]);
            }
    }
    HC_CHECK(hc_init() == 0, "initialization failed");
    int *d_row, *d_col, *d_depth;
    cudaMalloc((void **)&d_row, row.size() * sizeof(int));
    cudaMalloc((void **)&d_col, col.size() * sizeof(int));
    cudaMalloc((void **)&d_depth, nv * sizeof(int));
    cudaMemcpy(d_row, row.data(), row.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice);
    HC_STORE(g_row, d_row);
    HC_STORE(g_col, d_col);
    HC_STORE(g_depth, d_depth);
    for (int rep = 0; rep < 3; rep++) {
        cudaMemset(d_depth, 0x3f, nv * sizeof(int));
        hc_launch(exec_kernel, 0);
        HC_CHECK(hc_sync() == 0, "run %d failed", rep);
        cudaMemcpy(depth.data(), d_depth, nv * sizeof(int), cudaMemcpyDeviceToHost);
        for (int v = 0; v < nv; v++)
            HC_CHECK(depth[v] == ref[v], "run %d: depth[%d] = %d, expected %d", rep, v, depth[v], ref[v]);
    }
    cudaFree(d_row);
    cudaFree(d_col);
    cudaFree(d_depth);
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS bfs %d vertices, %zu edges\n", nv, col.size());
    return 0;
}
