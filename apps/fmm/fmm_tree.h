/* fmm_tree.h - the octree and the per-cell steps of its build and of the FMM's upward and
 * downward passes, shared by the GPU kernels (one thread per cell), the host target and the C
 * baselines (loops) (C11 and CUDA C++; header-only).
 *
 * The tree. Bodies are sorted by Morton key (fmm_bodies.h). The root is the unit cube; a cell
 * with more than leaf_size bodies and above level FMM_KEY_BITS splits into its non-empty
 * octants. Cells are stored level by level (the root is cell 0) and the children of a cell are
 * contiguous, so a cell names them by (first, count) and the passes walk a level as one
 * range. A cell's bodies are the contiguous range of keys with its prefix. Centers and
 * half-widths are dyadic (c = (i + 1/2) 2^-l, r = 2^-(l+1)): exact in float, so that the
 * opening criterion (fmm_dtt.h), evaluated in double, decides every pair the same way on
 * every machine.
 */
#ifndef FMM_TREE_H
#define FMM_TREE_H

#include <stdint.h>

#include "app_qualifiers.h"
#include "fmm_bodies.h"
#include "fmm_expansion.h"

/* 16-byte alignment for the cell records: the GPU loads one in two vector loads. */
#if defined(__cplusplus)
#define FMM_ALIGN16 alignas(16)
#else
#define FMM_ALIGN16 _Alignas(16)
#endif

/* What the traversal reads of a cell: 32 bytes, one sector. */
typedef struct fmm_node {
    FMM_ALIGN16 float cx; /* geometric center, half-width */
    float cy, cz, r;
    int child, nchild;   /* first child, number of children (0: a leaf) */
    int body, nbody;     /* first body (in key order), number of bodies */
} fmm_node;

/* Everything the passes and the traversal touch (host or device memory). */
typedef struct fmm_ctx {
    fmm_node *node;                 /* [ncells] */
    const float *bx, *by, *bz, *bq; /* [n] bodies in key order */
    float *out;                     /* [4 n]: potential, gradient x, y, z */
    float *M, *L;                   /* [FMM_NT ncells] multipole and local coefficients */
    int *m2l_count, *p2p_count;     /* [ncells] interaction-list lengths */
    long long *m2l_off, *p2p_off;   /* [ncells + 1] list c at off[c] .. off[c + 1]; NULL: count only */
    int *m2l_src, *p2p_src;         /* the lists' source cells */
    unsigned long long *tally;      /* [2 FMM_TALLY_SLOTS]: fused counts, m2l then p2p */
    double theta2;                  /* theta^2 */
    int task_min, mode;
    int n, ncells;
} fmm_ctx;

#define FMM_TALLY_SLOTS 1024

/* The octant of body key `key` at level `level` (1..FMM_KEY_BITS). */
static __host__ __device__ __forceinline__ int fmm_octant(uint64_t key, int level)
{
    return (int)(key >> (3 * (FMM_KEY_BITS - level))) & 7;
}

/* Build step 1, cell c at level `level`: the number of children it splits into (0: it stays a
 * leaf); begin[0..8] receives the octants' body ranges (begin[o] .. begin[o + 1]). The keys of
 * a cell share its prefix, so the octants are sorted: 7 binary searches. */
static __host__ __device__ __forceinline__ int fmm_split_ranges(const fmm_node *node, const uint64_t *keys, int level,
                                                                int leaf_size, int *begin)
{
    const int lo = node->body, hi = node->body + node->nbody;
    if (node->nbody <= leaf_size || level >= FMM_KEY_BITS)
        return 0;
    begin[0] = lo;
    begin[8] = hi;
    int count = 0;
    for (int o = 1; o < 8; o++) {
        int a = begin[o - 1], b = hi; /* first body with octant >= o */
        while (a < b) {
            const int m = a + (b - a) / 2;
            if (fmm_octant(keys[m], level + 1) < o)
                a = m + 1;
            else
                b = m;
        }
        begin[o] = a;
    }
    for (int o = 0; o < 8; o++)
        count += begin[o + 1] > begin[o];
    return count;
}

/* Build step 2: writes cell c's children from `first` on (the count step 1 returned). */
static __host__ __device__ __forceinline__ void fmm_split_write(fmm_node *nodes, int c, int first, const uint64_t *keys,
                                                                int level, int leaf_size)
{
    int begin[9];
    fmm_node *p = &nodes[c];
    const int count = fmm_split_ranges(p, keys, level, leaf_size, begin);
    p->child = first;
    p->nchild = count;
    if (!count) /* a leaf: begin[] was not filled */
        return;
    const float h = 0.5f * p->r;
    int k = first;
    for (int o = 0; o < 8; o++) {
        if (begin[o + 1] == begin[o])
            continue;
        fmm_node *ch = &nodes[k++];
        ch->cx = p->cx + ((o & 1) ? h : -h);
        ch->cy = p->cy + ((o & 2) ? h : -h);
        ch->cz = p->cz + ((o & 4) ? h : -h);
        ch->r = h;
        ch->child = 0;
        ch->nchild = 0;
        ch->body = begin[o];
        ch->nbody = begin[o + 1] - begin[o];
    }
}

/* The root cell of n bodies. */
static __host__ __device__ __forceinline__ void fmm_root(fmm_node *root, int n)
{
    root->cx = root->cy = root->cz = 0.5f;
    root->r = 0.5f;
    root->child = root->nchild = 0;
    root->body = 0;
    root->nbody = n;
}

/* Upward pass, leaf c: its multipole from its bodies (M zeroed for every cell first). */
static __host__ __device__ __forceinline__ void fmm_p2m_cell(const fmm_ctx *x, int c)
{
    const fmm_node nd = x->node[c];
    if (nd.nchild)
        return;
    float m[FMM_NT];
    for (int t = 0; t < FMM_NT; t++)
        m[t] = 0.0f;
    for (int i = nd.body; i < nd.body + nd.nbody; i++)
        fmm_p2m(x->bx[i], x->by[i], x->bz[i], x->bq[i], nd.cx, nd.cy, nd.cz, m);
    for (int t = 0; t < FMM_NT; t++)
        x->M[(size_t)c * FMM_NT + t] = m[t];
}

/* Upward pass, inner cell c (after its children's level): M2M from its children. */
static __host__ __device__ __forceinline__ void fmm_m2m_cell(const fmm_ctx *x, int c)
{
    const fmm_node nd = x->node[c];
    if (!nd.nchild)
        return;
    float m[FMM_NT];
    for (int t = 0; t < FMM_NT; t++)
        m[t] = 0.0f;
    for (int k = nd.child; k < nd.child + nd.nchild; k++) {
        const fmm_node ch = x->node[k];
        fmm_m2m(&x->M[(size_t)k * FMM_NT], ch.cx - nd.cx, ch.cy - nd.cy, ch.cz - nd.cz, m);
    }
    for (int t = 0; t < FMM_NT; t++)
        x->M[(size_t)c * FMM_NT + t] = m[t];
}

/* Downward pass, cell c (after its parent's level): L2L into its children. */
static __host__ __device__ __forceinline__ void fmm_l2l_cell(const fmm_ctx *x, int c)
{
    const fmm_node nd = x->node[c];
    float l[FMM_NT];
    for (int t = 0; t < FMM_NT; t++)
        l[t] = x->L[(size_t)c * FMM_NT + t];
    for (int k = nd.child; k < nd.child + nd.nchild; k++) {
        const fmm_node ch = x->node[k];
        fmm_l2l(l, ch.cx - nd.cx, ch.cy - nd.cy, ch.cz - nd.cz, &x->L[(size_t)k * FMM_NT]);
    }
}

/* Downward pass, leaf c: L2P into its bodies' results. */
static __host__ __device__ __forceinline__ void fmm_l2p_cell(const fmm_ctx *x, int c)
{
    const fmm_node nd = x->node[c];
    if (nd.nchild)
        return;
    float l[FMM_NT];
    for (int t = 0; t < FMM_NT; t++)
        l[t] = x->L[(size_t)c * FMM_NT + t];
    for (int i = nd.body; i < nd.body + nd.nbody; i++)
        fmm_l2p(l, x->bx[i], x->by[i], x->bz[i], nd.cx, nd.cy, nd.cz, &x->out[4 * (size_t)i]);
}

/* The plain variant's M2L for target cell c: its whole list, then one update of L. */
static __host__ __device__ __forceinline__ void fmm_m2l_list_cell(const fmm_ctx *x, int c)
{
    const long long s0 = x->m2l_off[c], s1 = x->m2l_off[c + 1];
    if (s0 == s1)
        return;
    const fmm_node a = x->node[c];
    float acc[FMM_NT], l[FMM_NT];
    for (int t = 0; t < FMM_NT; t++)
        acc[t] = 0.0f;
    for (long long s = s0; s < s1; s++) {
        const int b = x->m2l_src[s];
        const fmm_node nb = x->node[b];
        fmm_m2l(&x->M[(size_t)b * FMM_NT], a.cx - nb.cx, a.cy - nb.cy, a.cz - nb.cz, l);
        for (int t = 0; t < FMM_NT; t++)
            acc[t] += l[t];
    }
    for (int t = 0; t < FMM_NT; t++)
        x->L[(size_t)c * FMM_NT + t] += acc[t];
}

/* The plain variant's P2P for body i of leaf c: every source leaf of c's list. */
static __host__ __device__ __forceinline__ void fmm_p2p_list_body(const fmm_ctx *x, int c, int i)
{
    const long long s0 = x->p2p_off[c], s1 = x->p2p_off[c + 1];
    const float tx = x->bx[i], ty = x->by[i], tz = x->bz[i];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long long s = s0; s < s1; s++) {
        const fmm_node nb = x->node[x->p2p_src[s]];
        for (int j = nb.body; j < nb.body + nb.nbody; j++)
            fmm_p2p_one(tx, ty, tz, x->bx[j], x->by[j], x->bz[j], x->bq[j], acc);
    }
    for (int k = 0; k < 4; k++)
        x->out[4 * (size_t)i + k] += acc[k];
}

#endif /* FMM_TREE_H */
