// uts_dfs.cu - Unbalanced Tree Search with a budgeted depth-first leaf: a task explores a
// subtree itself, with a stack of pending inner nodes in the lane's local memory, and hands
// the rest to the scheduler as tasks when its stack is full or after `budget` nodes. Tasks
// are detached (built with -fgtap-no-taskwait): each adds the nodes it generated to a counter
// once, at its end, and the host sums the ranks' counters after the run. Same trees, output
// and exit status as uts.cu, whose one task per inner node is the plain program.
//
// Why: a UTS node costs one SHA-1 block (~20 warp instructions on all 32 lanes) and a task
// costs several times that, so the rate of uts.cu is the runtime's task rate, not the hash
// rate (bench/uts/README.md). Here each loop iteration of every lane hashes exactly one
// child: the lane keeps its current parent and next child index in registers and takes the
// next parent from its stack when one is done, so the lanes of a warp hash together whatever
// their parents' child counts are.
//
// Usage: uts_dfs PRESET [runs=1] [budget=16]   (presets in uts.h; budget: nodes a task
// generates before it hands its stack out as tasks, >= 1)
#include <stdio.h>
#include "gtap_thread.cuh"
#include "uts.h"
#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#else
static inline int gtap_dist_rank(void) { return 0; }
static inline int gtap_dist_size(void) { return 1; }
#endif

// Pending inner nodes a task keeps in its lane's local memory (28 bytes each). When it is
// full the task ends and hands everything out, as when its budget is spent.
#define UTS_STACK 32

// An inner node and the children of it not generated yet: next .. n - 1.
struct uts_item {
    uts_state s;
    int depth, n, next;
};

__device__ unsigned long long d_nodes; // nodes generated on this rank
__device__ __constant__ uts_params d_params;
__device__ __constant__ unsigned d_budget;

// Generates children next .. n - 1 of the inner node s (at depth `depth`) and their subtrees.
#pragma gtap function
__device__ void uts_explore(uts_state s, int depth, int n, int next) {
    const uts_params p = d_params;
    uts_item stack[UTS_STACK];
    uts_item cur = {s, depth, n, next};
    int top = 0;
    unsigned made = 0, budget = d_budget;
    for (;;) {
        if (cur.next == cur.n) { // this parent is done: the newest pending one is next
            if (top == 0) break;
            cur = stack[--top];
            continue;
        }
        uts_item c;
        uts_rng_spawn(&cur.s, cur.next++, &c.s);
        c.depth = cur.depth + 1;
        c.n = uts_num_children(&p, &c.s, c.depth);
        c.next = 0;
        made++;
        if (c.n > 0) {
            if (top == UTS_STACK) { // full: c and the rest become tasks (at most UTS_STACK + 2)
                #pragma gtap task
                uts_explore(c.s, c.depth, c.n, 0);
                break;
            }
            stack[top++] = c;
        }
        if (made >= budget) break;
    }
    // budget spent, stack full, or all done (then nothing is left): the rest becomes tasks,
    // the oldest pending node, the largest subtree to expect, first. A task spawns at most
    // UTS_STACK + 2 tasks, so its warp's deque holds what its lanes hand out.
    for (int i = 0; i < top; i++) {
        #pragma gtap task
        uts_explore(stack[i].s, stack[i].depth, stack[i].n, stack[i].next);
    }
    if (cur.next < cur.n) {
        #pragma gtap task
        uts_explore(cur.s, cur.depth, cur.n, cur.next);
    }
    atomicAdd(&d_nodes, (unsigned long long)made);
}

__global__ void uts_kernel(uts_state root, int n) {
    #pragma gtap entry
    uts_explore(root, 0, n, 0);
}

int main(int argc, char **argv) {
#if defined(GTAP_DISTRIBUTED)
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
#endif
    const uts_preset *pr;
    int runs, rc = 0;
    long budget; // default 16: the best of 16..16384 on an H200 (bench/results, INDEX: UTS)
    if (uts_parse_args(argc, argv, "uts_dfs", &pr, &runs, &budget, 16) != 0) return 2;
    // gtap_initialize first: on a distributed run it selects this rank's GPU
    if (gtap_initialize() != cudaSuccess) { printf("FAIL: gtap_initialize\n"); return 1; }
    unsigned b = (unsigned)budget;
    if (cudaMemcpyToSymbol(d_params, &pr->p, sizeof pr->p) != cudaSuccess ||
        cudaMemcpyToSymbol(d_budget, &b, sizeof b) != cudaSuccess) return 1;
    uts_state root;
    uts_rng_init(&root, pr->p.seed);
    const int root_children = uts_num_children(&pr->p, &root, 0);
    // every rank does every run (a launch involves all ranks), even after rank 0 saw a mismatch
    for (int r = 0; r < runs; r++) {
        unsigned long long zero = 0;
        uint64_t got = 0;
        cudaMemcpyToSymbol(d_nodes, &zero, sizeof zero);
        double t0 = uts_now_ms();
        if (root_children > 0) gtap_launch(uts_kernel, root, root_children);
        if (gtap_synchronize() != cudaSuccess) { printf("FAIL: run failed\n"); return 1; }
        double ms = uts_now_ms() - t0;
        cudaMemcpyFromSymbol(&got, d_nodes, sizeof got);
#if defined(GTAP_DISTRIBUTED)
        if (gtap_dist_allreduce_u64(&got, 1, GTAP_DIST_SUM) != 0) return 1;
#endif
        long long nodes = 1 + (long long)got; // the root, and what the tasks generated
        if (gtap_dist_rank() == 0 && uts_report(pr, nodes, gtap_dist_size(), ms) != 0) rc = 1;
    }
    gtap_finalize();
#if defined(GTAP_DISTRIBUTED)
    gtap_dist_finalize();
#endif
    return rc;
}
