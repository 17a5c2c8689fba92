/* gtap_host_api.h (host target) - what the thread-level and the block-level user API of the
 * host target share (gtap_thread.cuh and gtap_block.cuh there add their configuration
 * structs and mode): one CPU reference executor per process, created by gtap_initialize and
 * run by a kernel's `#pragma gtap entry`; launches, synchronization, reset, finalization,
 * errors and the profiling stand-ins.
 *
 * Kernels run once, on the calling thread; `#pragma gtap entry` runs the whole task graph in
 * refexec (real task records, join counters, continuations). Errors the executor detects
 * (capacity, bad queue index, a block barrier some threads never reach, ...) are returned by
 * gtap_synchronize() / gtap_launch() / cudaDeviceSynchronize(), and, because test programs
 * often ignore those, also make the process exit with status 1 when it ends (an atexit
 * check), after printing the message.
 *
 * Distributed host target: a program linked with the distributed layer (CMake target
 * gtap_dist_host, which defines GTAP_DISTRIBUTED) that calls gtap_init_distributed() before
 * gtap_initialize() runs the executor as one MPI rank of a job (src/inter_gpu/
 * node_refexec.h); without that call it runs exactly as described above.
 *
 * Include only through gtap_thread.cuh / gtap_block.cuh, which set the worker mode first.
 */
#ifndef GTAP_HOST_API_H
#define GTAP_HOST_API_H

#if !defined(GTAP_HOST_THREAD_CUH) && !defined(GTAP_HOST_BLOCK_CUH)
#error "include gtap_thread.cuh or gtap_block.cuh, not gtap_host_api.h"
#endif

#ifndef GTAP_TARGET_HOST
#define GTAP_TARGET_HOST 1
#endif

#include "cuda_runtime.h"
#include "gtap/config.h"
#include "gtap/api_types.h"
#include "../refexec/gtap_refexec.h"
#ifdef GTAP_DISTRIBUTED
#include "inter_gpu/node_refexec.h"
#endif

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <utility>

/* One host "device": one executor at a time. */
static int gtap_host_num_queues = GTAP_NUM_QUEUES;
static int gtap_host_atexit_armed;
static int gtap_host_failed;
static char gtap_host_message[512];

/* The grid of the host target is one worker: one thread, or one simulated block. */
static inline int gtap_default_grid_size(void) { return 1; }

static inline int gtap_host_no_taskwait(void)
{
#ifdef GTAP_ASSUME_NO_TASKWAIT
    return 1;
#else
    return 0;
#endif
}

static inline cudaError_t gtap_host_status(void)
{
    if (gtap_rx_current && gtap_rx_current->error && !gtap_host_failed) {
        gtap_host_failed = 1;
        snprintf(gtap_host_message, sizeof gtap_host_message, "%s", gtap_rx_current->message);
    }
    return gtap_host_failed ? cudaErrorLaunchFailure : cudaSuccess;
}

/* Exit status 1 for a program that ends after a task-runtime error it did not check. */
static void gtap_host_exit_check(void)
{
    if (gtap_host_status() != cudaSuccess) {
        fflush(NULL);
        fprintf(stderr, "gtap: the task graph failed (%s); exiting with status 1\n", gtap_host_message);
        _exit(1);
    }
}

static inline cudaError_t gtap_host_sync_hook(void) { return gtap_host_status(); }

static inline cudaError_t gtap_host_create(int num_queues)
{
    if (gtap_rx_current)
        return cudaErrorInitializationError; /* already initialized (as the GPU runtime says) */
    if (num_queues < 1 || num_queues > GTAP_MAX_NUM_QUEUES)
        return cudaErrorInvalidValue;
    gtap_host_num_queues = num_queues;
    gtap_rx_current = gtap_rx_create(num_queues, gtap_host_no_taskwait());
    if (!gtap_rx_current)
        return cudaErrorMemoryAllocation;
#ifdef GTAP_DISTRIBUTED
    if (gtap_rxd_attach(gtap_rx_current) != 0) {
        gtap_rx_destroy(gtap_rx_current);
        gtap_rx_current = nullptr;
        return cudaErrorInitializationError;
    }
#endif
    gtap_host_failed = 0;
    gtap_host_set_sync_hook(gtap_host_sync_hook);
    if (!gtap_host_atexit_armed) {
        atexit(gtap_host_exit_check);
        gtap_host_atexit_armed = 1;
    }
    return cudaSuccess;
}

static inline cudaError_t gtap_initialize(void) { return gtap_host_create(GTAP_NUM_QUEUES); }

static inline cudaError_t gtap_initialize(size_t *device_bytes)
{
    cudaError_t e = gtap_initialize();
    if (e == cudaSuccess && device_bytes)
        *device_bytes = 0; /* no device pool on the host */
    return e;
}

/* Runs the kernel once on this thread (the host target's whole "grid"). */
template <class Kernel, class... Args>
static inline cudaError_t gtap_launch(Kernel kernel, Args &&...args)
{
    if (!gtap_rx_current)
        return cudaErrorInitializationError;
    kernel(std::forward<Args>(args)...);
    return gtap_host_status();
}

static inline cudaError_t gtap_synchronize(void) { return gtap_host_status(); }

static inline cudaError_t gtap_reset(void)
{
    if (!gtap_rx_current)
        return cudaErrorInitializationError;
#ifdef GTAP_DISTRIBUTED
    gtap_rxd_detach(gtap_rx_current);
#endif
    gtap_rx_destroy(gtap_rx_current);
    gtap_rx_current = nullptr;
    gtap_host_failed = 0;
    return gtap_host_create(gtap_host_num_queues);
}

static inline cudaError_t gtap_finalize(void)
{
    cudaError_t e = gtap_host_status();
    if (gtap_rx_current) {
#ifdef GTAP_DISTRIBUTED
        gtap_rxd_detach(gtap_rx_current);
#endif
        gtap_rx_destroy(gtap_rx_current);
        gtap_rx_current = nullptr;
    }
    return e;
}

/* Bytes of one task record (header + largest task data), as the GPU runtime reports it. */
static inline size_t gtap_host_task_data_stride(void)
{
    return gtap_rx_current ? gtap_rx_current->record_size : 0;
}

/* Profiling is a GPU feature; these keep profiled programs compiling and running. */
static inline gtap_profile_export_result gtap_export_profile(const gtap_profile_export_options &o = {})
{
    (void)o;
    gtap_profile_export_result r = {};
    r.status = gtap_profile_export_status::profiling_disabled;
    return r;
}
static inline gtap_profile_export_result gtap_export_profile(const char *name)
{
    (void)name;
    return gtap_export_profile();
}
static inline void gtap_visualize_profile(const char *name) { (void)name; }
static inline void visualize_profile(const char *name) { (void)name; }
static inline void visualize_working_time(const char *name) { (void)name; }

/* L2-only load on the GPU; a plain load here. */
template <class T> static inline T load_L2(const T *p) { return *p; }

#endif /* GTAP_HOST_API_H */
