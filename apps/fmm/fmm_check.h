/* fmm_check.h - the accuracy check: direct summation (double) of the potential and its gradient
 * at a sample of bodies, the relative L2 errors of the FMM's results, and the bound they must
 * meet (C11 and CUDA C++; header-only).
 *
 * The sample: K bodies spread evenly over the key order (body (2k + 1) n / 2K), so every region
 * of the tree is represented. Errors: sqrt(sum (phi - phi_ref)^2 / sum phi_ref^2) and the same
 * over the gradient vectors.
 *
 * The bound (README.md "Accuracy"): an M2L's truncation error falls like rho^(P+1), rho =
 * sqrt(3) theta (a cell's bodies lie within sqrt(3) r of its center, r the half-width the
 * criterion uses). The potential's bound is rho^(P+1) / 100, at least 2e-5 (float
 * accumulation), the gradient's ten times that; measured errors of P = 4 sit 10x (Plummer) to
 * 100x (cube) below. For rho >= 1 (theta >= 0.577) the series need not converge for every
 * pair: the bounds are then 0.5 and 1, which only catch a broken run (NaN, lost interactions).
 */
#ifndef FMM_CHECK_H
#define FMM_CHECK_H

#include <math.h>
#include <stdio.h>

#include "fmm_expansion.h"

/* The sample's k-th body (key order). */
static __host__ __device__ __forceinline__ long long fmm_sample_body(long long k, long long samples, long long n)
{
    return (2 * k + 1) * n / (2 * samples);
}

/* The bounds on the relative L2 errors of the potential (*phi_p) and the gradient (*acc_p). */
static inline void fmm_error_bounds(double theta, double *phi_p, double *acc_p)
{
    const double rho = sqrt(3.0) * theta;
    if (rho >= 1.0) {
        *phi_p = 0.5;
        *acc_p = 1.0;
        return;
    }
    double p = 1.0;
    for (int k = 0; k <= FMM_P; k++)
        p *= rho;
    p /= 100.0;
    if (p < 2e-5)
        p = 2e-5; /* float accumulation */
    *phi_p = p;
    *acc_p = 10.0 * p;
}

/* The direct sum at body i: ref[0..3] = potential, gradient (double). */
static inline void fmm_direct_one(const float *x, const float *y, const float *z, const float *q, long long n,
                                  long long i, double *ref)
{
    const double tx = x[i], ty = y[i], tz = z[i];
    double phi = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
    for (long long j = 0; j < n; j++) {
        const double dx = tx - x[j], dy = ty - y[j], dz = tz - z[j];
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 == 0.0)
            continue;
        const double inv = 1.0 / sqrt(r2);
        const double qr = q[j] * inv, qr3 = qr * inv * inv;
        phi += qr;
        gx -= dx * qr3;
        gy -= dy * qr3;
        gz -= dz * qr3;
    }
    ref[0] = phi;
    ref[1] = gx;
    ref[2] = gy;
    ref[3] = gz;
}

/* Compares got[4 k + c] (the FMM's results at the samples) with ref[4 k + c]; prints the
 * errors and bounds; returns 0 when both are within their bounds, 1 otherwise. */
static inline int fmm_check_compare(const float *got, const double *ref, long long samples, double theta, FILE *log)
{
    double dphi = 0.0, nphi = 0.0, dacc = 0.0, nacc = 0.0, bphi, bacc;
    for (long long k = 0; k < samples; k++) {
        const double e = got[4 * k] - ref[4 * k];
        dphi += e * e;
        nphi += ref[4 * k] * ref[4 * k];
        for (int c = 1; c < 4; c++) {
            const double g = got[4 * k + c] - ref[4 * k + c];
            dacc += g * g;
            nacc += ref[4 * k + c] * ref[4 * k + c];
        }
    }
    const double ephi = sqrt(dphi / (nphi > 0.0 ? nphi : 1.0)), eacc = sqrt(dacc / (nacc > 0.0 ? nacc : 1.0));
    fmm_error_bounds(theta, &bphi, &bacc);
    const int ok = ephi <= bphi && eacc <= bacc; /* false for NaN */
    fprintf(log, "potential rel L2 error: %.3e (bound %.3e)\n", ephi, bphi);
    fprintf(log, "acceleration rel L2 error: %.3e (bound %.3e)\n", eacc, bacc);
    fprintf(log, "checked: %lld sample bodies against direct summation: %s\n", samples, ok ? "within bounds" : "OUT OF BOUNDS");
    return ok ? 0 : 1;
}

#endif /* FMM_CHECK_H */
