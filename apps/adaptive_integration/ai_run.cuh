/* ai_run.cuh - what the two GPU programs (adaptive_integration.cu, _block.cu) share: the run's
 * parameters on the device, the root's result, the depth guard's failure record, and the host
 * side of a run (read the command line, install the parameters, launch, report a failure,
 * check, report). Include it after the runtime header and gtap_app.cuh. */
#ifndef AI_RUN_CUH
#define AI_RUN_CUH

#if !defined(GTAP_TARGET_HOST)
#include <cuda/atomic>
#endif

#include "ai_common.h"

__constant__ ai_params g_ai;     /* set once, before the launches */
__device__ ai_result g_ai_result; /* the root's result */
__device__ ai_failure g_ai_fail;  /* the first interval that hit the depth guard */

/* Whether some task has hit the depth guard: every task then returns at once, so that a run
 * that cannot converge ends after a few tasks per worker instead of filling the tree down to
 * the guard. Relaxed: a task that misses a fresh failure only does some useless work. Any
 * thread may call it. */
static __device__ __forceinline__ bool ai_failed()
{
#if defined(GTAP_TARGET_HOST)
    return g_ai_fail.failed != 0; /* one host thread runs every task */
#else
    return cuda::atomic_ref<int, cuda::thread_scope_device>(g_ai_fail.failed).load(cuda::memory_order_relaxed) != 0;
#endif
}

/* Records [a, b] as the interval that failed, unless another did first (the CAS picks the one
 * whose bounds the host reports; they are read after the kernel ends, which publishes them). */
static __device__ __forceinline__ void ai_fail(int step, double a, double b, int depth)
{
    if (atomicCAS(&g_ai_fail.failed, 0, step) == 0) {
        g_ai_fail.depth = depth;
        g_ai_fail.a = a;
        g_ai_fail.b = b;
    }
}

/* The main of program `app`: reads its command line, then runs the integration with its
 * launches (launch(p) calls gtap_launch); the result is checked with `rule` as `threads`
 * threads compute it. Returns the program's exit status: 1 with one error line when an
 * interval hit the depth guard. */
template <class Launch>
static int ai_main(int argc, char **argv, const char *app, int rule, int threads, Launch launch)
{
    static app_stats stats;
    app_cli c;
    ai_params p;
    app_cli_init(&c, app, APP_GTAP_IMPL, 0);
    static const char *const keys[] = {AI_OPTION_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, AI_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (ai_options_read(&c, &p))
        return 2;
    app_require_device(&c);
    ai_options_param(&c, &p);
    cudaMemcpyToSymbol(g_ai, &p, sizeof p);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            const ai_result zero = ai_result_make(0.0, 0);
            const ai_failure none = {0, 0, 0.0, 0.0};
            cudaMemcpyToSymbol(g_ai_result, &zero, sizeof zero);
            cudaMemcpyToSymbol(g_ai_fail, &none, sizeof none);
        },
        [&] { return launch(p); });
    if (rc) {
        gtap_finalize();
        return 1;
    }
    ai_result got;
    ai_failure fail;
    cudaMemcpyFromSymbol(&got, g_ai_result, sizeof got);
    cudaMemcpyFromSymbol(&fail, g_ai_fail, sizeof fail);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    if (fail.failed) {
        ai_report_failure(&c, &p, &fail);
        return 1;
    }
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = ai_check(&p, rule, threads, got, c.out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
    char answer[96];
    ai_answer(answer, sizeof answer, got);
    return app_report(&c, &stats, check, answer);
}

#endif /* AI_RUN_CUH */
