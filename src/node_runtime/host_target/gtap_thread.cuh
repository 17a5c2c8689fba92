/* gtap_thread.cuh (host target) - the thread-level user API on the CPU reference executor.
 *
 * `gtapcc --target=host` compiles a translated program as C++ with this directory first on
 * the include path, so `#include "gtap_thread.cuh"` lands here instead of the GPU runtime.
 * Each task runs as one thread, one task at a time; what both host APIs share (launch,
 * synchronize, errors, the distributed host target) is gtap_host_api.h.
 */
#ifndef GTAP_HOST_THREAD_CUH
#define GTAP_HOST_THREAD_CUH

#if defined(GTAP_HOST_BLOCK_CUH)
#error "include either gtap_thread.cuh or gtap_block.cuh, not both"
#endif

#include "gtap_host_api.h"

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

/* The lane of the calling thread in its warp: in a warp task, the simulated warp's lane
 * (gtap_refexec.h); elsewhere 0. */
static inline unsigned gtap_warp_lane(void)
{
    return threadIdx.x & 31u;
}

#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
/* Warp task functions run on a simulated warp, where the collectives exchange values between
 * its lanes (gtap_host_warp.h); in thread-level tasks they see a warp of one lane. */
#include "gtap_host_warp.h"
#else
/* Warp collectives exchange values between the lanes of a warp. On the host a thread-level
 * task runs alone, one task at a time: there is no warp whose lanes hold other tasks, so a
 * thread-level program without warp task functions that uses them does not compile for the
 * host target (block-level programs and warp task functions get them: gtap_host_warp.h). */
template <class... A> void __shfl_sync(A...) = delete;
template <class... A> void __shfl_up_sync(A...) = delete;
template <class... A> void __shfl_down_sync(A...) = delete;
template <class... A> void __shfl_xor_sync(A...) = delete;
template <class... A> void __ballot_sync(A...) = delete;
template <class... A> void __any_sync(A...) = delete;
template <class... A> void __all_sync(A...) = delete;
template <class... A> void __reduce_add_sync(A...) = delete;
template <class... A> void __reduce_min_sync(A...) = delete;
template <class... A> void __reduce_max_sync(A...) = delete;
template <class... A> void __match_any_sync(A...) = delete;
template <class... A> void __match_all_sync(A...) = delete;
template <class... A> void __activemask(A...) = delete;
#endif

#endif /* GTAP_HOST_THREAD_CUH */
