// bfs.cu - distributed asynchronous (label-correcting) BFS on a random graph: a task
// bfs(v, d) says "v is reachable in d steps"; it relaxes v's edges with atomicMin on this
// rank's depth array and spawns bfs(u, d + 1) for every neighbour it improved (detached
// tasks, built with -fgtap-no-taskwait). Usage: bfs [vertices=3000] [avg_degree=6] [runs=1].
//
// What makes it distributable (docs/dist.md, "What moves"): the graph is built on rank 0 and
// replicated to every rank with gtap_replicate, and tasks reach it through globals, so their
// data (two ints) holds no pointer and they migrate. Each rank has its own depth array (a
// __device__ global); a task carries the depth it found, so it is right on any rank, and a
// task whose vertex this rank already reached by a shorter path stops at once. After the run
// the ranks' arrays are reduced to their minimum, which is the BFS depth of every vertex:
// along a shortest path, each vertex's task with its true depth runs on some rank, and it
// spawns the next vertex's task with the next depth unless that rank already had it.
// Checked against a CPU queue BFS on rank 0 (every vertex).
//
// -DAPP_BLOCK (with GTAP_BLOCK_SIZE): block-level workers, one block per task: thread 0 takes
// the vertex (its atomicMin) and tells the block with __syncthreads_or, then the edges are
// strided over the block's threads and each thread spawns the tasks of the neighbours it
// improved. A few hub vertices have hundreds of edges, more than a block has threads.
// The executor picks tasks newest first, which makes label-correcting BFS relax vertices
// many times (3000 vertices: ~120 tasks per vertex); tests keep graphs small.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define BFS_FIRST ((int)threadIdx.x)
#define BFS_STRIDE ((int)blockDim.x)
#else
#include "gtap_thread.cuh"
#define BFS_FIRST 0
#define BFS_STRIDE 1
#endif
#include "dist_app.h"

#define BFS_INF 0x3f3f3f3f

__device__ const int *g_row; // CSR: edges of v are g_col[g_row[v] .. g_row[v + 1])
__device__ const int *g_col;
__device__ int *g_depth;     // this rank's depths

#pragma gtap function
__device__ void bfs(int v, int d) {
#if defined(APP_BLOCK)
    // thread 0 takes the vertex; the barrier tells every thread whether this rank had
    // already reached v by a shorter path
    if (__syncthreads_or(threadIdx.x == 0 && atomicMin(&g_depth[v], d) < d)) return;
#else
    if (atomicMin(&g_depth[v], d) < d) return; // this rank reached v by a shorter path
#endif
    const int end = g_row[v + 1];
    for (int e = g_row[v] + BFS_FIRST; e < end; e += BFS_STRIDE) {
        const int u = g_col[e];
        if (atomicMin(&g_depth[u], d + 1) > d + 1) {
            #pragma gtap task
            bfs(u, d + 1);
        }
    }
}

__global__ void bfs_kernel(int source) {
    #pragma gtap entry
    bfs(source, 0);
}

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

// An undirected random graph in CSR: nv * avg_degree / 2 random edges, plus 4 hubs of 300
// edges each; row[nv + 1], col[row[nv]] (both malloc'ed).
static void make_graph(int nv, int avg_degree, int **row_p, int **col_p) {
    const long long extra = nv * (long long)avg_degree / 2, hubs = nv >= 8 ? 4 : 0;
    const long long ne = extra + hubs * 300;
    int *eu = (int *)malloc(ne * sizeof(int)), *ev = (int *)malloc(ne * sizeof(int));
    int *row = (int *)calloc(nv + 1, sizeof(int));
    uint64_t s = 12345;
    long long n = 0;
    for (long long i = 0; i < extra; i++, n++) {
        eu[n] = (int)(lcg(&s) % nv);
        ev[n] = (int)(lcg(&s) % nv);
    }
    for (long long h = 0; h < hubs; h++)
        for (int i = 0; i < 300; i++, n++) {
            eu[n] = (int)((h + 1) * nv / 8);
            ev[n] = (int)(lcg(&s) % nv);
        }
    for (long long i = 0; i < ne; i++) {
        row[eu[i] + 1]++;
        row[ev[i] + 1]++;
    }
    for (int v = 0; v < nv; v++) row[v + 1] += row[v];
    int *col = (int *)malloc((row[nv] ? row[nv] : 1) * sizeof(int)), *fill = (int *)malloc(nv * sizeof(int));
    memcpy(fill, row, nv * sizeof(int));
    for (long long i = 0; i < ne; i++) {
        col[fill[eu[i]]++] = ev[i];
        col[fill[ev[i]]++] = eu[i];
    }
    free(fill);
    free(eu);
    free(ev);
    *row_p = row;
    *col_p = col;
}

static void bfs_cpu(int nv, const int *row, const int *col, int source, int *depth) {
    int *queue = (int *)malloc(nv * sizeof(int)), head = 0, tail = 0;
    for (int v = 0; v < nv; v++) depth[v] = BFS_INF;
    depth[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row[v]; e < row[v + 1]; e++)
            if (depth[col[e]] == BFS_INF) {
                depth[col[e]] = depth[v] + 1;
                queue[tail++] = col[e];
            }
    }
    free(queue);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int nv = (int)app_arg(argc, argv, 1, 3000), avg_degree = (int)app_arg(argc, argv, 2, 6);
    int runs = (int)app_arg(argc, argv, 3, 1), rc = 0;
    const int source = 0;
    if (nv < 1 || nv > (1 << 24) || avg_degree < 0 || avg_degree > 64) {
        printf("FAIL: vertices must be in 1..2^24 and avg_degree in 0..64\n");
        return 1;
    }
    APP_CUDA(gtap_initialize()); // first: on a distributed run it selects this rank's GPU
    // rank 0 builds the graph; the others learn its size, then receive it (gtap_replicate)
    int *row = NULL, *col = NULL, size[2] = {0, 0};
    if (gtap_dist_rank() == 0) {
        make_graph(nv, avg_degree, &row, &col);
        size[0] = nv;
        size[1] = row[nv];
    }
    if (gtap_replicate(size, size, sizeof size) != 0) return 1;
    const int nnz = size[1];
    int *d_row = NULL, *d_col = NULL, *d_depth = NULL;
    APP_CUDA(cudaMalloc((void **)&d_row, (nv + 1) * sizeof(int)));
    APP_CUDA(cudaMalloc((void **)&d_col, (nnz ? nnz : 1) * sizeof(int)));
    APP_CUDA(cudaMalloc((void **)&d_depth, nv * sizeof(int)));
    if (gtap_dist_rank() == 0) {
        APP_CUDA(cudaMemcpy(d_row, row, (nv + 1) * sizeof(int), cudaMemcpyHostToDevice));
        APP_CUDA(cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    }
    if (gtap_replicate(d_row, d_row, (nv + 1) * sizeof(int)) != 0 ||
        gtap_replicate(d_col, d_col, nnz * sizeof(int)) != 0)
        return 1;
    APP_CUDA(cudaMemcpyToSymbol(g_row, &d_row, sizeof d_row));
    APP_CUDA(cudaMemcpyToSymbol(g_col, &d_col, sizeof d_col));
    APP_CUDA(cudaMemcpyToSymbol(g_depth, &d_depth, sizeof d_depth));
    int *ref = (int *)malloc(nv * sizeof(int)), *depth = (int *)malloc(nv * sizeof(int));
    uint64_t *enc = (uint64_t *)malloc(nv * sizeof(uint64_t));
    if (gtap_dist_rank() == 0) bfs_cpu(nv, row, col, source, ref);
    // every rank makes every run (a launch and the reduction involve all ranks)
    for (int r = 0; r < runs; r++) {
        APP_CUDA(cudaMemset(d_depth, 0x3f, nv * sizeof(int))); // BFS_INF: the root task sets the source
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(bfs_kernel, source));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpy(depth, d_depth, nv * sizeof(int), cudaMemcpyDeviceToHost));
        // the minimum over ranks, as a maximum of BFS_INF - depth
        for (int v = 0; v < nv; v++) enc[v] = (uint64_t)(BFS_INF - depth[v]);
        if (gtap_dist_allreduce_u64(enc, nv, GTAP_DIST_MAX) != 0) return 1;
        long long right = 0, wrong = 0, reached = 0;
        for (int v = 0; v < nv && gtap_dist_rank() == 0; v++) {
            const int dv = BFS_INF - (int)enc[v];
            reached += dv != BFS_INF;
            right += dv == ref[v];
            if (dv != ref[v] && wrong++ < 5)
                printf("bfs: depth[%d] = %d, expected %d\n", v, dv, ref[v]);
        }
        char what[128];
        snprintf(what, sizeof what, "%sBFS(%d vertices, %d edges, %lld reached) vertices at the right depth",
#if defined(APP_BLOCK)
                 "block-level ",
#else
                 "",
#endif
                 nv, nnz, reached);
        rc |= app_report(what, right, nv, ms);
    }
    free(ref);
    free(depth);
    free(enc);
    free(row);
    free(col);
    cudaFree(d_row);
    cudaFree(d_col);
    cudaFree(d_depth);
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
