/* gtap_block.cuh (host target) - the block-level user API on the CPU reference executor.
 *
 * `gtapcc --target=host` lands a block-level program's `#include "gtap_block.cuh"` here. The
 * executor runs one task at a time, and each segment of a task on a simulated block of
 * GTAP_BLOCK_SIZE threads (gtap_host_block.h: one fiber per thread, __syncthreads() and
 * taskwait as real barriers, __shared__ variables shared, locals per thread; warp
 * collectives in gtap_host_warp.h). Task semantics are the GPU block mode's (gtap_gen.h):
 * every thread that reaches a spawn spawns its own child, taskwait and the final return are
 * collective, the task's result is its result thread's return value (return_thread, default
 * 0). What both host APIs share is
 * gtap_host_api.h.
 */
#ifndef GTAP_HOST_BLOCK_CUH
#define GTAP_HOST_BLOCK_CUH

#if defined(GTAP_HOST_THREAD_CUH)
#error "include either gtap_thread.cuh or gtap_block.cuh, not both"
#endif

#define GTAP_WORKER_MODE 2 /* GTAP_MODE_BLOCK */
#define GTAP_WORKER_IS_BLOCK 1

#include "gtap_host_api.h"
#include "gtap_host_warp.h"

#include <stdint.h>

/* The granularity of this program's tasks, for the distributed layer's start-up check
 * (src/inter_gpu/dist.c, docs/dist.md F3): threads per task. A program without it (weak
 * reference there) is thread-level. Weak: each translation unit that includes this header
 * defines it, the linker keeps one. */
extern "C" __attribute__((weak)) const uint32_t gtap_worker_block_threads = GTAP_BLOCK_SIZE;

static inline cudaError_t gtap_validate_config(const gtap_block_config &c)
{
    /* As on the GPU: a block size, when given, fits the task records (gtap/config.h). */
    if (c.grid_size < 0 || c.max_tasks_per_block < 0 || c.profile_capacity_per_block < 0 ||
        (c.block_size && !GTAP_BLOCK_THREADS_FIT(c.block_size)))
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

static inline cudaError_t gtap_initialize(const gtap_block_config &c, size_t *device_bytes = nullptr)
{
    cudaError_t e = gtap_validate_config(c);
    if (e != cudaSuccess)
        return e;
    gtap_rx_block_sim_threads = c.block_size ? (uint32_t)c.block_size : (uint32_t)GTAP_BLOCK_SIZE;
    e = gtap_host_create(GTAP_NUM_QUEUES);
    if (e == cudaSuccess && device_bytes)
        *device_bytes = 0;
    return e;
}

#endif /* GTAP_HOST_BLOCK_CUH */
