/* hetero_tree.cu - the heterogeneous binary tree (the upstream's newest evaluation), thread-
 * level workers: one task per node; inner nodes spawn both children and return the sum of
 * their results; a leaf runs the kernel of its kind (K = 2 or 4 kinds, hetero_kernels.h) and
 * returns its value. Checked against the CPU (hetero_common.h: het_check).
 *
 * -DHET_KIND_QUEUES builds the divergence-aware variant: EPAQ queue 0 holds the inner nodes
 * (and their continuations), queue 1 + k the leaves of kind k, so K + 1 queues. A warp takes
 * a batch from one queue (docs/design.md, EPAQ), so its 32 lanes run one kind's loop instead
 * of every kind's in turn. Why K + 1 and not K: inner nodes do no work of their own, half the
 * tasks are inner nodes, and a batch that mixed them into a kind's queue would leave those
 * lanes idle for the whole of the kernel (about half the lanes of each leaf batch); queue 0
 * keeps the leaf batches full of leaves and costs one more queue to scan per batch.
 */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "hetero_run.cuh"

#if defined(HET_KIND_QUEUES)
#define HET_APP "hetero_tree_kq"
#else
#define HET_APP "hetero_tree"
#endif

/* Queue of a child `child` with `height` levels below it: its kind's queue for a leaf, queue 0
 * for an inner node (HET_KIND_QUEUES); the one queue otherwise. */
static __device__ __forceinline__ int het_child_queue(uint32_t child, int height)
{
#if defined(HET_KIND_QUEUES)
    return height == 0 ? 1 + het_kind_of(child, g_het.seed, g_het.kinds) : 0;
#else
    (void)child, (void)height;
    return 0;
#endif
}

#if defined(HET_MIX_STATS) && !defined(GTAP_TARGET_HOST)
/* -DHET_MIX_STATS (the *_mix builds): how mixed the warps' leaf batches are, as the upstream
 * measures it - the lanes that run leaves together (the active mask at the leaf) count as one
 * batch: [0] batches, [1] batches of more than one kind, [2] their leaves. Atomics per batch:
 * a diagnostic build, not for timing. */
__device__ unsigned long long g_mix[3];
static __device__ __forceinline__ void het_mix_record(int kind)
{
    const unsigned lanes = __activemask();
    const unsigned same_kind = __match_any_sync(lanes, kind);
    if ((int)(threadIdx.x & 31) == __ffs(lanes) - 1) {
        atomicAdd(&g_mix[0], 1ull);
        if (same_kind != lanes)
            atomicAdd(&g_mix[1], 1ull);
        atomicAdd(&g_mix[2], (unsigned long long)__popc(lanes));
    }
}
#define HET_MIX 1
#else
static __device__ __forceinline__ void het_mix_record(int) {}
#define HET_MIX 0
#endif

static __device__ __forceinline__ unsigned long long het_leaf(uint32_t node)
{
    const int kind = het_kind_of(node, g_het.seed, g_het.kinds);
    het_mix_record(kind);
    const uint32_t v = het_kind_start(kind, node) ^ het_kind_part(kind, node, 0, g_het.iters);
    g_het.leaf_out[node - g_het.first_leaf] = v;
    return v;
}

#pragma gtap function
__device__ unsigned long long hetero(uint32_t node, int height)
{
    if (height == 0)
        return het_leaf(node);
    unsigned long long left, right;
#pragma gtap task queue(het_child_queue(2 * node + 1, height - 1))
    left = hetero(2 * node + 1, height - 1);
#pragma gtap task queue(het_child_queue(2 * node + 2, height - 1))
    right = hetero(2 * node + 2, height - 1);
#pragma gtap taskwait queue(0)
    return left + right;
}

__global__ void hetero_kernel(int height)
{
#pragma gtap entry
    g_sum = hetero(0u, height);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    het_options o;
    app_cli_init(&c, HET_APP, APP_GTAP_IMPL, HET_DEFAULT_HEIGHT);
    static const char *const keys[] = {HET_OPTION_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, HET_USAGE);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (het_options_read(&c, &o, -1))
        return 2;
#if defined(HET_KIND_QUEUES)
    /* queue 0 and one per kind; more are allowed (unused), fewer would be a bad queue index */
    if (c.queues == 0)
        c.queues = o.kinds + 1;
    if (c.queues < o.kinds + 1) {
        fprintf(stderr, "%s: --queues %d: the kind queues need at least K + 1 = %d\n", c.app, c.queues, o.kinds + 1);
        return 2;
    }
#endif
    app_require_device(&c);
    het_options_param(&c, &o, 0);
    return het_run_app(
        &c, &stats, &o,
        [] {
#if HET_MIX
            unsigned long long mix_zero[3] = {0, 0, 0};
            cudaMemcpyToSymbol(g_mix, mix_zero, sizeof mix_zero);
#endif
        },
        [&] { return gtap_launch(hetero_kernel, o.height); },
        [&] {
#if HET_MIX
            unsigned long long mix[3];
            cudaMemcpyFromSymbol(mix, g_mix, sizeof mix);
            fprintf(c.out, "leaf batches (last run): %llu, of more than one kind: %llu (%.1f%%), leaves per batch: %.1f\n",
                    mix[0], mix[1], mix[0] ? 100.0 * (double)mix[1] / (double)mix[0] : 0.0,
                    mix[0] ? (double)mix[2] / (double)mix[0] : 0.0);
#endif
        });
}
