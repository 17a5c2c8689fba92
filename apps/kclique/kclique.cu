/* kclique.cu - k-clique counting (Pivoter's succinct clique tree, or plain listing with
 * --algo orient) with thread-level workers. Checked against the CPU's sequential count.
 *
 * The tasks. kc_range(lo, hi) owns the roots lo..hi-1 (vertices in rank order; a root's
 * cliques are those it is the lowest-ranked vertex of): while its estimated work (the sum of
 * d^2 over its roots, kclique_common.h) is above --chunk it halves itself by work into two
 * tasks; a range at or under it is counted root after root by its lane, each root's subgraph
 * built in the lane's scratch. A single root with --split or more out-neighbours is split
 * instead: its subgraph goes into a slot (kclique_run.cuh) and kc_node tasks take its tree:
 * kc_node(slot, depth, path, lo, hi) stands for branches lo..hi-1 of the node reached by
 * `path` (depth steps from the root; hi = -1: all of them). It rebuilds the node by
 * replaying the path (kc_replay: one pivot choice per step), then halves the branch range
 * by the branches' estimated work while that is above --chunk, goes down into a single
 * branch with --split or more candidates while depth < --split-depth, and otherwise counts
 * its branches one after the other in the lane's stack. Every task returns its count; a
 * parent adds its two children's (saturating).
 */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "kclique_run.cuh"

/* A lane's scratch: [subgraph: adj_words][node C: wmax][node R: wmax][stack]. */
struct kc_lane {
    kc_word *adj, *C, *R, *stack;
    uint32_t *state;
};

/* This lane's scratch, or false (error recorded) for a lane beyond the ones sized for. */
static __device__ __forceinline__ bool kc_lane_get(kc_lane *l)
{
    const unsigned w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= (unsigned)g_kc.workers) {
        kc_fail(KC_ERR_WORKER);
        return false;
    }
    l->adj = g_kc.scratch + (size_t)w * g_kc.scratch_words;
    l->C = l->adj + g_kc.adj_words;
    l->R = l->C + g_kc.wmax;
    l->stack = l->R + g_kc.wmax;
    l->state = g_kc.states + (size_t)w * g_kc.state_words;
    return true;
}

/* The roots lo..hi-1, one after the other, in this lane's scratch. */
static __device__ unsigned long long kc_roots(int lo, int hi)
{
    kc_lane l;
    if (!kc_lane_get(&l))
        return 0;
    unsigned long long sum = 0;
    for (int v = lo; v < hi; v++) {
        const int d = g_kc.row[v + 1] - g_kc.row[v];
        if (d < g_kc.k - 1)
            continue;
        kc_build(g_kc.row, g_kc.col, v, l.adj);
        kc_sct s = kc_sct_of(v, l.adj, l.stack, l.state);
        kc_fill(s.stack, d);
        sum = kc_sat_add(sum, kc_count(&s, 1, 0));
        if (s.error)
            kc_fail(KC_ERR_STACK);
    }
    return sum;
}

/* Root v's slot with its subgraph built, when v is to be split and a slot is free; else -1. */
static __device__ int kc_split_root(int v)
{
    const int d = g_kc.row[v + 1] - g_kc.row[v];
    if (d < g_kc.split || d < g_kc.k - 1)
        return -1;
    const int slot = kc_slot_acquire(v);
    if (slot >= 0)
        kc_build(g_kc.row, g_kc.col, v, kc_slot_adj(slot)); /* published to the children's
                                                                warps with the spawn (D1) */
    return slot;
}

/* What the task for branches lo..hi-1 (hi < 0: all) of the node at `path` does (kc_step);
 * counts them when it is a leaf. */
static __device__ kc_step kc_node_step(int slot, int depth, unsigned long long path, int lo, int hi)
{
    kc_step st = {KC_LEAF, 0, hi, path, 0ull};
    kc_lane l;
    if (!kc_lane_get(&l))
        return st;
    kc_sct s = kc_sct_of(g_kc.slot_root[slot], kc_slot_adj(slot), l.stack, l.state);
    kc_node nd, ch;
    kc_replay(&s, path, depth, l.C, l.R, &nd);
    int done;
    st.count = kc_settle(&s, nd.n, nd.h, nd.p, &done);
    if (done)
        return st; /* not reached: only unsettled nodes are split or descended into */
    const int t = kc_branches(&s, l.C, l.R, &nd);
    st.hi = hi = hi < 0 ? t : hi;
    if (hi - lo >= 2) {
        unsigned long long total = 0, before = 0;
        for (int b = lo; b < hi; b++)
            total += kc_child_work(kc_child(&s, l.C, l.R, &nd, kc_branch_step(&s, l.R, &nd, b), l.stack, &ch));
        if (total > g_kc.chunk) {
            /* halve by work: the first branch with half of the range's work before it */
            st.kind = KC_SPLIT;
            st.mid = hi - 1;
            for (int b = lo; b < hi - 1; b++) {
                before += kc_child_work(kc_child(&s, l.C, l.R, &nd, kc_branch_step(&s, l.R, &nd, b), l.stack, &ch));
                if (2 * before >= total) {
                    st.mid = b + 1;
                    break;
                }
            }
            return st;
        }
    } else if (hi - lo == 1 && depth < g_kc.split_depth) {
        const int x = kc_branch_step(&s, l.R, &nd, lo);
        const int n = kc_child(&s, l.C, l.R, &nd, x, l.stack, &ch);
        int settled;
        kc_settle(&s, n, ch.h, ch.p, &settled);
        if (!settled && n >= g_kc.split) {
            st.kind = KC_DESCEND;
            st.path = path | (unsigned long long)x << (KC_STEP_BITS * depth);
            return st;
        }
    }
    for (int b = lo; b < hi; b++)
        st.count = kc_sat_add(st.count, kc_count_branch(&s, l.C, l.R, &nd, b));
    if (s.error)
        kc_fail(KC_ERR_STACK);
    return st;
}

#pragma gtap function
__device__ unsigned long long kc_node_task(int slot, int depth, unsigned long long path, int lo, int hi)
{
    unsigned long long left, right;
    for (;;) {
        kc_step st;
        st = kc_node_step(slot, depth, path, lo, hi);
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
#pragma gtap task
        left = kc_node_task(slot, depth, path, lo, st.mid);
#pragma gtap task
        right = kc_node_task(slot, depth, path, st.mid, st.hi);
#pragma gtap taskwait
        return kc_sat_add(left, right);
    }
}

#pragma gtap function
__device__ unsigned long long kc_range(int lo, int hi)
{
    unsigned long long left, right;
    int slot;
    if (hi - lo >= 2 && g_kc.work[hi] - g_kc.work[lo] > g_kc.chunk) {
        int mid;
        mid = kc_range_mid(g_kc.work, lo, hi);
#pragma gtap task
        left = kc_range(lo, mid);
#pragma gtap task
        right = kc_range(mid, hi);
#pragma gtap taskwait
        return kc_sat_add(left, right);
    }
    slot = hi - lo == 1 ? kc_split_root(lo) : -1;
    if (slot >= 0) {
#pragma gtap task
        left = kc_node_task(slot, 0, 0ull, 0, -1);
#pragma gtap taskwait
        kc_slot_release(slot); /* every task below has finished reading it */
        return left;
    }
    return kc_roots(lo, hi);
}

__global__ void kc_kernel(int n)
{
#pragma gtap entry
    g_count = kc_range(0, n);
}

int main(int argc, char **argv)
{
    return kc_main(argc, argv, "kclique", 1, [](int n) { return gtap_launch(kc_kernel, n); });
}
