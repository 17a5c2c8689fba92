/* corrupt.cu - hand-compiled fib whose tasks break one runtime invariant on purpose, to test
 * the debug tier (GTAP_DEBUG, docs/debug.md). Built with GTAP_DEBUG, every mode but "none"
 * must stop the run with the debug-check line that names the broken rule; without the tier
 * the same run ends with a wrong result, another error, or not at all.
 *
 *   corrupt MODE [N]   runs fib(N) (default 16) once; the first leaf task (n < 2) to run
 *   none    breaks nothing: the run passes
 *   join    sets its parent's join counter to 0 before it finishes (J3: its own decrement
 *           would take the counter below zero)
 *   free    frees its own record before it finishes, so the runtime frees it a second time
 *           (P6)
 *   state   stores a resume state no taskwait stores (0xfff0) in its waiting parent, which
 *           its last child then resumes (J6)
 *   deque   (GPU; one warp: GTAP_BLOCK_SIZE=32, env GTAP_GRID_SIZE=1, so that no thief reads
 *           the deque) moves its warp's steal end 2^20 positions past the owner's end (D5)
 */
#include "handcomp.h"

enum { MODE_NONE, MODE_JOIN, MODE_FREE, MODE_STATE, MODE_DEQUE };

__device__ int g_mode;  /* what the first leaf breaks */
__device__ int g_fired; /* 1 once a leaf has broken it */

/* The parent of task t; the runtime's own view of the records. */
#if HC_GPU
#define HC_PARENT(t) (gtap_header(t)->parent)
#else
#define HC_PARENT(t) (gtap_rx_hdr(gtap_rx_current, (t))->parent)
#endif

/* Breaks the invariant of g_mode, from leaf t. */
static __device__ void hc_corrupt(gtap_task t)
{
    const uint32_t parent = HC_PARENT(t);
    switch (g_mode) {
    case MODE_JOIN:
#if HC_GPU
        gtap_header(parent)->pending = 0;
#else
        gtap_rx_hdr(gtap_rx_current, parent)->pending = 0;
#endif
        break;
    case MODE_FREE:
#if HC_GPU
        gtap_pool_free_remote(t); /* to the owner's list, as a stolen task's free goes */
#else
        gtap_rx_free(gtap_rx_current, t);
#endif
        break;
    case MODE_STATE:
#if HC_GPU
        gtap_header(parent)->fn_state = (gtap_header(parent)->fn_state & 0xffffu) | (0xfff0u << 16);
#else
        gtap_rx_hdr(gtap_rx_current, parent)->state = 0xfff0u;
#endif
        break;
    case MODE_DEQUE:
#if HC_GPU
        gtap_deque_of((blockIdx.x * blockDim.x + threadIdx.x) >> 5, 0)->head += 1u << 20;
#endif
        break;
    }
}

/* #pragma gtap function
 * __device__ int fib(int n) {
 *   if (n < 2) { hc_corrupt_once(); return n; }
 *   int a, b;
 *   #pragma gtap task
 *   a = fib(n - 1);
 *   #pragma gtap task
 *   b = fib(n - 2);
 *   #pragma gtap taskwait
 *   return a + b;
 * } */
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
            if (g_mode != MODE_NONE && atomicCAS(&g_fired, 0, 1) == 0)
                hc_corrupt(gtapgen_t);
            int rv = self->n;
            gtap_task_return(gtapgen_w, gtapgen_t, &rv, sizeof rv);
            return;
        }
        {
            struct gtapgen_fib_data *c = (struct gtapgen_fib_data *)gtap_task_spawn(
                gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, sizeof *c, 0, &self->a[GTAP_LANE]);
            c->n = self->n - 1;
        }
        {
            struct gtapgen_fib_data *c = (struct gtapgen_fib_data *)gtap_task_spawn(
                gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, sizeof *c, 0, &self->b[GTAP_LANE]);
            c->n = self->n - 2;
        }
        if (gtap_task_join(gtapgen_w, gtapgen_t, 1, 0))
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
    struct gtapgen_fib_data *r = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, sizeof *r, sizeof(int));
    if (r)
        r->n = n;
    gtap_entry_run();
    if (gtap_entry_result())
        d_result = *(const int *)gtap_entry_result();
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"none", "join", "free", "state", "deque"};
    const char *name = argc > 1 ? argv[1] : "none";
    int mode = -1, n = argc > 2 ? atoi(argv[2]) : 16, zero = 0, got = -1;
    for (int i = 0; i < (int)(sizeof modes / sizeof modes[0]); i++)
        if (strcmp(name, modes[i]) == 0)
            mode = i;
    HC_CHECK(mode >= 0 && n >= 2, "usage: corrupt none|join|free|state|deque [N >= 2]");
    HC_CHECK(HC_GPU || mode != MODE_DEQUE, "mode deque needs the GPU runtime's deques");
    HC_CHECK(hc_init() == 0, "initialization failed");
    HC_STORE(g_mode, mode);
    HC_STORE(g_fired, zero);
    HC_STORE(d_result, got);
    hc_launch(exec_kernel, n);
    HC_CHECK(hc_sync() == 0, "fib(%d) with mode %s: run failed", n, name);
    HC_FETCH(got, d_result);
    long long f0 = 0, f1 = 1;
    for (int k = 0; k < n; k++) {
        long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    HC_CHECK(got == (int)f0, "fib(%d) = %d with mode %s, expected %lld", n, got, name, f0);
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS corrupt %s fib(%d)\n", name, n);
    return 0;
}
