// A warp task whose taskwait only some lanes reach (the lane read through a helper function,
// which gtapcc's check does not follow): the run must fail with a message naming the
// function, on every launch (docs/design.md W3), and neither hang nor crash. Expected to
// exit 1 (tests/compiler/CMakeLists.txt runs it through expect_fail.sh).
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_result;

#pragma gtap function
__device__ int leaf(int n)
{
    return n;
}

static __device__ int lane_of_caller(void)
{
    return (int)gtap_warp_lane();
}

#pragma gtap function warp
__device__ int split_join(int n)
{
    int r = 0;
    if (lane_of_caller() < n) {
        #pragma gtap task
        r = leaf(n);
        #pragma gtap taskwait
    }
    return r;
}

__global__ void k(int n)
{
    #pragma gtap entry
    d_result = split_join(n);
}

int main()
{
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    int failed = 0;
    for (int launch = 0; launch < 3; launch++) {
        cudaError_t e = gtap_launch(k, 5);
        if (e == cudaSuccess)
            e = gtap_synchronize();
        failed += e != cudaSuccess;
        if (e != cudaSuccess)
            gtap_reset();
    }
    gtap_finalize();
    printf("%d of 3 launches failed\n", failed);
    return failed == 3 ? 1 : 0;
}
