/* tree_work.h - the synthetic per-node work of the paper's tree benchmarks
 * (anchors/gtap-results.md: "do_memory_and_compute"): mem_ops pseudo-random loads from an
 * L2-resident 2^20-double table, then compute_iters independent FP64 FMAs. Device version
 * strided over `stride` threads starting at `first` (thread mode: 0, 1); host reference
 * gives the same bits. Compiles as CUDA, as the host target's C++ and as plain C (the
 * OpenMP and sequential baselines); tests/handcomp uses it too. */
#ifndef TREE_WORK_H
#define TREE_WORK_H

#include "app_qualifiers.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define TREE_INPUT_N (1u << 20)

#if defined(TW_UNROLL1)
#if defined(__CUDACC__)
#define TW_UNROLL _Pragma("unroll 1")
#else
#define TW_UNROLL
#endif
#else
#define TW_UNROLL
#endif

static __host__ __device__ __forceinline__ uint32_t tw_xs(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

static __host__ __device__ __forceinline__ uint32_t tw_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* double -> uint32 as the GPU converts (cvt.rzi.u32.f64: truncate, saturate). */
static __host__ __device__ __forceinline__ uint32_t tw_to_u32(double a)
{
#if defined(__CUDA_ARCH__)
    return (uint32_t)a;
#else
    if (!(a > 0.0))
        return 0u;
    if (a >= 4294967295.0)
        return 0xffffffffu;
    return (uint32_t)a;
#endif
}

static __host__ __device__ __forceinline__ uint64_t tw_bits(double y)
{
#if defined(__CUDA_ARCH__)
    return (uint64_t)__double_as_longlong(y);
#else
    uint64_t b;
    memcpy(&b, &y, 8);
    return b;
#endif
}

static __host__ __device__ __forceinline__ double tw_work(const double *input, uint32_t node, int mem_ops,
                                                          int compute_iters, int first, int stride)
{
    double acc = 0.0;
    uint32_t seed = tw_xs(node ^ 0x9e3779b9u);
    /* No unroll pragmas: the paper's binary-tree code leaves unrolling to the compiler (its
     * B-ary tree uses unroll 1; TW_UNROLL1 selects that). */
    TW_UNROLL
    for (int m = first; m < mem_ops; m += stride)
        acc += input[tw_xs(seed + (uint32_t)m * 747796405u) & (TREE_INPUT_N - 1)];
    uint32_t mix = (0x9e3779b9u ^ node) + tw_to_u32(acc);
    TW_UNROLL
    for (int it = first; it < compute_iters; it += stride) {
        double x = (double)tw_xs(seed + (uint32_t)it * 747796405u);
        double y = fma(x, 1.0000001192092896, 0.9999999403953552);
        mix ^= (uint32_t)tw_bits(y);
    }
    return (double)mix;
}

#endif /* TREE_WORK_H */
