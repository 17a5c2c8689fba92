/* detach.cu - hand-compiled test of detached children (gtap_gen.h rule R4) mixed with joins
 * and two task functions: each inner node joins its two subtrees, then spawns two "bump"
 * tasks it never waits for (one of them with a result that lands in the finished parent's
 * record), and returns. The parent record must outlive them (zombie) and the run must end
 * only after every bump ran. */
#include "handcomp.h"

__device__ unsigned long long g_bumps;

/* #pragma gtap function
 * __device__ int bump(int d) { atomicAdd(&g_bumps, d); return d; }
 *
 * #pragma gtap function
 * __device__ int tree(int d) {
 *   if (d == 0) return 1;
 *   int a, b, ignored;
 *   #pragma gtap task
 *   a = tree(d - 1);
 *   #pragma gtap task
 *   b = tree(d - 1);
 *   #pragma gtap taskwait
 *   #pragma gtap task
 *   bump(d);
 *   #pragma gtap task
 *   ignored = bump(d);
 *   return a + b + 1;
 * } */
enum { GTAPGEN_FN_bump = 0, GTAPGEN_FN_tree = 1 };
struct gtapgen_bump_data {
    int d;
};
struct gtapgen_tree_data {
    int d;
    int a[GTAP_LANES], b[GTAP_LANES], ignored[GTAP_LANES];
};

GTAP_TASK_FN void gtapgen_bump(gtap_worker *w, gtap_task t)
{
    struct gtapgen_bump_data *__restrict__ self = (struct gtapgen_bump_data *)gtap_task_data(w, t);
    atomicAdd(&g_bumps, (unsigned long long)self->d);
    int rv = self->d;
    gtap_task_return(w, t, &rv, sizeof rv);
}

GTAP_TASK_FN void gtapgen_tree(gtap_worker *w, gtap_task t)
{
    struct gtapgen_tree_data *__restrict__ self = (struct gtapgen_tree_data *)gtap_task_data(w, t);
    switch (gtap_task_state(w, t)) {
    case 0:
        if (self->d == 0) {
            int rv = 1;
            gtap_task_return(w, t, &rv, sizeof rv);
            return;
        }
        {
            struct gtapgen_tree_data *c = (struct gtapgen_tree_data *)gtap_task_spawn(w, t, GTAPGEN_FN_tree, sizeof *c, 0, &self->a[GTAP_LANE]);
            c->d = self->d - 1;
        }
        {
            struct gtapgen_tree_data *c = (struct gtapgen_tree_data *)gtap_task_spawn(w, t, GTAPGEN_FN_tree, sizeof *c, 0, &self->b[GTAP_LANE]);
            c->d = self->d - 1;
        }
        if (gtap_task_join(w, t, 1, 0))
            return;
        [[fallthrough]];
    case 1: {
        {
            struct gtapgen_bump_data *c = (struct gtapgen_bump_data *)gtap_task_spawn(w, t, GTAPGEN_FN_bump, sizeof *c, 0, NULL);
            c->d = self->d;
        }
        {
            struct gtapgen_bump_data *c = (struct gtapgen_bump_data *)gtap_task_spawn(w, t, GTAPGEN_FN_bump, sizeof *c, 0, &self->ignored[GTAP_LANE]);
            c->d = self->d;
        }
        int rv = self->a[GTAP_LANE] + self->b[GTAP_LANE] + 1;
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
    switch (fn) {
    case GTAPGEN_FN_bump: gtapgen_bump(w, t); return;
    case GTAPGEN_FN_tree: gtapgen_tree(w, t); return;
    default: gtap_task_bad_state(w, t); return;
    }
}

static const gtap_function_desc gtapgen_functions[] = {
    {"bump", sizeof(struct gtapgen_bump_data), alignof(struct gtapgen_bump_data), sizeof(int), GTAP_FN_MIGRATABLE, 0xd1u},
    {"tree", sizeof(struct gtapgen_tree_data), alignof(struct gtapgen_tree_data), sizeof(int),
     GTAP_FN_MIGRATABLE | GTAP_FN_HAS_TASKWAIT, 0xd2u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 2, sizeof(struct gtapgen_tree_data),
                                           alignof(struct gtapgen_tree_data), sizeof(int), 1, 0xd3u, gtapgen_functions};

__device__ int d_result;

__global__ void exec_kernel(int d)
{
    struct gtapgen_tree_data *r = (struct gtapgen_tree_data *)gtap_entry_begin(GTAPGEN_FN_tree, sizeof *r, sizeof(int));
    if (r)
        r->d = d;
    gtap_entry_run();
    if (gtap_entry_result())
        d_result = *(const int *)gtap_entry_result();
}

int main(int argc, char **argv)
{
    int dmax = argc > 1 ? atoi(argv[1]) : 14;
    HC_CHECK(hc_init() == 0, "initialization failed");
    for (int d = 0; d <= dmax; d++) {
        unsigned long long zero = 0, bumps = 0, expect_bumps = 0;
        int got = -1;
        for (int k = 1; k <= d; k++) /* 2^(d-k) inner nodes at height k, each bumps 2k */
            expect_bumps += (1ull << (d - k)) * 2ull * (unsigned long long)k;
        HC_STORE(g_bumps, zero);
        HC_STORE(d_result, got);
        hc_launch(exec_kernel, d);
        HC_CHECK(hc_sync() == 0, "d=%d: run failed", d);
        HC_FETCH(got, d_result);
        HC_FETCH(bumps, g_bumps);
        HC_CHECK(got == (1 << (d + 1)) - 1, "d=%d: %d nodes, expected %d", d, got, (1 << (d + 1)) - 1);
        HC_CHECK(bumps == expect_bumps, "d=%d: bumps %llu, expected %llu", d, bumps, expect_bumps);
    }
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS detach d=0..%d\n", dmax);
    return 0;
}
