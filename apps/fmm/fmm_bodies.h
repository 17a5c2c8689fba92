/* fmm_bodies.h - the bodies: generation from a seed (uniform cube, Plummer sphere), Morton
 * keys, and the host's stable radix sort of the keys (C11 and CUDA C++; header-only).
 *
 * Reproducible bits. Generation uses only IEEE basic operations (+ - * / sqrt, no libm
 * transcendental, no fused multiply-add: the targets build with -ffp-contract=off), so every
 * machine and every implementation gets the same bodies, the same tree and the same
 * interaction counts, which the tests pin. Each body draws from its own counter-based stream
 * (splitmix64 of seed, body, draw), so generation order does not matter.
 *
 * Both distributions are mapped into the unit cube [0, 1)^3, the octree's root cell:
 *   cube     x, y, z uniform in [0, 1); q uniform in [0.5, 2) (the upstream's masses)
 *   plummer  the Plummer sphere of scale radius 1, truncated at radius FMM_PLUMMER_RMAX, scaled
 *            by 1 / (2 FMM_PLUMMER_RMAX (1 + 2^-20)) and centered at 0.5; q as above.
 *            Radius: the enclosed mass is M(r) = r^3 / (1 + r^2)^1.5; with u = M(r), t = u^(1/3)
 *            is distributed as the maximum of three uniforms and r = t / sqrt(1 - t^2).
 *            Direction: a point of the unit ball by rejection, normalized.
 */
#ifndef FMM_BODIES_H
#define FMM_BODIES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app_qualifiers.h"
#include "fmm_params.h"

#define FMM_KEY_BITS 21 /* per dimension: a 63-bit key; the deepest level */
#define FMM_PLUMMER_RMAX 8.0

/* Bodies in structure-of-arrays form (host or device memory). */
typedef struct fmm_bodies {
    float *x, *y, *z, *q;
} fmm_bodies;

static inline uint64_t fmm_splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Draw `k` of body `i`'s stream: uniform in [0, 1) with 53 bits. */
static inline double fmm_uniform(uint64_t seed, uint64_t i, uint64_t k)
{
    const uint64_t h = fmm_splitmix64(fmm_splitmix64(seed ^ 0x5851f42d4c957f2dull) ^ (i * 64 + k));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

/* u in [0, 1) as a float strictly below 1 (a plain conversion may round up to 1). */
static inline float fmm_unit_float(double u)
{
    return (float)(u * (1.0 - 1.0 / 16777216.0));
}

/* Body i of the run: position in [0, 1)^3 and mass. */
static inline void fmm_body_make(fmm_dist_t dist, uint64_t seed, uint64_t i, float *x, float *y, float *z, float *q)
{
    *q = (float)(0.5 + 1.5 * fmm_uniform(seed, i, 0));
    if (dist == FMM_DIST_CUBE) {
        *x = fmm_unit_float(fmm_uniform(seed, i, 1));
        *y = fmm_unit_float(fmm_uniform(seed, i, 2));
        *z = fmm_unit_float(fmm_uniform(seed, i, 3));
        return;
    }
    uint64_t k = 1;
    double r = 0.0;
    for (;;) { /* radius, truncated at FMM_PLUMMER_RMAX (about 0.3% of the draws retry) */
        double t = fmm_uniform(seed, i, k++);
        double t1 = fmm_uniform(seed, i, k++), t2 = fmm_uniform(seed, i, k++);
        t = t1 > t ? t1 : t;
        t = t2 > t ? t2 : t;
        r = t / sqrt(1.0 - t * t);
        if (r <= FMM_PLUMMER_RMAX || k > 60)
            break;
    }
    if (r > FMM_PLUMMER_RMAX)
        r = FMM_PLUMMER_RMAX; /* 20 rejections in a row: 2^-100, never in practice */
    double vx = 1.0, vy = 0.0, vz = 0.0;
    while (k < 62) { /* direction: a point of the unit ball (52% acceptance per try) */
        const double ax = 2.0 * fmm_uniform(seed, i, k) - 1.0, ay = 2.0 * fmm_uniform(seed, i, k + 1) - 1.0;
        const double az = 2.0 * fmm_uniform(seed, i, k + 2) - 1.0;
        const double s = ax * ax + ay * ay + az * az;
        k += 3;
        if (s > 1e-12 && s <= 1.0) {
            const double inv = 1.0 / sqrt(s);
            vx = ax * inv, vy = ay * inv, vz = az * inv;
            break;
        }
    }
    const double scale = r / (2.0 * FMM_PLUMMER_RMAX * (1.0 + 1.0 / 1048576.0));
    *x = fmm_unit_float(0.5 + vx * scale);
    *y = fmm_unit_float(0.5 + vy * scale);
    *z = fmm_unit_float(0.5 + vz * scale);
}

/* Fills b[0..n) (host memory). */
static inline void fmm_bodies_generate(const fmm_options *o, fmm_bodies *b)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (long long i = 0; i < o->n; i++)
        fmm_body_make(o->dist, o->seed, (uint64_t)i, &b->x[i], &b->y[i], &b->z[i], &b->q[i]);
}

/* The 21 bits of v spread to every third bit. */
static __host__ __device__ __forceinline__ uint64_t fmm_spread3(uint32_t v)
{
    uint64_t x = v & 0x1fffffu;
    x = (x | x << 32) & 0x1f00000000ffffull;
    x = (x | x << 16) & 0x1f0000ff0000ffull;
    x = (x | x << 8) & 0x100f00f00f00f00full;
    x = (x | x << 4) & 0x10c30c30c30c30c3ull;
    x = (x | x << 2) & 0x1249249249249249ull;
    return x;
}

/* The Morton key of a position in [0, 1)^3: octant bit 0 is x, bit 1 y, bit 2 z at every
 * level, the root's octant in the top three bits. The scaling by 2^21 and the truncation
 * are exact. */
static __host__ __device__ __forceinline__ uint64_t fmm_morton(float x, float y, float z)
{
    const float s = (float)(1u << FMM_KEY_BITS);
    return fmm_spread3((uint32_t)(x * s)) | fmm_spread3((uint32_t)(y * s)) << 1 | fmm_spread3((uint32_t)(z * s)) << 2;
}

/* Sorts keys[0..n) with their values idx[0..n) (host; stable LSD radix sort, 16 bits per
 * pass: the order of cub's stable radix sort, so that host and GPU trees are the same body
 * for body). tmp_keys and tmp_idx hold n entries each. */
static inline void fmm_radix_sort(uint64_t *keys, uint32_t *idx, uint64_t *tmp_keys, uint32_t *tmp_idx, long long n)
{
    static long long count[1 << 16];
    for (int shift = 0; shift < 3 * FMM_KEY_BITS; shift += 16) {
        memset(count, 0, sizeof count);
        for (long long i = 0; i < n; i++)
            count[(keys[i] >> shift) & 0xffff]++;
        long long sum = 0;
        for (int d = 0; d < 1 << 16; d++) {
            const long long c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (long long i = 0; i < n; i++) {
            const long long p = count[(keys[i] >> shift) & 0xffff]++;
            tmp_keys[p] = keys[i];
            tmp_idx[p] = idx[i];
        }
        memcpy(keys, tmp_keys, (size_t)n * sizeof *keys);
        memcpy(idx, tmp_idx, (size_t)n * sizeof *idx);
    }
}

#endif /* FMM_BODIES_H */
