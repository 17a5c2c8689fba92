/* fmm_gpu.cuh - the FMM's phases on the GPU for the GPU programs (fmm.cu, fmm_worklist.cu):
 * Morton keys and cub's radix sort, the level-by-level tree build, the upward pass, the plain
 * variant's list interactions, the downward pass and the direct-summation reference. Plain
 * CUDA kernels, one thread per cell / body (grid-stride loops) over the per-cell steps of
 * fmm_tree.h; the host only scans the per-level child counts and the list lengths (a few MB).
 * Not compiled for the host target (fmm_run.cuh uses fmm_host.h there).
 */
#ifndef FMM_GPU_CUH
#define FMM_GPU_CUH

#include <cub/cub.cuh>
#include <vector>

#include "fmm_host.h"

/* One check per CUDA call of a phase: message, then the phase fails. */
#define FMM_CUDA(call)                                                                             \
    do {                                                                                           \
        cudaError_t fmm_e_ = (call);                                                               \
        if (fmm_e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "fmm: %s failed: %s\n", #call, cudaGetErrorString(fmm_e_));            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define FMM_GRID_STRIDE(i, n)                                                                      \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n);       \
         i += (long long)blockDim.x * gridDim.x)

static inline int fmm_blocks(long long n)
{
    const long long b = (n + 255) / 256;
    return (int)(b < 1 ? 1 : b > 65536 ? 65536 : b);
}

__global__ void fmm_k_keys(const float *raw, long long n, uint64_t *keys, uint32_t *idx)
{
    FMM_GRID_STRIDE(i, n)
    {
        keys[i] = fmm_morton(raw[i], raw[n + i], raw[2 * n + i]);
        idx[i] = (uint32_t)i;
    }
}

__global__ void fmm_k_gather(const float *raw, const uint32_t *idx, long long n, float *sorted)
{
    FMM_GRID_STRIDE(i, n)
    {
        for (int k = 0; k < 4; k++)
            sorted[k * n + i] = raw[k * n + idx[i]];
    }
}

__global__ void fmm_k_split_count(const fmm_node *node, int lo, int hi, const uint64_t *keys, int level, int leaf,
                                  int *count)
{
    int begin[9];
    FMM_GRID_STRIDE(i, hi - lo)
    count[i] = fmm_split_ranges(&node[lo + i], keys, level, leaf, begin);
}

__global__ void fmm_k_split_write(fmm_node *node, int lo, int hi, const int *first, const uint64_t *keys, int level,
                                  int leaf)
{
    FMM_GRID_STRIDE(i, hi - lo)
    fmm_split_write(node, lo + (int)i, first[i], keys, level, leaf);
}

__global__ void fmm_k_p2m(fmm_ctx x)
{
    FMM_GRID_STRIDE(c, x.ncells)
    fmm_p2m_cell(&x, (int)c);
}

__global__ void fmm_k_m2m(fmm_ctx x, int lo, int hi)
{
    FMM_GRID_STRIDE(i, hi - lo)
    fmm_m2m_cell(&x, lo + (int)i);
}

__global__ void fmm_k_l2l(fmm_ctx x, int lo, int hi)
{
    FMM_GRID_STRIDE(i, hi - lo)
    fmm_l2l_cell(&x, lo + (int)i);
}

__global__ void fmm_k_l2p(fmm_ctx x)
{
    FMM_GRID_STRIDE(c, x.ncells)
    fmm_l2p_cell(&x, (int)c);
}

__global__ void fmm_k_m2l_lists(fmm_ctx x)
{
    FMM_GRID_STRIDE(c, x.ncells)
    fmm_m2l_list_cell(&x, (int)c);
}

__global__ void fmm_k_leaf_of(fmm_ctx x, int *leaf_of)
{
    FMM_GRID_STRIDE(c, x.ncells)
    {
        const fmm_node nd = x.node[c];
        if (!nd.nchild)
            for (int i = nd.body; i < nd.body + nd.nbody; i++)
                leaf_of[i] = (int)c;
    }
}

__global__ void fmm_k_p2p_lists(fmm_ctx x, const int *leaf_of)
{
    FMM_GRID_STRIDE(i, x.n)
    fmm_p2p_list_body(&x, leaf_of[i], (int)i);
}

/* The reference at sample k (one block of 256 threads per sample, double), and the FMM's
 * result there. */
__global__ void fmm_k_direct(fmm_ctx x, long long samples, double *ref, float *got)
{
    __shared__ double part[4][256];
    const long long k = blockIdx.x;
    const long long i = fmm_sample_body(k, samples, x.n);
    const double tx = x.bx[i], ty = x.by[i], tz = x.bz[i];
    double acc[4] = {0.0, 0.0, 0.0, 0.0};
    for (long long j = threadIdx.x; j < x.n; j += blockDim.x) {
        const double dx = tx - x.bx[j], dy = ty - x.by[j], dz = tz - x.bz[j];
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 == 0.0)
            continue;
        const double inv = 1.0 / sqrt(r2), qr = x.bq[j] * inv, qr3 = qr * inv * inv;
        acc[0] += qr;
        acc[1] -= dx * qr3;
        acc[2] -= dy * qr3;
        acc[3] -= dz * qr3;
    }
    for (int c = 0; c < 4; c++)
        part[c][threadIdx.x] = acc[c];
    /* publishes every thread's partial sums to the tree reduction */
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if ((int)threadIdx.x < s)
            for (int c = 0; c < 4; c++)
                part[c][threadIdx.x] += part[c][threadIdx.x + s];
        /* each step's sums are complete before the next reads them */
        __syncthreads();
    }
    if (threadIdx.x < 4) {
        ref[4 * k + threadIdx.x] = part[threadIdx.x][0];
        got[4 * k + threadIdx.x] = x.out[4 * i + threadIdx.x];
    }
}

/* The device side of a run. */
struct fmm_gpu {
    float *bodies, *out, *M, *L;
    fmm_node *node;
    int *count, *src, *leaf_of;
    long long *off;
    unsigned long long *tally;
    int ncells, nlevels, level_begin[FMM_KEY_BITS + 3];
};

/* Bodies, sort, tree (timed as build) and upward pass (timed as upward) into g and x (mode
 * and task_min set by the caller). Returns 0, or 1 after a message. */
static int fmm_gpu_build(fmm_gpu *g, fmm_ctx *x, const fmm_options *o, fmm_phases *t)
{
    const long long n = o->n;
    std::vector<float> raw_h((size_t)n * 4);
    fmm_bodies raw = {raw_h.data(), raw_h.data() + n, raw_h.data() + 2 * n, raw_h.data() + 3 * n};
    fmm_bodies_generate(o, &raw);
    memset(g, 0, sizeof *g);
    double t0 = app_now_ms();
    float *raw_d;
    uint64_t *keys;
    uint32_t *idx;
    FMM_CUDA(cudaMalloc(&raw_d, (size_t)n * 4 * sizeof(float)));
    FMM_CUDA(cudaMalloc(&g->bodies, (size_t)n * 4 * sizeof(float)));
    FMM_CUDA(cudaMalloc(&g->out, (size_t)n * 4 * sizeof(float)));
    FMM_CUDA(cudaMalloc(&keys, (size_t)n * 2 * sizeof(uint64_t)));
    FMM_CUDA(cudaMalloc(&idx, (size_t)n * 2 * sizeof(uint32_t)));
    FMM_CUDA(cudaMemcpy(raw_d, raw_h.data(), (size_t)n * 4 * sizeof(float), cudaMemcpyHostToDevice));
    fmm_k_keys<<<fmm_blocks(n), 256>>>(raw_d, n, keys, idx);
    size_t temp_bytes = 0;
    void *temp = NULL;
    FMM_CUDA(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys + n, idx, idx + n, (int)n, 0,
                                             3 * FMM_KEY_BITS));
    FMM_CUDA(cudaMalloc(&temp, temp_bytes));
    FMM_CUDA(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys + n, idx, idx + n, (int)n, 0,
                                             3 * FMM_KEY_BITS));
    fmm_k_gather<<<fmm_blocks(n), 256>>>(raw_d, idx + n, n, g->bodies);
    const uint64_t *sorted_keys = keys + n;

    int cap = 1 << 16;
    fmm_node root;
    fmm_root(&root, (int)n);
    FMM_CUDA(cudaMalloc(&g->node, (size_t)cap * sizeof(fmm_node)));
    FMM_CUDA(cudaMemcpy(g->node, &root, sizeof root, cudaMemcpyHostToDevice));
    int *cnt_d;
    FMM_CUDA(cudaMalloc(&cnt_d, (size_t)n * sizeof(int) + sizeof(int))); /* a level has at most n cells */
    std::vector<int> cnt;
    g->ncells = 1;
    g->level_begin[0] = 0;
    g->level_begin[1] = 1;
    int level = 0;
    while (level < FMM_KEY_BITS + 1 && g->level_begin[level + 1] > g->level_begin[level]) {
        const int lo = g->level_begin[level], hi = g->level_begin[level + 1];
        fmm_k_split_count<<<fmm_blocks(hi - lo), 256>>>(g->node, lo, hi, sorted_keys, level, o->leaf_size, cnt_d);
        cnt.resize((size_t)(hi - lo));
        FMM_CUDA(cudaMemcpy(cnt.data(), cnt_d, (size_t)(hi - lo) * sizeof(int), cudaMemcpyDeviceToHost));
        int next = g->ncells;
        for (int i = 0; i < hi - lo; i++) { /* first child of each cell */
            const int k = cnt[(size_t)i];
            cnt[(size_t)i] = next;
            next += k;
        }
        if (next > cap) {
            while (next > cap)
                cap *= 2;
            fmm_node *grown;
            FMM_CUDA(cudaMalloc(&grown, (size_t)cap * sizeof(fmm_node)));
            FMM_CUDA(cudaMemcpy(grown, g->node, (size_t)g->ncells * sizeof(fmm_node), cudaMemcpyDeviceToDevice));
            FMM_CUDA(cudaFree(g->node));
            g->node = grown;
        }
        FMM_CUDA(cudaMemcpy(cnt_d, cnt.data(), (size_t)(hi - lo) * sizeof(int), cudaMemcpyHostToDevice));
        fmm_k_split_write<<<fmm_blocks(hi - lo), 256>>>(g->node, lo, hi, cnt_d, sorted_keys, level, o->leaf_size);
        g->ncells = next;
        level++;
        g->level_begin[level + 1] = g->ncells;
    }
    g->nlevels = level;
    FMM_CUDA(cudaDeviceSynchronize());
    FMM_CUDA(cudaFree(raw_d));
    FMM_CUDA(cudaFree(keys));
    FMM_CUDA(cudaFree(idx));
    FMM_CUDA(cudaFree(temp));
    FMM_CUDA(cudaFree(cnt_d));
    t->build = app_now_ms() - t0;

    const size_t nc = (size_t)g->ncells;
    FMM_CUDA(cudaMalloc(&g->M, nc * FMM_NT * sizeof(float)));
    FMM_CUDA(cudaMalloc(&g->L, nc * FMM_NT * sizeof(float)));
    FMM_CUDA(cudaMalloc(&g->count, nc * 2 * sizeof(int)));
    FMM_CUDA(cudaMalloc(&g->off, (nc + 1) * 2 * sizeof(long long)));
    FMM_CUDA(cudaMalloc(&g->tally, 2 * FMM_TALLY_SLOTS * sizeof(unsigned long long)));
    FMM_CUDA(cudaMalloc(&g->leaf_of, (size_t)n * sizeof(int)));
    x->node = g->node;
    x->bx = g->bodies, x->by = g->bodies + n, x->bz = g->bodies + 2 * n, x->bq = g->bodies + 3 * n;
    x->out = g->out, x->M = g->M, x->L = g->L;
    x->m2l_count = g->count, x->p2p_count = g->count + nc;
    x->m2l_off = x->p2p_off = NULL; /* counting only until fmm_gpu_lists_alloc */
    x->m2l_src = x->p2p_src = NULL;
    x->tally = g->tally;
    x->theta2 = o->theta * o->theta;
    x->n = (int)n, x->ncells = g->ncells;

    t0 = app_now_ms();
    fmm_k_p2m<<<fmm_blocks(g->ncells), 256>>>(*x);
    for (int l = g->nlevels - 2; l >= 0; l--)
        fmm_k_m2m<<<fmm_blocks(g->level_begin[l + 1] - g->level_begin[l]), 256>>>(*x, g->level_begin[l],
                                                                                   g->level_begin[l + 1]);
    FMM_CUDA(cudaDeviceSynchronize());
    t->upward = app_now_ms() - t0;
    return 0;
}

/* Before a traversal: no interactions yet. */
static int fmm_gpu_reset(fmm_gpu *g, const fmm_ctx *x)
{
    FMM_CUDA(cudaMemset(g->L, 0, (size_t)g->ncells * FMM_NT * sizeof(float)));
    FMM_CUDA(cudaMemset(g->out, 0, (size_t)x->n * 4 * sizeof(float)));
    FMM_CUDA(cudaMemset(g->count, 0, (size_t)g->ncells * 2 * sizeof(int)));
    FMM_CUDA(cudaMemset(g->tally, 0, 2 * FMM_TALLY_SLOTS * sizeof(unsigned long long)));
    return 0;
}

/* After the counting traversal: lists of exactly the counted lengths (x gets them). */
static int fmm_gpu_lists_alloc(fmm_gpu *g, fmm_ctx *x)
{
    const size_t nc = (size_t)g->ncells;
    std::vector<int> count(nc * 2);
    std::vector<long long> off((nc + 1) * 2);
    FMM_CUDA(cudaMemcpy(count.data(), g->count, nc * 2 * sizeof(int), cudaMemcpyDeviceToHost));
    const long long m2l = fmm_lists_offsets(count.data(), (int)nc, off.data());
    const long long p2p = fmm_lists_offsets(count.data() + nc, (int)nc, off.data() + nc + 1);
    FMM_CUDA(cudaMemcpy(g->off, off.data(), (nc + 1) * 2 * sizeof(long long), cudaMemcpyHostToDevice));
    FMM_CUDA(cudaMalloc(&g->src, (size_t)(m2l + p2p) * sizeof(int) + sizeof(int)));
    x->m2l_off = g->off, x->p2p_off = g->off + nc + 1;
    x->m2l_src = g->src, x->p2p_src = g->src + m2l;
    return 0;
}

/* After the timed runs: the lists' interactions (list modes: checked against the counting
 * run's lengths, timed as lists), the downward pass (timed), the counts into k. */
static int fmm_gpu_finish(fmm_gpu *g, const fmm_ctx *x, fmm_phases *t, fmm_counts *k)
{
    const size_t nc = (size_t)g->ncells;
    std::vector<fmm_node> node(nc);
    FMM_CUDA(cudaMemcpy(node.data(), g->node, nc * sizeof(fmm_node), cudaMemcpyDeviceToHost));
    fmm_tree_shape(node.data(), g->ncells, g->nlevels, k);
    k->m2l = k->p2p = 0;
    if (x->mode == FMM_MODE_LIST) {
        std::vector<int> count(nc * 2);
        std::vector<long long> off((nc + 1) * 2);
        FMM_CUDA(cudaMemcpy(count.data(), g->count, nc * 2 * sizeof(int), cudaMemcpyDeviceToHost));
        FMM_CUDA(cudaMemcpy(off.data(), g->off, (nc + 1) * 2 * sizeof(long long), cudaMemcpyDeviceToHost));
        if (fmm_lists_check(count.data(), count.data() + nc, off.data(), off.data() + nc + 1, (int)nc))
            return 1;
        k->m2l = off[nc];
        k->p2p = off[2 * nc + 1];
        const double t0 = app_now_ms();
        fmm_k_m2l_lists<<<fmm_blocks(g->ncells), 256>>>(*x);
        fmm_k_leaf_of<<<fmm_blocks(g->ncells), 256>>>(*x, g->leaf_of);
        fmm_k_p2p_lists<<<fmm_blocks(x->n), 256>>>(*x, g->leaf_of);
        FMM_CUDA(cudaDeviceSynchronize());
        t->lists = app_now_ms() - t0;
    } else {
        std::vector<unsigned long long> tally(2 * FMM_TALLY_SLOTS);
        FMM_CUDA(cudaMemcpy(tally.data(), g->tally, tally.size() * sizeof(tally[0]), cudaMemcpyDeviceToHost));
        for (int s = 0; s < FMM_TALLY_SLOTS; s++) {
            k->m2l += (long long)tally[(size_t)s];
            k->p2p += (long long)tally[(size_t)(FMM_TALLY_SLOTS + s)];
        }
    }
    const double t0 = app_now_ms();
    for (int l = 0; l < g->nlevels - 1; l++)
        fmm_k_l2l<<<fmm_blocks(g->level_begin[l + 1] - g->level_begin[l]), 256>>>(*x, g->level_begin[l],
                                                                                   g->level_begin[l + 1]);
    fmm_k_l2p<<<fmm_blocks(g->ncells), 256>>>(*x);
    FMM_CUDA(cudaDeviceSynchronize());
    t->downward = app_now_ms() - t0;
    return 0;
}

/* The accuracy check at o->samples bodies (reference on the GPU). 0: within the bounds. */
static int fmm_gpu_check(const fmm_ctx *x, const fmm_options *o, FILE *log)
{
    const long long s = o->samples;
    double *ref_d;
    float *got_d;
    std::vector<double> ref((size_t)s * 4);
    std::vector<float> got((size_t)s * 4);
    FMM_CUDA(cudaMalloc(&ref_d, (size_t)s * 4 * sizeof(double)));
    FMM_CUDA(cudaMalloc(&got_d, (size_t)s * 4 * sizeof(float)));
    fmm_k_direct<<<(unsigned)s, 256>>>(*x, s, ref_d, got_d);
    FMM_CUDA(cudaMemcpy(ref.data(), ref_d, ref.size() * sizeof(double), cudaMemcpyDeviceToHost));
    FMM_CUDA(cudaMemcpy(got.data(), got_d, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    cudaFree(ref_d);
    cudaFree(got_d);
    return fmm_check_compare(got.data(), ref.data(), s, o->theta, log);
}

static void fmm_gpu_free(fmm_gpu *g)
{
    cudaFree(g->bodies);
    cudaFree(g->out);
    cudaFree(g->M);
    cudaFree(g->L);
    cudaFree(g->node);
    cudaFree(g->count);
    cudaFree(g->off);
    cudaFree(g->src);
    cudaFree(g->tally);
    cudaFree(g->leaf_of);
}

#endif /* FMM_GPU_CUH */
