/* fmm_expansion.h - the Laplace kernel's Cartesian Taylor expansions of order FMM_ORDER (P),
 * in float: P2M, M2M, M2L, L2L, L2P and P2P (C11 and CUDA C++; header-only).
 *
 * G(r) = 1/|r|. Multi-indices k = (kx, ky, kz) of total degree |k| <= P, stored in the order
 * of fmm_idx (by degree; FMM_NT = (P+1)(P+2)(P+3)/6 coefficients: 35 for P = 4).
 * With v^k = vx^kx vy^ky vz^kz and k! = kx! ky! kz!, u_k(v) = v^k / k!:
 *   multipole of cell B (center b):  M_n = sum_j q_j u_n(y_j - b)
 *   derivatives at R = a - b:        T_m = D^m G(R), from T_0 = 1/|R| and, for |m| >= 1,
 *       |m| |R|^2 T_m = -(2|m| - 1) sum_i m_i R_i T_{m-e_i} - (|m| - 1) sum_i m_i (m_i - 1) T_{m-2e_i}
 *   local of cell A (center a):      L_k = sum_{|n| <= P - |k|} (-1)^|n| M_n T_{k+n}
 *   potential at x = a + v:          phi(x) = sum_k L_k u_k(v),  d phi / dx_i = sum_{k_i >= 1} L_k u_{k-e_i}(v)
 *   M2M (child c to parent p):       M^p_n += sum_{k <= n} M^c_k u_{n-k}(c - p)
 *   L2L (parent p to child c):       L^c_j += sum_{k >= j} L^p_k u_{k-j}(c - p)
 * This is the Taylor series of G(R + v - w) in (v - w) truncated at total degree P, so the
 * error of one M2L falls like rho^(P+1) with rho = (|v| + |w|) / |R| (README.md: the bound).
 *
 * The potential is phi_i = sum_{j != i} q_j / |x_i - x_j| and the "acceleration" its gradient,
 * a_i = -sum_j q_j (x_i - x_j) / |x_i - x_j|^3 (the upstream's sign convention); no softening,
 * coincident bodies (distance 0) are skipped.
 *
 * The loops have constant bounds: nvcc unrolls them (every index a constant, the arrays in
 * registers); on the host g++ does most of it at -O3.
 */
#ifndef FMM_EXPANSION_H
#define FMM_EXPANSION_H

#include <math.h>

#include "app_qualifiers.h"

#ifndef FMM_ORDER
#define FMM_ORDER 4
#endif
#if FMM_ORDER < 1 || FMM_ORDER > 8
#error "FMM_ORDER must be in [1, 8]"
#endif
#define FMM_P FMM_ORDER
#define FMM_NT ((FMM_P + 1) * (FMM_P + 2) * (FMM_P + 3) / 6)

#if defined(__CUDACC__)
#define FMM_UNROLL _Pragma("unroll")
#else
#define FMM_UNROLL
#endif

/* The index of (x, y, z) in a coefficient array. */
static __host__ __device__ __forceinline__ int fmm_idx(int x, int y, int z)
{
    const int d = x + y + z, j = y + z;
    return d * (d + 1) * (d + 2) / 6 + j * (j + 1) / 2 + z;
}

/* u[k] = v^k / k! for |k| <= P. Each term from the one with its first non-zero
 * component lowered: u_k = u_{k-e_i} v_i / k_i. */
static __host__ __device__ __forceinline__ void fmm_scaled_powers(float vx, float vy, float vz, float *u)
{
    u[0] = 1.0f;
    FMM_UNROLL
    for (int d = 1; d <= FMM_P; d++) {
        FMM_UNROLL
        for (int x = d; x >= 0; x--) {
            FMM_UNROLL
            for (int z = 0; z <= d - x; z++) {
                const int y = d - x - z;
                float v;
                if (x > 0)
                    v = u[fmm_idx(x - 1, y, z)] * vx * (1.0f / (float)x);
                else if (y > 0)
                    v = u[fmm_idx(x, y - 1, z)] * vy * (1.0f / (float)y);
                else
                    v = u[fmm_idx(x, y, z - 1)] * vz * (1.0f / (float)z);
                u[fmm_idx(x, y, z)] = v;
            }
        }
    }
}

/* P2M: adds body (x, y, z, q)'s moments about the center (cx, cy, cz) to m. */
static __host__ __device__ __forceinline__ void fmm_p2m(float x, float y, float z, float q, float cx, float cy,
                                                        float cz, float *m)
{
    float u[FMM_NT];
    fmm_scaled_powers(x - cx, y - cy, z - cz, u);
    FMM_UNROLL
    for (int t = 0; t < FMM_NT; t++)
        m[t] += q * u[t];
}

/* M2M: adds the child's moments mc (about its center, displaced by d = child - parent) to
 * the parent's mp. */
static __host__ __device__ __forceinline__ void fmm_m2m(const float *mc, float dx, float dy, float dz, float *mp)
{
    float u[FMM_NT];
    fmm_scaled_powers(dx, dy, dz, u);
    FMM_UNROLL
    for (int nd = 0; nd <= FMM_P; nd++)
        FMM_UNROLL
        for (int nx = nd; nx >= 0; nx--)
            FMM_UNROLL
            for (int nz = 0; nz <= nd - nx; nz++) {
                const int ny = nd - nx - nz;
                float s = 0.0f;
                FMM_UNROLL
                for (int kx = 0; kx <= nx; kx++)
                    FMM_UNROLL
                    for (int ky = 0; ky <= ny; ky++)
                        FMM_UNROLL
                        for (int kz = 0; kz <= nz; kz++)
                            s += mc[fmm_idx(kx, ky, kz)] * u[fmm_idx(nx - kx, ny - ky, nz - kz)];
                mp[fmm_idx(nx, ny, nz)] += s;
            }
}

/* T[m] = D^m (1/|R|) for |m| <= P. */
static __host__ __device__ __forceinline__ void fmm_derivatives(float rx, float ry, float rz, float *T)
{
    const float r2 = rx * rx + ry * ry + rz * rz;
    const float inv_r2 = 1.0f / r2;
    T[0] = 1.0f / sqrtf(r2);
    FMM_UNROLL
    for (int d = 1; d <= FMM_P; d++)
        FMM_UNROLL
        for (int x = d; x >= 0; x--)
            FMM_UNROLL
            for (int z = 0; z <= d - x; z++) {
                const int y = d - x - z;
                float s1 = 0.0f, s2 = 0.0f;
                if (x >= 1)
                    s1 += (float)x * rx * T[fmm_idx(x - 1, y, z)];
                if (y >= 1)
                    s1 += (float)y * ry * T[fmm_idx(x, y - 1, z)];
                if (z >= 1)
                    s1 += (float)z * rz * T[fmm_idx(x, y, z - 1)];
                if (x >= 2)
                    s2 += (float)(x * (x - 1)) * T[fmm_idx(x - 2, y, z)];
                if (y >= 2)
                    s2 += (float)(y * (y - 1)) * T[fmm_idx(x, y - 2, z)];
                if (z >= 2)
                    s2 += (float)(z * (z - 1)) * T[fmm_idx(x, y, z - 2)];
                T[fmm_idx(x, y, z)] = -((float)(2 * d - 1) * s1 + (float)(d - 1) * s2) * inv_r2 * (1.0f / (float)d);
            }
}

/* M2L: the local coefficients at a target center of the source moments m whose center is at
 * R = target - source, into l (overwritten: the caller adds them where they belong). */
static __host__ __device__ __forceinline__ void fmm_m2l(const float *m, float rx, float ry, float rz, float *l)
{
    float T[FMM_NT];
    fmm_derivatives(rx, ry, rz, T);
    FMM_UNROLL
    for (int kd = 0; kd <= FMM_P; kd++)
        FMM_UNROLL
        for (int kx = kd; kx >= 0; kx--)
            FMM_UNROLL
            for (int kz = 0; kz <= kd - kx; kz++) {
                const int ky = kd - kx - kz;
                float s = 0.0f;
                FMM_UNROLL
                for (int nd = 0; nd <= FMM_P - kd; nd++)
                    FMM_UNROLL
                    for (int nx = nd; nx >= 0; nx--)
                        FMM_UNROLL
                        for (int nz = 0; nz <= nd - nx; nz++) {
                            const int ny = nd - nx - nz;
                            const float t = T[fmm_idx(kx + nx, ky + ny, kz + nz)] * m[fmm_idx(nx, ny, nz)];
                            s += (nd & 1) ? -t : t;
                        }
                l[fmm_idx(kx, ky, kz)] = s;
            }
}

/* L2L: adds the parent's local coefficients lp, shifted to the child's center (displaced by
 * e = child - parent), to the child's lc. */
static __host__ __device__ __forceinline__ void fmm_l2l(const float *lp, float ex, float ey, float ez, float *lc)
{
    float u[FMM_NT];
    fmm_scaled_powers(ex, ey, ez, u);
    FMM_UNROLL
    for (int jd = 0; jd <= FMM_P; jd++)
        FMM_UNROLL
        for (int jx = jd; jx >= 0; jx--)
            FMM_UNROLL
            for (int jz = 0; jz <= jd - jx; jz++) {
                const int jy = jd - jx - jz;
                float s = 0.0f;
                FMM_UNROLL
                for (int dd = 0; dd <= FMM_P - jd; dd++)
                    FMM_UNROLL
                    for (int dx = dd; dx >= 0; dx--)
                        FMM_UNROLL
                        for (int dz = 0; dz <= dd - dx; dz++) {
                            const int dy = dd - dx - dz;
                            s += lp[fmm_idx(jx + dx, jy + dy, jz + dz)] * u[fmm_idx(dx, dy, dz)];
                        }
                lc[fmm_idx(jx, jy, jz)] += s;
            }
}

/* L2P: adds the local expansion l (about the center c) at body position (x, y, z) to the
 * potential and gradient out[0..3]. */
static __host__ __device__ __forceinline__ void fmm_l2p(const float *l, float x, float y, float z, float cx, float cy,
                                                        float cz, float *out)
{
    float u[FMM_NT];
    fmm_scaled_powers(x - cx, y - cy, z - cz, u);
    float phi = 0.0f, gx = 0.0f, gy = 0.0f, gz = 0.0f;
    FMM_UNROLL
    for (int d = 0; d <= FMM_P; d++)
        FMM_UNROLL
        for (int kx = d; kx >= 0; kx--)
            FMM_UNROLL
            for (int kz = 0; kz <= d - kx; kz++) {
                const int ky = d - kx - kz;
                const float c = l[fmm_idx(kx, ky, kz)];
                phi += c * u[fmm_idx(kx, ky, kz)];
                if (kx >= 1)
                    gx += c * u[fmm_idx(kx - 1, ky, kz)];
                if (ky >= 1)
                    gy += c * u[fmm_idx(kx, ky - 1, kz)];
                if (kz >= 1)
                    gz += c * u[fmm_idx(kx, ky, kz - 1)];
            }
    out[0] += phi;
    out[1] += gx;
    out[2] += gy;
    out[3] += gz;
}

/* 1/sqrt(r2) in the target's fastest form. */
static __host__ __device__ __forceinline__ float fmm_rsqrt(float r2)
{
#if defined(__CUDA_ARCH__)
    return rsqrtf(r2);
#else
    return 1.0f / sqrtf(r2);
#endif
}

/* P2P: adds source (x, y, z, q)'s potential and gradient at the target (tx, ty, tz) to
 * acc[0..3]; a coincident source (the target itself) adds nothing. */
static __host__ __device__ __forceinline__ void fmm_p2p_one(float tx, float ty, float tz, float x, float y, float z,
                                                            float q, float *acc)
{
    const float dx = tx - x, dy = ty - y, dz = tz - z;
    const float r2 = dx * dx + dy * dy + dz * dz;
    const float inv = r2 > 0.0f ? fmm_rsqrt(r2) : 0.0f;
    const float qr = q * inv, qr3 = qr * inv * inv;
    acc[0] += qr;
    acc[1] -= dx * qr3;
    acc[2] -= dy * qr3;
    acc[3] -= dz * qr3;
}

#endif /* FMM_EXPANSION_H */
