/* binary_tree_cpu.c - CPU baselines of binary_tree.cu: the same tree and per-node work
 * (tree_work.h). OpenMP (-fopenmp): a task per node, no cutoff, as the paper's baseline
 * (run it with OMP_STACKSIZE=10M). Sequential: the same recursion. */
#include "app_cpu.h"
#include "app_input.h"
#include "tree_common.h"

typedef struct bt_ctx {
    int height, mem_ops, compute_iters;
    const double *input;
    double *out;
    long long nodes;
} bt_ctx;

static void tree(const bt_ctx *x, int node, int height)
{
    if (height > 0) {
#pragma omp task
        tree(x, 2 * node + 1, height - 1);
#pragma omp task
        tree(x, 2 * node + 2, height - 1);
#pragma omp taskwait
    }
    x->out[node] = tw_work(x->input, (uint32_t)node, x->mem_ops, x->compute_iters, 0, 1);
}

static void reset(void *p, int run)
{
    bt_ctx *x = (bt_ctx *)p;
    (void)run;
    memset(x->out, 0xff, (size_t)x->nodes * sizeof *x->out); /* NaN */
}

static void body(void *p)
{
    bt_ctx *x = (bt_ctx *)p;
    tree(x, 0, x->height);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "binary_tree", APP_CPU_IMPL, 15);
    static const char *const keys[] = {"mem", "compute", "check-budget", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the depth D; [--mem OPS (default 256)] [--compute ITERS (default 256)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 0 || c.n > 29) {
        fprintf(stderr, "binary_tree: --n (depth) must be in [0, 29]\n");
        return 2;
    }
    bt_ctx x = {(int)c.n, (int)app_opt_ll(&c, "mem", 256), (int)app_opt_ll(&c, "compute", 256), NULL, NULL, 0};
    app_param(&c, "mem=%d", x.mem_ops);
    app_param(&c, "compute=%d", x.compute_iters);
    x.nodes = (2ll << x.height) - 1;
    double *input = (double *)malloc(APP_TREE_INPUT_N * sizeof *input);
    x.out = (double *)malloc((size_t)x.nodes * sizeof *x.out);
    if (!input || !x.out) {
        fprintf(stderr, "binary_tree: out of memory\n");
        return 1;
    }
    app_tree_input(input);
    x.input = input;
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check) {
        long long checked = 0;
        long long stride = tree_check_stride(x.nodes, x.mem_ops, x.compute_iters, app_opt_ll(&c, "check-budget", 1ll << 28));
        check = tree_check_binary(input, x.out, x.nodes, x.mem_ops, x.compute_iters, 1, stride, &checked)
                    ? APP_CHECK_FAIL
                    : APP_CHECK_PASS;
    }
    char answer[64];
    snprintf(answer, sizeof answer, "nodes=%lld;root=%.0f", x.nodes, x.out[0]);
    free(input), free(x.out);
    return app_report(&c, &stats, check, answer);
}
