/* bary_tree_cpu.c - CPU baselines of bary_tree.cu: the same pruned B-ary tree, per-node work
 * and sink (tree_common.h). OpenMP (-fopenmp): a task per child, a taskwait when a node has
 * children, as the paper's baseline (run it with OMP_STACKSIZE=10M). Sequential: the same
 * recursion. The first (warm-up) run counts the nodes for the check. */
#include "app_cpu.h"
#include "app_input.h"
#include "tree_common.h"

typedef struct bary_ctx {
    int depth, branch, mem_ops, compute_iters, count;
    const double *input;
    double *sink;
    long long nodes;
} bary_ctx;

static void bary(bary_ctx *x, uint32_t id, int rem_h)
{
    uint32_t child[16];
    int k = bary_children(id, rem_h, x->depth, x->branch, child);
    for (int j = 0; j < k; j++) {
        uint32_t cid = child[j];
#pragma omp task firstprivate(cid)
        bary(x, cid, rem_h - 1);
    }
    if (k > 0) {
#pragma omp taskwait
    }
    double v = tw_work(x->input, id, x->mem_ops, x->compute_iters, 0, 1);
    __atomic_store(&x->sink[bary_slot(id)], &v, __ATOMIC_RELAXED); /* last writer wins */
    if (x->count) {
#pragma omp atomic
        x->nodes++;
    }
}

static void reset(void *p, int run)
{
    bary_ctx *x = (bary_ctx *)p;
    x->count = run == 0;
    memset(x->sink, 0xff, BARY_SINK_N * sizeof *x->sink); /* NaN */
}

static void body(void *p)
{
    bary_ctx *x = (bary_ctx *)p;
    bary(x, 0, x->depth);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "bary_tree", APP_CPU_IMPL, 20);
    static const char *const keys[] = {"mem", "compute", "branch", "check-budget", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the depth D; [--mem OPS (default 256)] [--compute ITERS (default 256)] [--branch 3]");
    if (rc)
        return rc < 0 ? 0 : rc;
    bary_ctx x = {(int)c.n, (int)app_opt_ll(&c, "branch", 3), (int)app_opt_ll(&c, "mem", 256),
                  (int)app_opt_ll(&c, "compute", 256), 0, NULL, NULL, 0};
    if (x.depth < 1 || x.depth > 64 || x.branch < 1 || x.branch > 16) {
        fprintf(stderr, "bary_tree: --n (depth) must be in [1, 64] and --branch in [1, 16]\n");
        return 2;
    }
    app_param(&c, "mem=%d", x.mem_ops);
    app_param(&c, "compute=%d", x.compute_iters);
    app_param(&c, "branch=%d", x.branch);
    double *input = (double *)malloc(APP_TREE_INPUT_N * sizeof *input);
    x.sink = (double *)malloc(BARY_SINK_N * sizeof *x.sink);
    if (!input || !x.sink) {
        fprintf(stderr, "bary_tree: out of memory\n");
        return 1;
    }
    app_tree_input(input);
    x.input = input;
    app_cpu_init(&c);
    app_banner(&c);
    if (c.warmup < 1)
        c.warmup = 1; /* the counting run */
    app_cpu_run(&c, &stats, reset, body, &x);
    long long nodes = bary_enumerate(x.depth, x.branch, NULL, 0, 0, 1, NULL, 1, NULL, NULL);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check) {
        long long stride = tree_check_stride(nodes, x.mem_ops, x.compute_iters, app_opt_ll(&c, "check-budget", 1ll << 28));
        uint32_t slot_stride = stride >= (long long)BARY_SINK_N ? BARY_SINK_N : (uint32_t)stride;
        long long bad = 0, checked = 0;
        bary_enumerate(x.depth, x.branch, input, x.mem_ops, x.compute_iters, 1, x.sink, slot_stride, &bad, &checked);
        if (x.nodes != nodes)
            fprintf(c.out, "bary_tree: %lld nodes ran, the tree has %lld\n", x.nodes, nodes);
        check = bad || x.nodes != nodes ? APP_CHECK_FAIL : APP_CHECK_PASS;
    }
    char answer[64];
    snprintf(answer, sizeof answer, "nodes=%lld", nodes);
    free(input), free(x.sink);
    return app_report(&c, &stats, check, answer);
}
