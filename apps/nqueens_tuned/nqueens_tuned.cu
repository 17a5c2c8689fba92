/* nqueens_tuned.cu - N-Queens tuned for the GPU, with checkpoint and resume (README.md).
 *
 * The task tree: nqt_range splits the list of unfinished subtrees at the checkpoint depth
 * (nqt_prefixes) and starts one nqt_task per subtree; nqt_task places one queen per child
 * down to the leaf row (max(--cutoff, checkpoint depth)), and below it runs the iterative DFS
 * of nqt_search.h for at most --leaf-budget steps. A leaf that is not done by then spawns
 * two tasks: the rest of its own DFS (its stack travels in the task record) and the
 * unexplored candidates of its shallowest open level, which gives the tail of the run
 * parallel work. A warp runs 32 tasks side by side and waits for the slowest, so inside a
 * segment the lanes whose DFS is over take pieces of their busy neighbours' (nqt_leaf).
 *
 * Each subtree counts its own solutions (atomic adds per leaf segment) and its outstanding
 * tasks; the task that finishes it last publishes count + 1 to a word the host reads
 * (nqt_checkpoint.h) in mapped pinned memory, while the kernel runs, so that a host thread
 * can save checkpoints during a run of hours or days.
 *
 * Linked with the distributed layer (nqueens_tuned_dist_*): the same tasks across ranks. Every
 * rank enumerates the same subtrees; tasks (a frame of ints, the DFS stack included) migrate;
 * a subtree's count is the sum of the ranks' counts. A subtree's tasks finish on several
 * ranks, so no rank knows during a launch when one is done: with checkpoints the run is a
 * sequence of launches over slices of the subtree list, and a slice's subtrees are done when
 * its launch returns (nqt_dist.h).
 *
 * -DNQT_QUEUES=2 with GTAP_NUM_QUEUES=2: the leaves (DFS segments) go to EPAQ queue 1.
 * -DNQT_LOCAL_STACK: the DFS stack in local memory instead of shared memory.
 */
#include <errno.h>
#include <unistd.h>

#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#endif
#include "nqt_checkpoint.h"
#include "nqt_search.h"
#if defined(GTAP_DISTRIBUTED)
#include "nqt_dist.h"
#endif

#ifndef NQT_QUEUES
#define NQT_QUEUES 1
#endif

/* The DFS stack of each lane. Shared memory, one column per thread (nqt_search.h: no bank
 * conflicts at any mix of depths), because the stack is indexed by the run-time depth: nvcc
 * would place a local array in local memory anyway, where lanes at different depths touch
 * different cache lines, and the lines of 512 lanes per SM compete with everything else
 * for L1. NQT_LEAF_LEVELS x GTAP_BLOCK_SIZE words per block: 20 levels (20 KiB at 256
 * threads) is what fits beside the runtime's own static shared memory under the 48 KiB a
 * kernel may declare; so the leaves start at row n - 21 or below (main: leaf_row). */
#define NQT_LEAF_LEVELS 20

/* Deeper checkpoints have too many subtrees to enumerate, keep and write (n = 27: 35 million
 * at depth 6, ~20 times that at 7). */
#define NQT_MAX_CHECKPOINT_DEPTH 6
#if defined(__CUDA_ARCH__) && !defined(NQT_LOCAL_STACK)
#define NQT_SHARED_STACK 1
#define NQT_STACK_STRIDE GTAP_BLOCK_SIZE
__device__ __forceinline__ uint32_t *nqt_lane_stack(void)
{
    __shared__ uint32_t stack[NQT_LEAF_LEVELS * GTAP_BLOCK_SIZE];
    return stack + threadIdx.x;
}
#else
#define NQT_SHARED_STACK 0
#define NQT_STACK_STRIDE 1
#endif

/* A DFS to run: row0 its first row, depth its current level, the masks and candidates of that
 * level, the stacked levels 0..depth-1. depth 0 and row0 < leaf row: a task above the leaves. */
struct nqt_frame {
    uint32_t cols, left, right, avail;
    int row0, depth;
    uint32_t stack[NQT_LEAF_LEVELS];
};

struct nqt_params {
    int n, depth, leaf_row;          /* board, checkpoint depth, first row of the leaf DFS */
    uint32_t mask;
    uint32_t budget;                 /* DFS steps per leaf segment; 0: no limit */
    const nqt_prefix *prefix;        /* the subtrees at the checkpoint depth */
    const int *todo;                 /* the subtrees this run explores */
    unsigned long long *count;       /* per subtree: solutions found so far */
    int *pending;                    /* per subtree: its tasks not yet finished */
    unsigned long long *state;       /* per subtree, host-mapped: 0, or count + 1 when done */
};
__constant__ nqt_params d_nqt;

/* ---- the per-subtree bookkeeping: the only memory ordering in this program -------------- */
#if defined(GTAP_DISTRIBUTED)
/* Across ranks a subtree's tasks end on several ranks, so no rank can tell when it is done:
 * only the counts are kept (summed over the ranks after the run), and nothing is published. */
__device__ __forceinline__ void nqt_count_add(int sub, unsigned long long v) { atomicAdd(&d_nqt.count[sub], v); }
__device__ __forceinline__ void nqt_pending_add(int, int) {}
__device__ __forceinline__ void nqt_subtree_task_done(int) {}
#elif defined(GTAP_TARGET_HOST)
/* One executor thread runs every task; the checkpoint thread reads only the state words. */
static inline void nqt_count_add(int sub, unsigned long long v) { d_nqt.count[sub] += v; }
static inline void nqt_pending_add(int sub, int v) { d_nqt.pending[sub] += v; }
static inline void nqt_subtree_task_done(int sub)
{
    if (--d_nqt.pending[sub] == 0) /* pairs with the acquire loads of nqt_ckpt_write */
        __atomic_store_n(&d_nqt.state[sub], d_nqt.count[sub] + 1, __ATOMIC_RELEASE);
}
#else
/* Relaxed: ordered before the subtree's last decrement by nqt_subtree_task_done's acq_rel. */
__device__ __forceinline__ void nqt_count_add(int sub, unsigned long long v) { atomicAdd(&d_nqt.count[sub], v); }

/* Raises the count before the children that will decrement it are spawned; relaxed because
 * those children run only after this segment has returned (gtap_gen.h R1: the runtime orders
 * the parent's segment before its children's), so their decrements come later in the
 * counter's modification order. */
__device__ __forceinline__ void nqt_pending_add(int sub, int v) { gtap_atomic_add_relaxed_i32(&d_nqt.pending[sub], v); }

/* A task of subtree sub is finished. acq_rel: its release half publishes this task's count
 * add to whoever finishes the subtree; the acquire half of the last one sees every add. That
 * one publishes count + 1 with a system-scope release store the host's acquire loads
 * (nqt_checkpoint.c) pair with: one word, so the host never sees a flag without its count. */
__device__ __forceinline__ void nqt_subtree_task_done(int sub)
{
    if (gtap_atomic_add_acq_rel_i32(&d_nqt.pending[sub], -1) == 1)
        gtap_st_release_sys_u64(&d_nqt.state[sub], gtap_ld_relaxed_u64(&d_nqt.count[sub]) + 1);
}
#endif

__device__ __forceinline__ nqt_frame nqt_frame_at(int row, uint32_t cols, uint32_t left, uint32_t right,
                                                  uint32_t avail)
{
    nqt_frame f;
    f.cols = cols;
    f.left = left;
    f.right = right;
    f.avail = avail;
    f.row0 = row;
    f.depth = 0;
    return f;
}

/* ---- the leaf: a DFS per lane, with hand-overs between the lanes of a warp -------------- */

/* Leaf DFS steps between two looks at the team. */
#define NQT_SHARE_STEPS 128

/* The lanes of the warp running nqt_leaf together (each a different task). Leaf subtrees
 * differ in size by orders of magnitude, and the warp runs until its slowest lane is done: a
 * lane whose DFS is over takes a piece of a busy lane's (nqt_dfs_split) instead of idling.
 * The host target runs one task at a time: a team of one. */
#if defined(__CUDA_ARCH__)
__device__ __forceinline__ unsigned nqt_team(void) { return __activemask(); }
/* bar.warp.sync orders each lane's earlier memory operations before the later ones of every
 * lane of the team (PTX ISA, memory consistency: a barrier among the participants). */
__device__ __forceinline__ void nqt_team_sync(unsigned team) { __syncwarp(team); }
#else
static inline unsigned nqt_team(void) { return 1u; }
static inline void nqt_team_sync(unsigned team) { (void)team; }
#endif

/* Runs the DFS s (its stack at `stack`) for at most the leaf budget, in rounds of
 * NQT_SHARE_STEPS, and after each round pairs the team's finished lanes with busy lanes that
 * can split: the k-th finished lane takes the piece nqt_dfs_split cuts from the k-th such
 * lane, and its subtree (*cur: the piece's solutions count for the subtree it was cut from).
 * Every lane adds its count to its subtree before it changes subtree and at the end, so that
 * after nqt_team_sync every solution found is in some subtree's count. Returns 1 when this
 * lane's DFS is finished, 0 when the budget ran out first (s and the stack hold the rest). */
__device__ __forceinline__ int nqt_leaf(nqt_dfs *s, uint32_t *stack, int *cur, unsigned team)
{
    const uint32_t budget = d_nqt.budget ? d_nqt.budget : 0xffffffffu;
    int done = 0;
#if defined(__CUDA_ARCH__)
    const unsigned below = (1u << (threadIdx.x & 31)) - 1u; /* the lanes below this one */
    for (uint32_t used = 0;;) { /* used: steps of every busy lane so far, the same in the team */
        const uint32_t round = budget - used < NQT_SHARE_STEPS ? budget - used : NQT_SHARE_STEPS;
        if (!done)
            done = nqt_dfs_run(s, stack, NQT_STACK_STRIDE, round);
        used += round;
        const unsigned idle = __ballot_sync(team, done);
        if (idle == team || used == budget)
            break;
        if (!idle)
            continue;
        const unsigned donors = __ballot_sync(team, !done && nqt_dfs_can_split(s, stack, NQT_STACK_STRIDE));
        const int pairs = min(__popc(idle), __popc(donors));
        if (!pairs)
            continue;
        const int idle_rank = __popc(idle & below), donor_rank = __popc(donors & below);
        const int gives = !done && (donors >> (threadIdx.x & 31) & 1u) && donor_rank < pairs;
        const int takes = done && idle_rank < pairs;
        int row = 0;
        uint32_t c = 0, l = 0, r = 0, a = 0;
        if (gives)
            nqt_dfs_split(s, stack, NQT_STACK_STRIDE, &row, &c, &l, &r, &a);
        /* a taker reads from its donor, every other lane from itself */
        const int src = takes ? (int)__fns(donors, 0, idle_rank + 1) : (int)(threadIdx.x & 31);
        row = __shfl_sync(team, row, src);
        c = __shfl_sync(team, c, src);
        l = __shfl_sync(team, l, src);
        r = __shfl_sync(team, r, src);
        a = __shfl_sync(team, a, src);
        const int from = __shfl_sync(team, *cur, src);
        if (takes) {
            if (s->count)
                nqt_count_add(*cur, s->count);
            *cur = from;
            nqt_dfs_begin(s, d_nqt.n, row, c, l, r, a);
            done = 0;
        }
    }
#else
    (void)team;
    do
        done = nqt_dfs_run(s, stack, NQT_STACK_STRIDE, budget);
    while (!done && !d_nqt.budget);
#endif
    if (s->count)
        nqt_count_add(*cur, s->count);
    s->count = 0;
    return done;
}

#pragma gtap function
__device__ void nqt_task(nqt_frame f, int sub)
{
    const int n = d_nqt.n;
    if (f.depth == 0 && f.row0 < d_nqt.leaf_row) { /* above the leaves: a child per free column */
        uint32_t avail = f.avail;
        const int children = NQT_POPC(avail);
        if (children != 1) {
            if (children == 0) {
                nqt_subtree_task_done(sub);
                return;
            }
            nqt_pending_add(sub, children - 1); /* the children take over this task's share */
        }
        while (avail) {
            const uint32_t p = avail & (0u - avail);
            avail ^= p;
            const uint32_t c = f.cols | p, l = (f.left | p) << 1, r = (f.right | p) >> 1;
            nqt_frame child = nqt_frame_at(f.row0 + 1, c, l, r, nqt_free(d_nqt.mask, c, l, r));
#if NQT_QUEUES == 2
#pragma gtap task queue(f.row0 + 1 >= d_nqt.leaf_row ? 1 : 0)
#else
#pragma gtap task
#endif
            nqt_task(child, sub);
        }
        return;
    }
#if NQT_SHARED_STACK
    uint32_t *stack = nqt_lane_stack();
#else
    uint32_t stack[NQT_LEAF_LEVELS];
#endif
    nqt_dfs s;
    nqt_dfs_begin(&s, n, f.row0, f.cols, f.left, f.right, f.avail);
    s.depth = f.depth;
    for (int k = 0; k < f.depth; k++)
        stack[k * NQT_STACK_STRIDE] = f.stack[k];
    int cur = sub; /* the subtree this lane's DFS belongs to: another lane's after a hand-over */
    const unsigned team = nqt_team();
    const int done = nqt_leaf(&s, stack, &cur, team);
    /* Budget spent: the largest open piece and the rest of this DFS become two tasks of the
     * subtree the DFS belongs to. */
    nqt_frame piece = nqt_frame_at(0, 0, 0, 0, 0), rest = piece;
    int split = 0;
    if (!done) {
        split = nqt_dfs_split(&s, stack, NQT_STACK_STRIDE, &piece.row0, &piece.cols, &piece.left, &piece.right,
                              &piece.avail);
        rest = nqt_frame_at(s.row0, s.cols, s.left, s.right, s.avail);
        rest.depth = s.depth;
        for (int k = 0; k < s.depth; k++)
            rest.stack[k] = stack[k * NQT_STACK_STRIDE];
        nqt_pending_add(cur, 1 + split);
    }
    nqt_team_sync(team); /* every lane's count and pending adds come before any lane's decrement */
    nqt_subtree_task_done(sub);
    if (done)
        return;
    if (split) {
#if NQT_QUEUES == 2
#pragma gtap task queue(1)
#else
#pragma gtap task
#endif
        nqt_task(piece, cur);
    }
#if NQT_QUEUES == 2
#pragma gtap task queue(1)
#else
#pragma gtap task
#endif
    nqt_task(rest, cur);
}

/* Subtrees todo[lo..hi): halves spawned until a few remain, then one task each. */
#pragma gtap function
__device__ void nqt_range(int lo, int hi)
{
    while (hi - lo > 4) {
        const int mid = lo + (hi - lo) / 2;
#pragma gtap task
        nqt_range(mid, hi);
        hi = mid;
    }
    for (int i = lo; i < hi; i++) {
        const int sub = d_nqt.todo[i];
        const nqt_prefix x = d_nqt.prefix[sub];
        nqt_frame root = nqt_frame_at(d_nqt.depth, x.cols, x.left, x.right, x.avail);
#pragma gtap task
        nqt_task(root, sub);
    }
}

/* The subtrees todo[lo..hi): the whole list, or one slice of a checkpointed distributed run. */
__global__ void nqt_kernel(int lo, int hi)
{
#pragma gtap entry
    nqt_range(lo, hi);
}

/* ---- host side ------------------------------------------------------------------------------ */

typedef struct nqt_options {
    int n, cutoff, depth, leaf_row;
    uint32_t budget;
    const char *checkpoint, *resume;
    double checkpoint_s;
    long long kill_after;
} nqt_options;

static int nqt_bad(const char *flag, const char *value, const char *why)
{
    fprintf(stderr, "nqueens_tuned: --%s %s: %s\n", flag, value, why);
    return 2;
}

/* Reads and checks the program's own options (no file is looked at: nqt_setup does that); the
 * checkpoint depth may still be -1 (take the resumed file's). Returns 0 or 2 (message printed). */
static int nqt_parse_options(const app_cli *c, nqt_options *o)
{
    char v[64];
    memset(o, 0, sizeof *o);
    o->n = (int)c->n;
    snprintf(v, sizeof v, "%lld", c->n);
    if (c->n < 1 || c->n > NQT_MAX_N)
        return nqt_bad("n", v, "must be in [1, 27] (the counts OEIS A000170 knows)");
    const long long cutoff = app_opt_ll(c, "cutoff", nqt_default_cutoff(o->n));
    const long long depth = app_opt_ll(c, "checkpoint-depth", -1);
    const long long budget = app_opt_ll(c, "leaf-budget", 1ll << 14);
    o->kill_after = app_opt_ll(c, "test-kill-after", 0);
    if (cutoff < 1 || cutoff > o->n)
        return nqt_bad("cutoff", app_opt_str(c, "cutoff", ""), "must be in [1, n]");
    if (depth != -1 && (depth < 1 || depth > o->n || depth > NQT_MAX_CHECKPOINT_DEPTH))
        return nqt_bad("checkpoint-depth", app_opt_str(c, "checkpoint-depth", ""),
                       "must be in [1, min(n, 6)] (depth 6 of n = 27 has 35 million subtrees)");
    if (budget < 0 || budget > 0xffffffffll)
        return nqt_bad("leaf-budget", app_opt_str(c, "leaf-budget", ""), "must be in [0, 2^32 - 1] (0: no limit)");
    o->cutoff = (int)cutoff;
    o->depth = (int)depth;
    o->budget = (uint32_t)budget;
    const char *s = app_opt_str(c, "checkpoint-s", NULL);
    o->checkpoint_s = 600;
    if (s) {
        char *end;
        errno = 0;
        o->checkpoint_s = strtod(s, &end);
        if (end == s || *end || errno || !(o->checkpoint_s > 0 && o->checkpoint_s < 1e9))
            return nqt_bad("checkpoint-s", s, "must be a number of seconds > 0");
    }
    o->resume = app_opt_str(c, "resume", NULL);
    if (s && !o->resume && !app_opt_str(c, "checkpoint", NULL))
        return nqt_bad("checkpoint-s", s, "needs --checkpoint FILE or --resume FILE");
    o->checkpoint = app_opt_str(c, "checkpoint", o->resume); /* a resumed run saves where it resumed */
    if (o->checkpoint && !*o->checkpoint)
        return nqt_bad("checkpoint", "''", "needs a file name");
    if (o->kill_after < 0 || (o->kill_after && !o->checkpoint)) {
        snprintf(v, sizeof v, "%lld", o->kill_after);
        return nqt_bad("test-kill-after", v, "must be >= 1, with --checkpoint or --resume");
    }
    if (c->block > GTAP_BLOCK_SIZE) {
        snprintf(v, sizeof v, "%d", c->block);
        return nqt_bad("block", v, "must be at most GTAP_BLOCK_SIZE (the leaves' shared stacks are sized by it)");
    }
    return 0;
}

/* --resume: reads the file and checks that it belongs to this run; fixes o->depth when it
 * was not given. Returns 0, or 2 after printing why the file is refused. */
static int nqt_read_resume(nqt_options *o, nqt_ckpt *k)
{
    char err[512];
    if (nqt_ckpt_read(o->resume, k, err, sizeof err) != 0) {
        fprintf(stderr, "nqueens_tuned: --resume %s: %s\n", o->resume, err);
        return 2;
    }
    if (k->n != o->n) {
        fprintf(stderr, "nqueens_tuned: --resume %s: the checkpoint is for --n %d, not --n %d\n", o->resume, k->n, o->n);
        return 2;
    }
    if (k->depth > NQT_MAX_CHECKPOINT_DEPTH) {
        fprintf(stderr, "nqueens_tuned: --resume %s: checkpoint depth %d; this program writes at most %d\n", o->resume,
                k->depth, NQT_MAX_CHECKPOINT_DEPTH);
        return 2;
    }
    if (o->depth != -1 && k->depth != o->depth) {
        fprintf(stderr, "nqueens_tuned: --resume %s: the checkpoint is at --checkpoint-depth %d, not %d\n", o->resume,
                k->depth, o->depth);
        return 2;
    }
    o->depth = k->depth;
    return 0;
}

/* Host memory the device writes while the kernel runs (the subtree states). */
static unsigned long long *nqt_alloc_mapped(long long words, unsigned long long **device_p)
{
    const size_t bytes = (size_t)(words ? words : 1) * sizeof(unsigned long long);
#if defined(GTAP_TARGET_HOST)
    unsigned long long *p = (unsigned long long *)calloc(1, bytes);
    *device_p = p;
    return p;
#else
    void *p = NULL;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)device_p, p, 0) != cudaSuccess)
        return NULL;
    memset(p, 0, bytes);
    return (unsigned long long *)p;
#endif
}

/* The run's files and subtrees; run by the one process, or by rank 0 of a distributed job
 * (the files may be on its node only). Refuses a --checkpoint file that exists (unless
 * resuming), reads and checks --resume, fixes the checkpoint depth, counts the subtrees,
 * allocates their state words (*state_p on the host, *d_state_p as the device sees them)
 * holding what the resumed file says is done, and writes the first checkpoint (a path that
 * cannot be written fails now, not in a week). Returns 0; 1 when out of memory; 2 when the
 * files or options are refused (message printed). Outputs are written only on success. */
static int nqt_setup(nqt_options *o, nqt_ckpt *resumed, long long *subtrees_p, unsigned long long **state_p,
                     unsigned long long **d_state_p)
{
    char err[512];
    if (o->checkpoint && !o->resume && access(o->checkpoint, F_OK) == 0)
        return nqt_bad("checkpoint", o->checkpoint, "the file exists; continue that run with --resume, or remove it");
    if (o->resume && nqt_read_resume(o, resumed) != 0)
        return 2;
    if (o->depth == -1)
        o->depth = o->n < NQT_DEFAULT_CHECKPOINT_DEPTH ? o->n : NQT_DEFAULT_CHECKPOINT_DEPTH;
    const long long subtrees = nqt_prefixes(o->n, o->depth, NULL);
    if (o->resume && resumed->subtrees != subtrees) {
        fprintf(stderr, "nqueens_tuned: --resume %s: the checkpoint has %lld subtrees, but depth %d of n %d has %lld\n",
                o->resume, resumed->subtrees, o->depth, o->n, subtrees);
        return 2;
    }
    if (o->kill_after > subtrees) {
        char v[32];
        snprintf(v, sizeof v, "%lld", o->kill_after);
        snprintf(err, sizeof err, "the run has only %lld subtrees", subtrees);
        return nqt_bad("test-kill-after", v, err);
    }
    unsigned long long *d_state = NULL, *state = nqt_alloc_mapped(subtrees, &d_state);
    if (!state) {
        fprintf(stderr, "nqueens_tuned: out of memory for %lld subtrees\n", subtrees);
        return 1;
    }
    for (long long i = 0; i < resumed->done; i++)
        state[resumed->index[i]] = resumed->count[i] + 1;
    if (o->checkpoint && nqt_ckpt_write(o->checkpoint, o->n, o->depth, subtrees, state, err, sizeof err) < 0) {
        fprintf(stderr, "nqueens_tuned: --checkpoint %s: %s\n", o->checkpoint, err);
        return 2;
    }
    *subtrees_p = subtrees;
    *state_p = state;
    *d_state_p = d_state;
    return 0;
}

static int nqt_stats_env(void)
{
    const char *e = getenv("GTAP_STATS");
    return e && atoi(e) > 0;
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "nqueens_tuned", APP_GTAP_IMPL, 12);
    static const char *const keys[] = {"cutoff", "checkpoint-depth", "leaf-budget", "checkpoint", "checkpoint-s",
                                       "resume", "test-kill-after", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "[--cutoff ROW] [--checkpoint-depth D (4)] [--leaf-budget STEPS (16384; 0: none)]\n"
                           "       [--checkpoint FILE] [--checkpoint-s S (600)] [--resume FILE] [--test-kill-after K]");
    if (rc)
        return rc < 0 ? 0 : rc;
    nqt_options o;
    nqt_ckpt resumed = {0, 0, 0, 0, 0, NULL, NULL};
    if ((rc = nqt_parse_options(&c, &o)) != 0)
        return rc;
    app_require_device(&c);
    int stats_on = nqt_stats_env(); /* across ranks rank 0's: the balance lines are collective */
    (void)stats_on;
#if defined(GTAP_DISTRIBUTED)
    /* after the options (usage errors leave before the job starts); gtap_initialize picks this
     * rank's GPU, before the allocations below */
    if (gtap_init_distributed(&argc, &argv) != 0 || app_gtap_init(&c))
        return 1;
    const int rank = gtap_dist_rank();
    const int sliced = o.checkpoint != NULL; /* checkpoints: launches over slices (nqt_dist.h) */
#else
    const int rank = 0, sliced = 0;
#endif

    /* The files, the subtrees, and what the resumed file says is done: rank 0 finds out, and
     * tells the others. Every rank leaves a refused run through the distributed layer's
     * finalize, with rank 0's status. */
    long long subtrees = 0;
    unsigned long long *d_state = NULL, *state = NULL;
    if (rank == 0)
        rc = nqt_setup(&o, &resumed, &subtrees, &state, &d_state);
#if defined(GTAP_DISTRIBUTED)
    rc = nqt_dist_share_setup(rc, &o.depth, &resumed.done, &stats_on);
    if (rc == 0 && rank != 0) {
        subtrees = nqt_prefixes(o.n, o.depth, NULL);
        if (!(state = nqt_alloc_mapped(subtrees, &d_state))) {
            fprintf(stderr, "nqueens_tuned: rank %d: out of memory for %lld subtrees\n", rank, subtrees);
            return 1; /* the distributed layer ends the job (docs/dist.md F2) */
        }
    }
    if (rc == 0 && o.resume && gtap_replicate(state, state, (size_t)subtrees * sizeof *state) != 0)
        rc = 1;
    if (rc) {
        gtap_finalize();
        gtap_dist_finalize();
        return rc;
    }
#else
    if (rc)
        return rc;
#endif
    o.leaf_row = o.cutoff > o.depth ? o.cutoff : o.depth;
    if (o.leaf_row < o.n - 1 - NQT_LEAF_LEVELS)
        o.leaf_row = o.n - 1 - NQT_LEAF_LEVELS; /* the DFS stacks hold NQT_LEAF_LEVELS levels */

    /* What this run does: the unfinished subtrees, in index order. */
    const size_t words = (size_t)(subtrees ? subtrees : 1);
    nqt_prefix *prefix = (nqt_prefix *)calloc(words, sizeof *prefix);
    int *todo = (int *)calloc(words, sizeof *todo);
    int *ones = (int *)calloc(words, sizeof *ones);
    if (!prefix || !todo || !ones) {
        fprintf(stderr, "nqueens_tuned: out of memory for %lld subtrees\n", subtrees);
        return 1;
    }
    nqt_prefixes(o.n, o.depth, prefix);
    long long todo_count = 0;
    for (long long i = 0; i < subtrees; i++) {
        ones[i] = 1;
        /* --test-kill-after K: one launch finishes K in all; slices stop at K (nqt_slice.h) */
        if (!state[i] && (!o.kill_after || sliced || resumed.done + todo_count < o.kill_after))
            todo[todo_count++] = (int)i;
    }
    if (o.checkpoint) { /* one run: a checkpoint describes one run */
        c.warmup = 0;
        c.repeat = 1;
    }
    app_param(&c, "cutoff=%d", o.cutoff);
    app_param(&c, "depth=%d", o.depth);
    app_param(&c, "budget=%u", o.budget);

    nqt_params p;
    memset(&p, 0, sizeof p);
    p.n = o.n;
    p.depth = o.depth;
    p.leaf_row = o.leaf_row;
    p.mask = nqt_board_mask(o.n);
    p.budget = o.budget;
    p.state = d_state;
    if (cudaMalloc((void **)&p.prefix, words * sizeof *prefix) != cudaSuccess ||
        cudaMalloc((void **)&p.todo, words * sizeof *todo) != cudaSuccess ||
        cudaMalloc((void **)&p.count, words * sizeof *p.count) != cudaSuccess ||
        cudaMalloc((void **)&p.pending, words * sizeof *p.pending) != cudaSuccess) {
        fprintf(stderr, "nqueens_tuned: cudaMalloc failed for %lld subtrees\n", subtrees);
        return 1;
    }
    cudaMemcpy((void *)p.prefix, prefix, words * sizeof *prefix, cudaMemcpyHostToDevice);
    cudaMemcpy((void *)p.todo, todo, words * sizeof *todo, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(d_nqt, &p, sizeof p);
#if !defined(GTAP_DISTRIBUTED)
    if (app_gtap_init(&c))
        return 1;
#endif
    if (rank == 0) {
        app_banner(&c);
        fprintf(c.out, "subtrees: %lld at depth %d, %lld finished before this run, %lld to run; leaves from row %d\n",
                subtrees, o.depth, resumed.done, todo_count, o.leaf_row);
        fflush(c.out); /* a run of days may end by a signal: its log should say what it was */
    }

    nqt_ckpt_writer writer;
    if (o.checkpoint && !sliced && nqt_ckpt_writer_start(&writer, o.checkpoint, o.n, o.depth, subtrees, state,
                                                         o.checkpoint_s, o.kill_after) != 0)
        return 1;
    auto reset = [&](int) {
        cudaMemset(p.count, 0, words * sizeof *p.count);
        cudaMemcpy(p.pending, ones, words * sizeof *ones, cudaMemcpyHostToDevice);
        for (long long i = 0; i < todo_count; i++)
            state[todo[i]] = 0; /* the kernel is idle: plain stores */
    };
#if defined(GTAP_DISTRIBUTED)
    nqt_dist_job job;
    memset(&job, 0, sizeof job);
    if (sliced) {
        job.path = o.checkpoint;
        job.n = o.n;
        job.depth = o.depth;
        job.rank = rank;
        job.ranks = gtap_dist_size();
        job.verbose = c.verbose;
        job.stats = stats_on;
        job.subtrees = subtrees;
        job.todo_count = todo_count;
        job.resumed_done = resumed.done;
        job.kill_after = o.kill_after;
        job.interval_s = o.checkpoint_s;
        job.todo = todo;
        job.prefix = prefix;
        job.state = state;
        job.d_count = p.count;
        job.out = c.out;
        job.buf = (unsigned long long *)malloc((words + 1) * sizeof *job.buf);
        job.sums = (gtap_dist_stats *)calloc((size_t)job.ranks, sizeof *job.sums);
        if (!job.buf || !job.sums) {
            fprintf(stderr, "nqueens_tuned: rank %d: out of memory for %lld subtrees\n", rank, subtrees);
            return 1;
        }
        rc = app_gtap_run(&c, &stats, reset, [&](cudaEvent_t end) {
            return nqt_dist_slices(&job, end, [&](long long lo, long long hi) {
                return gtap_launch(nqt_kernel, (int)lo, (int)hi);
            });
        });
    } else
#endif
        rc = app_gtap_run(&c, &stats, reset, [&] { return gtap_launch(nqt_kernel, 0, (int)todo_count); });
#if defined(GTAP_DISTRIBUTED)
    if (job.dying)
        nqt_ckpt_test_kill_await(); /* rank 0 of --test-kill-after: never returns */
#else
    if (rc == 0 && o.kill_after)
        nqt_ckpt_writer_await_kill(&writer); /* never returns */
#endif
    int failed = rc != 0;
    if (o.checkpoint && rank == 0) { /* the final checkpoint, also after a failed run */
        char err[512];
        if (!sliced)
            nqt_ckpt_writer_stop(&writer);
        const long long saved = nqt_ckpt_write(o.checkpoint, o.n, o.depth, subtrees, state, err, sizeof err);
        if (saved < 0) {
            fprintf(stderr, "nqueens_tuned: checkpoint: %s\n", err);
            failed = 1;
        }
#if defined(GTAP_DISTRIBUTED)
        else if (sliced)
            fprintf(c.out, "checkpoint: %s (%lld of %lld subtrees, %lld periodic writes, %lld slices)\n", o.checkpoint,
                    saved, subtrees, job.writes, job.slices);
#endif
        else
            fprintf(c.out, "checkpoint: %s (%lld of %lld subtrees, %lld periodic writes)\n", o.checkpoint, saved,
                    subtrees, writer.writes);
    }
    if (rc) /* a distributed run's errors have ended the job already (docs/dist.md F1) */
        return 1;
    unsigned long long total = 0;
#if defined(GTAP_DISTRIBUTED)
    unsigned long long mine = 0; /* the solutions of this rank's tasks */
    if (sliced)
        mine = job.solutions;
    else if (nqt_dist_sum_counts(p.count, prefix, subtrees, state, &mine) != 0)
        return 1;
    if (stats_on && nqt_dist_balance(c.out, mine, sliced ? &job : NULL) != 0)
        return 1;
#endif
    for (long long i = 0; i < subtrees; i++) {
        if (!state[i]) {
            fprintf(stderr, "nqueens_tuned: internal error: subtree %lld did not finish\n", i);
            return 1;
        }
        total += prefix[i].weight * (state[i] - 1);
    }
    char answer[32];
    snprintf(answer, sizeof answer, "%llu", total);
    if (gtap_finalize() != cudaSuccess)
        return 1;
#if defined(GTAP_DISTRIBUTED)
    if (gtap_dist_finalize() != 0)
        return 1;
    if (rank != 0)
        return 0; /* rank 0 checks and reports */
#endif
    if (failed)
        return 1;
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = total == nqt_known[o.n] ? APP_CHECK_PASS : APP_CHECK_FAIL;
    return app_report(&c, &stats, check, answer);
}
