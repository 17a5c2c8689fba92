/* fib.cu - Fibonacci with a task at every call: the paper's section 6.2 case study of
 * extremely fine-grained recursion (no cutoff; fib(40) = 102334155, 331160281 tasks).
 *
 * Variants (compile-time, apps/fib/CMakeLists.txt):
 *   -DFIB_CUTOFF       calls with n < --cutoff run a sequential recursion on the device (the
 *                      paper's EPAQ fib, section 6.4; --cutoff 2 = every call a task)
 *   -DFIB_QUEUES=3     with GTAP_NUM_QUEUES=3: children that will run sequentially go to
 *                      queue 1, other children to queue 0, continuations to queue 2 (EPAQ)
 *   -DFIB_IF           `#pragma gtap task if(n > k)` with k from --if-cutoff (default 1: every
 *                      call a task): a call with n <= k runs its children at once through
 *                      gtapcc's serial clone of fib (docs/compiler.md, "if and final")
 */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"

#ifndef FIB_QUEUES
#define FIB_QUEUES 1
#endif

__device__ int d_fib;

#if defined(FIB_IF)
__device__ int d_if_cutoff;
#endif

#if defined(FIB_CUTOFF)
__device__ int d_cutoff;

/* The serial work below the cutoff: the same recursion without tasks. */
__device__ int fib_seq(int n)
{
    if (n < 2)
        return n;
    return fib_seq(n - 1) + fib_seq(n - 2);
}
#endif

#pragma gtap function
__device__ int fib(int n)
{
#if defined(FIB_CUTOFF)
    if (n < d_cutoff || n < 2)
        return fib_seq(n);
#else
    if (n < 2)
        return n;
#endif
    int a, b;
#if FIB_QUEUES == 3
#pragma gtap task queue(n - 1 < d_cutoff ? 1 : 0)
    a = fib(n - 1);
#pragma gtap task queue(n - 2 < d_cutoff ? 1 : 0)
    b = fib(n - 2);
#pragma gtap taskwait queue(2)
#elif defined(FIB_IF)
#pragma gtap task if(n > d_if_cutoff)
    a = fib(n - 1);
#pragma gtap task if(n > d_if_cutoff)
    b = fib(n - 2);
#pragma gtap taskwait
#else
#pragma gtap task
    a = fib(n - 1);
#pragma gtap task
    b = fib(n - 2);
#pragma gtap taskwait
#endif
    return a + b;
}

__global__ void fib_kernel(int n)
{
#pragma gtap entry
    d_fib = fib(n);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "fib", APP_GTAP_IMPL, 30);
#if defined(FIB_IF)
    static const char *const keys[] = {"if-cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--if-cutoff K (calls with n <= K run their children serially)]");
#else
    static const char *const keys[] = {"cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, "[--cutoff C (cutoff builds)]");
#endif
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n > 46) {
        fprintf(stderr, "fib: --n must be at most 46 (int result)\n");
        return 2;
    }
    app_require_device(&c);
#if defined(FIB_IF)
    int if_cutoff = (int)app_opt_ll(&c, "if-cutoff", 1);
    cudaMemcpyToSymbol(d_if_cutoff, &if_cutoff, sizeof if_cutoff);
    app_param(&c, "if_cutoff=%d", if_cutoff);
#elif defined(FIB_CUTOFF)
    int cutoff = (int)app_opt_ll(&c, "cutoff", 2);
    cudaMemcpyToSymbol(d_cutoff, &cutoff, sizeof cutoff);
    app_param(&c, "cutoff=%d", cutoff);
#else
    if (app_opt_str(&c, "cutoff", NULL)) {
        fprintf(stderr, "fib: --cutoff needs a build with -DFIB_CUTOFF (fib_cutoff, fib_epaq)\n");
        return 2;
    }
#endif
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    const int n = (int)c.n;
    rc = app_gtap_run(
        &c, &stats,
        [&](int) {
            int poison = -1;
            cudaMemcpyToSymbol(d_fib, &poison, sizeof poison);
        },
        [&] { return gtap_launch(fib_kernel, n); });
    if (rc)
        return 1;
    int got = 0;
    cudaMemcpyFromSymbol(&got, d_fib, sizeof got);
    long long f0 = 0, f1 = 1;
    for (int k = 0; k < n; k++) {
        long long f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    char answer[32];
    snprintf(answer, sizeof answer, "%d", got);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, !c.check ? APP_CHECK_SKIPPED : got == f0 ? APP_CHECK_PASS : APP_CHECK_FAIL, answer);
}
