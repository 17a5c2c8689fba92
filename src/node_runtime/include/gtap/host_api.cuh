/* gtap/host_api.cuh - the user-facing host API (paper compatible): gtap_initialize,
 * gtap_launch, gtap_synchronize, gtap_reset, gtap_finalize, the profile exports, and small
 * device helpers. Inline C++ wrappers in the program's translation unit (they know its
 * __constant__ state and program descriptor) over the C host library (gtap/host.h).
 *
 * Included by gtap_thread.cuh / gtap_block.cuh after GTAP_WORKER_MODE is defined.
 */
#ifndef GTAP_HOST_API_CUH
#define GTAP_HOST_API_CUH

#include <stdio.h>
#include <utility>

#include "gtap/api_types.h"
#include "gtap/host.h"

/* ---- Defaults that need the device ------------------------------------------------------ */

/* Thread mode's default number of warps per SM. More resident warps than this add idle
 * probing traffic without hiding more latency in most of our measurements; programs whose
 * lanes wait on one load at a time hide more with 32 (the B-ary tree). */
#ifndef GTAP_DEFAULT_WARPS_PER_SM
#define GTAP_DEFAULT_WARPS_PER_SM 16
#endif

/* Registers per thread of the entry kernel (thread mode, GTAP_ENTRY_KERNEL: gtap_gen.h):
 * what GTAP_DEFAULT_WARPS_PER_SM warps leave of an SM's 64 K, in steps of 8, at most 255
 * (128 at 16 warps per SM, 64 at 32). */
#ifndef GTAP_ENTRY_MAX_REGISTERS
#define GTAP_ENTRY_MAX_REGISTERS                                                                      \
    (65536 / ((GTAP_DEFAULT_WARPS_PER_SM) * 32) / 8 * 8 > 255 ? 255                                  \
                                                              : 65536 / ((GTAP_DEFAULT_WARPS_PER_SM) * 32) / 8 * 8)
#endif

/* A kernel with the scheduler's resource footprint, used only to ask the occupancy
 * calculator how many blocks fit on an SM (the entry kernel calls the same scheduler). A
 * distributed block-level build gives it the entry kernel's register cap (gtap_gen.h),
 * without which it would report the occupancy of the agent's 128 registers. Thread mode
 * leaves it uncapped: capped, it would take the entry kernel's register count, which moves
 * the B-ary tree's default grid (GTAP_DEFAULT_WARPS_PER_SM=32) from 24 to 32 warps per SM,
 * a change not yet measured. */
#if defined(GTAP_WORKER_IS_BLOCK) && defined(GTAP_DISTRIBUTED)
#define GTAP_OCCUPANCY_PROBE_CAP GTAP_ENTRY_KERNEL
#else
#define GTAP_OCCUPANCY_PROBE_CAP
#endif
static __global__ void GTAP_OCCUPANCY_PROBE_CAP gtap_occupancy_probe_kernel(void)
{
    gtap_entry_run();
}

/* The default grid for blocks of block_threads threads: env GTAP_GRID_SIZE, else as many
 * blocks as can be resident at once (thread mode: the warps that many blocks of
 * GTAP_BLOCK_SIZE threads hold, at most GTAP_DEFAULT_WARPS_PER_SM per SM, in blocks of
 * block_threads: gtap_launch serves them in blocks of at most GTAP_BLOCK_SIZE). */
static inline int gtap_default_grid_size_for(int block_threads)
{
    long long env = gtap_host_env_ll("GTAP_GRID_SIZE", 0);
    int per_sm = 0, dev = 0, sms = 0;
    if (env > 0)
        return (int)env;
#if defined(GTAP_WORKER_IS_THREAD)
    const int probe_threads = GTAP_BLOCK_SIZE;
#else
    const int probe_threads = block_threads;
#endif
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gtap_occupancy_probe_kernel, probe_threads, 0) ==
            cudaSuccess &&
        per_sm > 0) {
#if defined(GTAP_WORKER_IS_THREAD)
        int cap = (GTAP_DEFAULT_WARPS_PER_SM * 32 + probe_threads - 1) / probe_threads;
        if (per_sm > cap)
            per_sm = cap;
        const long long threads = (long long)per_sm * sms * probe_threads;
        return (int)((threads + block_threads - 1) / block_threads);
#else
        return per_sm * sms;
#endif
    }
    (void)cudaGetLastError();
    return gtap_host_default_grid_size(block_threads);
}

/* Default for GTAP_GRID_SIZE when the program does not define it (see gtap/config.h). */
static inline int gtap_default_grid_size(void)
{
    return gtap_default_grid_size_for(GTAP_BLOCK_SIZE);
}

/* The stream gtap_launch uses (config.stream). */
static gtap_stream_t gtap_launch_stream;

/* ---- Configuration ------------------------------------------------------------------------ */

/* Settings fixed at compile time, plus the macro-level defaults (env may override those). */
static inline gtap_config_t gtap_config_defaults(void)
{
    gtap_config_t c = {};
    c.mode = GTAP_WORKER_MODE;
#if defined(GTAP_SCHED_GLOBAL_QUEUE)
    c.sched = GTAP_SCHED_GQ;
#elif defined(GTAP_SCHED_CHASELEV)
    c.sched = GTAP_SCHED_CL;
#else
    c.sched = GTAP_SCHED_WS;
#endif
#if defined(GTAP_GRID_SIZE_IS_DEFAULT)
    c.grid_size = (int)(GTAP_GRID_SIZE);
    c.grid_size_knob = "the default (fill the GPU) or env GTAP_GRID_SIZE";
    c.grid_is_default = gtap_host_env_ll("GTAP_GRID_SIZE", 0) <= 0;
#else
    c.grid_size = (int)(GTAP_GRID_SIZE);
    c.grid_size_knob = "GTAP_GRID_SIZE";
#endif
    c.block_size = (int)(GTAP_BLOCK_SIZE);
#if defined(GTAP_WORKER_IS_THREAD)
    c.max_tasks_per_worker = (int)gtap_host_env_ll("GTAP_MAX_TASKS_PER_WARP", (GTAP_MAX_TASKS_PER_WARP));
    c.tasks_knob = "GTAP_MAX_TASKS_PER_WARP";
    c.num_queues = (int)gtap_host_env_ll("GTAP_NUM_QUEUES", (GTAP_NUM_QUEUES));
    /* SP0 (host/policies.c) applies the environment and decides. */
    c.resume_batching = (int)(GTAP_RESUME_BATCHING);
    c.spread = (int)(GTAP_SPREAD);
    c.early_publish = (int)(GTAP_EARLY_PUBLISH);
    c.topup_steal = (int)(GTAP_TOPUP_STEAL);
    c.policies_compiled = GTAP_POLICIES_COMPILED;
#else
    c.max_tasks_per_worker = (int)gtap_host_env_ll("GTAP_MAX_TASKS_PER_BLOCK", (GTAP_MAX_TASKS_PER_BLOCK));
    c.tasks_knob = "GTAP_MAX_TASKS_PER_BLOCK";
    c.num_queues = 1;
#endif
    c.max_child_tasks = (int)gtap_host_env_ll("GTAP_MAX_CHILD_TASKS", (GTAP_MAX_CHILD_TASKS));
    c.profile_capacity = (int)gtap_host_env_ll("GTAP_PROFILE_CAPACITY", (GTAP_PROFILE_CAPACITY));
    c.max_task_memory = (uint64_t)gtap_host_env_ll("GTAP_MAX_TASK_MEMORY", (long long)(GTAP_MAX_TASK_MEMORY));
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    c.assume_no_taskwait = 1;
#endif
#if defined(GTAP_TERMINATE_ON_FIRST_TASK_FINISH)
    c.terminate_on_root = 1;
#endif
#if defined(GTAP_ENABLE_PROFILING)
    c.profiling = 1;
#endif
#if defined(GTAP_STRESS)
    c.stress = 1;
#endif
#if defined(GTAP_WATCH_TASKS) && GTAP_WATCH_TASKS
    c.watch_tasks = 1;
#endif
    return c;
}

/* What the first launch of a kernel would do lazily, gtap_initialize does instead, inside its
 * reported time (GTAP_STATS), so that the first gtap_launch costs what the later ones do:
 *  - The first launch in a process of a kernel that can call printf makes the driver set up
 *    the device's printf buffer, about 4 ms on an H200 (once per context). Every entry kernel
 *    can print (the runtime's error messages); this kernel can too.
 *  - Raising the per-thread stack limit only takes effect at the next launch, which then
 *    grows the local memory of every resident thread (0.6 ms on an H200 for N-Queens' 512-byte
 *    frame). The limit is raised here for the occupancy probe kernel, which calls the same
 *    scheduler as the entry kernels (gtap_size_stack), and for every entry kernel gtapcc
 *    registered (gtap_host_register_entry_kernel): a kernel that needs more would raise it
 *    again at its first launch.
 *  - With CUDA's lazy loading, a kernel is loaded at its first use (0.1 ms for an entry
 *    kernel on an H200); the attribute query of gtap_size_stack is that use. */
static __global__ void gtap_printf_setup_kernel(int never)
{
    if (never == 1)
        printf("gtap: %d\n", never);
}

static inline int gtap_size_stack(const void *kernel);

static int gtap_prepare_device(void)
{
    if (int se = gtap_size_stack((const void *)gtap_occupancy_probe_kernel))
        return se;
    const void *const *entries;
    const int nentries = gtap_host_entry_kernels(&entries);
    for (int i = 0; i < nentries; i++)
        if (int se = gtap_size_stack(entries[i]))
            return se;
    gtap_printf_setup_kernel<<<1, 1>>>(0);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        fprintf(stderr, "gtap: error: cannot launch a kernel on the device: %s\n", cudaGetErrorString(e));
    return (int)e;
}

/* Allocates the runtime for c and installs its descriptor in this program's constant memory. */
static inline cudaError_t gtap_initialize_resolved(gtap_config_t c, size_t *bytes)
{
    gtap_dev_state st;
#if defined(GTAP_DISTRIBUTED)
    int de = gtap_gnode_select_device(&c); /* the rank's GPU, before any allocation */
    if (de != 0)
        return (cudaError_t)de;
#endif
    int e = gtap_host_init(&c, &gtapgen_program, gtap_prepare_device, &st, bytes);
    if (e != 0)
        return (cudaError_t)e;
    cudaError_t ce = cudaMemcpyToSymbol(gtap_dev, &st, sizeof st);
    if (ce != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot install the runtime state: %s\n", cudaGetErrorString(ce));
        gtap_host_finalize();
        return ce;
    }
#if defined(GTAP_DISTRIBUTED)
    de = gtap_gnode_attach(&st, gtap_host_config());
    if (de != 0) {
        gtap_host_finalize();
        return (cudaError_t)de;
    }
#endif
    return cudaSuccess;
}

static inline cudaError_t gtap_initialize(size_t *device_bytes_allocated = nullptr)
{
    gtap_launch_stream = nullptr;
    return gtap_initialize_resolved(gtap_config_defaults(), device_bytes_allocated);
}

#if defined(GTAP_WORKER_IS_THREAD)
static inline gtap_config_t gtap_config_from(const gtap_thread_config &u)
{
    gtap_config_t c = gtap_config_defaults();
    if (u.grid_size) {
        c.grid_size = u.grid_size;
        c.grid_size_knob = "config.grid_size";
        c.grid_is_default = 0;
    }
    if (u.block_size) {
        c.block_size = u.block_size;
#if defined(GTAP_GRID_SIZE_IS_DEFAULT)
        if (!u.grid_size && u.block_size != (GTAP_BLOCK_SIZE))
            c.grid_size = gtap_default_grid_size_for(u.block_size); /* sized for the real blocks */
#endif
    }
    if (u.max_tasks_per_warp) {
        c.max_tasks_per_worker = u.max_tasks_per_warp;
        c.tasks_knob = "config.max_tasks_per_warp";
    }
    if (u.max_task_memory_bytes)
        c.max_task_memory = u.max_task_memory_bytes;
    if (u.num_queues)
        c.num_queues = u.num_queues;
    if (u.profile_capacity_per_warp)
        c.profile_capacity = u.profile_capacity_per_warp;
    return c;
}

static inline cudaError_t gtap_initialize(const gtap_thread_config &config,
                                          size_t *device_bytes_allocated = nullptr)
{
    gtap_launch_stream = config.stream;
    return gtap_initialize_resolved(gtap_config_from(config), device_bytes_allocated);
}

static inline cudaError_t gtap_validate_config(const gtap_thread_config &config)
{
    gtap_config_t c = gtap_config_from(config);
    if (c.grid_size <= 0 || c.block_size <= 0 || c.block_size % 32 || c.block_size > 1024)
        return cudaErrorInvalidConfiguration;
    if (c.num_queues < 1 || c.num_queues > GTAP_MAX_NUM_QUEUES || c.max_tasks_per_worker <= 0)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}
#else
/* Block mode's block size: config.block_size (GTAP_BLOCK_THREADS_FIT, gtap/config.h), else
 * GTAP_BLOCK_SIZE. */
static inline gtap_config_t gtap_config_from(const gtap_block_config &u)
{
    gtap_config_t c = gtap_config_defaults();
    if (u.grid_size) {
        c.grid_size = u.grid_size;
        c.grid_size_knob = "config.grid_size";
        c.grid_is_default = 0;
    }
    if (u.block_size) {
        c.block_size = u.block_size;
#if defined(GTAP_GRID_SIZE_IS_DEFAULT)
        if (!u.grid_size && u.block_size != (GTAP_BLOCK_SIZE) && GTAP_BLOCK_THREADS_FIT(u.block_size))
            c.grid_size = gtap_default_grid_size_for(u.block_size); /* sized for the real blocks */
#endif
    }
    if (u.max_tasks_per_block) {
        c.max_tasks_per_worker = u.max_tasks_per_block;
        c.tasks_knob = "config.max_tasks_per_block";
    }
    if (u.max_task_memory_bytes)
        c.max_task_memory = u.max_task_memory_bytes;
    if (u.profile_capacity_per_block)
        c.profile_capacity = u.profile_capacity_per_block;
    return c;
}

static size_t gtap_block_dynamic_smem;

static inline cudaError_t gtap_initialize(const gtap_block_config &config,
                                          size_t *device_bytes_allocated = nullptr)
{
    if (config.block_size && !GTAP_BLOCK_THREADS_FIT(config.block_size)) {
#if defined(GTAP_DISTRIBUTED)
        const char *rule = "distributed block mode needs exactly GTAP_BLOCK_SIZE";
#else
        const char *rule = "block mode takes a multiple of 32 of at most GTAP_BLOCK_SIZE";
#endif
        const int buildable =
            config.block_size >= 32 && config.block_size <= 1024 && config.block_size % 32 == 0;
        fprintf(stderr, "gtap: error: config.block_size=%d, and this program was compiled with "
                "GTAP_BLOCK_SIZE=%d: %s%s\n", config.block_size, (int)(GTAP_BLOCK_SIZE), rule,
                buildable ? " (or build with -DGTAP_BLOCK_SIZE equal to it)" : "");
        return cudaErrorInvalidConfiguration;
    }
    gtap_launch_stream = config.stream;
    gtap_block_dynamic_smem = config.dynamic_shared_bytes;
    return gtap_initialize_resolved(gtap_config_from(config), device_bytes_allocated);
}

static inline cudaError_t gtap_validate_config(const gtap_block_config &config)
{
    gtap_config_t c = gtap_config_from(config);
    if (c.grid_size <= 0 || !GTAP_BLOCK_THREADS_FIT(c.block_size))
        return cudaErrorInvalidConfiguration;
    if (c.max_tasks_per_worker <= 0)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}
#endif

/* ---- Launch and completion ---------------------------------------------------------------- */

#if defined(GTAP_WORKER_IS_THREAD)
/* Thread mode: the configuration asks for grid x block / 32 warps, and the workers are warps:
 * which blocks hold them changes nothing a thread-level program can rely on, only how many of
 * them the GPU holds at once. Every block carries the scheduler state of GTAP_BLOCK_SIZE / 32
 * warps in shared memory, so a paper-style request (blocks of 32 threads, thousands of them,
 * built for 256) would fit a fraction of its warps. gtap_launch therefore serves the request
 * with the block of at most GTAP_BLOCK_SIZE threads, dividing the warps evenly, that keeps the
 * most of them resident (the largest such block on a tie), and launches no more blocks than
 * are resident at once: a persistent kernel's late blocks would only start when the others
 * leave. Resident means at most GTAP_DEFAULT_WARPS_PER_SM warps per SM, the default grid's
 * own cap: more add idle probing, not speed. Cached per kernel and request; GTAP_STATS=1
 * reports a change. */
static inline void gtap_thread_launch_shape(const void *kernel, int *grid, int *block)
{
    static struct {
        const void *kernel;
        long long warps;
        int grid, block;
    } cache[16];
    static int cached;
    const long long warps = (long long)*grid * (*block / 32);
    for (int i = 0; i < cached; i++)
        if (cache[i].kernel == kernel && cache[i].warps == warps) {
            *grid = cache[i].grid;
            *block = cache[i].block;
            return;
        }
    int dev = 0, sms = 0, best = 0;
    long long best_resident = -1, best_blocks = 0;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess) {
        for (int d = (GTAP_BLOCK_SIZE) / 32; d >= 1; d--) {
            int per_sm = 0;
            if (warps % d || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * d, 0) != cudaSuccess)
                continue;
            const int cap = (GTAP_DEFAULT_WARPS_PER_SM) / d > 0 ? (GTAP_DEFAULT_WARPS_PER_SM) / d : 1;
            per_sm = per_sm < cap ? per_sm : cap;
            const long long blocks = (long long)per_sm * sms < warps / d ? (long long)per_sm * sms : warps / d;
            if (blocks * d > best_resident) {
                best = d;
                best_resident = blocks * d;
                best_blocks = blocks;
            }
        }
    }
    (void)cudaGetLastError();
    if (best > 0 && best_blocks > 0) {
        if ((best_blocks != *grid || 32 * best != *block) && gtap_host_env_ll("GTAP_STATS", 0))
            fprintf(stderr, "gtap: %d blocks of %d threads (%lld warps) launched as %lld blocks of %d, the most "
                    "warps the GPU holds at once (at most GTAP_DEFAULT_WARPS_PER_SM=%d per SM) in blocks of at "
                    "most GTAP_BLOCK_SIZE=%d threads\n", *grid, *block, warps, best_blocks, 32 * best,
                    (int)(GTAP_DEFAULT_WARPS_PER_SM), (int)(GTAP_BLOCK_SIZE));
        *grid = (int)best_blocks;
        *block = 32 * best;
    } /* else: the occupancy is unknown; launch as configured */
    if (cached < (int)(sizeof cache / sizeof cache[0])) {
        cache[cached].kernel = kernel;
        cache[cached].warps = warps;
        cache[cached].grid = *grid;
        cache[cached].block = *block;
        cached++;
    }
}
#else
/* Block mode: the default grid is sized by an occupancy probe kernel; an entry kernel that
 * needs more registers (task functions, or the GPU node's agent in distributed builds) may fit
 * fewer blocks per SM. A persistent kernel's late blocks would only start once others exit, so
 * with the default grid the launch is lowered to what fits at once (cached per kernel and
 * geometry; GTAP_STATS=1 says so). An explicit grid is launched as given. */
static inline int gtap_fit_default_grid(const void *kernel, int grid, int block, size_t smem)
{
    static struct {
        const void *kernel;
        int block;
        size_t smem;
        int fit;
    } cache[16];
    static int cached;
    if (!gtap_host_config()->grid_is_default)
        return grid;
    int fit = -1;
    for (int i = 0; i < cached; i++)
        if (cache[i].kernel == kernel && cache[i].block == block && cache[i].smem == smem)
            fit = cache[i].fit;
    if (fit < 0) {
        int per_sm = 0, dev = 0, sms = 0;
        if (cudaGetDevice(&dev) == cudaSuccess &&
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem) == cudaSuccess)
            fit = per_sm * sms;
        else
            fit = 0; /* unknown: launch as configured */
        (void)cudaGetLastError();
        if (fit > 0 && fit < grid && gtap_host_env_ll("GTAP_STATS", 0))
            fprintf(stderr, "gtap: the entry kernel fits %d blocks of %d threads at once (registers or shared "
                    "memory); launching %d blocks instead of the default %d\n", fit, block, fit, grid);
        if (cached < (int)(sizeof cache / sizeof cache[0])) {
            cache[cached].kernel = kernel;
            cache[cached].block = block;
            cache[cached].smem = smem;
            cache[cached].fit = fit;
            cached++;
        }
    }
    return fit > 0 && fit < grid ? fit : grid;
}
#endif

/* Task code may recurse (N-Queens' sequential search below its cutoff), and the depth of a
 * recursion is not in the kernel's static stack size, so CUDA's per-thread stack limit must
 * leave room for it beyond the frames of the runtime itself, which grow with the scheduler
 * and (distributed builds) the GPU node's agent. gtap_launch makes the limit at least the
 * entry kernel's static stack plus GTAP_STACK_BYTES (1024, CUDA's default limit) once per
 * kernel; the limit only grows. Returns 0, or a CUDA error with a message. */
static inline int gtap_size_stack(const void *kernel)
{
    static const void *sized[GTAP_HOST_MAX_ENTRY_KERNELS + 16];
    static int nsized;
    for (int i = 0; i < nsized; i++)
        if (sized[i] == kernel)
            return 0;
    cudaFuncAttributes fa;
    size_t cur = 0;
    const long long extra = gtap_host_env_ll("GTAP_STACK_BYTES", 1024);
    if (extra < 0 || extra > (1 << 20)) {
        fprintf(stderr, "gtap: error: GTAP_STACK_BYTES=%lld is not in [0, 1048576]\n", extra);
        return (int)cudaErrorInvalidValue;
    }
    cudaError_t e = cudaFuncGetAttributes(&fa, kernel);
    if (e == cudaSuccess)
        e = cudaDeviceGetLimit(&cur, cudaLimitStackSize);
    const size_t need = (e == cudaSuccess ? fa.localSizeBytes : 0) + (size_t)extra;
    if (e == cudaSuccess && need > cur)
        e = cudaDeviceSetLimit(cudaLimitStackSize, need);
    if (e != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot set the per-thread stack to %zu bytes (the entry kernel's %zu plus "
                "GTAP_STACK_BYTES=%lld): %s\n", need, e == cudaSuccess ? (size_t)fa.localSizeBytes : (size_t)0,
                extra, cudaGetErrorString(e));
        return (int)e;
    }
    if (nsized < (int)(sizeof sized / sizeof sized[0]))
        sized[nsized++] = kernel;
    return 0;
}

/* Launches kernel (which contains `#pragma gtap entry`) with the configured geometry. */
template <typename... KernelArgs, typename... Args>
static inline cudaError_t gtap_launch(void (*kernel)(KernelArgs...), Args &&...args)
{
    int grid, block;
    size_t smem;
    if (!gtap_host_initialized()) {
        fprintf(stderr, "gtap: error: gtap_launch() before gtap_initialize()\n");
        return cudaErrorInitializationError;
    }
    gtap_host_launch_geometry(&grid, &block);
#if defined(GTAP_WORKER_IS_THREAD)
    gtap_thread_launch_shape((const void *)kernel, &grid, &block);
    smem = 0; /* blocks of at most GTAP_BLOCK_SIZE threads: the static scheduler state fits */
#else
    smem = gtap_block_dynamic_smem;
    grid = gtap_fit_default_grid((const void *)kernel, grid, block, smem);
#endif
    if (int e = gtap_size_stack((const void *)kernel))
        return (cudaError_t)e;
#if defined(GTAP_DISTRIBUTED)
    if (int e = gtap_gnode_before_launch()) /* ranks sharing a GPU: none starts its first run early */
        return (cudaError_t)e;
#endif
    kernel<<<grid, block, smem, gtap_launch_stream>>>(static_cast<KernelArgs>(std::forward<Args>(args))...);
    return cudaGetLastError();
}

/* Waits for the device; reports a runtime error (with its message) or a CUDA error. */
static inline cudaError_t gtap_synchronize(void)
{
    cudaError_t e = cudaDeviceSynchronize();
    int h = gtap_host_check();
    if (e != cudaSuccess) {
        fprintf(stderr, "gtap: error: the task kernel failed: %s\n", cudaGetErrorString(e));
#if defined(GTAP_DISTRIBUTED)
        gtap_gnode_run_failed(cudaGetErrorString(e), 1);
#endif
        return e;
    }
#if defined(GTAP_DISTRIBUTED)
    if (h)
        gtap_gnode_run_failed("the task runtime failed (its message is above)", 0);
#endif
    gtap_host_stats_maybe_print();
    return h ? (cudaError_t)h : cudaSuccess;
}

static inline cudaError_t gtap_reset(void)
{
    return (cudaError_t)gtap_host_reset();
}

static inline cudaError_t gtap_finalize(void)
{
#if defined(GTAP_DISTRIBUTED)
    gtap_gnode_detach();
#endif
    return (cudaError_t)gtap_host_finalize();
}

/* Bytes per task record (paper API). */
static inline size_t gtap_host_task_data_stride(void)
{
    return gtap_host_initialized() ? gtap_host_state()->record_stride : 0;
}

/* ---- Profiling ------------------------------------------------------------------------------ */

static inline gtap_profile_export_result gtap_export_profile(const gtap_profile_export_options &options = {})
{
    gtap_profile_export_result r = {};
    gtap_host_profile_options o = {options.output_directory, options.label, options.overwrite ? 1 : 0};
    gtap_host_profile_result h;
    gtap_host_export_profile(&o, &h);
    r.status = (gtap_profile_export_status)h.status;
    r.recorded_intervals = h.recorded_intervals;
    r.dropped_intervals = h.dropped_intervals;
    memcpy(r.result_directory, h.result_directory, sizeof r.result_directory);
    memcpy(r.profile_path, h.profile_path, sizeof r.profile_path);
    memcpy(r.intervals_path, h.intervals_path, sizeof r.intervals_path);
    memcpy(r.aggregates_path, h.aggregates_path, sizeof r.aggregates_path);
    memcpy(r.trace_path, h.trace_path, sizeof r.trace_path);
    return r;
}

/* The paper's older profile entry points: write ./profile/<name>/ and say where. */
static inline void gtap_visualize_profile(const char *name)
{
    char dir[400];
    snprintf(dir, sizeof dir, "./profile/%s", name ? name : "gtap");
    gtap_profile_export_options o;
    o.output_directory = dir;
    o.overwrite = true;
    gtap_profile_export_result r = gtap_export_profile(o);
    if (r.status == gtap_profile_export_status::success)
        printf("gtap: profile written to %s (trace.json opens in https://ui.perfetto.dev)\n", r.result_directory);
    else
        fprintf(stderr, "gtap: profile export failed: %s\n", gtap_profile_export_status_string(r.status));
}

static inline void visualize_profile(const char *name) { gtap_visualize_profile(name); }
static inline void visualize_working_time(const char *name) { gtap_visualize_profile(name); }

/* ---- Device helpers the paper's programs use ------------------------------------------------ */

/* Loads *p through L2, bypassing a possibly stale L1 (values other SMs write). */
template <typename T>
static __device__ __forceinline__ T load_L2(const T *p)
{
    return __ldcg(p);
}

#endif /* GTAP_HOST_API_CUH */
