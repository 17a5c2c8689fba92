/* cilksort_seq.h - the sequential pieces of cilksort (merge, split search, small sorts),
 * shared by the GPU program (device code, loads through L2 as the paper) and the CPU
 * baselines (C). */
#ifndef CILKSORT_SEQ_H
#define CILKSORT_SEQ_H

#include <limits.h>
#include <stdint.h>

#if !defined(__CUDACC__) && !defined(GTAP_TARGET_HOST)
#define CS_FN static inline
#define CS_LOAD(p) (*(p))
#else
#define CS_FN static __host__ __device__ __forceinline__
#if defined(__CUDA_ARCH__)
/* Data that other SMs wrote before the join: read through L2, as the paper's cilksort does. */
#define CS_LOAD(p) __ldcg(p)
#else
#define CS_LOAD(p) (*(p))
#endif
#endif

#define CS_BITONIC 64 /* the GPU's base-case network size (the paper's CUT_SORT) */

/* Merges a[0..na) and b[0..nb) (both sorted) into dst; each side's next element stays in a
 * register so every element is loaded once. */
CS_FN void cs_merge(const int *a, int na, const int *b, int nb, int *dst)
{
    int i = 0, j = 0, k = 0;
    if (na > 0 && nb > 0) {
        int x = CS_LOAD(a), y = CS_LOAD(b);
        for (;;) {
            if (x < y) {
                dst[k++] = x;
                if (++i == na)
                    break;
                x = CS_LOAD(a + i);
            } else {
                dst[k++] = y;
                if (++j == nb)
                    break;
                y = CS_LOAD(b + j);
            }
        }
    }
    while (i < na)
        dst[k++] = CS_LOAD(a + i++);
    while (j < nb)
        dst[k++] = CS_LOAD(b + j++);
}

/* The largest index i with x[i] <= v, or -1. */
CS_FN int cs_split(const int *x, int n, int v)
{
    int lo = -1, hi = n;
    while (lo + 1 < hi) {
        int mid = (lo + hi) / 2;
        if (CS_LOAD(x + mid) <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Loop unrolling of the bitonic network on the GPU. By default, as the paper's code, only the
 * innermost loop is unrolled and the 64 values live in (L1-cached) local memory: the kernel
 * needs 79 registers. -DCS_BITONIC_IN_REGISTERS unrolls every loop so the values stay in
 * registers, at 166 registers per thread (12 warps per SM instead of 16). */
#if defined(__CUDA_ARCH__)
#define CS_UNROLL_INNER _Pragma("unroll")
#if defined(CS_BITONIC_IN_REGISTERS)
#define CS_UNROLL_OUTER _Pragma("unroll")
#else
#define CS_UNROLL_OUTER _Pragma("unroll 1")
#endif
#else
#define CS_UNROLL_INNER
#define CS_UNROLL_OUTER
#endif

/* Sorts a[0..n), n <= CS_BITONIC, with a bitonic network over a local array padded with
 * INT_MAX (the paper's GPU base case). */
CS_FN void cs_bitonic(int *a, int n)
{
    int v[CS_BITONIC];
    CS_UNROLL_INNER
    for (int i = 0; i < CS_BITONIC; i++)
        v[i] = i < n ? CS_LOAD(a + i) : INT_MAX;
    CS_UNROLL_OUTER
    for (int k = 2; k <= CS_BITONIC; k <<= 1) {
        CS_UNROLL_OUTER
        for (int j = k >> 1; j > 0; j >>= 1) {
            CS_UNROLL_INNER
            for (int i = 0; i < CS_BITONIC; i++) {
                int l = i ^ j;
                if (l > i) {
                    int x = v[i], y = v[l];
                    int up = (i & k) == 0;
                    if (up ? x > y : x < y) {
                        v[i] = y;
                        v[l] = x;
                    }
                }
            }
        }
    }
    CS_UNROLL_INNER
    for (int i = 0; i < CS_BITONIC; i++)
        if (i < n)
            a[i] = v[i];
}

/* Sorts a[0..n) of any length sequentially (the GPU base case for cutoffs above 64, as in
 * the EPAQ sweep): bitonic 64-element runs, then bottom-up merges between a and tmp. */
CS_FN void cs_sort_small(int *a, int n, int *tmp)
{
    if (n <= CS_BITONIC) {
        cs_bitonic(a, n);
        return;
    }
    for (int s = 0; s < n; s += CS_BITONIC)
        cs_bitonic(a + s, n - s < CS_BITONIC ? n - s : CS_BITONIC);
    int *src = a, *dst = tmp;
    for (int w = CS_BITONIC; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int na = n - s < w ? n - s : w;
            int nb = n - s - na < w ? n - s - na : w;
            cs_merge(src + s, na, src + s + na, nb, dst + s);
        }
        int *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        for (int i = 0; i < n; i++)
            a[i] = src[i];
}

#endif /* CILKSORT_SEQ_H */
