/* spawn_many.cu - one task spawns K detached children on queue Q, each adds one to a counter.
 * Exercises long spawn loops (the slow allocation path, deque growth) and, with small limits,
 * the capacity errors: deque full (GTAP_MAX_TASKS_PER_WARP), too many children
 * (GTAP_MAX_CHILD_TASKS) and a bad queue index (GTAP_NUM_QUEUES). Usage: spawn_many K [Q]. */
#include "handcomp.h"

__device__ unsigned long long g_count;

/* #pragma gtap function  __device__ void leaf(void) { atomicAdd(&g_count, 1); }
 * #pragma gtap function  __device__ void fan(int k, int q) {
 *   for (int i = 0; i < k; i++) { #pragma gtap task queue(q)  leaf(); } } */
enum { GTAPGEN_FN_leaf = 0, GTAPGEN_FN_fan = 1 };
struct gtapgen_leaf_data {
    int unused;
};
struct gtapgen_fan_data {
    int k, q;
};

GTAP_TASK_FN void gtapgen_leaf(gtap_worker *w, gtap_task t)
{
    (void)w;
    (void)t;
    atomicAdd(&g_count, 1ull);
}

GTAP_TASK_FN void gtapgen_fan(gtap_worker *w, gtap_task t)
{
    struct gtapgen_fan_data *__restrict__ self = (struct gtapgen_fan_data *)gtap_task_data(w, t);
    for (int i = 0; i < self->k; i++)
        (void)gtap_task_spawn(w, t, GTAPGEN_FN_leaf, sizeof(struct gtapgen_leaf_data), self->q, NULL);
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    switch (fn) {
    case GTAPGEN_FN_leaf: gtapgen_leaf(w, t); return;
    case GTAPGEN_FN_fan: gtapgen_fan(w, t); return;
    default: gtap_task_bad_state(w, t); return;
    }
}

static const gtap_function_desc gtapgen_functions[] = {
    {"leaf", sizeof(struct gtapgen_leaf_data), alignof(struct gtapgen_leaf_data), 0, GTAP_FN_MIGRATABLE, 0xe1u},
    {"fan", sizeof(struct gtapgen_fan_data), alignof(struct gtapgen_fan_data), 0, GTAP_FN_MIGRATABLE, 0xe2u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 2, sizeof(struct gtapgen_fan_data),
                                           alignof(struct gtapgen_fan_data), 0, 0, 0xe3u, gtapgen_functions};

__global__ void exec_kernel(int k, int q)
{
    struct gtapgen_fan_data *r = (struct gtapgen_fan_data *)gtap_entry_begin(GTAPGEN_FN_fan, sizeof *r, 0);
    if (r) {
        r->k = k;
        r->q = q;
    }
    gtap_entry_run();
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 100000;
    int q = argc > 2 ? atoi(argv[2]) : 0;
    unsigned long long zero = 0, got = 0;
    HC_CHECK(hc_init() == 0, "initialization failed");
    for (int rep = 0; rep < 2; rep++) {
        HC_STORE(g_count, zero);
        hc_launch(exec_kernel, k, q);
        HC_CHECK(hc_sync() == 0, "run failed");
        HC_FETCH(got, g_count);
        HC_CHECK(got == (unsigned long long)k, "%llu children ran, expected %d", got, k);
    }
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS spawn_many %d on queue %d\n", k, q);
    return 0;
}
