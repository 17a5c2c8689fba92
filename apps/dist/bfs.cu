// bfs.cu - distributed asynchronous (label-correcting) BFS on a random graph: a task
// bfs(v, d) says "v is reachable in d steps"; it relaxes v's edges with atomicMin on this
// rank's depth array and spawns bfs(u, d + 1) for every neighbour it improved (detached
// tasks, built with -fgtap-no-taskwait). Usage: bfs [vertices=3000] [avg_degree=6] [runs=1]
// [delta=-1: levels per phase; -1 the default below, 0 one phase].
//
// What makes it distributable (docs/dist.md, "What moves"): the graph is built on rank 0 and
// replicated to every rank with gtap_replicate, and tasks reach it through globals, so their
// data (ints) holds no pointer and they migrate. Each rank has its own depth array (a
// __device__ global); a task carries the depth it found, so it is right on any rank, and a
// task whose vertex this rank already reached by a shorter path stops at once.
//
// Phases, as apps/bfs: workers run their newest tasks first, so with few workers the
// relaxation goes depth-first, labels vertices far too deep and re-relaxes what lies behind
// every detour (runs of minutes, deques of 16 K tasks overflowing, on graphs of 10^5 vertices
// and 4 blocks per rank). A phase (one launch on every rank) therefore spawns only for labels
// up to its last level; a relaxation that reaches the next level sets the label and spawns
// nothing. After the phase the ranks' arrays are reduced to their minimum (every rank gets
// it): a label at or below the phase's last level is then the BFS depth (along a shortest
// path each vertex's task with its true depth ran on some rank and relaxed the next vertex
// there), and the vertices labelled last + 1 - the same list on every rank - start the next
// phase. Each vertex runs at most delta tasks per rank. The default, 4 x the workers of all
// ranks as apps/bfs, is capped so that delta levels of pending children fit a worker's deque
// (a few dozen levels for warps: random graphs of 10^6 vertices and degree 8 still run in one
// phase). Checked against a CPU queue BFS on rank 0 (every vertex).
//
// -DAPP_BLOCK (with GTAP_BLOCK_SIZE): block-level workers, one block per task: thread 0 takes
// the vertex (its atomicMin) and tells the block with __syncthreads_or, then the edges are
// strided over the block's threads and each thread spawns the tasks of the neighbours it
// improved. A few hub vertices have hundreds of edges, more than a block has threads.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define BFS_FIRST ((int)threadIdx.x)
#define BFS_STRIDE ((int)blockDim.x)
#define BFS_ROOTS_PER_TASK (4 * (int)blockDim.x)
#else
#include "gtap_thread.cuh"
#define BFS_FIRST 0
#define BFS_STRIDE 1
#define BFS_ROOTS_PER_TASK 32
#endif
#include "dist_app.h"

#define BFS_INF 0x3f3f3f3f

__device__ const int *g_row; // CSR: edges of v are g_col[g_row[v] .. g_row[v + 1])
__device__ const int *g_col;
__device__ int *g_depth;     // this rank's depths
__device__ const int *g_roots; // a later phase's first vertices (the same list on every rank)
__constant__ int g_phase_last; // the deepest label a task of this phase is spawned for

// Lowers u's label to nd on this rank; true if the caller is to spawn u's task in this phase
// (a label past the phase is set, and the vertex starts the next phase).
__device__ __forceinline__ bool bfs_improve(int u, int nd) {
    return atomicMin(&g_depth[u], nd) > nd && nd <= g_phase_last;
}

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
        if (bfs_improve(u, d + 1)) {
            #pragma gtap task
            bfs(u, d + 1);
        }
    }
}

// A later phase's start: roots [lo, hi) of g_roots, halved down to BFS_ROOTS_PER_TASK (by
// thread 0 of a block); each starts with the phase's first level.
#pragma gtap function
__device__ void bfs_roots(int lo, int hi, int first) {
    while (hi - lo > BFS_ROOTS_PER_TASK) {
        const int mid = lo + (hi - lo) / 2;
        if (BFS_FIRST == 0) {
            #pragma gtap task
            bfs_roots(mid, hi, first);
        }
        hi = mid;
    }
    for (int i = lo + BFS_FIRST; i < hi; i += BFS_STRIDE) {
        #pragma gtap task
        bfs(g_roots[i], first);
    }
}

__global__ void bfs_kernel(int source) {
    #pragma gtap entry
    bfs(source, 0);
}

__global__ void bfs_roots_kernel(int count, int first) {
    #pragma gtap entry
    bfs_roots(0, count, first);
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

// Reduces the ranks' depth arrays to their minimum (every rank gets it): device d_depth ->
// host depth, then back to d_depth. enc: nv words of scratch. Returns 0, or 1 after a message.
static int bfs_merge_depths(int nv, int *d_depth, int *depth, uint64_t *enc) {
    APP_CUDA(cudaMemcpy(depth, d_depth, nv * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v = 0; v < nv; v++) enc[v] = (uint64_t)(BFS_INF - depth[v]); // min as max
    if (gtap_dist_allreduce_u64(enc, nv, GTAP_DIST_MAX) != 0) return 1;
    for (int v = 0; v < nv; v++) depth[v] = BFS_INF - (int)enc[v];
    APP_CUDA(cudaMemcpy(d_depth, depth, nv * sizeof(int), cudaMemcpyHostToDevice));
    return 0;
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int nv = (int)app_arg(argc, argv, 1, "vertices", 3000), avg_degree = (int)app_arg(argc, argv, 2, "avg_degree", 6);
    int runs = (int)app_arg(argc, argv, 3, "runs", 1), rc = 0;
    long long delta = app_arg(argc, argv, 4, "delta", -1);
    const int source = 0;
    if (nv < 1 || nv > (1 << 24) || avg_degree < 0 || avg_degree > 64 || delta < -1 || delta > 0x3fffffff) {
        if (gtap_dist_rank() == 0)
            fprintf(stderr, "%s: vertices %d, avg_degree %d, delta %lld: vertices must be in 1..2^24, avg_degree "
                    "in 0..64, delta -1 (4 x workers), 0 (one phase) or levels per phase\n", argv[0], nv, avg_degree,
                    delta);
        gtap_dist_finalize();
        return 2;
    }
    APP_CUDA(gtap_initialize()); // first: on a distributed run it selects this rank's GPU
    if (delta < 0) {
        // 4 x the workers of all ranks (warps, or blocks), as apps/bfs; but at most what a
        // worker's deque holds when its newest-first order runs delta levels deep and every
        // level leaves the other children of its tasks behind (about twice the average degree
        // each, a warp's 32 lanes at once)
#if defined(APP_BLOCK)
        uint64_t workers = (uint64_t)gtap_default_grid_size();
        const long long per_level = 2ll * avg_degree + 2;
#else
        uint64_t workers = (uint64_t)gtap_default_grid_size() * GTAP_BLOCK_SIZE / 32;
        const long long per_level = 32ll * (2 * avg_degree + 2);
#endif
#if defined(GTAP_TARGET_HOST)
        const long long capacity = 1ll << 30; // the reference executor's deques grow
#else
        const long long capacity = gtap_config_defaults().max_tasks_per_worker; // the knob, env applied
#endif
        if (gtap_dist_allreduce_u64(&workers, 1, GTAP_DIST_SUM) != 0) return 1;
        delta = 4 * (long long)(workers ? workers : 1);
        if (delta > capacity / per_level) delta = capacity / per_level > 1 ? capacity / per_level : 1;
    }
    // rank 0 builds the graph; the others learn its size, then receive it (gtap_replicate)
    int *row = NULL, *col = NULL, size[2] = {0, 0};
    if (gtap_dist_rank() == 0) {
        make_graph(nv, avg_degree, &row, &col);
        size[0] = nv;
        size[1] = row[nv];
    }
    if (gtap_replicate(size, size, sizeof size) != 0) return 1;
    const int nnz = size[1];
    int *d_row = NULL, *d_col = NULL, *d_depth = NULL, *d_roots = NULL;
    APP_CUDA(cudaMalloc((void **)&d_row, (nv + 1) * sizeof(int)));
    APP_CUDA(cudaMalloc((void **)&d_col, (nnz ? nnz : 1) * sizeof(int)));
    APP_CUDA(cudaMalloc((void **)&d_depth, nv * sizeof(int)));
    APP_CUDA(cudaMalloc((void **)&d_roots, nv * sizeof(int)));
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
    APP_CUDA(cudaMemcpyToSymbol(g_roots, &d_roots, sizeof d_roots));
    int *ref = (int *)malloc(nv * sizeof(int)), *depth = (int *)malloc(nv * sizeof(int));
    int *roots = (int *)malloc(nv * sizeof(int));
    uint64_t *enc = (uint64_t *)malloc(nv * sizeof(uint64_t));
    if (gtap_dist_rank() == 0) bfs_cpu(nv, row, col, source, ref);
    // every rank makes every run and phase (a launch and the reductions involve all ranks)
    for (int r = 0; r < runs; r++) {
        APP_CUDA(cudaMemset(d_depth, 0x3f, nv * sizeof(int))); // BFS_INF: the root task sets the source
        double ms = 0;
        int phases = 0, count = 0;
        for (long long first = 0;;) {
            const long long last_ll = delta ? first + delta - 1 : BFS_INF - 1;
            const int last = last_ll < BFS_INF - 1 ? (int)last_ll : BFS_INF - 1;
            APP_CUDA(cudaMemcpyToSymbol(g_phase_last, &last, sizeof last));
            double t0 = app_now_ms();
            if (first == 0)
                APP_CUDA(gtap_launch(bfs_kernel, source));
            else
                APP_CUDA(gtap_launch(bfs_roots_kernel, count, (int)first));
            APP_CUDA(gtap_synchronize());
            ms += app_now_ms() - t0;
            phases++;
            if (bfs_merge_depths(nv, d_depth, depth, enc) != 0) return 1;
            if (last == BFS_INF - 1) break; // no label was past this phase
            count = 0; // the next phase's roots: the same list on every rank
            for (int v = 0; v < nv; v++)
                if (depth[v] == last + 1) roots[count++] = v;
            if (count == 0) break;
            APP_CUDA(cudaMemcpy(d_roots, roots, count * sizeof(int), cudaMemcpyHostToDevice));
            first = last_ll + 1;
        }
        long long right = 0, wrong = 0, reached = 0;
        for (int v = 0; v < nv && gtap_dist_rank() == 0; v++) {
            reached += depth[v] != BFS_INF;
            right += depth[v] == ref[v];
            if (depth[v] != ref[v] && wrong++ < 5)
                printf("bfs: depth[%d] = %d, expected %d\n", v, depth[v], ref[v]);
        }
        char what[160];
        snprintf(what, sizeof what, "%sBFS(%d vertices, %d edges, %lld reached, %d phase(s), delta %lld) vertices at the right depth",
#if defined(APP_BLOCK)
                 "block-level ",
#else
                 "",
#endif
                 nv, nnz, reached, phases, delta);
        rc |= app_report(what, right, nv, ms);
    }
    free(ref);
    free(depth);
    free(roots);
    free(enc);
    free(row);
    free(col);
    cudaFree(d_row);
    cudaFree(d_col);
    cudaFree(d_depth);
    cudaFree(d_roots);
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
