// bary.cu - a pruned B-ary tree: every node has B potential children, and a hash of the
// child's id prunes a fraction of them; the tree stops at depth D. One task per node, each
// returning its subtree's size, checked against a sequential count.
// Usage: bary [B=4] [depth=9] [prune_permille=300] [runs=1].
// -DAPP_BLOCK (with GTAP_BLOCK_SIZE >= 16): block-level workers. Thread i evaluates child
// candidate i and spawns it if kept; after the (collective) taskwait the block sums its
// threads' child counts in shared memory, so each thread keeps one spilled count, not an
// array of 16 (which, per thread, would not fit a task record).
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#else
#include "gtap_thread.cuh"
#endif
#include "dist_app.h"

__device__ long long d_result;

__host__ __device__ static inline unsigned long long bary_mix(unsigned long long x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
__host__ __device__ static inline unsigned long long bary_child(unsigned long long id, int i) {
    return bary_mix(id * 31ULL + (unsigned long long)i + 1);
}
__host__ __device__ static inline int bary_kept(unsigned long long child, int prune) {
    return (int)(bary_mix(child ^ 0x5851f42d4c957f2dULL) % 1000) >= prune;
}

static long long bary_seq(unsigned long long id, int depth, int b, int prune) {
    long long s = 1;
    if (depth == 0) return 1;
    for (int i = 0; i < b; i++) {
        unsigned long long c = bary_child(id, i);
        if (bary_kept(c, prune)) s += bary_seq(c, depth - 1, b, prune);
    }
    return s;
}

#if defined(APP_BLOCK)
static_assert(GTAP_BLOCK_SIZE >= 16, "a thread per child candidate: B is at most 16");

// The sum of every thread's v (every thread gets it).
__device__ long long block_sum(long long v) {
    __shared__ long long part[GTAP_BLOCK_SIZE];
    part[threadIdx.x] = v;
    __syncthreads(); // every value is stored before any is read
    for (int s = GTAP_BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads(); // this round's sums are stored before the next round reads them
    }
    long long r = part[0];
    __syncthreads(); // every thread read the sum before the array is used again
    return r;
}

#pragma gtap function
__device__ long long bary(unsigned long long id, int depth, int b, int prune) {
    if (depth == 0) return 1;
    long long mine = 0;
    if ((int)threadIdx.x < b) {
        unsigned long long c = bary_child(id, (int)threadIdx.x);
        if (bary_kept(c, prune)) {
            #pragma gtap task
            mine = bary(c, depth - 1, b, prune);
        }
    }
    #pragma gtap taskwait
    return 1 + block_sum(mine);
}
#else
#pragma gtap function
__device__ long long bary(unsigned long long id, int depth, int b, int prune) {
    if (depth == 0) return 1;
    long long r[16];
    int k = 0;
    for (int i = 0; i < b; i++) {
        unsigned long long c = bary_child(id, i);
        if (!bary_kept(c, prune)) continue;
        #pragma gtap task
        r[k] = bary(c, depth - 1, b, prune);
        k++;
    }
    #pragma gtap taskwait
    long long s = 1;
    for (int i = 0; i < k; i++) s += r[i];
    return s;
}
#endif

__global__ void bary_kernel(int depth, int b, int prune) {
    #pragma gtap entry
    d_result = bary(1ULL, depth, b, prune);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int b = (int)app_arg(argc, argv, 1, "B", 4), depth = (int)app_arg(argc, argv, 2, "depth", 9);
    int prune = (int)app_arg(argc, argv, 3, "prune_permille", 300), runs = (int)app_arg(argc, argv, 4, "runs", 1), rc = 0;
    if (b < 1 || b > 16) { printf("FAIL: B must be in 1..16\n"); return 1; }
    long long want = gtap_dist_rank() == 0 ? bary_seq(1ULL, depth, b, prune) : 0;
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(bary_kernel, depth, b, prune));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[96];
        snprintf(what, sizeof what, "%spruned %d-ary tree(depth %d, prune %d/1000) nodes",
#if defined(APP_BLOCK)
                 "block-level ",
#else
                 "",
#endif
                 b, depth, prune);
        rc = app_report(what, got, want, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
