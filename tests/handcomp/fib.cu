/* fib.cu - hand-compiled fib (every call a task), with or without EPAQ queues: the paper's
 * Program 4 as gtapcc translates it. Checks fib(n) for n = 0..N against the closed loop. */
#include "handcomp.h"

/* #pragma gtap function
 * __device__ int fib(int n) {
 *   if (n < 2) return n;
 *   int a, b;
 *   #pragma gtap task queue(HC_Q(n - 1))
 *   a = fib(n - 1);
 *   #pragma gtap task queue(HC_Q(n - 2))
 *   b = fib(n - 2);
 *   #pragma gtap taskwait queue(HC_QJOIN)
 *   return a + b;
 * } */
#if GTAP_NUM_QUEUES >= 3
#define HC_Q(m) ((m) < 2 ? 1 : 0)
#define HC_QJOIN 2
#else
#define HC_Q(m) 0
#define HC_QJOIN 0
#endif

enum { GTAPGEN_FN_fib = 0 };
struct gtapgen_fib_data {
    int n;
    int a[GTAP_LANES];
    int b[GTAP_LANES];
};

GTAP_TASK_FN void gtapgen_fib(gtap_worker *gtapgen_w, gtap_task gtapgen_t)
{
    struct gtapgen_fib_data *__restrict__ self = (struct gtapgen_fib_data *)gtap_task_data(gtapgen_w, gtapgen_t);
    switch (gtap_task_state(gtapgen_w, gtapgen_t)) {
    case 0:
        if (self->n < 2) {
            int rv = self->n;
            gtap_task_return(gtapgen_w, gtapgen_t, &rv, sizeof rv);
            return;
        }
        {
            struct gtapgen_fib_data *c = (struct gtapgen_fib_data *)gtap_task_spawn(
                gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, sizeof *c, HC_Q(self->n - 1), &self->a[GTAP_LANE]);
            c->n = self->n - 1;
        }
        {
            struct gtapgen_fib_data *c = (struct gtapgen_fib_data *)gtap_task_spawn(
                gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, sizeof *c, HC_Q(self->n - 2), &self->b[GTAP_LANE]);
            c->n = self->n - 2;
        }
        if (gtap_task_join(gtapgen_w, gtapgen_t, 1, HC_QJOIN))
            return;
        [[fallthrough]];
    case 1: {
        int rv = self->a[GTAP_LANE] + self->b[GTAP_LANE];
        gtap_task_return(gtapgen_w, gtapgen_t, &rv, sizeof rv);
        return;
    }
    default:
        gtap_task_bad_state(gtapgen_w, gtapgen_t);
        return;
    }
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    switch (fn) {
    case GTAPGEN_FN_fib: gtapgen_fib(w, t); return;
    default: gtap_task_bad_state(w, t); return;
    }
}

static const gtap_function_desc gtapgen_functions[] = {
    {"fib", sizeof(struct gtapgen_fib_data), alignof(struct gtapgen_fib_data), sizeof(int),
     GTAP_FN_MIGRATABLE | GTAP_FN_HAS_TASKWAIT, 0x1234u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 1, sizeof(struct gtapgen_fib_data),
                                           alignof(struct gtapgen_fib_data), sizeof(int), 1, 0x5678u,
                                           gtapgen_functions};

__device__ int d_result;

__global__ void exec_kernel(int n)
{
    /* #pragma gtap entry
     * d_result = fib(n); */
    {
        struct gtapgen_fib_data *r = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, sizeof *r, sizeof(int));
        if (r)
            r->n = n;
        gtap_entry_run();
        if (gtap_entry_result())
            d_result = *(const int *)gtap_entry_result();
    }
}

/* fib bench N REPS: prints one line per run: "run <i> n <N> kernel_ms <k> wall_ms <w>". */
static int bench(int n, int reps)
{
    double init_ms;
    size_t bytes;
    HC_CHECK(hc_init_timed(&init_ms, &bytes) == 0, "initialization failed");
    printf("init_ms %.3f device_bytes %zu\n", init_ms, bytes);
    long long f0 = 0, f1 = 1;
    for (int k = 0; k < n; k++) {
        long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    for (int r = 0; r < reps; r++) {
        double kms, wms;
        int got = -1;
        HC_STORE(d_result, got);
        HC_TIMED_LAUNCH(kms, wms, exec_kernel, n);
        HC_FETCH(got, d_result);
        HC_CHECK(got == (int)f0, "fib(%d) = %d, expected %lld", n, got, f0);
        printf("run %d n %d kernel_ms %.4f wall_ms %.4f\n", r, n, kms, wms);
    }
#if defined(GTAP_ENABLE_PROFILING)
    gtap_visualize_profile(getenv("HC_PROFILE_NAME") ? getenv("HC_PROFILE_NAME") : "hc_fib");
#endif
    HC_CHECK(hc_finish() == 0, "finalize failed");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return bench(argc > 2 ? atoi(argv[2]) : 30, argc > 3 ? atoi(argv[3]) : 5);
    int nmax = argc > 1 ? atoi(argv[1]) : 25;
    int n0 = argc > 2 ? atoi(argv[2]) : 0;
    HC_CHECK(hc_init() == 0, "initialization failed");
#if HC_GPU
    if (argc > 3 && strcmp(argv[3], "mismatch") == 0) {
        /* A launch larger than gtap_initialize() sized the runtime for must be refused. */
        const gtap_config_t *c = gtap_host_config();
        exec_kernel<<<2 * c->grid_size + 1, c->block_size>>>(n0);
        HC_CHECK(hc_sync() == 0, "mismatched launch failed (as it should)");
        return 0;
    }
#endif
    long long f0 = 0, f1 = 1;
    for (int n = 0; n <= nmax; n++) {
        long long expect = f0;
        f0 = f1;
        f1 = expect + f1;
        if (n < n0)
            continue;
        int got = -1;
        HC_STORE(d_result, got);
        hc_launch(exec_kernel, n);
        HC_CHECK(hc_sync() == 0, "fib(%d): run failed", n);
        HC_FETCH(got, d_result);
        HC_CHECK(got == (int)expect, "fib(%d) = %d, expected %lld", n, got, expect);
    }
#if defined(GTAP_ENABLE_PROFILING)
    gtap_profile_export_options po;
    po.output_directory = "./profile/hc_fib";
    po.overwrite = true;
    gtap_profile_export_result pr = gtap_export_profile(po);
    HC_CHECK(pr.status == gtap_profile_export_status::success, "profile export: %s",
             gtap_profile_export_status_string(pr.status));
    HC_CHECK(pr.recorded_intervals > 0, "profile: no intervals recorded");
    printf("profile: %zu intervals (%zu dropped) in %s\n", pr.recorded_intervals, pr.dropped_intervals,
           pr.result_directory);
#endif
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS fib 0..%d (%d queues)\n", nmax, (int)(GTAP_NUM_QUEUES));
    return 0;
}
