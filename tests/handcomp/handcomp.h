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
template <typename K, typename... A>
static void hc_launch(K kernel, A... args)
{
    kernel(args...);
}
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
#define hc_launch(...) gtap_launch(__VA_ARGS__)
static int hc_sync(void) { return gtap_synchronize() != cudaSuccess; }
static int hc_finish(void) { return gtap_finalize() != cudaSuccess; }
#endif

/* Benchmark mode: times one launch with CUDA events around the launch (as the paper does:
 * initialization excluded) and with the host clock around launch + synchronize. */
#include <time.h>
static double hc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
#define HC_TIMED_LAUNCH(kernel_ms, wall_ms, ...)                                                \
    do {                                                                                        \
        cudaEvent_t e0_, e1_;                                                                   \
        cudaEventCreate(&e0_);                                                                  \
        cudaEventCreate(&e1_);                                                                  \
        double w0_ = hc_now_ms();                                                               \
        cudaEventRecord(e0_, 0);                                                                \
        hc_launch(__VA_ARGS__);                                                                 \
        cudaEventRecord(e1_, 0);                                                                \
        int bad_ = hc_sync();                                                                   \
        (wall_ms) = hc_now_ms() - w0_;                                                          \
        float k_ = 0;                                                                           \
        cudaEventElapsedTime(&k_, e0_, e1_);                                                    \
        (kernel_ms) = k_;                                                                       \
        cudaEventDestroy(e0_);                                                                  \
        cudaEventDestroy(e1_);                                                                  \
        HC_CHECK(bad_ == 0, "timed run failed");                                                \
    } while (0)

/* gtap_initialize() timed, with the device memory it took (GPU builds). */
static int hc_init_timed(double *ms, size_t *bytes)
{
    double t0 = hc_now_ms();
#if HC_GPU
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("SKIP: no CUDA device\n");
        exit(77);
    }
    cudaFree(0); /* create the context outside the timed region */
    t0 = hc_now_ms();
    int e = gtap_initialize(bytes) != cudaSuccess;
#else
    int e = hc_init();
    *bytes = 0;
#endif
    *ms = hc_now_ms() - t0;
    return e;
}

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
