// Struct-typed arguments and results.
#include "gtap_thread.cuh"
#include "test_common.cuh"

struct range { int lo, hi; };
struct stats { long long sum; int min, max; };

__device__ stats d_result;

#pragma gtap function
__device__ stats reduce(range r) {
    if (r.hi - r.lo <= 8) {
        stats s = {0, 1 << 30, -(1 << 30)};
        for (int i = r.lo; i < r.hi; i++) {
            int v = (i * 7919) % 1009;
            s.sum += v;
            if (v < s.min) s.min = v;
            if (v > s.max) s.max = v;
        }
        return s;
    }
    int mid = (r.lo + r.hi) / 2;
    stats left, right;
    range lr = {r.lo, mid};
    #pragma gtap task
    left = reduce(lr);
    #pragma gtap task
    right = reduce(range{mid, r.hi});
    #pragma gtap taskwait
    stats out;
    out.sum = left.sum + right.sum;
    out.min = left.min < right.min ? left.min : right.min;
    out.max = left.max > right.max ? left.max : right.max;
    return out;
}

__global__ void k(range r) {
    #pragma gtap entry
    d_result = reduce(r);
}

int main() {
    TEST_REQUIRE_DEVICE();
    range r = {0, 5000};
    TEST_CUDA(gtap_initialize());
    TEST_CUDA(gtap_launch(k, r));
    TEST_CUDA(gtap_synchronize());
    stats h;
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    gtap_finalize();
    long long sum = 0; int mn = 1 << 30, mx = -(1 << 30);
    for (int i = r.lo; i < r.hi; i++) { int v = (i * 7919) % 1009; sum += v; if (v < mn) mn = v; if (v > mx) mx = v; }
    int bad = test_report("sum", h.sum, sum);
    bad |= test_report("min", h.min, mn);
    bad |= test_report("max", h.max, mx);
    return bad;
}
