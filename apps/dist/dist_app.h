/* dist_app.h - what the distributed example apps share: argument parsing, timing, and a
 * PASS/FAIL report on rank 0 against a value computed sequentially on the host. Include
 * after the runtime header. Built without the distributed layer (no GTAP_DISTRIBUTED: the
 * "_alone" builds, the node runtime by itself), the few distributed calls the apps make
 * become single-process stand-ins, so one source serves both. */
#ifndef GTAP_DIST_APP_H
#define GTAP_DIST_APP_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#else
#include <stdint.h>
#define GTAP_DIST_SUM 0
#define GTAP_DIST_MAX 1
static inline int gtap_init_distributed(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
static inline int gtap_dist_finalize(void) { return 0; }
static inline int gtap_dist_rank(void) { return 0; }
static inline int gtap_dist_size(void) { return 1; }
static inline int gtap_dist_allreduce_u64(uint64_t *v, int n, int op) { (void)v; (void)n; (void)op; return 0; }
static inline int gtap_replicate(void *dst, const void *src, size_t n)
{
    return dst == src || cudaMemcpy(dst, src, n, cudaMemcpyDefault) == cudaSuccess ? 0 : 1;
}
#endif

static inline double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Positional argument i (named `name` in messages), or dflt when absent. An argument that is
 * not an integer within an int's range ends the process with status 2 after a one-line
 * message on rank 0 naming it (every rank parses the same arguments and leaves the job alike,
 * through gtap_dist_finalize). */
static inline long long app_arg(int argc, char **argv, int i, const char *name, long long dflt)
{
    if (argc <= i)
        return dflt;
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(argv[i], &end, 0);
    if (end == argv[i] || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
        if (gtap_dist_rank() == 0)
            fprintf(stderr, "%s: argument %d (%s) '%s' is not an integer in [%d, %d]\n", argv[0], i, name, argv[i],
                    INT_MIN, INT_MAX);
        gtap_dist_finalize();
        exit(2);
    }
    return v;
}

/* Prints one line on rank 0 and returns the process exit status (0 on other ranks). */
static inline int app_report(const char *what, long long got, long long want, double ms)
{
    if (gtap_dist_rank() != 0)
        return 0;
    if (want < 0 || got == want) {
        printf("PASS: %s = %lld on %d rank(s) in %.3f ms\n", what, got, gtap_dist_size(), ms);
        return 0;
    }
    printf("FAIL: %s = %lld, expected %lld (%d rank(s))\n", what, got, want, gtap_dist_size());
    return 1;
}

#define APP_CUDA(call)                                                                           \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            printf("FAIL: %s: %s\n", #call, cudaGetErrorString(e_));                             \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

#endif /* GTAP_DIST_APP_H */
