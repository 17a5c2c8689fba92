// bary.cu - a pruned B-ary tree: every node has B potential children, and a hash of the
// child's id prunes a fraction of them; the tree stops at depth D. One task per node, each
// returning its subtree's size, checked against a sequential count.
// Usage: bary [B=4] [depth=9] [prune_permille=300] [runs=1].
#include "gtap_thread.cuh"
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

__global__ void bary_kernel(int depth, int b, int prune) {
    #pragma gtap entry
    d_result = bary(1ULL, depth, b, prune);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int b = (int)app_arg(argc, argv, 1, 4), depth = (int)app_arg(argc, argv, 2, 9);
    int prune = (int)app_arg(argc, argv, 3, 300), runs = (int)app_arg(argc, argv, 4, 1), rc = 0;
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
        snprintf(what, sizeof what, "pruned %d-ary tree(depth %d, prune %d/1000) nodes", b, depth, prune);
        rc = app_report(what, got, want, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
