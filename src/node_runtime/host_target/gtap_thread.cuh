/* gtap_thread.cuh (host target) - the thread-level user API on the CPU reference executor.
 *
 * `gtapcc --target=host` compiles a translated program as C++ with this directory first on
 * the include path, so `#include "gtap_thread.cuh"` lands here instead of the GPU runtime.
 * Kernels run once, on the calling thread; `#pragma gtap entry` runs the whole task graph in
 * refexec (real task records, join counters, continuations). Errors the executor detects
 * (capacity, bad queue index, ...) are returned by gtap_synchronize() / gtap_launch() /
 * cudaDeviceSynchronize(), and, because test programs often ignore those, also make the
 * process exit with status 1 when it ends (an atexit check), after printing the message.
 *
 * Distributed host target: a program linked with the distributed layer (CMake target
 * gtap_dist_host, which defines GTAP_DISTRIBUTED) that calls gtap_init_distributed() before
 * gtap_initialize() runs the executor as one MPI rank of a job (src/inter_gpu/
 * node_refexec.h); without that call it runs exactly as described above.
 */
#ifndef GTAP_HOST_THREAD_CUH
#define GTAP_HOST_THREAD_CUH

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

/* The grid of the host target is one block of one thread. */
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

static inline cudaError_t gtap_validate_config(const gtap_thread_config &c)
{
    if (c.grid_size < 0 || c.block_size < 0 || c.max_tasks_per_warp < 0 || c.num_queues < 0 ||
        c.num_queues > GTAP_MAX_NUM_QUEUES || (c.block_size && c.block_size % 32))
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

static inline cudaError_t gtap_initialize(const gtap_thread_config &c, size_t *device_bytes = nullptr)
{
    cudaError_t e = gtap_validate_config(c);
    if (e != cudaSuccess)
        return e;
    e = gtap_host_create(c.num_queues ? c.num_queues : GTAP_NUM_QUEUES);
    if (e == cudaSuccess && device_bytes)
        *device_bytes = 0;
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

#endif /* GTAP_HOST_THREAD_CUH */
