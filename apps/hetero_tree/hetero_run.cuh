/* hetero_run.cuh - what the two GPU programs (hetero_tree.cu, hetero_tree_block.cu) share:
 * the run's read-only parameters on the device, the root's result, and the host side of a
 * run (allocate the leaf values, install the parameters, launch, check, report). Include it
 * after the runtime header and gtap_app.cuh. */
#ifndef HETERO_RUN_CUH
#define HETERO_RUN_CUH

#include <vector>

#include "hetero_common.h"

/* What every task reads and no task writes (set once, before the launches). */
struct het_run {
    uint32_t *leaf_out; /* [2^height]: leaf j's value */
    uint32_t first_leaf, seed;
    int kinds, iters, cutoff; /* cutoff: the block-level cutoff variant only */
};
__constant__ het_run g_het;
__device__ unsigned long long g_sum; /* the root's result */

/* Runs the tree of o with c's launches: before each, g_sum is zeroed, the leaf values are
 * poisoned and reset_more() runs; launch() calls gtap_launch; after the last, after_run()
 * runs and the result is checked and reported. Returns the program's exit status. */
template <class ResetMore, class Launch, class AfterRun>
static int het_run_app(app_cli *c, app_stats *stats, const het_options *o, ResetMore reset_more, Launch launch,
                       AfterRun after_run)
{
    const long long leaves = het_leaves(o->height);
    std::vector<uint32_t> leaf_out((size_t)leaves);
    het_run run{};
    if (cudaMalloc(&run.leaf_out, (size_t)leaves * sizeof(uint32_t)) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %lld leaf values on the device\n", c->app, leaves);
        return 1;
    }
    run.first_leaf = het_first_leaf(o->height);
    run.seed = o->seed;
    run.kinds = o->kinds;
    run.iters = o->iters;
    run.cutoff = o->cutoff;
    cudaMemcpyToSymbol(g_het, &run, sizeof run);
    if (app_gtap_init(c))
        return 1;
    app_banner(c);
    int rc = app_gtap_run(
        c, stats,
        [&](int) {
            unsigned long long zero = 0;
            cudaMemcpyToSymbol(g_sum, &zero, sizeof zero);
            cudaMemset(run.leaf_out, 0xff, (size_t)leaves * sizeof(uint32_t)); /* poison */
            reset_more();
        },
        launch);
    if (rc)
        return 1;
    unsigned long long sum = 0;
    cudaMemcpyFromSymbol(&sum, g_sum, sizeof sum);
    after_run();
    cudaMemcpy(leaf_out.data(), run.leaf_out, (size_t)leaves * sizeof(uint32_t), cudaMemcpyDeviceToHost);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c->check)
        check = het_check(o, leaf_out.data(), sum, c->out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
    char answer[96];
    het_answer(answer, sizeof answer, o->height, sum);
    cudaFree(run.leaf_out);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(c, stats, check, answer);
}

#endif /* HETERO_RUN_CUH */
