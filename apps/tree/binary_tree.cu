/* binary_tree.cu - the full binary tree of the paper's section 6.3.1: node i (heap
 * numbering, 2^(D+1) - 1 nodes) is a task; an inner node spawns both children, waits, then
 * does its own work; every node's work is mem_ops pseudo-random loads and compute_iters FP64
 * FMAs (tree_work.h) and its result goes to out[i].
 * Thread-level workers by default; -DAPP_BLOCK (with GTAP_BLOCK_SIZE) gives block-level
 * workers: the whole block runs each task, the work loops are strided over its threads
 * without a reduction, and thread 0 spawns and stores (the paper's block version).
 */
#include <vector>

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
__device__ double *g_out;

/* Leaves and resumed inner nodes reach the work through one call site, so a warp running
 * both kinds runs one copy of the work loop, not two in turn (binary tree, D=20, 8192 FMAs per
 * node: 15.0 -> 14.2 ms on an H200). */
#pragma gtap function
__device__ void tree(int node, int height, int mem_ops, int compute_iters)
{
    if (height > 0) {
        if (TREE_LEADER) {
#pragma gtap task
            tree(2 * node + 1, height - 1, mem_ops, compute_iters);
#pragma gtap task
            tree(2 * node + 2, height - 1, mem_ops, compute_iters);
        }
#pragma gtap taskwait
    }
    double own = tw_work(g_input, (uint32_t)node, mem_ops, compute_iters, TREE_FIRST, TREE_STRIDE);
    if (TREE_LEADER)
        g_out[node] = own;
}

__global__ void tree_kernel(int height, int mem_ops, int compute_iters)
{
#pragma gtap entry
    tree(0, height, mem_ops, compute_iters);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "binary_tree", APP_GTAP_IMPL, 15);
    static const char *const keys[] = {"mem", "compute", "check-budget", "profile", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the depth D; [--mem OPS (default 256)] [--compute ITERS (default 256)]\n"
                           "       [--check-budget WORK (recomputed loads+FMAs, default 2^28)]\n"
                           "       [--profile DIR (profiling builds)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 0 || c.n > 29) {
        fprintf(stderr, "binary_tree: --n (depth) must be in [0, 29]\n");
        return 2;
    }
    app_require_device(&c);
    const int height = (int)c.n, mem_ops = (int)app_opt_ll(&c, "mem", 256);
    const int compute_iters = (int)app_opt_ll(&c, "compute", 256);
    app_param(&c, "mem=%d", mem_ops);
    app_param(&c, "compute=%d", compute_iters);
    const long long nodes = (2ll << height) - 1;
    std::vector<double> input(APP_TREE_INPUT_N), out((size_t)nodes);
    app_tree_input(input.data());
    double *d_input = NULL, *d_out = NULL;
    if (cudaMalloc(&d_input, input.size() * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_out, (size_t)nodes * sizeof(double)) != cudaSuccess) {
        fprintf(stderr, "binary_tree: cannot allocate device memory\n");
        return 1;
    }
    cudaMemcpy(d_input, input.data(), input.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_input, &d_input, sizeof d_input);
    cudaMemcpyToSymbol(g_out, &d_out, sizeof d_out);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemset(d_out, 0xff, (size_t)nodes * sizeof(double)); /* NaN */ },
        [&] { return gtap_launch(tree_kernel, height, mem_ops, compute_iters); });
    if (rc)
        return 1;
    if (app_export_profile(&c))
        return 1;
    cudaMemcpy(out.data(), d_out, (size_t)nodes * sizeof(double), cudaMemcpyDeviceToHost);
    app_check_t check = APP_CHECK_SKIPPED;
    long long checked = 0;
    if (c.check) {
#if defined(APP_BLOCK)
        const int lanes = c.block;
#else
        const int lanes = 1;
#endif
        long long stride = tree_check_stride(nodes, mem_ops, compute_iters, app_opt_ll(&c, "check-budget", 1ll << 28));
        long long bad = tree_check_binary(input.data(), out.data(), nodes, mem_ops, compute_iters, lanes, stride, &checked);
        check = bad ? APP_CHECK_FAIL : APP_CHECK_PASS;
        fprintf(c.out, "checked: all %lld nodes written, %lld recomputed on the CPU\n", nodes, checked);
    }
    char answer[64];
    snprintf(answer, sizeof answer, "nodes=%lld;root=%.0f", nodes, out[0]);
    cudaFree(d_input);
    cudaFree(d_out);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
