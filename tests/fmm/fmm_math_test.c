/* fmm_math_test.c - the FMM's building blocks (apps/fmm) against independent references: the
 * derivative recurrence of 1/r against central differences, P2M + M2M + M2L + L2L + L2P of a
 * cluster pair against direct summation (the error must fall like rho^(P+1) as the clusters
 * move apart), the bodies stay in the unit cube, and the host radix sort orders the keys
 * stably (the order of cub's sort, which the GPU tree relies on). */
#include <stdio.h>
#include <stdlib.h>

#include "fmm_host.h"

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

static double inv_r(double x, double y, double z)
{
    return 1.0 / sqrt(x * x + y * y + z * z);
}

/* The relative error of the potential at cluster A's bodies due to cluster B's, both of 20
 * bodies in cubes of half-width h, B's center at distance d along (1, 0.5, 0.25). */
static double pair_error(double d)
{
    enum { NB = 20 };
    float ax[NB], ay[NB], az[NB], bx[NB], by[NB], bz[NB], bq[NB];
    const float h = 0.5f, ca[3] = {0, 0, 0};
    const float cb[3] = {(float)d, (float)(0.5 * d), (float)(0.25 * d)};
    for (int i = 0; i < NB; i++) {
        ax[i] = ca[0] + h * (float)(2 * fmm_uniform(1, (uint64_t)i, 0) - 1);
        ay[i] = ca[1] + h * (float)(2 * fmm_uniform(1, (uint64_t)i, 1) - 1);
        az[i] = ca[2] + h * (float)(2 * fmm_uniform(1, (uint64_t)i, 2) - 1);
        bx[i] = cb[0] + h * (float)(2 * fmm_uniform(2, (uint64_t)i, 0) - 1);
        by[i] = cb[1] + h * (float)(2 * fmm_uniform(2, (uint64_t)i, 1) - 1);
        bz[i] = cb[2] + h * (float)(2 * fmm_uniform(2, (uint64_t)i, 2) - 1);
        bq[i] = (float)(0.5 + fmm_uniform(3, (uint64_t)i, 0));
    }
    /* B's moments about a point off its center, then M2M to the center: exercises M2M */
    float m0[FMM_NT] = {0}, m[FMM_NT] = {0}, l[FMM_NT], lp[FMM_NT] = {0}, lc[FMM_NT] = {0};
    const float off[3] = {0.25f, -0.25f, 0.25f};
    for (int j = 0; j < NB; j++)
        fmm_p2m(bx[j], by[j], bz[j], bq[j], cb[0] + off[0], cb[1] + off[1], cb[2] + off[2], m0);
    fmm_m2m(m0, off[0], off[1], off[2], m);
    /* M2L to a point off A's center, then L2L to the center: exercises L2L */
    fmm_m2l(m, ca[0] - off[0] - cb[0], ca[1] - off[1] - cb[1], ca[2] - off[2] - cb[2], lp);
    for (int t = 0; t < FMM_NT; t++)
        l[t] = lp[t];
    fmm_l2l(l, off[0], off[1], off[2], lc);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < NB; i++) {
        float out[4] = {0, 0, 0, 0};
        fmm_l2p(lc, ax[i], ay[i], az[i], ca[0], ca[1], ca[2], out);
        double ref = 0.0;
        for (int j = 0; j < NB; j++)
            ref += bq[j] * inv_r((double)ax[i] - bx[j], (double)ay[i] - by[j], (double)az[i] - bz[j]);
        num += (out[0] - ref) * (out[0] - ref);
        den += ref * ref;
    }
    return sqrt(num / den);
}

int main(void)
{
    /* derivatives: T_(2,1,0) and T_(1,1,1) against differences of the analytic lower ones */
    {
        float T[FMM_NT];
        const double x = 0.7, y = -0.4, z = 0.9, e = 1e-4;
        fmm_derivatives((float)x, (float)y, (float)z, T);
        const double r = sqrt(x * x + y * y + z * z);
        expect(fabs(T[0] - 1.0 / r) < 1e-6, "T_0 = 1/r");
        expect(fabs(T[fmm_idx(1, 0, 0)] + x / (r * r * r)) < 1e-5, "T_x = -x/r^3");
        /* T_xy by differences of T_x = -x / r^3 in y */
        const double txy = (-x / pow(x * x + (y + e) * (y + e) + z * z, 1.5) + x / pow(x * x + (y - e) * (y - e) + z * z, 1.5)) / (2 * e);
        expect(fabs(T[fmm_idx(1, 1, 0)] - txy) < 1e-3 * fabs(txy), "T_xy against differences");
        /* T_xyz = -15 x y z / r^7 */
        expect(fabs(T[fmm_idx(1, 1, 1)] + 15 * x * y * z / pow(r, 7)) < 1e-4 * 15 * fabs(x * y * z) / pow(r, 7),
               "T_xyz = -15 xyz / r^7");
        /* Laplace: T_xx + T_yy + T_zz = 0, and for the fourth derivatives too */
        const double lap2 = T[fmm_idx(2, 0, 0)] + T[fmm_idx(0, 2, 0)] + T[fmm_idx(0, 0, 2)];
        expect(fabs(lap2) < 1e-4 * fabs(T[fmm_idx(2, 0, 0)]), "the second derivatives are traceless");
        const double lap4 = T[fmm_idx(4, 0, 0)] + T[fmm_idx(2, 2, 0)] + T[fmm_idx(2, 0, 2)];
        expect(fabs(lap4) < 1e-3 * fabs(T[fmm_idx(4, 0, 0)]), "the fourth derivatives are traceless");
    }
    /* the expansion chain converges like rho^(P+1): each doubling of the distance gains about
     * 2^(P+1) (at least 2^(P - 0.5)) until float rounding */
    {
        const double e4 = pair_error(4.0), e8 = pair_error(8.0), e16 = pair_error(16.0);
        printf("pair errors at distance 4, 8, 16: %.3e %.3e %.3e\n", e4, e8, e16);
        expect(e4 < 1e-2, "the pair's error at rho ~ 0.43");
        expect(e8 < e4 / 22.0 || e8 < 3e-7, "the error falls like rho^5 (4 -> 8)");
        expect(e16 < e8 / 22.0 || e16 < 3e-7, "the error falls like rho^5 (8 -> 16)");
    }
    /* bodies in [0, 1)^3, both distributions */
    for (int dist = FMM_DIST_CUBE; dist <= FMM_DIST_PLUMMER; dist++) {
        int inside = 1;
        for (uint64_t i = 0; i < 20000; i++) {
            float x, y, z, q;
            fmm_body_make((fmm_dist_t)dist, 9, i, &x, &y, &z, &q);
            inside &= x >= 0.0f && x < 1.0f && y >= 0.0f && y < 1.0f && z >= 0.0f && z < 1.0f && q >= 0.5f && q < 2.0f;
        }
        expect(inside, "the bodies lie in the unit cube, the masses in [0.5, 2)");
    }
    /* radix sort: sorted, and stable (equal keys keep their index order) */
    {
        enum { N = 5000 };
        static uint64_t keys[2 * N];
        static uint32_t idx[2 * N];
        for (int i = 0; i < N; i++) {
            keys[i] = fmm_splitmix64((uint64_t)i % 1000) >> 1;
            idx[i] = (uint32_t)i;
        }
        fmm_radix_sort(keys, idx, keys + N, idx + N, N);
        int ok = 1;
        for (int i = 1; i < N; i++)
            ok &= keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && idx[i - 1] < idx[i]);
        expect(ok, "the radix sort orders by key, then by index");
    }
    if (failures)
        return 1;
    printf("fmm_math_test: all checks passed\n");
    return 0;
}
