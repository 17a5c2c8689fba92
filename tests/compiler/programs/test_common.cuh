/* test_common.cuh - shared checks of the gtapcc test programs: skip (exit 77) without a
 * device, and a PASS/FAIL line against a value computed on the host. Include it after the
 * runtime header. */
#ifndef GTAP_TEST_COMMON_CUH
#define GTAP_TEST_COMMON_CUH

#include <stdio.h>
#include <stdlib.h>

#define TEST_REQUIRE_DEVICE()                                                                    \
    do {                                                                                         \
        int ndev_ = 0;                                                                           \
        if (cudaGetDeviceCount(&ndev_) != cudaSuccess || ndev_ == 0) {                           \
            printf("SKIP: no CUDA device\n");                                                    \
            return 77;                                                                           \
        }                                                                                        \
    } while (0)

#define TEST_CUDA(call)                                                                          \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            printf("FAIL: %s: %s\n", #call, cudaGetErrorString(e_));                             \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

static inline int test_report(const char *what, long long got, long long want)
{
    if (got == want) {
        printf("PASS: %s = %lld\n", what, got);
        return 0;
    }
    printf("FAIL: %s = %lld, expected %lld\n", what, got, want);
    return 1;
}

#endif /* GTAP_TEST_COMMON_CUH */
