// warp_sum.cu - a sum over [0, n) with warp task functions, on any number of ranks: thread
// tasks split the range in halves down to 64 leaves of `leaf` elements, each leaf a warp task
// (the lanes
// sum a strided slice and reduce with shuffles), and the last 32 values of every leaf come
// from thread tasks its lanes spawn, one per lane. The thread-level functions take a pointer
// (never used), which keeps them on their rank, so every task that migrates is a warp task (its
// wire entry states 32 threads, docs/wire.md) and a job whose ranks must migrate work
// (GTAP_DIST_TEST_REQUIRE_MIGRATION, tests/dist) moves warp tasks.
// Usage: warp_sum [n=1048576] [runs=1] [leaf=4096].
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ long long d_result;

/* The summed value at index i: a hash, so that a lost or doubled index changes the sum. */
static __host__ __device__ long long ws_value(long long i)
{
    return (long long)(((unsigned long long)i * 2654435761ull) % 1000003ull);
}

#pragma gtap function
__device__ long long ws_one(const int *pinned, long long i)
{
    (void)pinned;
    return ws_value(i);
}

#pragma gtap function warp
__device__ long long ws_leaf(long long lo, int n)
{
    const int lane = (int)gtap_warp_lane();
    const int body = n >= 32 ? n - 32 : n; /* the last 32 values come from thread tasks */
    long long s = 0;
    for (int i = lane; i < body; i += 32)
        s += ws_value(lo + i);
    long long tail = 0;
    if (n >= 32) {
        #pragma gtap task
        tail = ws_one((const int *)0, lo + body + lane);
    }
    #pragma gtap taskwait
    s += tail;
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    return s;
}

/* Splits [lo, lo + n) in halves down to WS_FAN leaves, then spawns their warp tasks in a loop,
 * so that many of them are runnable at once, the oldest runnable tasks a thief is offered. */
#define WS_FAN 64
#pragma gtap function
__device__ long long ws_range(const int *pinned, long long lo, long long n, int leaf)
{
    long long a = 0, b = 0;
    if (n <= (long long)leaf * WS_FAN) {
        long long part[WS_FAN];
        int k = 0;
        for (long long at = lo; at < lo + n; at += leaf, k++) {
            const long long len = lo + n - at < leaf ? lo + n - at : leaf;
            #pragma gtap task
            part[k] = ws_leaf(at, (int)len);
        }
        #pragma gtap taskwait
        for (int i = 0; i < k; i++)
            a += part[i];
        return a;
    }
    #pragma gtap task
    a = ws_range(pinned, lo, n / 2, leaf);
    #pragma gtap task
    b = ws_range(pinned, lo + n / 2, n - n / 2, leaf);
    #pragma gtap taskwait
    return a + b;
}

__global__ void ws_kernel(long long n, int leaf)
{
    #pragma gtap entry
    d_result = ws_range((const int *)0, 0, n, leaf);
}

int main(int argc, char **argv)
{
    if (gtap_init_distributed(&argc, &argv) != 0)
        return 1;
    const long long n = app_arg(argc, argv, 1, "n", 1 << 20);
    const int runs = (int)app_arg(argc, argv, 2, "runs", 1), leaf = (int)app_arg(argc, argv, 3, "leaf", 4096);
    if (n < 1 || runs < 1 || leaf < 1 || leaf > (1 << 30)) {
        fprintf(stderr, "warp_sum: need n >= 1, runs >= 1 and 1 <= leaf <= 2^30 (got %lld %d %d)\n", n, runs, leaf);
        return 2;
    }
    long long want = 0;
    for (long long i = 0; i < n; i++)
        want += ws_value(i);
    int rc = 0;
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(ws_kernel, n, leaf));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[80];
        snprintf(what, sizeof what, "warp_sum(%lld, leaf %d)", n, leaf);
        rc = app_report(what, got, want, ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
