/* hetero_tree_block.cu - the heterogeneous binary tree with block-level workers: one task per
 * node; thread 0 spawns, the whole block joins; a leaf's iterations are split into one
 * contiguous range per thread and the partial values XORed to thread 0 (exactly the thread-level value,
 * hetero_kernels.h), which stores it and returns it. Every thread of a block runs the same
 * leaf, so a block never diverges on kinds.
 *
 * -DHET_CUTOFF builds the variant with a sequential cutoff (--cutoff H, default 5 as
 * upstream): a node with H levels or fewer below it runs its whole subtree in its own task,
 * leaf after leaf, each leaf by the whole block as above; 2^H leaves per task instead of
 * one, and 2^(H+1) - 2 fewer tasks to schedule per such subtree.
 */
#include "gtap_block.cuh"
#include "gtap_app.cuh"
#include "hetero_run.cuh"
#include "hetero_block.cuh"

#if defined(HET_CUTOFF)
#define HET_APP "hetero_tree_block_cutoff"
#define HET_CUTOFF_DEFAULT HET_DEFAULT_CUTOFF
#else
#define HET_APP "hetero_tree_block"
#define HET_CUTOFF_DEFAULT (-1) /* no --cutoff */
#endif

/* Leaf `node` by the whole block: thread 0 stores and returns its value (others return 0). */
static __device__ __forceinline__ unsigned long long het_block_leaf(uint32_t node)
{
    const int kind = het_kind_of(node, g_het.seed, g_het.kinds);
    int begin, end;
    het_share(g_het.iters, (int)threadIdx.x, GTAP_BLOCK_SIZE, &begin, &end);
    uint32_t v = het_block_xor(het_kind_part(kind, node, begin, end));
    if (threadIdx.x != 0)
        return 0;
    v ^= het_kind_start(kind, node);
    g_het.leaf_out[node - g_het.first_leaf] = v;
    return v;
}

#if defined(HET_CUTOFF)
/* The subtree of `node` (height levels below it) in this task: its 2^height leaves, the
 * leftmost first, each by the whole block. Thread 0 returns their sum. */
static __device__ unsigned long long het_block_subtree(uint32_t node, int height)
{
    const uint32_t first = ((node + 1u) << height) - 1u, count = 1u << height;
    unsigned long long sum = 0;
    for (uint32_t i = 0; i < count; i++)
        sum += het_block_leaf(first + i);
    return sum;
}
#endif

#pragma gtap function
__device__ unsigned long long hetero_block(uint32_t node, int height)
{
#if defined(HET_CUTOFF)
    if (height <= g_het.cutoff)
        return het_block_subtree(node, height);
#else
    if (height == 0)
        return het_block_leaf(node);
#endif
    unsigned long long left = 0, right = 0;
    if (threadIdx.x == 0) {
#pragma gtap task
        left = hetero_block(2 * node + 1, height - 1);
#pragma gtap task
        right = hetero_block(2 * node + 2, height - 1);
    }
#pragma gtap taskwait
    return left + right; /* thread 0's (the task's result) holds the children's */
}

/* Workers are resident blocks and this program is bound by how many tasks they schedule, so
 * the entry kernel is held to the registers that let the most 32-thread blocks stay resident
 * (32 per SM: 64 registers; left to itself ptxas takes 65, and 28 fit). */
#define HET_BLOCKS_PER_SM (2048 / GTAP_BLOCK_SIZE < 32 ? 2048 / GTAP_BLOCK_SIZE : 32)
__global__ void __launch_bounds__(GTAP_BLOCK_SIZE, HET_BLOCKS_PER_SM) hetero_block_kernel(int height)
{
#pragma gtap entry
    g_sum = hetero_block(0u, height);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    het_options o;
    app_cli_init(&c, HET_APP, APP_GTAP_IMPL, HET_DEFAULT_HEIGHT);
#if defined(HET_CUTOFF)
    static const char *const keys[] = {HET_OPTION_KEYS, "cutoff", NULL};
    const char *usage = HET_USAGE "\n       [--cutoff H (subtrees of height <= H run in one task, default 5)]";
#else
    static const char *const keys[] = {HET_OPTION_KEYS, NULL};
    const char *usage = HET_USAGE;
#endif
    int rc = app_cli_parse(&c, argc, argv, keys, usage);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (het_options_read(&c, &o, HET_CUTOFF_DEFAULT))
        return 2;
    app_require_device(&c);
    het_options_param(&c, &o, HET_CUTOFF_DEFAULT >= 0);
    return het_run_app(
        &c, &stats, &o, [] {}, [&] { return gtap_launch(hetero_block_kernel, o.height); }, [] {});
}
