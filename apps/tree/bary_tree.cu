/* bary_tree.cu - the depth-pruned B-ary tree of the paper's section 6.3.2 (B = 3): at depth d
 * each of the B child candidates exists with probability ~ 1 - d/D (tree_common.h:
 * bary_children, the paper's hash rule; D = 32 gives 11578790 nodes). A node spawns its
 * children, waits if it spawned any, then does mem_ops loads and compute_iters FMAs
 * (loops not unrolled, as the paper) and stores the result into a 2^20-slot sink at
 * hash32(id) (last writer wins).
 * Thread-level by default; -DAPP_BLOCK (with GTAP_BLOCK_SIZE) for block-level workers:
 * every thread evaluates the (uniform) child rule, thread 0 spawns and stores.
 */
#include <vector>

#define TW_UNROLL1 1
#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define TREE_FIRST ((int)threadIdx.x)
#define TREE_STRIDE ((int)blockDim.x)
#define TREE_LEADER (threadIdx.x == 0)
#else
#include "gtap_thread.cuh"
#define TREE_FIRST 0
#define TREE_STRIDE 1
#define TREE_LEADER 1
#endif
#include "gtap_app.cuh"
#include "app_input.h"
#include "tree_common.h"

__device__ const double *g_input;
__device__ double *g_sink;
__device__ int g_count;                /* count nodes in this run (the checked warm-up) */
__device__ unsigned long long g_nodes; /* nodes counted */

/* The node's own work and its sink store; counted when g_count is set. */
__device__ __forceinline__ void bary_node_work(uint32_t id, int mem_ops, int compute_iters)
{
    double v = tw_work(g_input, id, mem_ops, compute_iters, TREE_FIRST, TREE_STRIDE);
    if (TREE_LEADER) {
        g_sink[bary_slot(id)] = v;
        if (g_count)
            atomicAdd(&g_nodes, 1ull);
    }
}

/* Leaves and resumed inner nodes reach the work through one call site, so a warp running
 * both kinds runs one copy of the work loop, not two in turn (binary tree, D=20, 8192 FMAs per
 * node: 15.0 -> 14.2 ms on an H200). */
#pragma gtap function
__device__ void bary(uint32_t id, int rem_h, int depth, int branch, int mem_ops, int compute_iters)
{
    int spawned = 0;
    if (rem_h > 0) {
        uint32_t s = tw_hash32(id ^ (uint32_t)(depth - rem_h) * 0x9e3779b9u);
#pragma unroll 1
        for (int k = 0; k < branch; ++k) {
            s = tw_xs(s + (uint32_t)k);
            if ((int)(s % (uint32_t)depth) < rem_h) {
                if (TREE_LEADER) {
#pragma gtap task
                    bary(id * (uint32_t)branch + (uint32_t)(k + 1), rem_h - 1, depth, branch, mem_ops, compute_iters);
                }
                spawned++;
            }
        }
    }
    if (spawned > 0) {
#pragma gtap taskwait
    }
    bary_node_work(id, mem_ops, compute_iters);
}

__global__ void bary_kernel(int depth, int branch, int mem_ops, int compute_iters)
{
#pragma gtap entry
    bary(0u, depth, depth, branch, mem_ops, compute_iters);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "bary_tree", APP_GTAP_IMPL, 20);
    static const char *const keys[] = {"mem", "compute", "branch", "check-budget", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the depth D; [--mem OPS (default 256)] [--compute ITERS (default 256)]\n"
                           "       [--branch B (default 3)] [--check-budget WORK (default 2^28)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    const int depth = (int)c.n, branch = (int)app_opt_ll(&c, "branch", 3);
    if (depth < 1 || depth > 64 || branch < 1 || branch > 16) {
        fprintf(stderr, "bary_tree: --n (depth) must be in [1, 64] and --branch in [1, 16]\n");
        return 2;
    }
    app_require_device(&c);
    const int mem_ops = (int)app_opt_ll(&c, "mem", 256), compute_iters = (int)app_opt_ll(&c, "compute", 256);
    app_param(&c, "mem=%d", mem_ops);
    app_param(&c, "compute=%d", compute_iters);
    app_param(&c, "branch=%d", branch);
    std::vector<double> input(APP_TREE_INPUT_N), sink(BARY_SINK_N);
    app_tree_input(input.data());
    double *d_input = NULL, *d_sink = NULL;
    if (cudaMalloc(&d_input, input.size() * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_sink, sink.size() * sizeof(double)) != cudaSuccess) {
        fprintf(stderr, "bary_tree: cannot allocate device memory\n");
        return 1;
    }
    cudaMemcpy(d_input, input.data(), input.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_input, &d_input, sizeof d_input);
    cudaMemcpyToSymbol(g_sink, &d_sink, sizeof d_sink);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    unsigned long long counted = 0;
    rc = app_gtap_run(
        &c, &stats,
        [&](int run) {
            /* the first run counts the nodes; the timed runs do not */
            int count = c.check && run == 0;
            unsigned long long zero = 0;
            if (run == 1 && c.check)
                cudaMemcpyFromSymbol(&counted, g_nodes, sizeof counted);
            cudaMemcpyToSymbol(g_count, &count, sizeof count);
            cudaMemcpyToSymbol(g_nodes, &zero, sizeof zero);
            cudaMemset(d_sink, 0xff, sink.size() * sizeof(double)); /* NaN */
        },
        [&] { return gtap_launch(bary_kernel, depth, branch, mem_ops, compute_iters); });
    if (rc)
        return 1;
    if (c.warmup + c.repeat == 1 && c.check)
        cudaMemcpyFromSymbol(&counted, g_nodes, sizeof counted);
    cudaMemcpy(sink.data(), d_sink, sink.size() * sizeof(double), cudaMemcpyDeviceToHost);
    app_check_t check = APP_CHECK_SKIPPED;
    long long nodes = bary_enumerate(depth, branch, NULL, 0, 0, 1, NULL, 1, NULL, NULL);
    if (c.check) {
#if defined(APP_BLOCK)
        const int lanes = c.block;
#else
        const int lanes = 1;
#endif
        /* recompute about budget work units: the sampled slots' share of all nodes */
        long long stride = tree_check_stride(nodes, mem_ops, compute_iters, app_opt_ll(&c, "check-budget", 1ll << 28));
        uint32_t slot_stride = stride >= (long long)BARY_SINK_N ? BARY_SINK_N : (uint32_t)stride;
        long long bad = 0, checked = 0;
        bary_enumerate(depth, branch, input.data(), mem_ops, compute_iters, lanes, sink.data(), slot_stride, &bad,
                       &checked);
        if ((long long)counted != nodes)
            fprintf(c.out, "bary_tree: %llu nodes ran, the tree has %lld\n", counted, nodes);
        check = bad || (long long)counted != nodes ? APP_CHECK_FAIL : APP_CHECK_PASS;
        fprintf(c.out, "checked: %llu nodes ran (of %lld), %lld sink slots recomputed on the CPU\n", counted, nodes,
                checked);
    }
    char answer[64];
    snprintf(answer, sizeof answer, "nodes=%lld", nodes);
    cudaFree(d_input);
    cudaFree(d_sink);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
