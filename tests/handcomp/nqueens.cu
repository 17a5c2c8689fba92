/* nqueens.cu - hand-compiled N-Queens of the paper's evaluation: bitmask backtracking, one
 * detached task per placement up to the cutoff row, sequential search below it, built with
 * GTAP_ASSUME_NO_TASKWAIT. Checks the counts for n = 1..N against OEIS A000170. */
#include "handcomp.h"

#ifndef GTAP_ASSUME_NO_TASKWAIT
#error "build with -DGTAP_ASSUME_NO_TASKWAIT"
#endif

__device__ unsigned long long g_solutions;
__device__ int g_n;
__device__ int g_cutoff;

/* Solutions below (row, cols, left, right), without tasks. */
static __device__ unsigned long long nq_sequential(int n, int row, uint32_t cols, uint32_t left, uint32_t right)
{
    const uint32_t mask = (1u << n) - 1;
    uint32_t avail[32], c[32], l[32], r[32];
    unsigned long long count = 0;
    if (row == n)
        return 1;
    int d = 0;
    c[0] = cols;
    l[0] = left;
    r[0] = right;
    avail[0] = mask & ~(cols | left | right);
    while (d >= 0) {
        if (avail[d] == 0) {
            d--;
            continue;
        }
        uint32_t p = avail[d] & (0u - avail[d]);
        avail[d] ^= p;
        uint32_t nc = c[d] | p, nl = (l[d] | p) << 1, nr = (r[d] | p) >> 1;
        if (row + d + 1 == n) {
            count++;
            continue;
        }
        d++;
        c[d] = nc;
        l[d] = nl;
        r[d] = nr;
        avail[d] = mask & ~(nc | nl | nr);
    }
    return count;
}

/* #pragma gtap function
 * __device__ void nq(int row, uint32_t cols, uint32_t left, uint32_t right) {
 *   if (row > g_cutoff) { atomicAdd(&g_solutions, nq_sequential(...)); return; }
 *   if (row == g_n) { atomicAdd(&g_solutions, 1); return; }
 *   for (avail...) { #pragma gtap task  nq(row + 1, cols | p, (left | p) << 1, (right | p) >> 1); }
 * } */
enum { GTAPGEN_FN_nq = 0 };
struct gtapgen_nq_data {
    int row;
    uint32_t cols, left, right;
};

GTAP_TASK_FN void gtapgen_nq(gtap_worker *w, gtap_task t)
{
    struct gtapgen_nq_data *__restrict__ self = (struct gtapgen_nq_data *)gtap_task_data(w, t);
    const int n = g_n;
    if (self->row > g_cutoff) {
        atomicAdd(&g_solutions, nq_sequential(n, self->row, self->cols, self->left, self->right));
        return;
    }
    if (self->row == n) {
        atomicAdd(&g_solutions, 1ull);
        return;
    }
    uint32_t avail = ((1u << n) - 1) & ~(self->cols | self->left | self->right);
    while (avail) {
        uint32_t p = avail & (0u - avail);
        avail ^= p;
        struct gtapgen_nq_data *c = (struct gtapgen_nq_data *)gtap_task_spawn(w, t, GTAPGEN_FN_nq, sizeof *c, 0, NULL);
        c->row = self->row + 1;
        c->cols = self->cols | p;
        c->left = (self->left | p) << 1;
        c->right = (self->right | p) >> 1;
    }
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    if (fn == GTAPGEN_FN_nq)
        gtapgen_nq(w, t);
    else
        gtap_task_bad_state(w, t);
}

static const gtap_function_desc gtapgen_functions[] = {
    {"nq", sizeof(struct gtapgen_nq_data), alignof(struct gtapgen_nq_data), 0, GTAP_FN_MIGRATABLE, 0x99u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 1, sizeof(struct gtapgen_nq_data),
                                           alignof(struct gtapgen_nq_data), 0, 0, 0x9au, gtapgen_functions};

__global__ void exec_kernel(void)
{
    struct gtapgen_nq_data *r = (struct gtapgen_nq_data *)gtap_entry_begin(GTAPGEN_FN_nq, sizeof *r, 0);
    if (r) {
        r->row = 0;
        r->cols = r->left = r->right = 0;
    }
    gtap_entry_run();
}

static const unsigned long long oeis_a000170[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                                   73712, 365596, 2279184, 14772512, 95815104, 666090624};

/* nqueens bench N REPS [CUTOFF] */
static int bench(int n, int reps, int cutoff)
{
    double init_ms;
    size_t bytes;
    HC_CHECK(n <= 18, "n <= 18 supported");
    HC_CHECK(hc_init_timed(&init_ms, &bytes) == 0, "initialization failed");
    printf("init_ms %.3f device_bytes %zu\n", init_ms, bytes);
    HC_STORE(g_cutoff, cutoff);
    HC_STORE(g_n, n);
    for (int r = 0; r < reps; r++) {
        unsigned long long zero = 0, got = 0;
        double kms, wms;
        HC_STORE(g_solutions, zero);
        HC_TIMED_LAUNCH(kms, wms, exec_kernel);
        HC_FETCH(got, g_solutions);
        HC_CHECK(got == oeis_a000170[n], "n=%d: %llu solutions, expected %llu", n, got, oeis_a000170[n]);
        printf("run %d n %d kernel_ms %.4f wall_ms %.4f\n", r, n, kms, wms);
    }
#if defined(GTAP_ENABLE_PROFILING)
    gtap_visualize_profile(getenv("HC_PROFILE_NAME") ? getenv("HC_PROFILE_NAME") : "hc_nqueens");
#endif
    HC_CHECK(hc_finish() == 0, "finalize failed");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return bench(argc > 2 ? atoi(argv[2]) : 14, argc > 3 ? atoi(argv[3]) : 5, argc > 4 ? atoi(argv[4]) : 7);
    int nmax = argc > 1 ? atoi(argv[1]) : 12;
    int nmin = argc > 2 ? atoi(argv[2]) : 1;
    int cutoff = argc > 3 ? atoi(argv[3]) : 7;
    HC_CHECK(nmax <= 18, "n <= 18 supported");
    HC_CHECK(hc_init() == 0, "initialization failed");
    HC_STORE(g_cutoff, cutoff);
    for (int n = nmin; n <= nmax; n++) {
        unsigned long long zero = 0, got = 0;
        HC_STORE(g_solutions, zero);
        HC_STORE(g_n, n);
        hc_launch(exec_kernel);
        HC_CHECK(hc_sync() == 0, "n=%d: run failed", n);
        HC_FETCH(got, g_solutions);
        HC_CHECK(got == oeis_a000170[n], "n=%d: %llu solutions, expected %llu", n, got, oeis_a000170[n]);
    }
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS nqueens n=%d..%d cutoff %d\n", nmin, nmax, cutoff);
    return 0;
}
