/* kclique_run.cuh - what the two GPU programs (kclique.cu, kclique_block.cu) share: the run's
 * read-only parameters on the device, the slots that hold the subgraphs of split roots, how
 * a node of a root's tree is split (kc_step), and the host side of a run (allocate, install
 * the parameters, launch, check, report). Include after the runtime header and gtap_app.cuh.
 *
 * Memory. A task that counts on its own uses its worker's scratch (thread level: one per
 * lane; block level: one per block, a stack per thread): a subgraph and a stack, used only
 * within one segment of the task (never across a taskwait), so nothing else on that worker
 * touches it meanwhile. A root with --split or more out-neighbours is split into tasks that
 * run on many workers and all read its subgraph: that subgraph goes into a slot, taken by
 * the root's task before it spawns and given back after its taskwait, when every task below
 * it has finished. Without a free slot the root is counted by its own worker, unsplit.
 */
#ifndef KCLIQUE_RUN_CUH
#define KCLIQUE_RUN_CUH

#include "kclique_common.h"

enum { KC_ERR_WORKER = 1, KC_ERR_STACK = 2 };

/* What every task reads and no task writes (set once, before the launches), and the slots. */
struct kc_run {
    const int *row, *col;               /* the oriented graph */
    const unsigned long long *work;     /* n + 1 prefix sums of the roots' estimated work */
    const unsigned long long *binom;    /* (max_out + 1) x (k + 1) */
    kc_word *scratch;                   /* workers x scratch_words */
    uint32_t *states;                   /* workers x state_words: the stacks' level states */
    size_t scratch_words, state_words, adj_words;
    int workers, wmax, levels;
    kc_word *slots;                     /* nslots x adj_words */
    unsigned *slot_used;                /* a bit per slot */
    int *slot_root;                     /* the root whose subgraph a slot holds */
    int nslots;
    int n, k, algo, split, split_depth;
    unsigned long long chunk;
    int *error;                         /* the first KC_ERR_* of a run, or 0 */
};
__constant__ kc_run g_kc;
__device__ unsigned long long g_count; /* the root task's result */

/* Records an error (the first one wins; the host reports it after the run). */
static __device__ __forceinline__ void kc_fail(int code)
{
    atomicCAS(g_kc.error, 0, code);
}

/* A counter over root v's subgraph `adj` with the given stack. */
static __device__ __forceinline__ kc_sct kc_sct_of(int v, const kc_word *adj, kc_word *stack, uint32_t *state)
{
    return kc_sct_make(g_kc.row, v, g_kc.k, g_kc.algo, g_kc.binom, adj, stack, state, g_kc.levels);
}

/* ---- slots -------------------------------------------------------------------------------- */

static __device__ __forceinline__ kc_word *kc_slot_adj(int slot)
{
    return g_kc.slots + (size_t)slot * g_kc.adj_words;
}

/* Takes a free slot for root v: its number, or -1 when all are held. One thread calls it.
 * The scan starts at a word picked by v, so that roots starting together try different words. */
static __device__ int kc_slot_acquire(int v)
{
    const int words = (g_kc.nslots + 31) / 32;
    for (int i = 0; i < words; i++) {
        const int w = (int)(((unsigned)v * 2654435761u + (unsigned)i) % (unsigned)words);
        unsigned cur = atomicOr(&g_kc.slot_used[w], 0u); /* an atomic read of the word */
        while (~cur) {
            const int b = __ffs((int)~cur) - 1, s = w * 32 + b;
            if (s >= g_kc.nslots)
                break;
            const unsigned old = atomicOr(&g_kc.slot_used[w], 1u << b);
            if (!(old & (1u << b))) {
                /* the slot's last tasks finished reading before its release (kc_slot_release);
                 * this fence keeps the new owner's writes after the claim */
                __threadfence();
                g_kc.slot_root[s] = v;
                return s;
            }
            cur = old | 1u << b;
        }
    }
    return -1;
}

/* Gives a slot back. Called by the root's task after its taskwait: every task that read the
 * slot has finished (its completion released before the join, the taskwait acquired). */
static __device__ __forceinline__ void kc_slot_release(int slot)
{
    /* orders this task's reads of the slot before the bit's clearing, which a new owner sees */
    __threadfence();
    atomicAnd(&g_kc.slot_used[slot / 32], ~(1u << (slot % 32)));
}

/* ---- splitting a tree node ------------------------------------------------------------------- */

/* What a task does with the node (and branch range) it was given: count it (LEAF, count),
 * halve the branch range at mid (SPLIT), or go down into its one branch (DESCEND, path). */
enum { KC_LEAF = 1, KC_SPLIT = 2, KC_DESCEND = 3 };
struct kc_step {
    int kind, mid, hi;
    unsigned long long path, count;
};

/* The estimated work below a child with n candidates (its subgraph's n^2 bits), plus one. */
static __device__ __forceinline__ unsigned long long kc_child_work(int n)
{
    return 1ull + (unsigned long long)n * (unsigned long long)n;
}

/* ---- host side ------------------------------------------------------------------------------ */

template <class T> static int kc_upload(const char *app, T **dst, const T *src, size_t count)
{
    const size_t bytes = (count ? count : 1) * sizeof(T);
    if (cudaMalloc((void **)dst, bytes) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %zu bytes on the device\n", app, bytes);
        return 1;
    }
    if (src && count)
        cudaMemcpy(*dst, src, count * sizeof(T), cudaMemcpyHostToDevice);
    return 0;
}

/* Runs the count of pb with c's launches (launch() calls gtap_launch): threads_per_worker is 1
 * for thread-level workers (a worker is a lane) or the block size (a worker is a block; its
 * node's sets live in shared memory, a stack per thread in its scratch). Before each launch
 * g_count, the slots and the error are reset; after the last, the count is checked against
 * the CPU's sequential pivot count and reported. Returns the program's exit status. */
template <class Launch>
static int kc_run_app(app_cli *c, app_stats *stats, kc_problem *pb, int threads_per_worker, Launch launch)
{
    const kc_graph *g = &pb->g;
    kc_run run{};
    if (app_gtap_init(c))
        return 1;
    const int wmax = kc_words(g->max_out > 0 ? g->max_out : 1);
    run.workers = threads_per_worker == 1 ? c->grid * c->block : c->grid;
    run.wmax = wmax;
    run.levels = pb->levels;
    run.adj_words = kc_adj_words(pb) + 1;
    /* thread level: [subgraph][node C][node R][stack]; block level: [subgraph][a stack per thread] */
    run.scratch_words = run.adj_words + (threads_per_worker == 1 ? 2 * (size_t)wmax : 0) +
                        (size_t)threads_per_worker * kc_stack_words(pb);
    run.state_words = (size_t)threads_per_worker * pb->levels;
    /* by default a slot per worker: roughly one split root in progress per worker (a worker
     * that waits on a split root's tasks mostly runs those tasks meanwhile), within 1 GiB */
    if (pb->o.slots == KC_SLOTS_AUTO) {
        const unsigned long long fit = KC_AUTO_SLOT_BYTES / (run.adj_words * sizeof(kc_word));
        run.nslots = (int)(fit < (unsigned long long)run.workers ? fit : (unsigned long long)run.workers);
        run.nslots = run.nslots < 64 ? 64 : run.nslots > KC_MAX_SLOTS ? KC_MAX_SLOTS : run.nslots;
    } else {
        run.nslots = pb->o.slots;
    }
    run.n = g->n;
    run.k = pb->o.k;
    run.algo = pb->o.algo;
    run.split = pb->o.split;
    run.split_depth = pb->o.split_depth;
    run.chunk = (unsigned long long)pb->o.chunk;
    const int rows = g->max_out + 1;
    if (kc_upload(c->app, (int **)&run.row, g->row, (size_t)g->n + 1) ||
        kc_upload(c->app, (int **)&run.col, g->col, (size_t)g->m) ||
        kc_upload(c->app, (unsigned long long **)&run.work, pb->work, (size_t)g->n + 1) ||
        kc_upload(c->app, (unsigned long long **)&run.binom, pb->binom, (size_t)rows * (pb->o.k + 1)) ||
        kc_upload(c->app, &run.scratch, (const kc_word *)NULL, run.scratch_words * run.workers) ||
        kc_upload(c->app, &run.states, (const uint32_t *)NULL, run.state_words * run.workers) ||
        kc_upload(c->app, &run.slots, (const kc_word *)NULL, run.adj_words * (size_t)run.nslots) ||
        kc_upload(c->app, &run.slot_used, (const unsigned *)NULL, (size_t)(run.nslots + 31) / 32) ||
        kc_upload(c->app, &run.slot_root, (const int *)NULL, (size_t)run.nslots) ||
        kc_upload(c->app, &run.error, (const int *)NULL, 1))
        return 1;
    cudaMemcpyToSymbol(g_kc, &run, sizeof run);
    fprintf(c->out, "scratch: %d workers x %.1f KiB, %d slots x %.1f KiB (levels %d, %d words per set)\n",
            run.workers, (double)(run.scratch_words * sizeof(kc_word) + run.state_words * 4) / 1024.0, run.nslots,
            (double)(run.adj_words * sizeof(kc_word)) / 1024.0, run.levels, wmax);
    app_banner(c);
    int rc = app_gtap_run(
        c, stats,
        [&](int) {
            unsigned long long zero = 0;
            cudaMemcpyToSymbol(g_count, &zero, sizeof zero);
            cudaMemset(run.error, 0, sizeof(int));
            cudaMemset(run.slot_used, 0, (size_t)(run.nslots + 31) / 32 * sizeof(unsigned));
        },
        launch);
    if (rc)
        return 1;
    unsigned long long count = 0;
    int error = 0;
    cudaMemcpyFromSymbol(&count, g_count, sizeof count);
    cudaMemcpy(&error, run.error, sizeof error, cudaMemcpyDeviceToHost);
    cudaFree((void *)run.row), cudaFree((void *)run.col), cudaFree((void *)run.work), cudaFree((void *)run.binom);
    cudaFree(run.scratch), cudaFree(run.states), cudaFree(run.slots), cudaFree(run.slot_used);
    cudaFree(run.slot_root), cudaFree(run.error);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    if (error) {
        fprintf(stderr, "%s: FAIL: %s\n", c->app,
                error == KC_ERR_WORKER ? "a worker beyond the scratch it was given ran a task (a bug)"
                                       : "a counter ran out of stack levels (a bug)");
        return 1;
    }
    app_check_t check = APP_CHECK_SKIPPED;
    if (c->check) {
        unsigned long long want;
        if (kc_reference(c, pb, KC_ALGO_PIVOT, &want))
            return 1;
        check = kc_check(c, count, want, "the CPU's sequential pivot count");
    }
    char answer[96];
    kc_answer(answer, sizeof answer, pb->o.k, count);
    kc_problem_free(pb);
    return app_report(c, stats, check, answer);
}

/* The whole program of kclique.cu and kclique_block.cu: the options, the problem, and the
 * runs of `launch` (threads_per_worker as kc_run_app). */
template <class Launch>
static int kc_main(int argc, char **argv, const char *app, int threads_per_worker, Launch launch)
{
    static app_stats stats;
    static kc_problem pb;
    app_cli c;
    kc_options o;
    app_cli_init(&c, app, APP_GTAP_IMPL, KC_DEFAULT_N);
    static const char *const keys[] = {KC_OPTION_KEYS, "slots", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, KC_USAGE KC_SLOTS_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (kc_options_read(&c, &o, 1))
        return 2;
    app_require_device(&c);
    if (kc_problem_load(&c, &pb, &o))
        return 1;
    app_param(&c, "split=%d;split_depth=%d;chunk=%lld", o.split, o.split_depth, o.chunk);
    if (o.slots != KC_SLOTS_AUTO)
        app_param(&c, "slots=%d", o.slots);
    return kc_run_app(&c, &stats, &pb, threads_per_worker, [&] { return launch(pb.g.n); });
}

#endif /* KCLIQUE_RUN_CUH */
