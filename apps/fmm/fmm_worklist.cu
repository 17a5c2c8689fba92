/* fmm_worklist.cu - the GPU baseline of the FMM's traversal (the upstream's "GPU worklist"):
 * level-synchronous, plain CUDA kernels. The frontier is an array of cell pairs, the root
 * pair first; one kernel visits every pair of the frontier (fmm_dtt.h: M2L and P2P pairs
 * appended to the interaction lists, as the plain task program does) and appends the child
 * pairs of the splits to the next frontier (one atomic per split pair); the host swaps the
 * frontiers and reads the new length, until it is empty. No tasks and no GTaP runtime (the
 * host target's <cuda_runtime.h> is its CUDA stand-in).
 */
#include <cuda_runtime.h>

#include "fmm_run.cuh"

struct fmm_pair {
    int a, b;
};

__global__ void fmm_k_expand(fmm_ctx x, const fmm_pair *in, long long count, fmm_pair *out,
                             unsigned long long *out_count, long long cap)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (long long)blockDim.x * gridDim.x) {
        fmm_tally t = {0, 0};
        fmm_frame f;
        if (fmm_pair_visit(&x, in[i].a, in[i].b, &f, &t) == FMM_PAIR_DONE)
            continue;
        const int pairs = fmm_frame_pairs(&f);
        /* reserves this split's slots of the next frontier; the host reads the total after
         * the kernel (a total past cap fails the run) */
        const unsigned long long base = atomicAdd(out_count, (unsigned long long)pairs);
        for (int k = 0; k < pairs; k++)
            if ((long long)(base + k) < cap) {
                fmm_pair p;
                fmm_frame_pair(&f, k, &p.a, &p.b);
                out[base + k] = p;
            }
    }
}

static fmm_ctx g_ctx;
static fmm_pair *g_front[2];
static unsigned long long *g_count;
static long long g_cap;

/* One traversal: level by level until the frontier is empty. */
static cudaError_t fmm_worklist_run(void)
{
    fmm_pair root = {0, 0};
    cudaMemcpy(g_front[0], &root, sizeof root, cudaMemcpyHostToDevice);
    long long count = 1;
    int side = 0;
    for (int level = 0; count > 0; level++) {
        cudaMemset(g_count, 0, sizeof *g_count);
        const long long blocks = (count + 255) / 256;
        fmm_k_expand<<<(unsigned)(blocks < 1048576 ? blocks : 1048576), 256>>>(g_ctx, g_front[side], count,
                                                                                g_front[1 - side], g_count, g_cap);
        unsigned long long next = 0;
        cudaError_t e = cudaMemcpy(&next, g_count, sizeof next, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess)
            return e;
        if ((long long)next > g_cap) {
            fprintf(stderr, "fmm_worklist: --frontier-cap %lld: level %d needs %llu pairs\n", g_cap, level + 1, next);
            return cudaErrorMemoryAllocation;
        }
        count = (long long)next;
        side = 1 - side;
    }
    return cudaDeviceSynchronize();
}

int main(int argc, char **argv)
{
    return fmm_main(
        argc, argv, "fmm_worklist", "gpu-worklist", FMM_MODE_LIST,
        [&](app_cli *c, const fmm_ctx &ctx) {
            g_ctx = ctx;
            if (g_front[0])
                return 0;
            c->grid = c->block = c->workers = 0;
            fmm_options o;
            if (fmm_options_read(c, &o, "task-min", FMM_DEFAULT_TASK_MIN))
                return 1;
            g_cap = o.frontier_cap ? o.frontier_cap : 1024ll * ctx.ncells;
            if (cudaMalloc(&g_front[0], (size_t)g_cap * sizeof(fmm_pair)) != cudaSuccess ||
                cudaMalloc(&g_front[1], (size_t)g_cap * sizeof(fmm_pair)) != cudaSuccess ||
                cudaMalloc(&g_count, sizeof *g_count) != cudaSuccess) {
                fprintf(stderr, "fmm_worklist: cannot allocate two frontiers of %lld pairs (--frontier-cap)\n", g_cap);
                return 1;
            }
            return 0;
        },
        [] { return fmm_worklist_run(); },
        [](app_cli *c, app_stats *stats, auto reset) {
            for (int r = 0; r < c->warmup + c->repeat; r++) {
                reset(r);
                if (cudaDeviceSynchronize() != cudaSuccess)
                    return 1;
                const double t0 = app_now_ms();
                if (fmm_worklist_run() != cudaSuccess) {
                    fprintf(stderr, "fmm_worklist: run %d failed\n", r);
                    return 1;
                }
                const double ms = app_now_ms() - t0;
                if (c->verbose)
                    fprintf(c->out, "run %d%s ms %.4f\n", r, r < c->warmup ? " (warm-up)" : "", ms);
                if (r >= c->warmup)
                    app_stats_add(stats, ms, ms);
            }
            return 0;
        });
}
