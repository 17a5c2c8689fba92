/* kclique_block.cu - k-clique counting (Pivoter's succinct clique tree, or listing with --algo
 * orient) with block-level workers: every task runs on a whole block. Checked against the
 * CPU's sequential count.
 *
 * The tasks are the thread-level program's (kclique.cu): kcb_range(lo, hi) halves its roots
 * by estimated work down to --chunk, and splits a root with --split or more out-neighbours
 * into kcb_node tasks over its tree's nodes, whose subgraph sits in a slot. What a block
 * adds is cooperation inside a task:
 *  - the subgraph: each thread builds some rows (merging sorted out-neighbour lists), setting
 *    the symmetric bits with atomicOr;
 *  - a node: its candidates and branch set live in shared memory; the pivot is chosen by
 *    every thread scoring some candidates and a block-wide maximum, the replayed path's
 *    children by one word per thread;
 *  - the branches a task counts: handed out one at a time to whichever thread asks next
 *    (an atomic counter in shared memory), each counted by that thread alone in its own
 *    stack; the counts are summed over the block. A range of roots goes root by root, each
 *    root's branches over the block.
 * Thread 0 spawns; the whole block waits; every decision is computed by every thread from the
 * same shared values, so all of them take the same path to each taskwait.
 */
#include "gtap_block.cuh"
#include "gtap_app.cuh"
#include "kclique_run.cuh"

/* The node a block works on (rebuilt after a taskwait: shared memory does not survive one). */
__shared__ kc_word kcb_C[KC_MAX_WORDS], kcb_R[KC_MAX_WORDS];
__shared__ unsigned long long kcb_red[GTAP_BLOCK_SIZE]; /* reductions: a value per warp or thread */
__shared__ int kcb_int;                                  /* a broadcast value, or the next branch */

#define KCB_THREADS ((int)blockDim.x)

/* The reduction of v over the block (saturating sum, or maximum), in every thread. The whole
 * block calls it. */
static __device__ unsigned long long kcb_reduce(unsigned long long v, bool take_max)
{
    for (int lanes = 16; lanes > 0; lanes >>= 1) {
        const unsigned long long o = __shfl_xor_sync(0xffffffffu, v, lanes);
        v = take_max ? (o > v ? o : v) : kc_sat_add(v, o);
    }
    /* every thread has read the previous reduction's values */
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
        kcb_red[threadIdx.x >> 5] = v;
    /* publishes every warp's value */
    __syncthreads();
    unsigned long long r = 0;
    for (int w = 0; w < KCB_THREADS / 32; w++)
        r = take_max ? (kcb_red[w] > r ? kcb_red[w] : r) : kc_sat_add(r, kcb_red[w]);
    return r;
}

/* The block's scratch: [subgraph: adj_words][a stack per thread]. */
static __device__ __forceinline__ kc_word *kcb_scratch(void)
{
    return g_kc.scratch + (size_t)blockIdx.x * g_kc.scratch_words;
}

/* A counter over root v's subgraph `adj` with this thread's stack. */
static __device__ __forceinline__ kc_sct kcb_sct(int v, const kc_word *adj)
{
    kc_word *stack = kcb_scratch() + g_kc.adj_words + (size_t)threadIdx.x * (g_kc.levels * g_kc.wmax);
    uint32_t *state = g_kc.states + (size_t)blockIdx.x * g_kc.state_words + (size_t)threadIdx.x * g_kc.levels;
    return kc_sct_of(v, adj, stack, state);
}

/* Builds root v's subgraph into adj with the whole block. */
static __device__ void kcb_build(int v, kc_word *adj)
{
    const int d = g_kc.row[v + 1] - g_kc.row[v], W = kc_words(d);
    for (int i = (int)threadIdx.x; i < d * W; i += KCB_THREADS)
        adj[i] = 0;
    /* the rows are clear before any thread sets bits in them */
    __syncthreads();
    for (int i = (int)threadIdx.x; i < d; i += KCB_THREADS)
        kc_build_row(g_kc.row, g_kc.col, g_kc.col + g_kc.row[v], d, i, adj, W, 1);
    /* the rows are complete before anyone reads them: in this block (the barrier), and in the
     * blocks that run the tasks thread 0 spawns next (the fence, then the spawn's publish) */
    __threadfence();
    __syncthreads();
}

/* The node's pivot: the candidate of kcb_C with the most neighbours in it, the lowest on a tie
 * (kcb_C not empty). The whole block calls it. */
static __device__ int kcb_pivot(const kc_sct *s)
{
    const int W = s->W;
    unsigned long long key = 0;
    for (int x = (int)threadIdx.x; x < s->d; x += KCB_THREADS)
        if (kcb_C[x / KC_WORD_BITS] & kc_bit(x)) {
            const kc_word *a = s->adj + (size_t)x * W;
            int c = 0;
            for (int j = 0; j < W; j++)
                c += kc_popc(kcb_C[j] & a[j]);
            /* most neighbours first, then the lowest id */
            const unsigned long long mine = (unsigned long long)(c + 1) << 32 | (0xffffffffu - (unsigned)x);
            key = mine > key ? mine : key;
        }
    return (int)(0xffffffffu - (unsigned)(kcb_reduce(key, true) & 0xffffffffu));
}

/* kc_branches for the node in kcb_C (nd unsettled): kcb_R, nd->u; returns the branch count.
 * The whole block calls it. */
static __device__ int kcb_branches(const kc_sct *s, kc_node *nd)
{
    const int W = s->W;
    nd->u = s->algo == KC_ALGO_PIVOT ? kcb_pivot(s) : 0;
    const kc_word *au = s->adj + (size_t)nd->u * W;
    for (int i = (int)threadIdx.x; i < W; i += KCB_THREADS) {
        kc_word r = kcb_C[i];
        if (s->algo == KC_ALGO_PIVOT) {
            r &= ~au[i];
            if (i == nd->u / KC_WORD_BITS)
                r &= ~kc_bit(nd->u);
        }
        kcb_R[i] = r;
    }
    /* kcb_R is complete */
    __syncthreads();
    return s->algo == KC_ALGO_PIVOT ? 1 + kc_count_bits(kcb_R, W) : nd->n;
}

/* The node at `path` into kcb_C (kc_replay with the whole block). */
static __device__ void kcb_replay(const kc_sct *s, unsigned long long path, int depth, kc_node *nd)
{
    const int W = s->W;
    /* every thread is done with the previous node's sets */
    __syncthreads();
    for (int i = (int)threadIdx.x; i < W; i += KCB_THREADS) {
        const int left = s->d - i * KC_WORD_BITS;
        kcb_C[i] = left >= KC_WORD_BITS ? ~(kc_word)0 : ((kc_word)1 << left) - 1;
    }
    nd->h = 1;
    nd->p = 0;
    nd->n = s->d;
    /* kcb_C holds the root's candidates */
    __syncthreads();
    for (int t = 0; t < depth; t++) {
        const int x = (int)((path >> (KC_STEP_BITS * t)) & ((1u << KC_STEP_BITS) - 1));
        kcb_branches(s, nd);
        /* each thread its words of the child, in place (a word depends on the same word) */
        const kc_word *ax = s->adj + (size_t)x * W;
        for (int i = (int)threadIdx.x; i < W; i += KCB_THREADS) {
            if (s->algo == KC_ALGO_PIVOT && x == nd->u)
                kcb_C[i] &= ax[i];
            else if (s->algo == KC_ALGO_PIVOT)
                kcb_C[i] &= ax[i] & ~(kcb_R[i] & kc_below(x, i));
            else
                kcb_C[i] &= ax[i] & ~kc_below(x + 1, i);
        }
        if (s->algo == KC_ALGO_PIVOT && x == nd->u)
            nd->p++;
        else
            nd->h++;
        /* the child is complete */
        __syncthreads();
        nd->n = kc_count_bits(kcb_C, W);
    }
}

/* The block's kc_node_step (kclique.cu) for the node of root v at `path` in `adj`;
 * may_split = 0: count all the branches (a root without a slot). Thread 0's count is the
 * task's. The whole block calls it and gets the same decision. */
static __device__ kc_step kcb_node_step(const kc_word *adj, int v, int depth, unsigned long long path, int lo, int hi,
                                        bool may_split)
{
    kc_step st = {KC_LEAF, 0, hi, path, 0ull};
    kc_sct s = kcb_sct(v, adj);
    kc_node nd, ch;
    kcb_replay(&s, path, depth, &nd);
    int done;
    st.count = kc_settle(&s, nd.n, nd.h, nd.p, &done);
    if (done)
        return st;
    const int t = kcb_branches(&s, &nd);
    st.hi = hi = hi < 0 ? t : hi;
    if (may_split && hi - lo >= 2) {
        /* each thread the work of a contiguous share of the branches; halve by work at the
         * end of the share that reaches half of the total */
        const int share = (hi - lo + KCB_THREADS - 1) / KCB_THREADS, b0 = lo + (int)threadIdx.x * share;
        unsigned long long mine = 0;
        for (int b = b0; b < hi && b < b0 + share; b++)
            mine += kc_child_work(kc_child(&s, kcb_C, kcb_R, &nd, kc_branch_step(&s, kcb_R, &nd, b), s.stack, &ch));
        const unsigned long long total = kcb_reduce(mine, false);
        if (total > g_kc.chunk) {
            /* every thread has read the reduction's values in kcb_red */
            __syncthreads();
            kcb_red[threadIdx.x] = mine;
            /* every share's work is in kcb_red */
            __syncthreads();
            unsigned long long before = 0;
            int t_half = KCB_THREADS - 1;
            for (int u = 0; u < KCB_THREADS; u++) {
                before += kcb_red[u];
                if (2 * before >= total) {
                    t_half = u;
                    break;
                }
            }
            st.kind = KC_SPLIT;
            st.mid = lo + (t_half + 1) * share;
            st.mid = st.mid <= lo ? lo + 1 : st.mid >= hi ? hi - 1 : st.mid;
            return st;
        }
    } else if (may_split && hi - lo == 1 && depth < g_kc.split_depth) {
        const int x = kc_branch_step(&s, kcb_R, &nd, lo);
        const int n = kc_child(&s, kcb_C, kcb_R, &nd, x, s.stack, &ch);
        int settled;
        kc_settle(&s, n, ch.h, ch.p, &settled);
        if (!settled && n >= g_kc.split) {
            st.kind = KC_DESCEND;
            st.path = path | (unsigned long long)x << (KC_STEP_BITS * depth);
            return st;
        }
    }
    /* the branches to whichever thread asks next */
    unsigned long long mine = 0;
    if (threadIdx.x == 0)
        kcb_int = lo;
    /* the counter is set */
    __syncthreads();
    /* each branch index is handed out once: the atomic makes the counter the only claim */
    for (int b = atomicAdd(&kcb_int, 1); b < hi; b = atomicAdd(&kcb_int, 1))
        mine = kc_sat_add(mine, kc_count_branch(&s, kcb_C, kcb_R, &nd, b));
    if (s.error)
        kc_fail(KC_ERR_STACK);
    st.count = kcb_reduce(mine, false);
    return st;
}

/* The roots lo..hi-1, one after the other, each built and counted by the whole block in its
 * scratch; thread 0's sum is the task's. */
static __device__ unsigned long long kcb_roots(int lo, int hi)
{
    if (blockIdx.x >= (unsigned)g_kc.workers) {
        kc_fail(KC_ERR_WORKER);
        return 0;
    }
    unsigned long long sum = 0;
    for (int v = lo; v < hi; v++) {
        if (g_kc.row[v + 1] - g_kc.row[v] < g_kc.k - 1)
            continue;
        /* the previous root's counters are done with the subgraph */
        __syncthreads();
        kcb_build(v, kcb_scratch());
        sum = kc_sat_add(sum, kcb_node_step(kcb_scratch(), v, 0, 0ull, 0, -1, false).count);
    }
    return sum;
}

/* Root v's slot with its subgraph built, when v is to be split and a slot is free; else -1
 * (in every thread). The whole block calls it. */
static __device__ int kcb_split_root(int v)
{
    const int d = g_kc.row[v + 1] - g_kc.row[v];
    if (d < g_kc.split || d < g_kc.k - 1)
        return -1;
    /* kcb_int's previous readers are done */
    __syncthreads();
    if (threadIdx.x == 0)
        kcb_int = kc_slot_acquire(v);
    /* publishes the slot to the block */
    __syncthreads();
    const int slot = kcb_int;
    if (slot >= 0)
        kcb_build(v, kc_slot_adj(slot));
    return slot;
}

#pragma gtap function
__device__ unsigned long long kcb_node(int slot, int depth, unsigned long long path, int lo, int hi)
{
    unsigned long long left = 0, right = 0;
    if (blockIdx.x >= (unsigned)g_kc.workers) {
        kc_fail(KC_ERR_WORKER);
        return 0;
    }
    for (;;) {
        kc_step st;
        st = kcb_node_step(kc_slot_adj(slot), g_kc.slot_root[slot], depth, path, lo, hi, true);
        if (st.kind == KC_DESCEND) {
            /* the node's one branch is big: it becomes this task's node */
            path = st.path;
            depth++;
            lo = 0;
            hi = -1;
            continue;
        }
        if (st.kind == KC_LEAF)
            return st.count;
        /* nothing of st is read after the taskwait: it stays out of the task data */
        if (threadIdx.x == 0) {
#pragma gtap task
            left = kcb_node(slot, depth, path, lo, st.mid);
#pragma gtap task
            right = kcb_node(slot, depth, path, st.mid, st.hi);
        }
#pragma gtap taskwait
        return kc_sat_add(left, right);
    }
}

#pragma gtap function
__device__ unsigned long long kcb_range(int lo, int hi)
{
    unsigned long long left = 0, right = 0;
    int slot;
    if (hi - lo >= 2 && g_kc.work[hi] - g_kc.work[lo] > g_kc.chunk) {
        if (threadIdx.x == 0) {
            const int mid = kc_range_mid(g_kc.work, lo, hi);
#pragma gtap task
            left = kcb_range(lo, mid);
#pragma gtap task
            right = kcb_range(mid, hi);
        }
#pragma gtap taskwait
        return kc_sat_add(left, right);
    }
    slot = hi - lo == 1 ? kcb_split_root(lo) : -1;
    if (slot >= 0) {
        if (threadIdx.x == 0) {
#pragma gtap task
            left = kcb_node(slot, 0, 0ull, 0, -1);
        }
#pragma gtap taskwait
        if (threadIdx.x == 0)
            kc_slot_release(slot); /* every task below has finished reading it */
        return left;
    }
    return kcb_roots(lo, hi);
}

__global__ void kcb_kernel(int n)
{
#pragma gtap entry
    g_count = kcb_range(0, n);
}

int main(int argc, char **argv)
{
    return kc_main(argc, argv, "kclique_block", GTAP_BLOCK_SIZE, [](int n) { return gtap_launch(kcb_kernel, n); });
}
