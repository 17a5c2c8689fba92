// Warp task functions in a thread-level program (docs/compiler.md "Warp task functions"):
// thread tasks spawn warp tasks in loops and join them; warp tasks spawn thread tasks from
// every lane and warp tasks from some lanes, with taskwaits in loops, per-lane locals across
// them, EPAQ queues, warp collectives, an assigned parameter, a result lane, lanes that reach
// a taskwait at different times, detached children both ways, more warp tasks at once than a
// warp has lanes, and a warp task as the root. Built with -DGTAP_NUM_QUEUES=3.
#include "gtap_thread.cuh"
#include "test_common.cuh"

#define FANOUT 40 /* warp tasks spawned at once by one thread task: more than 32 */

__device__ int d_hits[FANOUT];
__device__ long long d_result;
__device__ int d_lane_result;
__device__ int d_skewed;

#pragma gtap function
__device__ long long sq(long long x)
{
    return x * x;
}

#pragma gtap function
__device__ void touch(int i)
{
    atomicAdd(&d_hits[i], 1);
}

// Sum of sq(lo + i) for i in [0, n), one thread task per term, 32 at a time; then, for
// depth > 0, the same over the next two ranges of n by two child warp tasks.
#pragma gtap function warp
__device__ long long warp_sumsq(long long lo, int n, int depth)
{
    long long acc = 0; // one copy per lane, across the taskwaits
    for (int base = 0; base < n; base += 32) {
        long long v = 0;
        int i = base + (int)gtap_warp_lane();
        if (i < n) {
            #pragma gtap task queue(1)
            v = sq(lo + i);
        }
        #pragma gtap taskwait
        acc += v;
    }
    long long sub = 0;
    if (depth > 0 && gtap_warp_lane() < 2) {
        #pragma gtap task queue(2)
        sub = warp_sumsq(lo + n + (long long)gtap_warp_lane() * n, n, depth - 1);
    }
    #pragma gtap taskwait
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    sub += __shfl_down_sync(0xffffffffu, sub, 1);
    return acc + sub; // lane 0's value is the result
}

// Every lane doubles its copy of the parameter; the result comes from lane 5.
#pragma gtap function warp return_thread(5)
__device__ int lane_value(int scale)
{
    scale = scale * 2;
    return (int)gtap_warp_lane() * scale;
}

// Lanes reach the taskwait at different times (lane-dependent work before it) and only some
// of them spawn; the taskwait still waits for all 32 and counts every lane's child.
__device__ unsigned d_sink[32];
#pragma gtap function warp
__device__ int skewed(int n)
{
    const int lane = (int)gtap_warp_lane();
    unsigned x = (unsigned)lane;
    for (int i = 0; i < lane * 300; i++)
        x = x * 1103515245u + 12345u;
    d_sink[lane] = x;
    long long r = 0;
    if (lane % 3 == 0) {
        #pragma gtap task
        r = sq(lane + n);
    }
    #pragma gtap taskwait
    return (int)__reduce_add_sync(0xffffffffu, (unsigned)r);
}

// Detached both ways: lane 0 touches slot i through a thread task it never waits for.
#pragma gtap function warp
__device__ void warp_touch(int i)
{
    if (gtap_warp_lane() == 0) {
        #pragma gtap task
        touch(i);
    }
}

#pragma gtap function
__device__ long long root(int n, int rounds)
{
    long long total = 0;
    for (int r = 0; r < rounds; r++) {
        long long part;
        #pragma gtap task queue(r % 3)
        part = warp_sumsq(r * 1000, n, 2);
        #pragma gtap taskwait
        total += part;
    }
    for (int i = 0; i < FANOUT; i++) {
        #pragma gtap task
        warp_touch(i); // detached: never waited for
    }
    int lv, sk;
    #pragma gtap task
    lv = lane_value(3);
    #pragma gtap task
    sk = skewed(n);
    #pragma gtap taskwait
    d_lane_result = lv;
    d_skewed = sk;
    return total;
}

__global__ void run_root(int n, int rounds)
{
    #pragma gtap entry
    d_result = root(n, rounds);
}

__global__ void run_warp_root(long long lo, int n)
{
    #pragma gtap entry
    d_result = warp_sumsq(lo, n, 3);
}

static long long host_sumsq(long long lo, int n, int depth)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += (lo + i) * (lo + i);
    if (depth > 0)
        s += host_sumsq(lo + n, n, depth - 1) + host_sumsq(lo + 2 * (long long)n, n, depth - 1);
    return s;
}

int main()
{
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    int bad = 0;
    for (int n = 1; n <= 70; n += 23) {
        const int rounds = 4;
        int zero[FANOUT] = {0};
        TEST_CUDA(cudaMemcpyToSymbol(d_hits, zero, sizeof zero));
        TEST_CUDA(gtap_launch(run_root, n, rounds));
        TEST_CUDA(gtap_synchronize());
        long long got;
        int lane_got, hits[FANOUT];
        TEST_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        TEST_CUDA(cudaMemcpyFromSymbol(&lane_got, d_lane_result, sizeof lane_got));
        TEST_CUDA(cudaMemcpyFromSymbol(hits, d_hits, sizeof hits));
        long long want = 0;
        for (int r = 0; r < rounds; r++)
            want += host_sumsq(r * 1000, n, 2);
        char what[64];
        snprintf(what, sizeof what, "root(n=%d)", n);
        bad |= test_report(what, got, want);
        bad |= test_report("result lane 5", lane_got, 5 * 6);
        int sk_got;
        TEST_CUDA(cudaMemcpyFromSymbol(&sk_got, d_skewed, sizeof sk_got));
        long long sk_want = 0;
        for (int l = 0; l < 32; l += 3)
            sk_want += (long long)(l + n) * (l + n);
        bad |= test_report("skewed lanes' children", sk_got, sk_want);
        long long touched = 0;
        for (int i = 0; i < FANOUT; i++)
            touched += hits[i] == 1;
        bad |= test_report("warp tasks that touched their slot once", touched, FANOUT);
        TEST_CUDA(gtap_launch(run_warp_root, 7LL, n));
        TEST_CUDA(gtap_synchronize());
        TEST_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        snprintf(what, sizeof what, "warp root(n=%d)", n);
        bad |= test_report(what, got, host_sumsq(7, n, 3));
    }
    gtap_finalize();
    return bad;
}
