/* nqueens.cu - N-Queens by bitmask backtracking (the paper's section 6.2): one detached
 * task per placement for rows 0..cutoff+1, the sequential search (nq_search.h) below;
 * built with -fgtap-no-taskwait. Cutoff depth 7 by default (--cutoff), as the paper.
 *
 * -DNQ_QUEUES=2 with GTAP_NUM_QUEUES=2 is the paper's EPAQ variant (section 6.4): children
 * that will run the sequential search (row + 1 > cutoff) go to queue 1.
 *
 * -DNQ_FINAL spawns with `final(row >= c)`, c from --final-row (default 4): a placement at row
 * c or below runs its whole subtree at once in its lane, through gtapcc's serial clone of
 * nqueens (docs/compiler.md, "if and final"); c > cutoff is the plain program.
 */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "nq_search.h"

#ifndef NQ_QUEUES
#define NQ_QUEUES 1
#endif

__device__ unsigned long long d_solutions;
__device__ int d_n;
__device__ int d_cutoff;

#if defined(NQ_FINAL)
__device__ int d_final_row;

/* nq_count in a frame of its own: the serial clone recurses row by row, and nq_count's
 * 512-byte stack, inlined into each of its frames, would outgrow the default per-thread stack
 * (GTAP_STACK_BYTES, docs/compiler.md) */
__device__ __noinline__ unsigned long long nq_count_leaf(int n, int row, uint32_t cols, uint32_t left, uint32_t right)
{
    return nq_count(n, row, cols, left, right);
}
#define NQ_COUNT nq_count_leaf
#else
#define NQ_COUNT nq_count
#endif

#pragma gtap function
__device__ void nqueens(int row, uint32_t cols, uint32_t left, uint32_t right)
{
    const int n = d_n;
    if (row > d_cutoff || row == n) {
        unsigned long long k = NQ_COUNT(n, row, cols, left, right);
        if (k)
            atomicAdd(&d_solutions, k);
        return;
    }
    const uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    uint32_t avail = mask & ~(cols | left | right);
    while (avail) {
        const uint32_t p = avail & (0u - avail);
        avail ^= p;
#if NQ_QUEUES == 2
#pragma gtap task queue(row + 1 > d_cutoff ? 1 : 0)
#elif defined(NQ_FINAL)
#pragma gtap task final(row >= d_final_row)
#else
#pragma gtap task
#endif
        nqueens(row + 1, cols | p, (left | p) << 1, (right | p) >> 1);
    }
}

__global__ void nqueens_kernel(void)
{
#pragma gtap entry
    nqueens(0, 0u, 0u, 0u);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "nqueens", APP_GTAP_IMPL, 12);
#if defined(NQ_FINAL)
    static const char *const keys[] = {"cutoff", "final-row", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff ROW (default 7)] [--final-row C (default 4)]");
#else
    static const char *const keys[] = {"cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff ROW (default 7)]");
#endif
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > NQ_MAX_N) {
        fprintf(stderr, "nqueens: --n must be in [1, %d]\n", NQ_MAX_N);
        return 2;
    }
    app_require_device(&c);
    int n = (int)c.n, cutoff = (int)app_opt_ll(&c, "cutoff", 7);
    app_param(&c, "cutoff=%d", cutoff);
#if defined(NQ_FINAL)
    int final_row = (int)app_opt_ll(&c, "final-row", 4);
    app_param(&c, "final_row=%d", final_row);
    cudaMemcpyToSymbol(d_final_row, &final_row, sizeof final_row);
#endif
    cudaMemcpyToSymbol(d_n, &n, sizeof n);
    cudaMemcpyToSymbol(d_cutoff, &cutoff, sizeof cutoff);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            unsigned long long zero = 0;
            cudaMemcpyToSymbol(d_solutions, &zero, sizeof zero);
        },
        [&] { return gtap_launch(nqueens_kernel); });
    if (rc)
        return 1;
    unsigned long long got = 0;
    cudaMemcpyFromSymbol(&got, d_solutions, sizeof got);
    char answer[32];
    snprintf(answer, sizeof answer, "%llu", got);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check && n < (int)(sizeof nq_known / sizeof nq_known[0]))
        check = got == nq_known[n] ? APP_CHECK_PASS : APP_CHECK_FAIL;
    return app_report(&c, &stats, check, answer);
}
