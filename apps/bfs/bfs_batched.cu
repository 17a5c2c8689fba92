/* bfs_batched.cu - batched asynchronous BFS, thread-level (the upstream GTaP's newest BFS,
 * issue 27): bfs.cu's label-correcting BFS where a task relaxes a batch of up to --batch
 * vertices instead of one, and a vertex of more than --split-degree edges is relaxed by
 * edge-range tasks. Same answer and check as bfs.cu (depths against the CPU queue BFS).
 *
 * Batches. A task gathers the neighbours it improved in a local buffer; each full buffer (and
 * the rest at the end) is copied to a global work list with one atomicAdd, and one child task
 * relaxes that slice. A task thus spawns once per --batch discoveries instead of once per
 * discovery, and a child's vertices stay together on one lane. The list is append-only within
 * a launch (a slot is written once, then read by the one task spawned for it; the spawn's
 * fence publishes it, docs/deque.md D1) and starts empty at every phase. It holds
 * --list-capacity vertices (default vertices + edges, what the upstream program allots); a
 * batch that finds it full, and a batch of one vertex, goes out as one task per vertex
 * instead, which needs no slot: a small list costs speed, never the answer.
 *
 * Edge ranges. A vertex of more than split edges gets its own task, which halves its range
 * until the piece it keeps has at most split edges, spawning the upper halves (bfs.cu's
 * bfs_roots pattern): a task spawns O(log degree) tasks, not degree / split, so a hub does not
 * fill its worker's deque, and thieves take the largest halves first.
 *
 * Phases. Batching does not change the order that makes label-correcting BFS quadratic on few
 * workers (newest first runs it depth-first), so the run goes in bfs.cu's phases of --delta
 * levels (bfs_gpu.cuh; bfs.cu's header has the argument): within a phase a vertex's label
 * takes at most delta values, and each value puts the vertex in at most one batch.
 */
#include <vector>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "app_graph.h"
#include "bfs_gpu.cuh"
#include "bfs_result.h"

/* The largest --batch: the local buffer of every task has this many slots. */
#define BFSB_MAX_BATCH 128

/* What a task relaxes (bfsb's first argument). Non-zero, so a zeroed record is no kind. */
enum { BFSB_LIST = 1, BFSB_EDGES = 2 };

/* A phase's parameters, rewritten before each launch (constant for the launch: every lane
 * reads them through the constant cache). */
struct bfsb_phase {
    const int *roots; /* this phase's first vertices (label `last - delta + 1`; phase 0: the source) */
    int *next;        /* the next phase's first vertices */
    int *work;        /* the work list of batches */
    int last;         /* the deepest label a task of this phase is spawned for */
    int work_capacity;
    int batch, split; /* --batch, --split-degree */
    int stats;        /* --verbose: count tasks (atomics: not for timing) */
};

/* Counters of one phase, zeroed before its launch and read after it. */
struct bfsb_phase_counts {
    int next_count; /* vertices listed in next */
    int work_tail;  /* slots handed out of work (past work_capacity: refused) */
};

/* Counters of one run (--verbose only, but spilled always). */
struct bfsb_run_counts {
    unsigned long long lists, ranges, spilled; /* list tasks, edge-range tasks, vertices spilled */
};

__device__ const int *g_row;
__device__ const int *g_col;
__device__ int *g_depth;
__constant__ bfsb_phase g_ph;
__device__ bfsb_phase_counts g_phase_counts;
__device__ bfsb_run_counts g_run_counts;

/* Lowers u's label to nd; true if u is to be relaxed in this phase. A label past the phase is
 * set and u listed for the next one: only the relaxation that lowers u from unreached to the
 * next phase's first level lists it, so the list holds each vertex once (bfs.cu). */
__device__ __forceinline__ bool bfsb_improve(int u, int nd)
{
    if (atomicMin(&g_depth[u], nd) <= nd)
        return false;
    if (nd <= g_ph.last)
        return true;
    g_ph.next[atomicAdd(&g_phase_counts.next_count, 1)] = u;
    return false;
}

/* Copies buf[0, n) into the work list. Returns the first slot, or -1 when the vertices are to
 * go out one task each: n is 1 (the vertex fits in the task's arguments) or the list has no
 * room. The tail is read first so that a full list costs one load, not an atomic per batch;
 * slots refused past the capacity are never written. */
__device__ __forceinline__ int bfsb_reserve(const int *buf, int n)
{
    if (n < 2)
        return -1;
    int at = -1;
    if (__ldcg(&g_phase_counts.work_tail) <= g_ph.work_capacity - n) {
        at = atomicAdd(&g_phase_counts.work_tail, n);
        if (at > g_ph.work_capacity - n)
            at = -1;
    }
    if (at < 0) {
        atomicAdd(&g_run_counts.spilled, (unsigned long long)n);
        return -1;
    }
    for (int j = 0; j < n; j++)
        g_ph.work[at + j] = buf[j];
    return at;
}

/* bfsb(BFSB_LIST, at, count, first): the vertices list[at, at + count), where list is this
 * phase's roots when first >= 0 (only those still at label first: a root whose label fell
 * below was relaxed in an earlier phase) and the work list when first < 0; more than a batch
 * is halved first (only a phase's roots come in more).
 * bfsb(BFSB_EDGES, v, begin, end): v's edges [begin, end) (begin < 0: all of them), halved
 * down to split edges.
 * Each relaxes with the label it reads when it reaches the vertex (a later, lower label has
 * queued the vertex again) and gathers the improved neighbours into batches. */
#pragma gtap function
__device__ void bfsb(int kind, int a, int b, int c)
{
    const int batch = g_ph.batch, split = g_ph.split;
    const int *list = NULL;
    int count = 0, first = -1; /* BFSB_LIST: the slice */
    int e = 0, end = 0, dv = 0; /* the vertex being relaxed: edges [e, end) at label dv */
    if (kind == BFSB_LIST) {
        count = b;
        first = c;
        while (count > batch) {
            const int half = count / 2;
#pragma gtap task
            bfsb(BFSB_LIST, a + half, count - half, first);
            count = half;
        }
        list = (first >= 0 ? g_ph.roots : g_ph.work) + a;
        if (g_ph.stats)
            atomicAdd(&g_run_counts.lists, 1ull);
    } else {
        e = b;
        end = c;
        if (e < 0) {
            e = g_row[a];
            end = g_row[a + 1];
        }
        while (end - e > split) {
            const int mid = e + (end - e) / 2;
#pragma gtap task
            bfsb(BFSB_EDGES, a, mid, end);
            end = mid;
        }
        dv = __ldcg(&g_depth[a]);
        if (g_ph.stats)
            atomicAdd(&g_run_counts.ranges, 1ull);
    }
    /* One loop over the slice's edges, one edge per iteration, so that the buffer is flushed
     * in one place: when it holds a batch, and after the last edge. */
    int buf[BFSB_MAX_BATCH], n = 0, i = 0;
    for (;;) {
        /* the next vertex of the slice with edges to relax; one over split edges gets a task */
        while (e == end && i < count) {
            const int w = __ldcg(&list[i++]);
            const int dw = __ldcg(&g_depth[w]);
            if (first >= 0 && dw != first)
                continue;
            const int wb = g_row[w], we = g_row[w + 1];
            if (we - wb > split) {
#pragma gtap task
                bfsb(BFSB_EDGES, w, wb, we);
                continue;
            }
            e = wb;
            end = we;
            dv = dw;
        }
        const bool done = e == end;
        if (!done) {
            const int u = g_col[e++];
            if (bfsb_improve(u, dv + 1))
                buf[n++] = u;
        }
        if (n == batch || (done && n > 0)) {
            const int at = bfsb_reserve(buf, n);
            if (at >= 0) {
#pragma gtap task
                bfsb(BFSB_LIST, at, n, -1);
            } else {
                for (int j = 0; j < n; j++) {
#pragma gtap task
                    bfsb(BFSB_EDGES, buf[j], -1, -1);
                }
            }
            n = 0;
        }
        if (done)
            break;
    }
}

/* A phase: its `count` roots (phase 0: the source alone), which start at label first. */
__global__ void bfsb_kernel(int count, int first)
{
#pragma gtap entry
    bfsb(BFSB_LIST, 0, count, first);
}

/* Reads the program's own options (before the device and the graph: a usage error comes
 * first). Returns 0 or 2 after a one-line error naming the option and its value. */
static int bfsb_options(const app_cli *c, int *batch_p, int *split_p, long long *capacity_p, long long *delta_p)
{
    const long long batch = app_opt_ll(c, "batch", 32), split = app_opt_ll(c, "split-degree", 64);
    const long long capacity = app_opt_ll(c, "list-capacity", -1);
    if (batch < 1 || batch > BFSB_MAX_BATCH) {
        fprintf(stderr, "%s: --batch %lld: must be 1 to %d vertices per task\n", c->app, batch, BFSB_MAX_BATCH);
        return 2;
    }
    if (split < 1 || split > (1 << 30)) {
        fprintf(stderr, "%s: --split-degree %lld: must be 1 to 2^30 edges per task\n", c->app, split);
        return 2;
    }
    if (app_opt_str(c, "list-capacity", NULL) && (capacity < 0 || capacity > (1 << 30))) {
        fprintf(stderr, "%s: --list-capacity %lld: must be 0 to 2^30 vertices\n", c->app, capacity);
        return 2;
    }
    *batch_p = (int)batch;
    *split_p = (int)split;
    *capacity_p = capacity;
    return bfs_delta_option(c, delta_p);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "bfs_batched", APP_GTAP_IMPL, 1 << 16);
    static const char *const keys[] = {"source", "delta", "batch", "split-degree", "list-capacity", APP_GRAPH_KEYS,
                                       NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the number of vertices; [--source V] [--batch VERTICES per task (32, at "
                           "most 128)]\n       [--split-degree EDGES (64): a vertex with more is relaxed by "
                           "edge-range tasks]\n       [--list-capacity VERTICES (vertices + edges)] [--delta "
                           "LEVELS per phase (4 x warps; 0: one phase)]\n       " APP_GRAPH_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    int batch, split;
    long long capacity, delta;
    if ((rc = bfsb_options(&c, &batch, &split, &capacity, &delta)))
        return rc;
    app_require_device(&c);
    app_csr g;
    if (app_graph_setup(&c, &g))
        return 1;
    const int nv = g.nrows;
    int source;
    if (bfs_source_option(&c, &g, &source))
        return 2;
    const long long list_default = (long long)nv + g.nnz + 1;
    if (capacity < 0)
        capacity = list_default < (1 << 30) ? list_default : (1 << 30);
    app_param(&c, "source=%d;batch=%d;split_degree=%d;list_capacity=%lld", source, batch, split, capacity);
    const int max_degree = bfs_max_degree(&g);
    if (!c.max_tasks) {
        /* What one lane's task may have spawned when it ends, all waiting in its warp's deque
         * with the other 31 lanes' (a warp's deque takes every lane's spawns): up to 31 halves
         * of a phase's roots, a task per heavy vertex of its batch, and a batch per `batch`
         * discoveries, of which it makes at most batch x min(split, max degree). With a work
         * list smaller than the default the discoveries may go out one task each. */
        const long long reach = split < max_degree ? split : max_degree;
        const long long per_lane = 32 + batch + reach * (capacity < list_default ? batch : 1) + 1;
        const long long need = 32 * per_lane;
        const long long warps = (long long)(c.grid ? c.grid : gtap_default_grid_size()) *
                                ((c.block ? c.block : GTAP_BLOCK_SIZE) / 32);
        long long ring;
        c.max_tasks = bfs_deque_tasks(need, GTAP_MAX_TASKS_PER_WARP, warps, &ring);
        if (ring < need)
            fprintf(c.out, "%s: a warp may spawn %lld tasks at once, past a deque of %lld (--max-tasks)\n", c.app,
                    need, ring);
    }
    if (c.max_tasks)
        app_param(&c, "max_tasks=%lld", c.max_tasks);
    bfs_device dev;
    if (bfs_device_alloc(c.app, &g, capacity ? capacity : 1, &dev))
        return 1;
    cudaMemcpyToSymbol(g_row, &dev.row, sizeof dev.row);
    cudaMemcpyToSymbol(g_col, &dev.col, sizeof dev.col);
    cudaMemcpyToSymbol(g_depth, &dev.depth, sizeof dev.depth);
    if (app_gtap_init(&c))
        return 1;
    if (delta == BFS_DELTA_UNSET)
        delta = 4ll * (c.workers > 32 ? c.workers / 32 : 1);
    app_param(&c, "delta=%lld", delta);
    app_banner(&c);

    bfsb_phase ph = {};
    ph.work = dev.work;
    ph.work_capacity = (int)capacity;
    ph.batch = batch;
    ph.split = split;
    ph.stats = c.verbose;
    int phases = 0, peak = 0;
    /* Sets up the phase whose first level is first: its last level, the lists it reads
     * (parity) and fills, and zeroed counters (an empty work list). */
    auto phase_setup = [&](long long first, int parity) -> long long {
        const long long last = bfs_phase_last(delta, first, &ph.last);
        const bfsb_phase_counts zero = {0, 0};
        ph.roots = dev.list[parity];
        ph.next = dev.list[parity ^ 1];
        cudaMemcpyToSymbol(g_ph, &ph, sizeof ph);
        cudaMemcpyToSymbol(g_phase_counts, &zero, sizeof zero);
        return last;
    };
    long long phase0_last = 0;
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            const int zero = 0;
            const bfsb_run_counts none = {0, 0, 0};
            cudaMemset(dev.depth, 0x3f, (size_t)nv * sizeof(int)); /* APP_BFS_INF */
            cudaMemcpy(dev.depth + source, &zero, sizeof zero, cudaMemcpyHostToDevice);
            cudaMemcpy(dev.list[0], &source, sizeof source, cudaMemcpyHostToDevice); /* phase 0's root */
            cudaMemcpyToSymbol(g_run_counts, &none, sizeof none);
            peak = 0;
            phase0_last = phase_setup(0, 0);
        },
        [&](cudaEvent_t end) {
            return bfs_run_phases(
                end, phase0_last, &phases, phase_setup,
                [&](int phase, int count, int first) {
                    return gtap_launch(bfsb_kernel, phase == 0 ? 1 : count, first);
                },
                [&](int *count) {
                    bfsb_phase_counts pc;
                    const cudaError_t e = cudaMemcpyFromSymbol(&pc, g_phase_counts, sizeof pc);
                    *count = pc.next_count;
                    peak = pc.work_tail > peak ? pc.work_tail : peak;
                    return e;
                });
        });
    if (rc)
        return 1;
    std::vector<int> depth(nv), ref(nv);
    cudaMemcpy(depth.data(), dev.depth, (size_t)nv * sizeof(int), cudaMemcpyDeviceToHost);
    char answer[96];
    const app_check_t check = bfs_result(&c, &g, source, depth.data(), ref.data(), answer, sizeof answer);
    bfsb_run_counts rcnt;
    cudaMemcpyFromSymbol(&rcnt, g_run_counts, sizeof rcnt);
    if (c.verbose)
        fprintf(c.out,
                "%s: %d phase%s in the last run: %llu list tasks, %llu edge-range tasks, %llu vertices "
                "spilled; work list peak %lld of %lld\n",
                c.app, phases, phases == 1 ? "" : "s", rcnt.lists, rcnt.ranges, rcnt.spilled,
                peak < capacity ? (long long)peak : capacity, capacity);
    else if (rcnt.spilled)
        fprintf(c.out, "%s: the work list was full: %llu vertices went out one task each (--list-capacity)\n", c.app,
                rcnt.spilled);
    bfs_device_free(&dev);
    app_csr_free(&g);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
