/* gtap_app.cuh - the GPU side of the application driver: device check, runtime
 * initialization from the command line, and the timed launch loop (CUDA events around
 * gtap_launch, as the paper measures; host clock around launch + synchronize). Include after
 * gtap_thread.cuh or gtap_block.cuh. Also compiles for `gtapcc --target=host`, where the
 * "device" is the CPU reference executor (a block-level program's tasks run on one simulated
 * block of GTAP_BLOCK_SIZE threads) and the events read the host clock.
 */
#ifndef GTAP_APP_CUH
#define GTAP_APP_CUH

#include <type_traits>

#include "app_cli.h"

#if defined(GTAP_SCHED_GLOBAL_QUEUE)
#define APP_SCHED_SUFFIX "-gq"
#elif defined(GTAP_SCHED_CHASELEV)
#define APP_SCHED_SUFFIX "-cl"
#else
#define APP_SCHED_SUFFIX ""
#endif

#if defined(GTAP_TARGET_HOST) && defined(GTAP_WORKER_IS_BLOCK)
#define APP_GTAP_IMPL "gtap-host-block"
#elif defined(GTAP_TARGET_HOST)
#define APP_GTAP_IMPL "gtap-host"
#elif defined(GTAP_WORKER_IS_THREAD)
#define APP_GTAP_IMPL "gtap-thread" APP_SCHED_SUFFIX
#else
#define APP_GTAP_IMPL "gtap-block" APP_SCHED_SUFFIX
#endif

/* Exits with 77 (CTest: skipped) when there is no usable CUDA device. */
static inline void app_require_device(const app_cli *c)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA device (%s); nothing to run\n", c->app,
                e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        exit(77);
    }
}

/* EPAQ queues when --queues is not given: env GTAP_NUM_QUEUES, else the compiled default. */
static inline int app_default_queues(void)
{
    const char *e = getenv("GTAP_NUM_QUEUES");
    return e && atoi(e) > 0 ? atoi(e) : GTAP_NUM_QUEUES;
}

/* Initializes the runtime from --grid, --block, --max-tasks and --queues (0: the runtime's
 * defaults) and records the resolved geometry in c. Returns 0 or 1 (message printed). */
static inline int app_gtap_init(app_cli *c)
{
    cudaError_t e;
#if defined(GTAP_WORKER_IS_THREAD) || (defined(GTAP_TARGET_HOST) && !defined(GTAP_WORKER_IS_BLOCK))
    gtap_thread_config cfg{};
    cfg.grid_size = c->grid;
    cfg.block_size = c->block;
    cfg.max_tasks_per_warp = (int)c->max_tasks;
    cfg.num_queues = c->queues;
    e = gtap_initialize(cfg);
    c->queues = c->queues ? c->queues : app_default_queues();
#else
    gtap_block_config cfg{};
    cfg.grid_size = c->grid;
    cfg.block_size = c->block;
    cfg.max_tasks_per_block = (int)c->max_tasks;
    e = gtap_initialize(cfg);
    c->queues = 1;
#endif
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: gtap_initialize failed: %s\n", c->app, cudaGetErrorString(e));
        return 1;
    }
#if defined(GTAP_TARGET_HOST)
    c->grid = 1;
#if defined(GTAP_WORKER_IS_BLOCK)
    c->block = GTAP_BLOCK_SIZE; /* one simulated block */
#else
    c->block = 1;
#endif
    c->workers = 1;
#else
    c->grid = gtap_host_config()->grid_size; /* as the runtime resolved them */
    c->block = gtap_host_config()->block_size;
#if defined(GTAP_WORKER_IS_THREAD)
    c->workers = c->grid * c->block;
#else
    c->workers = c->grid;
#endif
#endif
    return 0;
}

/* Runs warmup + repeat launches: before each, reset(run) (untimed; e.g. restore the input);
 * launch() calls gtap_launch. A run of several launches takes launch(cudaEvent_t end) and
 * records end after each of them itself, so that the host's work after the last (deciding that
 * it was the last) stays out of the kernel time. Timed runs go into s. Returns 0, or 1 after a
 * runtime error. */
template <class Reset, class Launch>
static int app_gtap_run(const app_cli *c, app_stats *s, Reset reset, Launch launch)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    int rc = 0;
    for (int r = 0; r < c->warmup + c->repeat && rc == 0; r++) {
        reset(r);
        if (cudaDeviceSynchronize() != cudaSuccess) {
            fprintf(stderr, "%s: preparing run %d failed\n", c->app, r);
            rc = 1;
            break;
        }
        double w0 = app_now_ms();
        cudaEventRecord(e0, 0);
        cudaError_t le;
        if constexpr (std::is_invocable<Launch, cudaEvent_t>::value) {
            le = launch(e1);
        } else {
            le = launch();
            cudaEventRecord(e1, 0);
        }
        cudaError_t se = gtap_synchronize();
        double wall = app_now_ms() - w0;
        if (le != cudaSuccess || se != cudaSuccess) {
            fprintf(stderr, "%s: run %d failed: %s\n", c->app, r,
                    cudaGetErrorString(le != cudaSuccess ? le : se));
            rc = 1;
            break;
        }
        float k = 0;
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&k, e0, e1);
        if (c->verbose)
            fprintf(c->out, "run %d%s kernel_ms %.4f wall_ms %.4f\n", r, r < c->warmup ? " (warm-up)" : "", k, wall);
        if (r >= c->warmup)
            app_stats_add(s, k, wall);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return rc;
}

/* --profile DIR (builds with GTAP_ENABLE_PROFILING): writes the last launch's per-warp
 * intervals (the runtime's profile export) into DIR. Returns 1 after printing a FAIL line
 * when the export failed (an asked-for profile that is missing is an error), else 0. */
static inline int app_export_profile(const app_cli *c)
{
    const char *dir = app_opt_str(c, "profile", NULL);
    if (!dir)
        return 0;
    gtap_profile_export_options o;
    o.output_directory = dir;
    o.overwrite = true;
    gtap_profile_export_result r = gtap_export_profile(o);
    if (r.status != gtap_profile_export_status::success) {
        fprintf(stderr, "FAIL: %s: the profile export to %s failed: %s\n", c->app, dir,
                gtap_profile_export_status_string(r.status));
        return 1;
    }
    fprintf(c->out, "profile: %s (%s, %llu intervals)\n", r.result_directory,
            gtap_profile_export_status_string(r.status), (unsigned long long)r.recorded_intervals);
    return 0;
}

#endif /* GTAP_APP_CUH */
