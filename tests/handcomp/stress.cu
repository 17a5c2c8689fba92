/* stress.cu - 100 runs of hand-compiled fib, each with a random grid size, block size and
 * EPAQ queue count (and two launches per configuration, to check that the runtime re-arms
 * itself), through the config API (gtap_initialize(config) / gtap_launch / gtap_finalize).
 * Block sizes above GTAP_BLOCK_SIZE take the dynamic-shared-memory path. GPU only. */
#include <random>

#include "handcomp.h"

__device__ int g_nq;
__device__ int d_result;

enum { GTAPGEN_FN_fib = 0 };
struct gtapgen_fib_data {
    int n;
    int a[GTAP_LANES];
    int b[GTAP_LANES];
};

GTAP_TASK_FN void gtapgen_fib(gtap_worker *w, gtap_task t)
{
    struct gtapgen_fib_data *__restrict__ self = (struct gtapgen_fib_data *)gtap_task_data(w, t);
    switch (gtap_task_state(w, t)) {
    case 0:
        if (self->n < 2) {
            int rv = self->n;
            gtap_task_return(w, t, &rv, sizeof rv);
            return;
        }
        for (int k = 1; k <= 2; k++) {
            struct gtapgen_fib_data *c = (struct gtapgen_fib_data *)gtap_task_spawn(
                w, t, GTAPGEN_FN_fib, sizeof *c, ((self->n - k) < 2 ? 1 : 0) % g_nq,
                k == 1 ? &self->a[GTAP_LANE] : &self->b[GTAP_LANE]);
            c->n = self->n - k;
        }
        if (gtap_task_join(w, t, 1, 2 % g_nq))
            return;
        [[fallthrough]];
    case 1: {
        int rv = self->a[GTAP_LANE] + self->b[GTAP_LANE];
        gtap_task_return(w, t, &rv, sizeof rv);
        return;
    }
    default:
        gtap_task_bad_state(w, t);
        return;
    }
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    if (fn == GTAPGEN_FN_fib)
        gtapgen_fib(w, t);
    else
        gtap_task_bad_state(w, t);
}

static const gtap_function_desc gtapgen_functions[] = {
    {"fib", sizeof(struct gtapgen_fib_data), alignof(struct gtapgen_fib_data), sizeof(int),
     GTAP_FN_MIGRATABLE | GTAP_FN_HAS_TASKWAIT, 0x1234u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 1, sizeof(struct gtapgen_fib_data),
                                           alignof(struct gtapgen_fib_data), sizeof(int), 1, 0x5679u,
                                           gtapgen_functions};

__global__ void exec_kernel(int n)
{
    struct gtapgen_fib_data *r = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, sizeof *r, sizeof(int));
    if (r)
        r->n = n;
    gtap_entry_run();
    if (gtap_entry_result())
        d_result = *(const int *)gtap_entry_result();
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 100;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 12345u;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    std::mt19937 rng(seed);
    for (int i = 0; i < runs; i++) {
        gtap_thread_config c;
        c.grid_size = 1 + (int)(rng() % 528);
        c.block_size = 32 * (1 + (int)(rng() % 16));
        c.num_queues = 1 + (int)(rng() % 3);
        c.max_tasks_per_warp = 2048 * c.num_queues;
        int n = 10 + (int)(rng() % 13);
        HC_CHECK(gtap_initialize(c) == cudaSuccess, "run %d: initialize grid %d block %d queues %d", i,
                 c.grid_size, c.block_size, c.num_queues);
        HC_STORE(g_nq, c.num_queues);
        for (int rep = 0; rep < 2; rep++) {
            int got = -1;
            HC_STORE(d_result, got);
            HC_CHECK(gtap_launch(exec_kernel, n) == cudaSuccess, "run %d: launch", i);
            HC_CHECK(gtap_synchronize() == cudaSuccess, "run %d (grid %d block %d queues %d fib %d): failed",
                     i, c.grid_size, c.block_size, c.num_queues, n);
            HC_FETCH(got, d_result);
            long long f0 = 0, f1 = 1;
            for (int k = 0; k < n; k++) {
                long long f2 = f0 + f1;
                f0 = f1;
                f1 = f2;
            }
            HC_CHECK(got == (int)f0, "run %d (grid %d block %d queues %d): fib(%d) = %d, expected %lld", i,
                     c.grid_size, c.block_size, c.num_queues, n, got, f0);
        }
        HC_CHECK(gtap_finalize() == cudaSuccess, "run %d: finalize", i);
    }
    printf("PASS stress: %d random configurations\n", runs);
    return 0;
}
