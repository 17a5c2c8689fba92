/* fmm_dtt.h - the dual-tree traversal's rules and its serial walk, shared by every
 * implementation (GPU task programs, GPU worklist, host target, serial and OpenMP baselines),
 * so that all of them visit the same pairs and report the same counts (C11 and CUDA C++).
 *
 * A pair (A, B) asks for the field of source cell B on the bodies of target cell A:
 *   A == B:                   a leaf: P2P(A, A); else every pair of A's children (A's
 *                             children x A's children, the self pairs included)
 *   well separated:           M2L(A, B): theta^2 d^2 > (r_A + r_B)^2 (1 - 10^-3), d the
 *                             distance of the centers, r the half-widths (the upstream's
 *                             criterion; exact in double, fmm_tree.h)
 *   both leaves:              P2P(A, B)
 *   otherwise split one:      B if A is a leaf; A if B is a leaf; else the larger (A on a tie)
 * The traversal starts at (root, root). Each ordered pair is visited once, so the counts of M2L
 * and P2P pairs are properties of the tree and theta.
 *
 * Sinks. FMM_MODE_LIST appends B to A's M2L or P2P list: an atomic counter per target gives
 * the slot in A's list, which a first, counting traversal sized (the lists are one array,
 * target by target; without the offsets the traversal only counts). FMM_MODE_FUSED
 * applies the interaction at once: the M2L's coefficients and the P2P's potentials added with
 * atomics into A's local expansion and A's bodies' results. FMM_MODE_OWNED applies it with
 * plain additions: the partitioned traversal runs no two writers of a target at once.
 */
#ifndef FMM_DTT_H
#define FMM_DTT_H

#include "fmm_tree.h"

enum { FMM_MODE_LIST = 1, FMM_MODE_FUSED = 2, FMM_MODE_OWNED = 3 };

/* A build for one mode (-DFMM_FIXED_MODE=FMM_MODE_...) lets the compiler drop the others. */
#if defined(FMM_FIXED_MODE)
#define FMM_CTX_MODE(x) (FMM_FIXED_MODE)
#else
#define FMM_CTX_MODE(x) ((x)->mode)
#endif
enum { FMM_PAIR_DONE = 0, FMM_SPLIT_SELF = 1, FMM_SPLIT_A = 2, FMM_SPLIT_B = 3 };

#if defined(__CUDA_ARCH__)
#define FMM_NOINLINE __noinline__
#else
#define FMM_NOINLINE
#endif

/* The interactions a walk applied (fused mode: the lists cannot count them). */
typedef struct fmm_tally {
    long long m2l, p2p;
} fmm_tally;

/* A split pair: its child pairs are k = 0 .. fmm_frame_pairs(f) - 1. */
typedef struct fmm_frame {
    int a, b, first, cnt, kind, k;
} fmm_frame;

/* The deepest walk: each frame descends a level in A or B (both for a self pair). */
#define FMM_WALK_DEPTH (2 * FMM_KEY_BITS + 2)

static __host__ __device__ __forceinline__ int fmm_atomic_inc(int *p)
{
#if defined(__CUDA_ARCH__)
    return atomicAdd(p, 1);
#else
    return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); /* the OpenMP baseline's threads */
#endif
}

/* Fused modes only, which run on the GPU or on one host thread (the host target). OWNED:
 * the partitioned traversal guarantees that no other task writes p (fmm.cu). */
static __host__ __device__ __forceinline__ void fmm_addf(const fmm_ctx *x, float *p, float v)
{
#if defined(__CUDA_ARCH__)
    if (FMM_CTX_MODE(x) == FMM_MODE_OWNED)
        *p += v;
    else
        atomicAdd(p, v);
#else
    (void)x;
    *p += v;
#endif
}

static __host__ __device__ __forceinline__ int fmm_well_separated(const fmm_node *a, const fmm_node *b, double theta2)
{
    const double dx = (double)a->cx - (double)b->cx, dy = (double)a->cy - (double)b->cy;
    const double dz = (double)a->cz - (double)b->cz;
    const double sr = (double)a->r + (double)b->r;
    return theta2 * (dx * dx + dy * dy + dz * dz) > sr * sr * (1.0 - 1e-3);
}

/* Fused M2L: B's multipole as local coefficients of A, added to A's. */
static __host__ __device__ FMM_NOINLINE void fmm_m2l_apply(const fmm_ctx *x, int a, int b)
{
    const fmm_node na = x->node[a], nb = x->node[b];
    float l[FMM_NT];
    fmm_m2l(&x->M[(size_t)b * FMM_NT], na.cx - nb.cx, na.cy - nb.cy, na.cz - nb.cz, l);
    for (int t = 0; t < FMM_NT; t++)
        fmm_addf(x, &x->L[(size_t)a * FMM_NT + t], l[t]);
}

/* Fused P2P: B's bodies' field on A's bodies, added to their results. */
static __host__ __device__ FMM_NOINLINE void fmm_p2p_apply(const fmm_ctx *x, int a, int b)
{
    const fmm_node na = x->node[a], nb = x->node[b];
    for (int i = na.body; i < na.body + na.nbody; i++) {
        const float tx = x->bx[i], ty = x->by[i], tz = x->bz[i];
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int j = nb.body; j < nb.body + nb.nbody; j++)
            fmm_p2p_one(tx, ty, tz, x->bx[j], x->by[j], x->bz[j], x->bq[j], acc);
        for (int k = 0; k < 4; k++)
            fmm_addf(x, &x->out[4 * (size_t)i + k], acc[k]);
    }
}

static __host__ __device__ __forceinline__ void fmm_sink_m2l(const fmm_ctx *x, int a, int b, fmm_tally *t)
{
    if (FMM_CTX_MODE(x) != FMM_MODE_LIST) {
        fmm_m2l_apply(x, a, b);
        t->m2l++;
        return;
    }
    const int pos = fmm_atomic_inc(&x->m2l_count[a]);
    if (x->m2l_off) {
        const long long p = x->m2l_off[a] + pos;
        if (p < x->m2l_off[a + 1]) /* else the counts differ from the sizing run's: fmm_lists_check */
            x->m2l_src[p] = b;
    }
}

static __host__ __device__ __forceinline__ void fmm_sink_p2p(const fmm_ctx *x, int a, int b, fmm_tally *t)
{
    if (FMM_CTX_MODE(x) != FMM_MODE_LIST) {
        fmm_p2p_apply(x, a, b);
        t->p2p++;
        return;
    }
    const int pos = fmm_atomic_inc(&x->p2p_count[a]);
    if (x->p2p_off) {
        const long long p = x->p2p_off[a] + pos;
        if (p < x->p2p_off[a + 1])
            x->p2p_src[p] = b;
    }
}

/* Visits pair (a, b): applies the sink and returns FMM_PAIR_DONE, or describes the split in f
 * (k = 0) and returns its kind. */
static __host__ __device__ __forceinline__ int fmm_pair_visit(const fmm_ctx *x, int a, int b, fmm_frame *f,
                                                              fmm_tally *t)
{
    const fmm_node na = x->node[a];
    f->a = a;
    f->b = b;
    f->k = 0;
    if (a == b) {
        if (!na.nchild) {
            fmm_sink_p2p(x, a, a, t);
            return FMM_PAIR_DONE;
        }
        f->first = na.child;
        f->cnt = na.nchild;
        return f->kind = FMM_SPLIT_SELF;
    }
    const fmm_node nb = x->node[b];
    if (fmm_well_separated(&na, &nb, x->theta2)) {
        fmm_sink_m2l(x, a, b, t);
        return FMM_PAIR_DONE;
    }
    if (!na.nchild && !nb.nchild) {
        fmm_sink_p2p(x, a, b, t);
        return FMM_PAIR_DONE;
    }
    if (!nb.nchild || (na.nchild && na.r >= nb.r)) {
        f->first = na.child;
        f->cnt = na.nchild;
        return f->kind = FMM_SPLIT_A;
    }
    f->first = nb.child;
    f->cnt = nb.nchild;
    return f->kind = FMM_SPLIT_B;
}

/* The number of child pairs of a split. */
static __host__ __device__ __forceinline__ int fmm_frame_pairs(const fmm_frame *f)
{
    return f->kind == FMM_SPLIT_SELF ? f->cnt * f->cnt : f->cnt;
}

/* Child pair k of a split. */
static __host__ __device__ __forceinline__ void fmm_frame_pair(const fmm_frame *f, int k, int *a_p, int *b_p)
{
    if (f->kind == FMM_SPLIT_SELF) {
        *a_p = f->first + k / f->cnt;
        *b_p = f->first + k % f->cnt;
    } else if (f->kind == FMM_SPLIT_A) {
        *a_p = f->first + k;
        *b_p = f->b;
    } else {
        *a_p = f->a;
        *b_p = f->first + k;
    }
}

/* The whole traversal below pair (a, b), depth first, on an explicit stack of at most
 * FMM_WALK_DEPTH frames (no recursion: the CUDA stack stays small inside the task kernel). */
static __host__ __device__ __forceinline__ void fmm_walk(const fmm_ctx *x, int a, int b, fmm_tally *t)
{
    fmm_frame stack[FMM_WALK_DEPTH];
    int sp = 0;
    if (fmm_pair_visit(x, a, b, &stack[0], t) == FMM_PAIR_DONE)
        return;
    sp = 1;
    while (sp > 0) {
        fmm_frame *f = &stack[sp - 1];
        if (f->k == fmm_frame_pairs(f)) {
            sp--;
            continue;
        }
        int ca, cb;
        fmm_frame_pair(f, f->k++, &ca, &cb);
        if (fmm_pair_visit(x, ca, cb, &stack[sp], t) != FMM_PAIR_DONE)
            sp++;
    }
}

/* Adds a walk's tally to the run's counts (fused modes; the lists count themselves). A slot
 * per thread modulo FMM_TALLY_SLOTS keeps the atomics apart. */
static __host__ __device__ __forceinline__ void fmm_tally_flush(const fmm_ctx *x, const fmm_tally *t)
{
    if (FMM_CTX_MODE(x) == FMM_MODE_LIST || (t->m2l == 0 && t->p2p == 0))
        return;
#if defined(__CUDA_ARCH__)
    const unsigned slot = (blockIdx.x * blockDim.x + threadIdx.x) % FMM_TALLY_SLOTS;
    atomicAdd(&x->tally[slot], (unsigned long long)t->m2l);
    atomicAdd(&x->tally[FMM_TALLY_SLOTS + slot], (unsigned long long)t->p2p);
#else
    __atomic_fetch_add(&x->tally[0], (unsigned long long)t->m2l, __ATOMIC_RELAXED);
    __atomic_fetch_add(&x->tally[FMM_TALLY_SLOTS], (unsigned long long)t->p2p, __ATOMIC_RELAXED);
#endif
}

/* Bodies of a pair, for the task-size decisions. */
static __host__ __device__ __forceinline__ int fmm_pair_bodies(const fmm_ctx *x, int a, int b)
{
    return a == b ? x->node[a].nbody : x->node[a].nbody + x->node[b].nbody;
}

#endif /* FMM_DTT_H */
