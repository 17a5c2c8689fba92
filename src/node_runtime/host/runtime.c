/* runtime.c - sizing, allocation, reset and release of the node runtime's device state. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "gtap/host.h"
#include "host_internal.h"
#include "policies.h"

gtap_host_runtime gtap_rt;

/* Allocates *p (bytes) on the device, counting it; jumps to the caller's cleanup on error. */
#define GTAP_DEV_ALLOC(p, bytes)                                                                \
    do {                                                                                        \
        size_t gtap_n_ = (bytes);                                                               \
        cudaError_t gtap_e_ = cudaMalloc((void **)&(p), gtap_n_ ? gtap_n_ : 1);                 \
        if (gtap_e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "gtap: error: cannot allocate %zu bytes of device memory for %s: %s\n", \
                    gtap_n_, #p, cudaGetErrorString(gtap_e_));                                  \
            err = gtap_e_;                                                                      \
            goto fail_free;                                                                     \
        }                                                                                       \
        gtap_rt.device_bytes += gtap_n_;                                                        \
    } while (0)

static uint32_t next_pow2_u32(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p > 0x80000000ull ? 0x80000000u : (uint32_t)p;
}

static size_t round_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Checks the resolved configuration; prints what is wrong and which knob sets it. */
static int validate(const gtap_config_t *c)
{
    if (c->grid_size <= 0) {
        fprintf(stderr, "gtap: error: grid size %d is not positive (set by %s)\n", c->grid_size,
                c->grid_size_knob);
        return cudaErrorInvalidConfiguration;
    }
    if (c->block_size < 32 || c->block_size > 1024 || c->block_size % 32) {
        fprintf(stderr, "gtap: error: block size %d must be a multiple of 32 in [32, 1024] "
                "(GTAP_BLOCK_SIZE or config.block_size)\n", c->block_size);
        return cudaErrorInvalidConfiguration;
    }
    if (c->num_queues < 1 || c->num_queues > GTAP_MAX_NUM_QUEUES) {
        fprintf(stderr, "gtap: error: %d queues requested; GTAP_NUM_QUEUES must be in [1, %d]\n",
                c->num_queues, GTAP_MAX_NUM_QUEUES);
        return cudaErrorInvalidValue;
    }
    if (c->max_tasks_per_worker <= 0) {
        fprintf(stderr, "gtap: error: %s=%d must be positive\n", c->tasks_knob, c->max_tasks_per_worker);
        return cudaErrorInvalidValue;
    }
    if (c->mode == GTAP_MODE_THREAD && c->max_tasks_per_worker % c->num_queues) {
        fprintf(stderr, "gtap: warning: %s=%d is not a multiple of GTAP_NUM_QUEUES=%d; each queue "
                "holds %d tasks\n", c->tasks_knob, c->max_tasks_per_worker, c->num_queues,
                c->max_tasks_per_worker / c->num_queues);
    }
    if (c->max_child_tasks <= 0 || c->profile_capacity <= 0) {
        fprintf(stderr, "gtap: error: GTAP_MAX_CHILD_TASKS and GTAP_PROFILE_CAPACITY must be positive\n");
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

static void atexit_check(void)
{
    gtap_host_watch_stop(); /* before the CUDA runtime's own exit handlers */
    if (!gtap_rt.error_host || gtap_rt.error_host->code == 0)
        return;
    gtap_host_report_error();
    fflush(stdout);
    fprintf(stderr, "gtap: the run failed; exiting with status 1\n");
    _Exit(1);
}

int gtap_host_init(const gtap_config_t *cfg, const gtap_program_desc *prog, int (*prepare_device)(void),
                   gtap_dev_state *state, size_t *bytes_p)
{
    cudaError_t err;
    gtap_dev_state s;
    gtap_policy_decision policies;
    double t0 = now_ms();
    int ndev = 0;

    if (gtap_rt.initialized) {
        fprintf(stderr, "gtap: error: gtap_initialize() called twice without gtap_finalize()\n");
        return cudaErrorInitializationError;
    }
    if ((err = (cudaError_t)validate(cfg)) != cudaSuccess)
        return err;
    if (gtap_policies_decide(cfg, &policies) || gtap_host_watch_parse() != cudaSuccess)
        return cudaErrorInvalidValue;
    if (!prog || prog->interface_version != GTAP_GEN_INTERFACE_VERSION) {
        fprintf(stderr, "gtap: error: the program was generated for interface version %u, the "
                "runtime implements %d; rebuild it with this gtapcc\n",
                prog ? prog->interface_version : 0u, GTAP_GEN_INTERFACE_VERSION);
        return cudaErrorInvalidValue;
    }
    err = cudaGetDeviceCount(&ndev);
    if (err != cudaSuccess || ndev == 0) {
        fprintf(stderr, "gtap: error: no CUDA device: %s\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "none found");
        return err != cudaSuccess ? err : cudaErrorNoDevice;
    }

    memset(&gtap_rt, 0, sizeof gtap_rt);
    gtap_rt.cfg = *cfg;
    gtap_rt.prog = prog;
    memset(&s, 0, sizeof s);

    /* ---- sizing ---- */
    const uint64_t workers = cfg->mode == GTAP_MODE_THREAD
                                 ? (uint64_t)cfg->grid_size * (uint64_t)(cfg->block_size / 32)
                                 : (uint64_t)cfg->grid_size;
    const uint32_t nq = cfg->mode == GTAP_MODE_THREAD ? (uint32_t)cfg->num_queues : 1u;
    uint64_t per_queue = (uint64_t)cfg->max_tasks_per_worker / nq;
    if (per_queue < 64)
        per_queue = 64; /* at least two batches per queue, so one warp's iteration fits */
    const uint32_t ring_cap = next_pow2_u32(per_queue);
    const size_t header = cfg->assume_no_taskwait ? sizeof(gtap_task_header_nt) : sizeof(gtap_task_header);
    const size_t align = prog->max_data_align > 8 ? prog->max_data_align : 8;
    const size_t data_offset = round_up(header, align);
    const size_t stride = round_up(data_offset + (prog->max_data_size ? prog->max_data_size : 1), 16);
    /* Each worker owns a range of records (pool.cuh); the ranges together are capped by the
     * memory budget and by 32-bit ids. */
    uint64_t per_worker = (uint64_t)cfg->max_tasks_per_worker;
    if (per_worker < 64)
        per_worker = 64; /* at least two iterations' worth of children */
    uint64_t by_memory = cfg->max_task_memory / (stride + sizeof(uint32_t)) / workers;
    gtap_rt.records_limited_by_memory = by_memory < per_worker;
    if (by_memory < per_worker)
        per_worker = by_memory;
    if (per_worker * workers > 0xfffffff0ull)
        per_worker = 0xfffffff0ull / workers;
    if (per_worker < 64) {
        fprintf(stderr, "gtap: error: GTAP_MAX_TASK_MEMORY=%llu bytes gives each of %llu workers only "
                "%llu task records of %zu bytes; raise it or lower the grid size\n",
                (unsigned long long)cfg->max_task_memory, (unsigned long long)workers,
                (unsigned long long)per_worker, stride);
        return cudaErrorInvalidValue;
    }
    const uint64_t records = per_worker * workers;

    s.mode = cfg->mode;
    s.sched = cfg->sched;
    s.num_queues = (int32_t)nq;
    s.resume_batching = policies.resume_batching;
    s.spread = policies.spread;
    s.early_publish = policies.early_publish;
    s.topup_steal = policies.topup_steal;
    s.assume_no_taskwait = cfg->assume_no_taskwait;
    s.max_workers = (uint32_t)workers;
    s.ring_capacity = ring_cap;
    s.ring_mask = ring_cap - 1;
    s.record_stride = (uint32_t)stride;
    s.data_offset = (uint32_t)data_offset;
    s.data_capacity = (uint32_t)(stride - data_offset);
    s.num_records = (uint32_t)records;
    s.records_per_worker = (uint32_t)per_worker;
    s.max_child_tasks = (uint32_t)cfg->max_child_tasks;
    s.profile_capacity = cfg->profiling ? (uint32_t)cfg->profile_capacity : 0;
    s.terminate_on_root = cfg->terminate_on_root;
    s.stress = cfg->stress;

    /* ---- allocation (nothing large is zero-filled: records, rings and free stacks are
     * written before they are read) ---- */
    GTAP_DEV_ALLOC(s.records, (size_t)(records + 1) * stride);
    GTAP_DEV_ALLOC(s.deques, (size_t)workers * nq * sizeof(gtap_deque));
    GTAP_DEV_ALLOC(s.rings, (size_t)workers * nq * ring_cap * sizeof(uint32_t));
    GTAP_DEV_ALLOC(s.pool_stack, (size_t)records * sizeof(uint32_t));
    GTAP_DEV_ALLOC(s.pool_workers, (size_t)workers * sizeof(gtap_pool_worker));
    GTAP_DEV_ALLOC(s.ctl, sizeof(gtap_ctl));
    GTAP_DEV_ALLOC(s.root_result, 256);
    GTAP_DEV_ALLOC(s.stats, (size_t)workers * sizeof(gtap_worker_stats));
    GTAP_DEV_ALLOC(s.watch_worker, (size_t)workers * sizeof(unsigned long long));
    if (cfg->watch_tasks)
        GTAP_DEV_ALLOC(s.watch, gtap_host_watch_words(&s) * sizeof(unsigned long long));
    if (s.spread)
        GTAP_DEV_ALLOC(s.sm_busy, (size_t)GTAP_MAX_SMS * sizeof(unsigned long long));
    if (cfg->sched == GTAP_SCHED_GQ) {
        uint32_t gq_cap = next_pow2_u32(records + 32 * workers + 1);
        s.gq_mask = gq_cap - 1;
        GTAP_DEV_ALLOC(s.gq, (size_t)nq * sizeof(gtap_gq));
        GTAP_DEV_ALLOC(s.gq_ring, (size_t)nq * gq_cap * sizeof(uint32_t));
    }
    if (cfg->profiling) {
        GTAP_DEV_ALLOC(s.profile, (size_t)workers * s.profile_capacity * sizeof(gtap_profile_interval));
        GTAP_DEV_ALLOC(s.profile_count, (size_t)workers * sizeof(uint32_t));
    }
    err = cudaHostAlloc((void **)&gtap_rt.error_host, sizeof(gtap_error_record), cudaHostAllocMapped);
    if (err != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot allocate the mapped error record: %s\n", cudaGetErrorString(err));
        goto fail_free;
    }
    err = cudaHostGetDevicePointer((void **)&s.error, (void *)gtap_rt.error_host, 0);
    if (err != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot map the error record: %s\n", cudaGetErrorString(err));
        goto fail_free;
    }
    gtap_rt.state = s;
    gtap_rt.initialized = 1;
    err = (cudaError_t)gtap_host_reset();
    if (err == cudaSuccess && prepare_device)
        err = (cudaError_t)prepare_device();
    if (err != cudaSuccess) {
        gtap_rt.initialized = 0;
        goto fail_free;
    }
    if ((err = (cudaError_t)gtap_host_watch_start()) != cudaSuccess) {
        gtap_rt.initialized = 0;
        goto fail_free;
    }
    gtap_rt.init_ms = now_ms() - t0;
    if (!gtap_rt.atexit_registered) {
        atexit(atexit_check);
        gtap_rt.atexit_registered = 1;
    }
    *state = s;
    if (bytes_p)
        *bytes_p = gtap_rt.device_bytes;
    if (gtap_host_env_ll("GTAP_STATS", 0)) {
        fprintf(stderr, "gtap: initialized in %.3f ms: %llu workers, %u task records of %zu bytes "
                "(%u per worker), deque capacity %u x %u queue(s), %.1f MiB of device memory\n",
                gtap_rt.init_ms, (unsigned long long)workers, s.num_records, stride, s.records_per_worker,
                ring_cap, nq, gtap_rt.device_bytes / 1048576.0);
        gtap_policies_print(&policies);
    }
    return cudaSuccess;

fail_free:
    gtap_rt.state = s;
    gtap_host_free_all();
    return err;
}

void gtap_host_free_all(void)
{
    gtap_dev_state *s = &gtap_rt.state;
    gtap_host_watch_stop(); /* it reads what is freed here */
    void *ptrs[] = {s->records, s->deques, s->rings, s->pool_stack, s->pool_workers, s->ctl,
                    s->root_result, s->stats, s->gq, s->gq_ring, s->profile, s->profile_count,
                    s->sm_busy, s->watch_worker, s->watch};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        if (ptrs[i])
            cudaFree(ptrs[i]);
    if (gtap_rt.error_host)
        cudaFreeHost((void *)gtap_rt.error_host);
    memset(&gtap_rt.state, 0, sizeof gtap_rt.state);
    gtap_rt.error_host = NULL;
    gtap_rt.device_bytes = 0;
}

int gtap_host_reset(void)
{
    gtap_dev_state *s = &gtap_rt.state;
    const gtap_config_t *c = &gtap_rt.cfg;
    cudaError_t err;
    gtap_ctl ctl;
    uint64_t workers = s->max_workers;
    uint32_t nq = (uint32_t)s->num_queues;

    if (!gtap_rt.initialized) {
        fprintf(stderr, "gtap: error: gtap_reset() before gtap_initialize()\n");
        return cudaErrorInitializationError;
    }
    memset(&ctl, 0, sizeof ctl);
    ctl.active = 1; /* the master worker holds the root at launch */
#define GTAP_CHECK_RESET(call)                                                                  \
    do {                                                                                        \
        err = (call);                                                                           \
        if (err != cudaSuccess) {                                                               \
            fprintf(stderr, "gtap: error: resetting the runtime failed: %s\n", cudaGetErrorString(err)); \
            return err;                                                                         \
        }                                                                                       \
    } while (0)
    GTAP_CHECK_RESET(cudaMemset(s->deques, 0, (size_t)workers * nq * sizeof(gtap_deque)));
    GTAP_CHECK_RESET(cudaMemset(s->pool_workers, 0, (size_t)workers * sizeof(gtap_pool_worker)));
    GTAP_CHECK_RESET(cudaMemcpy(s->ctl, &ctl, sizeof ctl, cudaMemcpyHostToDevice));
    GTAP_CHECK_RESET(cudaMemset(s->stats, 0, (size_t)workers * sizeof(gtap_worker_stats)));
    /* every worker out of the loop (GTAP_WATCH_LEFT): one stuck in an aborted run may not be */
    GTAP_CHECK_RESET(cudaMemset(s->watch_worker, 0xff, (size_t)workers * sizeof(unsigned long long)));
    if (s->watch)
        GTAP_CHECK_RESET(cudaMemset(s->watch, 0, gtap_host_watch_words(s) * sizeof(unsigned long long)));
    if (s->gq)
        GTAP_CHECK_RESET(cudaMemset(s->gq, 0, (size_t)nq * sizeof(gtap_gq)));
    if (s->profile_count)
        GTAP_CHECK_RESET(cudaMemset(s->profile_count, 0, (size_t)workers * sizeof(uint32_t)));
    if (s->sm_busy) /* workers clear their bits when they leave; an aborted run may not have */
        GTAP_CHECK_RESET(cudaMemset(s->sm_busy, 0, (size_t)GTAP_MAX_SMS * sizeof(unsigned long long)));
#undef GTAP_CHECK_RESET
    memset((void *)gtap_rt.error_host, 0, sizeof(gtap_error_record));
    (void)c;
    return cudaSuccess;
}

int gtap_host_finalize(void)
{
    if (!gtap_rt.initialized) {
        fprintf(stderr, "gtap: error: gtap_finalize() before gtap_initialize()\n");
        return cudaErrorInitializationError;
    }
    int err = gtap_host_check();
    /* Keep the error record alive for the exit check if the run failed. */
    gtap_error_record saved = *gtap_rt.error_host;
    gtap_host_free_all();
    gtap_rt.initialized = 0;
    if (saved.code) {
        static gtap_error_record keep;
        keep = saved;
        gtap_rt.error_host = &keep;
    }
    return err;
}

int gtap_host_initialized(void)
{
    return gtap_rt.initialized;
}

const gtap_dev_state *gtap_host_state(void)
{
    return &gtap_rt.state;
}

const gtap_config_t *gtap_host_config(void)
{
    return &gtap_rt.cfg;
}

static const void *gtap_entry_kernel_list[GTAP_HOST_MAX_ENTRY_KERNELS];
static int gtap_entry_kernel_count;

int gtap_host_register_entry_kernel(const void *kernel)
{
    for (int i = 0; i < gtap_entry_kernel_count; i++)
        if (gtap_entry_kernel_list[i] == kernel)
            return 1;
    if (gtap_entry_kernel_count < GTAP_HOST_MAX_ENTRY_KERNELS) /* beyond: prepared at first launch */
        gtap_entry_kernel_list[gtap_entry_kernel_count++] = kernel;
    return 1;
}

int gtap_host_entry_kernels(const void *const **kernels)
{
    *kernels = gtap_entry_kernel_list;
    return gtap_entry_kernel_count;
}

long long gtap_host_env_ll(const char *name, long long dflt)
{
    const char *v = getenv(name);
    char *end;
    long long x;
    if (!v || !*v)
        return dflt;
    x = strtoll(v, &end, 0);
    if (*end) {
        fprintf(stderr, "gtap: warning: ignoring %s=%s (not an integer)\n", name, v);
        return dflt;
    }
    return x;
}

int gtap_host_default_grid_size(int block_threads)
{
    int dev = 0, sms = 0, max_threads = 0;
    long long env = gtap_host_env_ll("GTAP_GRID_SIZE", 0);
    if (env > 0 && env <= INT_MAX)
        return (int)env;
    if (block_threads <= 0)
        block_threads = 256;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1024; /* no device: gtap_initialize reports that */
    }
    int per_sm = max_threads / block_threads;
    if (per_sm < 1)
        per_sm = 1;
    return sms * per_sm;
}

void gtap_host_launch_geometry(int *grid, int *block)
{
    *grid = gtap_rt.cfg.grid_size;
    *block = gtap_rt.cfg.block_size;
}
