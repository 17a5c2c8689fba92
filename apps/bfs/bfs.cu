/* bfs.cu - asynchronous (label-correcting) BFS, the paper's Program 5 and section 6.2 BFS:
 * a task bfs(v) relaxes v's edges with atomicMin on the depths and spawns bfs(u) for every
 * neighbour it improved (detached tasks, built with -fgtap-no-taskwait). Thread-level: one
 * thread per task; a vertex with more than 64 edges first spawns one task per 64-edge chunk
 * (the paper's BFS_SPLIT_THRESHOLD). -DAPP_BLOCK (with GTAP_BLOCK_SIZE): one block per vertex,
 * edges strided over its threads. Checked against a CPU queue BFS. Graph: app_graph.h.
 *
 * Phases of --delta levels. Workers pop their newest tasks first, so with few workers the
 * relaxation runs depth-first: long detours label vertices far too deep and every correction
 * re-relaxes what lies behind them (a percolated 162x162 grid on one worker: 669 tasks per
 * vertex, quadratic in the side). A phase therefore spawns only for labels within delta levels
 * of its first level; a relaxation that reaches the next level sets the label and lists the
 * vertex instead, and the next phase (another launch) starts from that list. A label within a
 * phase only decreases and takes at most delta values, so each vertex runs at most delta
 * tasks in all (a label at or below a phase's last level is exact when the phase ends: it is
 * a path length no shorter than the true depth, and every edge below the last level has been
 * relaxed). delta = 4 x workers (warps or blocks) keeps the full GPU at one phase on the
 * bench's graphs, the paper's program as it is; --delta 0 is that program at any grid.
 */
#include <vector>

#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#else
#include "gtap_thread.cuh"
#endif
#include "gtap_app.cuh"
#include "app_graph.h"
#include "bfs_gpu.cuh"
#include "bfs_result.h"

#define BFS_SPLIT 64

__device__ const int *g_row;
__device__ const int *g_col;
__device__ int *g_depth;
__constant__ int g_phase_last;  /* the deepest label a task of this phase is spawned for */
__device__ const int *g_roots;  /* this phase's first vertices (label g_phase_last - delta + 1) */
__device__ int *g_next;         /* the next phase's first vertices */
__device__ int g_next_count;

/* Lowers u's label to nd; true if the caller is to spawn u's task in this phase. A label past
 * the phase is set and u listed for the next one: only the relaxation that lowers u to the
 * next phase's first level lists it, so the list holds each vertex once. */
__device__ __forceinline__ bool bfs_improve(int u, int nd)
{
    if (atomicMin(&g_depth[u], nd) <= nd)
        return false;
    if (nd <= g_phase_last)
        return true;
    g_next[atomicAdd(&g_next_count, 1)] = u;
    return false;
}

#if defined(APP_BLOCK)
#pragma gtap function
__device__ void bfs(int v)
{
    const int dv = __ldcg(&g_depth[v]);
    const int end = g_row[v + 1];
    for (int e = g_row[v] + (int)threadIdx.x; e < end; e += (int)blockDim.x) {
        const int u = g_col[e];
        if (bfs_improve(u, dv + 1)) {
#pragma gtap task
            bfs(u);
        }
    }
}

/* A later phase's start: roots [lo, hi) of g_roots, halved by thread 0 down to 4 per thread;
 * a root whose label fell below the phase's first level (first) was relaxed already. */
#pragma gtap function
__device__ void bfs_roots(int lo, int hi, int first)
{
    while (hi - lo > 4 * (int)blockDim.x) {
        const int mid = lo + (hi - lo) / 2;
        if (threadIdx.x == 0) {
#pragma gtap task
            bfs_roots(mid, hi, first);
        }
        hi = mid;
    }
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        const int v = g_roots[i];
        if (__ldcg(&g_depth[v]) == first) {
#pragma gtap task
            bfs(v);
        }
    }
}

__global__ void bfs_kernel(int source)
{
#pragma gtap entry
    bfs(source);
}
#else
/* bfs(v, -1, -1) relaxes all of v's edges (splitting first when there are many);
 * bfs(v, b, e) relaxes edges [b, e). */
#pragma gtap function
__device__ void bfs(int v, int begin, int end)
{
    const int dv = __ldcg(&g_depth[v]);
    if (begin < 0) {
        begin = g_row[v];
        end = g_row[v + 1];
        if (end - begin > BFS_SPLIT) {
            for (int s = begin; s < end; s += BFS_SPLIT) {
#pragma gtap task
                bfs(v, s, min(s + BFS_SPLIT, end));
            }
            return;
        }
    }
    for (int e = begin; e < end; e++) {
        const int u = g_col[e];
        if (bfs_improve(u, dv + 1)) {
#pragma gtap task
            bfs(u, -1, -1);
        }
    }
}

/* A later phase's start: roots [lo, hi) of g_roots, halved down to 32 per task; a root whose
 * label fell below the phase's first level (first) was relaxed already. */
#pragma gtap function
__device__ void bfs_roots(int lo, int hi, int first)
{
    while (hi - lo > 32) {
        const int mid = lo + (hi - lo) / 2;
#pragma gtap task
        bfs_roots(mid, hi, first);
        hi = mid;
    }
    for (int i = lo; i < hi; i++) {
        const int v = g_roots[i];
        if (__ldcg(&g_depth[v]) == first) {
#pragma gtap task
            bfs(v, -1, -1);
        }
    }
}

__global__ void bfs_kernel(int source)
{
#pragma gtap entry
    bfs(source, -1, -1);
}
#endif

__global__ void bfs_roots_kernel(int count, int first)
{
#pragma gtap entry
    bfs_roots(0, count, first);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "bfs", APP_GTAP_IMPL, 1 << 16);
    static const char *const keys[] = {"source", "delta", APP_GRAPH_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the number of vertices; [--source V] [--delta LEVELS per phase "
                           "(default 4 x workers; 0: one phase)] " APP_GRAPH_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    app_require_device(&c);
    app_csr g;
    if (app_graph_setup(&c, &g))
        return 1;
    const int nv = g.nrows;
    int source;
    if (bfs_source_option(&c, &g, &source))
        return 2;
    app_param(&c, "source=%d", source);
    long long delta;
    if (bfs_delta_option(&c, &delta))
        return 2;
    const int max_degree = bfs_max_degree(&g);
    if (!c.max_tasks) {
        /* One task may spawn a task per neighbour (block) or per 64-edge chunk (thread), and
         * those wait in its worker's deque: size the deques for the largest fan-out of a full
         * block / warp, keeping the deque rings (4 bytes a slot, a power of two per worker)
         * under 16 GiB. */
#if defined(APP_BLOCK)
        long long need = 2ll * max_degree, deflt = GTAP_MAX_TASKS_PER_BLOCK;
        long long workers = c.grid ? c.grid : gtap_default_grid_size();
#else
        long long need = 32ll * (max_degree / BFS_SPLIT + BFS_SPLIT), deflt = GTAP_MAX_TASKS_PER_WARP;
        long long workers = (long long)(c.grid ? c.grid : gtap_default_grid_size()) *
                            ((c.block ? c.block : GTAP_BLOCK_SIZE) / 32);
#endif
        long long ring;
        c.max_tasks = bfs_deque_tasks(need, deflt, workers, &ring);
        if (ring < need)
            fprintf(c.out, "bfs: a vertex of degree %d may overflow a deque of %lld tasks (--max-tasks)\n",
                    max_degree, ring);
    }
    if (c.max_tasks)
        app_param(&c, "max_tasks=%lld", c.max_tasks);
    bfs_device dev;
    if (bfs_device_alloc(c.app, &g, 0, &dev))
        return 1;
    cudaMemcpyToSymbol(g_row, &dev.row, sizeof dev.row);
    cudaMemcpyToSymbol(g_col, &dev.col, sizeof dev.col);
    cudaMemcpyToSymbol(g_depth, &dev.depth, sizeof dev.depth);
    if (app_gtap_init(&c))
        return 1;
    if (delta == BFS_DELTA_UNSET) {
#if defined(APP_BLOCK)
        delta = 4ll * c.workers;
#else
        delta = 4ll * (c.workers > 32 ? c.workers / 32 : 1);
#endif
    }
    app_param(&c, "delta=%lld", delta);
    app_banner(&c);
    int phases = 0;
    /* Sets up the phase whose first level is first: its last level, an empty list, and the
     * list it starts from (parity). */
    auto phase_setup = [&](long long first, int parity) -> long long {
        int last;
        const int zero = 0;
        const long long last_ll = bfs_phase_last(delta, first, &last);
        cudaMemcpyToSymbol(g_phase_last, &last, sizeof last);
        cudaMemcpyToSymbol(g_roots, &dev.list[parity], sizeof dev.list[parity]);
        cudaMemcpyToSymbol(g_next, &dev.list[parity ^ 1], sizeof dev.list[parity ^ 1]);
        cudaMemcpyToSymbol(g_next_count, &zero, sizeof zero);
        return last_ll;
    };
    long long phase0_last = 0;
    /* One phase per launch (see the header): launch, and start the next phase from the list
     * until it comes back empty. The first phase is set up with the run's reset (untimed). */
    auto run_phases = [&](cudaEvent_t end) -> cudaError_t {
        return bfs_run_phases(
            end, phase0_last, &phases, phase_setup,
            [&](int phase, int count, int first) {
                return phase == 0 ? gtap_launch(bfs_kernel, source) : gtap_launch(bfs_roots_kernel, count, first);
            },
            [&](int *count) { return cudaMemcpyFromSymbol(count, g_next_count, sizeof *count); });
    };
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            const int zero = 0;
            cudaMemset(dev.depth, 0x3f, (size_t)nv * sizeof(int)); /* APP_BFS_INF */
            cudaMemcpy(dev.depth + source, &zero, sizeof zero, cudaMemcpyHostToDevice);
            phase0_last = phase_setup(0, 0);
        },
        run_phases);
    if (rc)
        return 1;
    std::vector<int> depth(nv), ref(nv);
    cudaMemcpy(depth.data(), dev.depth, (size_t)nv * sizeof(int), cudaMemcpyDeviceToHost);
    char answer[96];
    const app_check_t check = bfs_result(&c, &g, source, depth.data(), ref.data(), answer, sizeof answer);
    if (c.verbose)
        fprintf(c.out, "bfs: %d phase%s in the last run\n", phases, phases == 1 ? "" : "s");
    bfs_device_free(&dev);
    app_csr_free(&g);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
