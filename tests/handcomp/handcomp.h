/* handcomp.h - harness for the hand-compiled tests: programs written exactly as gtapcc
 * translates them (gtap_gen.h), so the runtime is tested without the compiler (the style of
 * cheetah's handcomp tests). Built twice: for the GPU against gtap_thread.cuh /
 * gtap_block.cuh, and (thread-level ones) for the CPU against the reference executor with
 * -DGTAP_TARGET_HOST.
 *
 * hc_init / hc_launch / hc_sync / hc_finish wrap the user API so one test body serves both.
 * A test without a usable GPU exits with 77 (CTest: skipped).
 */
#ifndef HANDCOMP_H
#define HANDCOMP_H

#define GTAPGEN_TRANSLATED 1

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GTAP_TARGET_HOST)
#include "cuda_runtime.h" /* the host target's CUDA shim */
#include "gtap/config.h"
#include "refexec/gtap_refexec.h"
#define HC_GPU 0
static int hc_init(void)
{
    gtap_rx_current = gtap_rx_create(GTAP_NUM_QUEUES,
#if defined(GTAP_ASSUME_NO_TASKWAIT)
                                     1
#else
                                     0
#endif
    );
    return gtap_rx_current ? 0 : 1;
}
#define hc_launch(kernel, ...) kernel(__VA_ARGS__)
static int hc_sync(void) { return gtap_rx_current->error ? 1 : 0; }
static int hc_finish(void)
{
    int e = gtap_rx_current->error;
    gtap_rx_destroy(gtap_rx_current);
    gtap_rx_current = NULL;
    return e;
}
#else
#if defined(HC_BLOCK)
#include "gtap_block.cuh"
#else
#include "gtap_thread.cuh"
#endif
#define HC_GPU 1
static int hc_init(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("SKIP: no CUDA device\n");
        exit(77);
    }
    return gtap_initialize() != cudaSuccess;
}
#define hc_launch(kernel, ...) gtap_launch(kernel, __VA_ARGS__)
static int hc_sync(void) { return gtap_synchronize() != cudaSuccess; }
static int hc_finish(void) { return gtap_finalize() != cudaSuccess; }
#endif

/* Copies a __device__ variable back (plain variable on the host target). */
#define HC_FETCH(dst, sym) cudaMemcpyFromSymbol(&(dst), sym, sizeof(dst))
#define HC_STORE(sym, src) cudaMemcpyToSymbol(sym, &(src), sizeof(src))

#define HC_CHECK(cond, ...)                                                                     \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            printf("FAIL: " __VA_ARGS__);                                                       \
            printf("\n");                                                                       \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

#endif /* HANDCOMP_H */
