/* hetero_kernels.h - the leaf kernels of the heterogeneous tree: K = 2 or 4 kinds of
 * arithmetic loop, each leaf's kind chosen by hashing its node id with the run's seed. Shared
 * by the GPU programs (thread and block level), their host-target builds and the C baselines,
 * so that every implementation computes the same bits (compiles as CUDA, C++ and C11).
 *
 * A leaf's value is its kind's start value XOR one 32-bit term per iteration. XOR is
 * associative and commutative, so a block may split the iterations into one contiguous
 * range per thread and XOR the partial values together: it gets the thread-level value
 * exactly, and every variant prints the same answer.
 *
 * Every iteration costs about the same in each kind - some seven integer operations, one
 * u32 -> f64 conversion, one FP64 FMA and one XOR, the per-iteration work of the upstream
 * benchmark (and of tree_work.h's compute loop) - but the kinds are different instruction
 * streams (xorshift, multiply-xorshift, add-rotate-xor, PCG's output permutation), so the
 * compiler cannot merge them into one loop with per-lane constants, and a warp whose lanes
 * hold leaves of several kinds runs the loops one after the other. The kernels are not
 * inlined on the GPU (as upstream): the scheduler's register allocation stays its own, and
 * each kind is one copy of code.
 */
#ifndef HETERO_KERNELS_H
#define HETERO_KERNELS_H

#include <stdint.h>

#include "tree_work.h" /* tw_xs, tw_hash32, tw_bits; app_qualifiers.h */

#define HET_MAX_KINDS 4

/* HET_NOINLINE: the kernels' attributes. GPU: not inlined (above). GCC on x86-64 (the C
 * baselines, the host target, the host side of the GPU programs, where the check runs): an
 * FMA clone beside the default one, chosen at load time, so that fma() is one instruction
 * where the CPU has it instead of a libm call (a loop of fmas: 1.5 against 7.3 ns each on the
 * development machine); the bits are the same, fma is exact either way. */
#if defined(__CUDA_ARCH__)
#define HET_NOINLINE __noinline__
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define HET_NOINLINE __attribute__((target_clones("fma", "default")))
#else
#define HET_NOINLINE
#endif

/* The kind of leaf `node` for `kinds` kinds (a power of two: 2 or 4) and a run's seed. */
static __host__ __device__ __forceinline__ int het_kind_of(uint32_t node, uint32_t seed, int kinds)
{
    return (int)(tw_hash32(node ^ tw_hash32(seed ^ 0x5bd1e995u)) & (uint32_t)(kinds - 1));
}

/* One iteration's floating-point step: the exact conversion of h, one FMA (exact on both
 * sides: no contraction, IEEE fma), the result's low 32 bits. */
static __host__ __device__ __forceinline__ uint32_t het_fp_term(uint32_t h, double a, double b)
{
    return (uint32_t)tw_bits(fma((double)h, a, b));
}

/* x rotated left by r in [1, 31]: one funnel shift on the GPU. */
static __host__ __device__ __forceinline__ uint32_t het_rotl(uint32_t x, int r)
{
#if defined(__CUDA_ARCH__)
    return __funnelshift_l(x, x, r);
#else
    return (x << r) | (x >> (32 - r));
#endif
}

/* Kind 0: xorshift32 of seed + it * 747796405 (the upstream's kind 0). */
static HET_NOINLINE __host__ __device__ uint32_t het_kind0(uint32_t node, int begin, int end)
{
    const uint32_t seed = tw_xs(node ^ 0x9e3779b9u);
    uint32_t acc = 0;
    for (int it = begin; it < end; it++)
        acc ^= het_fp_term(tw_xs(seed + (uint32_t)it * 747796405u), 1.0000001192092896, 0.9999999403953552);
    return acc;
}

/* Kind 1: murmur3's finalizer steps (multiply, xorshift, multiply, xorshift) on seed + it. */
static HET_NOINLINE __host__ __device__ uint32_t het_kind1(uint32_t node, int begin, int end)
{
    const uint32_t seed = tw_hash32(node ^ 0x3c6ef372u);
    uint32_t acc = 0;
    for (int it = begin; it < end; it++) {
        uint32_t h = (seed + (uint32_t)it) * 0x85ebca6bu;
        h ^= h >> 13;
        h *= 0xc2b2ae35u;
        h ^= h >> 16;
        acc ^= het_fp_term(h, 0.9999998807907104, 1.0000000596046448);
    }
    return acc;
}

/* Kind 2: add-rotate-xor on seed + it * 0x9e3779b1. */
static HET_NOINLINE __host__ __device__ uint32_t het_kind2(uint32_t node, int begin, int end)
{
    const uint32_t seed = tw_xs(node ^ 0xa5a5a5a5u) | 1u;
    uint32_t acc = 0;
    for (int it = begin; it < end; it++) {
        uint32_t h = seed + (uint32_t)it * 0x9e3779b1u;
        h ^= het_rotl(h, 7);
        h += het_rotl(h, 19);
        h ^= h >> 11;
        acc ^= het_fp_term(h, 1.0000000596046448, -0.5);
    }
    return acc;
}

/* Kind 3: PCG's RXS-M-XS output permutation of the state seed + it * 2891336453. */
static HET_NOINLINE __host__ __device__ uint32_t het_kind3(uint32_t node, int begin, int end)
{
    const uint32_t seed = tw_hash32(node ^ 0xdeadbeefu);
    uint32_t acc = 0;
    for (int it = begin; it < end; it++) {
        uint32_t s = seed + (uint32_t)it * 2891336453u;
        uint32_t w = ((s >> ((s >> 28) + 4u)) ^ s) * 277803737u;
        w ^= w >> 22;
        acc ^= het_fp_term(w, 0.9999999403953552, 1.0000001192092896);
    }
    return acc;
}

/* The XOR of kind `kind`'s terms for the iterations [begin, end) of leaf `node` (thread
 * level: [0, iters); a block: each thread its contiguous share, het_share). A unit step, so
 * the compiler unrolls the loops. */
static __host__ __device__ __forceinline__ uint32_t het_kind_part(int kind, uint32_t node, int begin, int end)
{
    switch (kind) {
    case 0:
        return het_kind0(node, begin, end);
    case 1:
        return het_kind1(node, begin, end);
    case 2:
        return het_kind2(node, begin, end);
    default:
        return het_kind3(node, begin, end);
    }
}

/* Thread t's share [*begin_p, *end_p) of iters iterations split over `threads` threads: the
 * first iters % threads threads take one more. */
static __host__ __device__ __forceinline__ void het_share(int iters, int t, int threads, int *begin_p, int *end_p)
{
    const int chunk = iters / threads, extra = iters % threads;
    *begin_p = t * chunk + (t < extra ? t : extra);
    *end_p = *begin_p + chunk + (t < extra ? 1 : 0);
}

/* A leaf's start value: XORed once into its terms (by thread 0 of a block). */
static __host__ __device__ __forceinline__ uint32_t het_kind_start(int kind, uint32_t node)
{
    return node ^ (0x9e3779b9u * (uint32_t)(kind + 1));
}

/* The value of leaf `node`: what every implementation must compute. */
static __host__ __device__ __forceinline__ uint32_t het_leaf_value(uint32_t node, uint32_t seed, int kinds, int iters)
{
    const int kind = het_kind_of(node, seed, kinds);
    return het_kind_start(kind, node) ^ het_kind_part(kind, node, 0, iters);
}

#endif /* HETERO_KERNELS_H */
