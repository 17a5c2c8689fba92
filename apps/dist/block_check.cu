// block_check.cu - the semantics of block-level tasks, checked inside the tasks of a binary
// task tree: on the host target's simulated block (gtap_host_block.h) and, distributed, in
// tasks that migrate between ranks (a record holds every thread's spilled locals). Each task
// checks, counting violations in g_bad (summed over ranks):
//   - threadIdx.x / blockDim.x, and locals per thread (also spilled ones, across a taskwait);
//   - __shared__ memory and __syncthreads(), __syncthreads_count / _and / _or;
//   - warp collectives: shuffles (idx, up, down with a width, xor; int and double), ballot,
//     any, all, reductions, match;
//   - spawns: threads 0 and 1 each spawn a child (any thread may spawn); after the collective
//     taskwait each finds its own child's result in its own copy of `mine`, the other
//     threads find 0; the task's result is thread 0's return value.
// Usage: block_check [depth=6] [mode=ok] [runs=1]. The other modes break a block rule in the
// tasks at depth 1 and the run must fail, naming the rule: divergent_taskwait (only thread 0
// reaches a taskwait), divergent_sync (only warp 0 reaches a __syncthreads), warp_lane (lane
// 3 skips a shuffle its mask names). The bad modes are for the host target only: on a GPU
// they would hang or corrupt the block, so the GPU build refuses them. Build with
// GTAP_BLOCK_SIZE=64.
#include <stdlib.h>
#include <string.h>
#include "gtap_block.cuh"
#include "dist_app.h"

static_assert(GTAP_BLOCK_SIZE == 64, "the checks below expect two warps");

#define MODE_OK 0
#define MODE_DIVERGENT_TASKWAIT 1
#define MODE_DIVERGENT_SYNC 2
#define MODE_WARP_LANE 3
#define FULL 0xffffffffu

__device__ long long d_result;
__device__ unsigned long long g_bad;

__device__ void expect(int ok) {
    if (!ok) atomicAdd(&g_bad, 1ull);
}

// Shared memory and the block barriers; every thread gets the same answers.
__device__ void check_block(int depth) {
    const int t = (int)threadIdx.x, n = (int)blockDim.x;
    __shared__ int sh[GTAP_BLOCK_SIZE];
    expect(n == GTAP_BLOCK_SIZE && t < n);
    sh[t] = t * 3 + depth;
    __syncthreads(); // every thread's store is seen by the others
    expect(sh[(t + 1) % n] == ((t + 1) % n) * 3 + depth);
    __syncthreads(); // all reads are done before sh is written again
    expect(__syncthreads_count(t % 3 == 0) == (n + 2) / 3);
    expect(__syncthreads_and(t < n) == 1);
    expect(__syncthreads_and(t != 5) == 0);
    expect(__syncthreads_or(t == n - 1) == 1);
    expect(__syncthreads_or(0) == 0);
}

// The warp collectives, in each of the block's two warps.
__device__ void check_warp(void) {
    const int t = (int)threadIdx.x, lane = t % 32, base = t - lane;
    expect(__shfl_sync(FULL, t, 0) == base);
    expect(__shfl_sync(FULL, t, lane + 1, 8) == base + (lane & ~7) + ((lane + 1) & 7));
    expect(__shfl_up_sync(FULL, t, 1) == (lane == 0 ? t : t - 1));
    expect(__shfl_down_sync(FULL, t, 2, 16) == ((lane % 16) + 2 < 16 ? t + 2 : t));
    expect(__shfl_xor_sync(FULL, t, 1) == (t ^ 1));
    expect(__shfl_sync(FULL, t * 0.5, 31) == (base + 31) * 0.5);
    expect(__ballot_sync(FULL, lane & 1) == 0xaaaaaaaau);
    expect(__any_sync(FULL, lane == 7) && !__any_sync(FULL, 0));
    expect(__all_sync(FULL, lane < 32) && !__all_sync(FULL, lane != 9));
    expect(__reduce_add_sync(FULL, 1u) == 32u);
    expect(__reduce_max_sync(FULL, (unsigned)lane) == 31u);
    expect(__reduce_min_sync(FULL, lane - 5) == -5);
    expect(__match_any_sync(FULL, lane / 8) == 0xffu << (lane / 8 * 8));
    int all_same = 0;
    expect(__match_all_sync(FULL, base, &all_same) == FULL && all_same);
    if (lane < 16) // a collective of half a warp
        expect(__reduce_add_sync(0xffffu, (unsigned)lane) == 120u);
    __syncwarp();
}

// The sum of every thread's v (every thread gets it).
__device__ long long block_sum(long long v) {
    __shared__ long long part[GTAP_BLOCK_SIZE];
    part[threadIdx.x] = v;
    __syncthreads(); // every value is stored before any is read
    long long s = 0;
    for (int i = 0; i < GTAP_BLOCK_SIZE; i++) s += part[i];
    __syncthreads(); // every thread read the values before the array is used again
    return s;
}

#pragma gtap function
__device__ long long check(int depth, int mode) {
    const int t = (int)threadIdx.x;
    check_block(depth);
    check_warp();
    if (depth == 0) return t == 0 ? 1 : -1000; // only thread 0's value may count
    if (depth == 1 && mode == MODE_DIVERGENT_TASKWAIT) {
        if (t == 0) {
            #pragma gtap taskwait
        }
        return 1;
    }
    if (depth == 1 && mode == MODE_DIVERGENT_SYNC) {
        if (t < 32) __syncthreads();
        return 1;
    }
    if (depth == 1 && mode == MODE_WARP_LANE) {
        if (t % 32 != 3) expect(__shfl_sync(FULL, t, 0) == t - t % 32);
        return 1;
    }
    long long mine = 0;      // per thread; written by this thread's child, if it spawns one
    int mark = t * 7 + depth; // per thread, live across the taskwait
    if (t < 2) {
        #pragma gtap task
        mine = check(depth - 1, mode);
    }
    #pragma gtap taskwait
    expect(mark == t * 7 + depth);
    const long long want = (2LL << (depth - 1)) - 1; // a child's subtree
    expect(t < 2 ? mine == want : mine == 0);
    check_block(depth); // the barriers work after a taskwait too
    return 1 + block_sum(mine) + (t == 0 ? 0 : 1000); // only thread 0's value may count
}

__global__ void check_kernel(int depth, int mode) {
    #pragma gtap entry
    d_result = check(depth, mode);
}

int main(int argc, char **argv) {
    static const char *const modes[] = {"ok", "divergent_taskwait", "divergent_sync", "warp_lane"};
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int depth = (int)app_arg(argc, argv, 1, "depth", 6), runs = (int)app_arg(argc, argv, 3, "runs", 1), mode = -1, rc = 0;
    const char *m = argc > 2 ? argv[2] : "ok";
    for (int i = 0; i < 4; i++)
        if (!strcmp(m, modes[i])) mode = i;
    if (mode < 0 || depth < 1 || depth > 20) {
        printf("FAIL: usage: block_check [depth 1..20] [ok|divergent_taskwait|divergent_sync|warp_lane] [runs]\n");
        return 1;
    }
#if !defined(GTAP_TARGET_HOST)
    if (mode != MODE_OK) {
        printf("FAIL: mode %s breaks a block rule and would hang or corrupt a GPU block; it runs on the host "
               "target only\n", m);
        return 1;
    }
#endif
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs; r++) {
        long long got = -1;
        unsigned long long zero = 0;
        uint64_t bad = 0;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        APP_CUDA(cudaMemcpyToSymbol(g_bad, &zero, sizeof zero));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(check_kernel, depth, mode));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        APP_CUDA(cudaMemcpyFromSymbol(&bad, g_bad, sizeof bad));
        if (gtap_dist_allreduce_u64(&bad, 1, GTAP_DIST_SUM) != 0) return 1;
        char what[96];
        snprintf(what, sizeof what, "block-level checks (tree of depth %d) violated", depth);
        rc |= app_report(what, (long long)bad, 0, ms);
        snprintf(what, sizeof what, "block-level check tree(depth %d) nodes", depth);
        rc |= app_report(what, got, (2LL << depth) - 1, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
