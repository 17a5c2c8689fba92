/* hetero_tree_cpu.c - CPU baselines of the heterogeneous tree: the same tree, leaf kernels
 * (hetero_kernels.h) and answer. OpenMP (-fopenmp): a task per child with the child's result
 * shared, a taskwait, the sum - as the GPU programs; --cutoff H (default 0: a task per node,
 * as the paper's tree baselines) recurses without tasks in subtrees of height <= H. Run it
 * with OMP_STACKSIZE=10M like the other tree baselines. Sequential: the same recursion. */
#include <stdlib.h>

#include "app_cpu.h"
#include "hetero_common.h"

typedef struct het_cpu {
    het_options o;
    uint32_t first_leaf;
    uint32_t *leaf_out;
    uint64_t sum;
} het_cpu;

static uint64_t het_leaf(const het_cpu *x, uint32_t node)
{
    uint32_t v = het_leaf_value(node, x->o.seed, x->o.kinds, x->o.iters);
    x->leaf_out[node - x->first_leaf] = v;
    return v;
}

static uint64_t het_tree(const het_cpu *x, uint32_t node, int height)
{
    if (height == 0)
        return het_leaf(x, node);
    uint64_t left, right;
    if (height <= x->o.cutoff) {
        left = het_tree(x, 2 * node + 1, height - 1);
        right = het_tree(x, 2 * node + 2, height - 1);
        return left + right;
    }
#pragma omp task shared(left)
    left = het_tree(x, 2 * node + 1, height - 1);
#pragma omp task shared(right)
    right = het_tree(x, 2 * node + 2, height - 1);
#pragma omp taskwait
    return left + right;
}

static void reset(void *p, int run)
{
    het_cpu *x = (het_cpu *)p;
    (void)run;
    memset(x->leaf_out, 0xff, (size_t)het_leaves(x->o.height) * sizeof *x->leaf_out); /* poison */
    x->sum = 0;
}

static void body(void *p)
{
    het_cpu *x = (het_cpu *)p;
    x->sum = het_tree(x, 0, x->o.height);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    het_cpu x;
    app_cli_init(&c, "hetero_tree", APP_CPU_IMPL, HET_DEFAULT_HEIGHT);
    static const char *const keys[] = {HET_OPTION_KEYS, "cutoff", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           HET_USAGE "\n       [--cutoff H (OpenMP: no tasks in subtrees of height <= H, default 0)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (het_options_read(&c, &x.o, 0))
        return 2;
    het_options_param(&c, &x.o, 1);
    x.first_leaf = het_first_leaf(x.o.height);
    x.leaf_out = (uint32_t *)malloc((size_t)het_leaves(x.o.height) * sizeof *x.leaf_out);
    if (!x.leaf_out) {
        fprintf(stderr, "hetero_tree: out of memory for %lld leaf values\n", het_leaves(x.o.height));
        return 1;
    }
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = het_check(&x.o, x.leaf_out, x.sum, c.out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
    char answer[96];
    het_answer(answer, sizeof answer, x.o.height, x.sum);
    free(x.leaf_out);
    return app_report(&c, &stats, check, answer);
}
