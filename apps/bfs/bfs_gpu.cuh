/* bfs_gpu.cuh - what the GPU BFS programs (bfs.cu, bfs_batched.cu) share on the host: the
 * --source option, the graph and the BFS's arrays on the device, the phases of --delta levels
 * (bfs.cu's header says why they exist) - the option, a phase's last level and the loop of one
 * launch per phase - and the deque capacity for a program's largest fan-out. Include after
 * gtap_app.cuh. */
#ifndef BFS_GPU_CUH
#define BFS_GPU_CUH

#include "app_cli.h"
#include "app_input.h"

/* --delta was not given: the program picks its default from the worker count. */
#define BFS_DELTA_UNSET (-(1ll << 62))

/* Reads --delta into *delta_p (BFS_DELTA_UNSET when absent). Returns 0, or 2 after a one-line
 * error naming the value (a negative count, or one past an int's levels). */
static inline int bfs_delta_option(const app_cli *c, long long *delta_p)
{
    const long long delta = app_opt_ll(c, "delta", BFS_DELTA_UNSET);
    if (delta != BFS_DELTA_UNSET && (delta < 0 || delta > 0x3fffffff)) {
        fprintf(stderr, "%s: --delta %lld: must be 0 (one phase) or a number of levels\n", c->app, delta);
        return 2;
    }
    *delta_p = delta;
    return 0;
}

/* The last level of the phase whose first level is first: first + delta - 1, or every level
 * when delta is 0. Returns it unclamped (the next phase starts after it) and stores in *last_p
 * the label bound the device compares with, clamped below INT_MAX so that last + 1 fits. */
static inline long long bfs_phase_last(long long delta, long long first, int *last_p)
{
    const long long last_ll = delta ? first + delta - 1 : 0x7ffffffe;
    *last_p = last_ll < 0x7ffffffe ? (int)last_ll : 0x7ffffffe;
    return last_ll;
}

/* Runs the phases of one BFS run, one launch each, until a phase lists no vertex for the next.
 * Phase 0 (first level 0, last level phase0_last) was set up with the run's reset, untimed.
 *   setup(first, parity) -> long long   prepares a later phase from the list `parity` (the one
 *                                       the phase before filled) and returns its last level;
 *   launch(phase, count, first) -> cudaError_t   starts a phase: `count` vertices listed, the
 *                                       phase's first level `first` (phase 0: 0 and 0);
 *   listed(int *count) -> cudaError_t   reads how many vertices the finished phase listed.
 * Records `end` after each launch (app_gtap_run's multi-launch form), so the host's decision
 * that the last phase was the last stays out of the kernel time. Stores the number of phases
 * run in *phases_p. Returns the first error, or cudaSuccess. */
template <class Setup, class Launch, class Listed>
static cudaError_t bfs_run_phases(cudaEvent_t end, long long phase0_last, int *phases_p, Setup setup, Launch launch,
                                  Listed listed)
{
    long long first = 0, last = phase0_last;
    int count = 0, parity = 0;
    for (int phase = 0;; phase++) {
        if (phase > 0)
            last = setup(first, parity);
        cudaError_t e = launch(phase, count, (int)first);
        cudaEventRecord(end, 0);
        if (e == cudaSuccess)
            e = gtap_synchronize();
        if (e == cudaSuccess)
            e = listed(&count);
        if (e != cudaSuccess || count == 0) {
            *phases_p = phase + 1;
            return e;
        }
        first = last + 1;
        parity ^= 1;
    }
}

/* The deque capacity (--max-tasks) for a program whose worker may hold `need` spawned tasks at
 * once, given the runtime's default capacity `deflt` and `workers` workers: the next power of
 * two, halved while it is above the default and the rings (4 bytes a slot, a power of two per
 * worker) would pass 16 GiB. Stores that ring size in *ring_p (below need: the caller warns)
 * and returns the capacity to ask for, or 0 when the default suffices. */
static inline long long bfs_deque_tasks(long long need, long long deflt, long long workers, long long *ring_p)
{
    long long ring = 1;
    while (ring < need)
        ring <<= 1;
    while (ring > deflt && ring * 4 * workers > (16ll << 30))
        ring >>= 1;
    *ring_p = ring;
    return need > deflt ? (need < ring ? need : ring) : 0;
}

/* The largest out-degree of g. */
static inline int bfs_max_degree(const app_csr *g)
{
    int max_degree = 0;
    for (int v = 0; v < g->nrows; v++)
        max_degree = g->row[v + 1] - g->row[v] > max_degree ? g->row[v + 1] - g->row[v] : max_degree;
    return max_degree;
}

/* Reads --source (default: g's first vertex with an edge) into *source_p. Returns 0, or 2
 * after a one-line error. */
static inline int bfs_source_option(const app_cli *c, const app_csr *g, int *source_p)
{
    const long long source = app_opt_ll(c, "source", app_graph_first_nonisolated(g, 0));
    if (source < 0 || source >= g->nrows) {
        fprintf(stderr, "%s: --source must be a vertex (0..%d)\n", c->app, g->nrows - 1);
        return 2;
    }
    *source_p = (int)source;
    return 0;
}

/* The graph and the BFS's arrays in device memory: the CSR, the depths, the two lists of
 * phase roots, and (work_ints > 0) a work list. */
typedef struct bfs_device {
    int *row, *col, *depth, *list[2], *work;
} bfs_device;

static inline void bfs_device_free(bfs_device *d)
{
    cudaFree(d->row);
    cudaFree(d->col);
    cudaFree(d->depth);
    cudaFree(d->list[0]);
    cudaFree(d->list[1]);
    cudaFree(d->work);
    *d = bfs_device{};
}

/* Allocates d for g and copies the CSR there. Returns 0, or 1 after a message. */
static inline int bfs_device_alloc(const char *app, const app_csr *g, long long work_ints, bfs_device *d)
{
    const size_t nv = (size_t)g->nrows;
    *d = bfs_device{};
    if (cudaMalloc(&d->row, (nv + 1) * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d->col, (size_t)(g->nnz ? g->nnz : 1) * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d->depth, nv * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d->list[0], nv * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d->list[1], nv * sizeof(int)) != cudaSuccess ||
        (work_ints > 0 && cudaMalloc(&d->work, (size_t)work_ints * sizeof(int)) != cudaSuccess)) {
        fprintf(stderr, "%s: cannot allocate device memory\n", app);
        bfs_device_free(d);
        return 1;
    }
    cudaMemcpy(d->row, g->row, (nv + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d->col, g->col, (size_t)g->nnz * sizeof(int), cudaMemcpyHostToDevice);
    return 0;
}

#endif /* BFS_GPU_CUH */
