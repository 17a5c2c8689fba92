/* ai_common.h - what the adaptive-integration programs (GPU, host target, C baselines) share:
 * the integrand and the two quadrature rules, the command-line options and their checks, the
 * sequential reference recursion and the host-side check of a run (C11 and CUDA C++;
 * header-only).
 *
 * The workload (the upstream GTaP example examples/adaptive_integration): integrate
 * cos(frequency x) over [lo, hi]; an interval whose fine and coarse estimates differ by less
 * than the tolerance is a leaf and returns its Richardson-extrapolated (Simpson) estimate,
 * any other splits at its midpoint into two child tasks whose results are summed. The answer
 * is the integral and the number of leaves ("intervals").
 *
 * Bitwise the same arithmetic on every target. The interval count is compared exactly with
 * the CPU's, so each interval's convergence test must come out the same on the GPU and the
 * CPU. Two things would break that: the math library (CUDA's cos and glibc's may differ in the
 * last bit) and contraction (nvcc fuses a * b + c into an FMA; so does g++ where the target
 * has one). So the integrand is our own cosine (Cody-Waite reduction, fdlibm's polynomials)
 * made of separately rounded adds and multiplies only, spelled as the __d*_rn intrinsics in
 * device code (never contracted: the PTX has mul.rn / add.rn and no fma) and as plain
 * operators on the host, which CMakeLists.txt compiles with -ffp-contract=off.
 */
#ifndef AI_COMMON_H
#define AI_COMMON_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_cli.h"

#if defined(__CUDACC__)
#define AI_HD __host__ __device__
#else
#define AI_HD
#endif

#if defined(__CUDA_ARCH__)
#define AI_ADD(x, y) __dadd_rn((x), (y))
#define AI_SUB(x, y) __dsub_rn((x), (y))
#define AI_MUL(x, y) __dmul_rn((x), (y))
#else
#define AI_ADD(x, y) ((x) + (y))
#define AI_SUB(x, y) ((x) - (y))
#define AI_MUL(x, y) ((x) * (y))
#endif

#define AI_DEFAULT_LO 0.0
#define AI_DEFAULT_HI 1.0
#define AI_DEFAULT_TOLERANCE 1e-12 /* the upstream example's defaults */
#define AI_DEFAULT_FREQUENCY 300.0
#define AI_DEFAULT_MAX_DEPTH 40
#define AI_MAX_DEPTH_LIMIT 60  /* about where a double's midpoint stops splitting [0, 1] */
#define AI_MAX_PHASE 1.0e6     /* |frequency x| bound: the reduction's k * pi/2 stays exact */
#define AI_BLOCK_PANELS 512    /* fine panels of the block rule (coarse: 256), as upstream */
#define AI_CHECK_REL 1e-9      /* integral vs the CPU's recursion (the intervals: exact) */

enum { AI_RULE_SIMPLE = 1, AI_RULE_COMPOSITE = 2 };
enum { AI_STEP_LEAF = 1, AI_STEP_SPLIT = 2, AI_STEP_FAIL_DEPTH = 3, AI_STEP_FAIL_NOISE = 4 };

/* What a run integrates; every task reads it, none writes it. */
typedef struct ai_params {
    double lo, hi, tolerance, frequency;
    double noise; /* |fine - coarse| at or below noise x width is rounding (ai_decide) */
    int max_depth; /* the root is depth 0; an interval at this depth must converge */
} ai_params;

/* A task's result: the sum of its leaves' estimates and how many leaves it had. */
typedef struct ai_result {
    double integral;
    unsigned long long intervals;
} ai_result;

/* An interval's two estimates: the extrapolated one and |fine - coarse|. */
typedef struct ai_rule {
    double estimate, diff;
} ai_rule;

static AI_HD inline ai_result ai_result_make(double integral, unsigned long long intervals)
{
    ai_result r;
    r.integral = integral;
    r.intervals = intervals;
    return r;
}

static AI_HD inline ai_result ai_result_add(ai_result x, ai_result y)
{
    return ai_result_make(AI_ADD(x.integral, y.integral), x.intervals + y.intervals);
}

static AI_HD inline double ai_mid(double a, double b)
{
    return AI_MUL(0.5, AI_ADD(a, b));
}

/* cos(x) for |x| <= AI_MAX_PHASE, within a few ulps. k = round(x 2/pi) < 2^20, so k times the
 * 33-bit leading parts of pi/2 is exact; fdlibm's __kernel_sin / __kernel_cos polynomials on
 * the remainder r in [-pi/4, pi/4]. */
static AI_HD inline double ai_cos(double x)
{
    const double k = floor(AI_ADD(AI_MUL(x, 6.36619772367581382433e-01), 0.5));
    const double r = AI_SUB(AI_SUB(AI_SUB(x, AI_MUL(k, 1.57079632673412561417e+00)), AI_MUL(k, 6.07710050630396597660e-11)),
                            AI_MUL(k, 2.02226624879595063154e-21));
    const double z = AI_MUL(r, r);
    double p;
    if (((long long)k & 1) == 0) { /* cos(r) */
        p = -1.13596475577881948265e-11;
        p = AI_ADD(AI_MUL(p, z), 2.08757232129817482790e-09);
        p = AI_ADD(AI_MUL(p, z), -2.75573143513906633035e-07);
        p = AI_ADD(AI_MUL(p, z), 2.48015872894767294178e-05);
        p = AI_ADD(AI_MUL(p, z), -1.38888888888741095749e-03);
        p = AI_ADD(AI_MUL(p, z), 4.16666666666666019037e-02);
        p = AI_ADD(AI_SUB(1.0, AI_MUL(0.5, z)), AI_MUL(AI_MUL(z, z), p));
    } else { /* sin(r) */
        p = 1.58969099521155010221e-10;
        p = AI_ADD(AI_MUL(p, z), -2.50507602534068634195e-08);
        p = AI_ADD(AI_MUL(p, z), 2.75573137070700676789e-06);
        p = AI_ADD(AI_MUL(p, z), -1.98412698298579493134e-04);
        p = AI_ADD(AI_MUL(p, z), 8.33333333332248946124e-03);
        p = AI_ADD(AI_MUL(p, z), -1.66666666666666324348e-01);
        p = AI_ADD(r, AI_MUL(AI_MUL(r, z), p));
    }
    /* quadrant k mod 4: cos, -sin, -cos, sin (two's complement: -1 & 3 == 3) */
    const int q = (int)((long long)k & 3);
    return q == 0 || q == 3 ? p : -p;
}

static AI_HD inline double ai_f(double x, double frequency)
{
    return ai_cos(AI_MUL(frequency, x));
}

static AI_HD inline ai_rule ai_rule_make(double fine, double coarse)
{
    ai_rule r;
    r.estimate = AI_MUL(AI_SUB(AI_MUL(4.0, fine), coarse), 1.0 / 3.0);
    r.diff = fabs(AI_SUB(fine, coarse));
    return r;
}

/* The thread-level rule: the trapezoid on [a, b] (coarse) against the trapezoids on its
 * halves (fine); three samples. */
static AI_HD inline ai_rule ai_rule_simple(double a, double b, double frequency)
{
    const double m = ai_mid(a, b), h = AI_SUB(b, a);
    const double fa = ai_f(a, frequency), fm = ai_f(m, frequency), fb = ai_f(b, frequency);
    const double coarse = AI_MUL(AI_MUL(0.5, h), AI_ADD(fa, fb));
    const double fine = AI_MUL(AI_MUL(0.25, h), AI_ADD(AI_ADD(fa, fm), AI_ADD(fm, fb)));
    return ai_rule_make(fine, coarse);
}

/* The block-level rule, thread t of `threads`: its share of the composite trapezoids with
 * AI_BLOCK_PANELS (fine) and AI_BLOCK_PANELS / 2 (coarse: the even points) panels - the
 * points t, t + threads, ... - as two weighted sample sums. */
static AI_HD inline void ai_rule_composite_part(double a, double b, int t, int threads, double frequency,
                                                double *fine_p, double *coarse_p)
{
    const double h = AI_MUL(AI_SUB(b, a), 1.0 / AI_BLOCK_PANELS); /* a power of two: exact */
    double fine = 0.0, coarse = 0.0;
    for (int i = t; i <= AI_BLOCK_PANELS; i += threads) {
        const double x = i == AI_BLOCK_PANELS ? b : AI_ADD(a, AI_MUL((double)i, h));
        double y = ai_f(x, frequency);
        if (i == 0 || i == AI_BLOCK_PANELS)
            y = AI_MUL(0.5, y);
        fine = AI_ADD(fine, y);
        if ((i & 1) == 0)
            coarse = AI_ADD(coarse, y);
    }
    *fine_p = fine;
    *coarse_p = coarse;
}

/* The block-level rule from the threads' shares, summed in thread order (the CPU sums in the
 * same order, so the result is the same bits). */
static AI_HD inline ai_rule ai_rule_composite_sum(double a, double b, const double *fine_part,
                                                  const double *coarse_part, int threads)
{
    const double h = AI_MUL(AI_SUB(b, a), 1.0 / AI_BLOCK_PANELS);
    double fine = 0.0, coarse = 0.0;
    for (int t = 0; t < threads; t++) {
        fine = AI_ADD(fine, fine_part[t]);
        coarse = AI_ADD(coarse, coarse_part[t]);
    }
    return ai_rule_make(AI_MUL(h, fine), AI_MUL(AI_MUL(2.0, h), coarse));
}

/* What the interval [a, b] at `depth` does with its estimates: leaf; split; or fail, either
 * because the estimates differ by no more than their rounding error (splitting cannot make
 * them agree better: the tolerance is below what doubles resolve here) or because it has not
 * converged at the depth guard. The rounding test is what keeps a too small tolerance from
 * running for hours: without it the tree grows until nearly every path reaches the guard,
 * 2^max_depth intervals (with 1e-300, depth 50 took 1.4 s and every 2 levels 4x more). */
static AI_HD inline int ai_decide(ai_rule r, double a, double b, int depth, const ai_params *p)
{
    if (r.diff < p->tolerance)
        return AI_STEP_LEAF;
    if (r.diff <= AI_MUL(p->noise, AI_SUB(b, a)))
        return AI_STEP_FAIL_NOISE;
    return depth < p->max_depth ? AI_STEP_SPLIT : AI_STEP_FAIL_DEPTH;
}

/* ---- host side: options, reference, check ------------------------------------------------ */

#define AI_OPTION_KEYS "lo", "hi", "tolerance", "frequency", "max-depth"
#define AI_USAGE                                                                                   \
    "[--lo A (default 0)] [--hi B (default 1)] [--tolerance T (default 1e-12)]\n"                  \
    "       [--frequency F (default 300)] [--max-depth D (default 40, at most 60)]"

/* A floating-point option: the whole value must parse and be finite. Exits with status 2
 * after one line naming the option and the value otherwise. */
static inline double ai_opt_double(const app_cli *c, const char *key, double def)
{
    const char *s = app_opt_str(c, key, NULL);
    char *end = NULL;
    if (!s)
        return def;
    double v = strtod(s, &end);
    if (end == s || *end) {
        fprintf(stderr, "%s: bad value '%s' for --%s\n", c->app, s, key);
        exit(2);
    }
    if (!isfinite(v)) {
        fprintf(stderr, "%s: --%s %s: the value must be a finite number\n", c->app, key, s);
        exit(2);
    }
    return v;
}

/* Reads the options into p. Returns 0, or 2 after printing one line that names the option
 * and its value. */
static inline int ai_options_read(const app_cli *c, ai_params *p)
{
    const double lo = ai_opt_double(c, "lo", AI_DEFAULT_LO), hi = ai_opt_double(c, "hi", AI_DEFAULT_HI);
    const double tol = ai_opt_double(c, "tolerance", AI_DEFAULT_TOLERANCE);
    const double freq = ai_opt_double(c, "frequency", AI_DEFAULT_FREQUENCY);
    const long long depth = app_opt_ll(c, "max-depth", AI_DEFAULT_MAX_DEPTH);
    if (c->n != 0) {
        fprintf(stderr, "%s: --n %lld: this program has no --n; it takes --lo, --hi, --tolerance, --frequency\n",
                c->app, c->n);
        return 2;
    }
    if (!(tol > 0)) {
        fprintf(stderr, "%s: --tolerance %g: the tolerance must be positive\n", c->app, tol);
        return 2;
    }
    if (!(lo < hi)) {
        fprintf(stderr, "%s: --hi %g: hi must be greater than --lo (%g)\n", c->app, hi, lo);
        return 2;
    }
    if (!isfinite(hi - lo)) {
        fprintf(stderr, "%s: --hi %g: the interval [%g, %g] is too wide for a double\n", c->app, hi, lo, hi);
        return 2;
    }
    if (fabs(freq) * fmax(fabs(lo), fabs(hi)) > AI_MAX_PHASE) {
        fprintf(stderr, "%s: --frequency %g: |frequency| x max(|lo|, |hi|) must be at most %g\n", c->app, freq,
                AI_MAX_PHASE);
        return 2;
    }
    if (depth < 0 || depth > AI_MAX_DEPTH_LIMIT) {
        fprintf(stderr, "%s: --max-depth %lld: the depth guard must be in [0, %d]\n", c->app, depth,
                AI_MAX_DEPTH_LIMIT);
        return 2;
    }
    p->lo = lo;
    p->hi = hi;
    p->tolerance = tol;
    p->frequency = freq;
    p->max_depth = (int)depth;
    /* each sample is cos of a phase rounded by up to eps |f x|, plus our cosine's few ulps and
     * the rules' sums (<= 48 roundings each), all times the width: the difference of the two
     * estimates carries twice that */
    p->noise = DBL_EPSILON * (2 * fabs(freq) * fmax(fabs(lo), fabs(hi)) + 128);
    return 0;
}

static inline void ai_options_param(app_cli *c, const ai_params *p)
{
    app_param(c, "lo=%.15g", p->lo);
    app_param(c, "hi=%.15g", p->hi);
    app_param(c, "tolerance=%.15g", p->tolerance);
    app_param(c, "frequency=%.15g", p->frequency);
    app_param(c, "max_depth=%d", p->max_depth);
}

/* The first interval that failed to converge (GPU: the first to record itself). */
typedef struct ai_failure {
    int failed; /* 0, or the failing AI_STEP_FAIL_* */
    int depth;
    double a, b;
} ai_failure;

/* The error of a run that hit the depth guard; prints one line. */
static inline void ai_report_failure(const app_cli *c, const ai_params *p, const ai_failure *f)
{
    if (f->failed == AI_STEP_FAIL_NOISE)
        fprintf(stderr,
                "%s: error: the interval [%.17g, %.17g] cannot converge to --tolerance %g: its estimates differ "
                "by no more than their rounding error; raise --tolerance\n",
                c->app, f->a, f->b, p->tolerance);
    else
        fprintf(stderr,
                "%s: error: the interval [%.17g, %.17g] did not converge to --tolerance %g within --max-depth %d; "
                "raise --tolerance or --max-depth\n",
                c->app, f->a, f->b, p->tolerance, p->max_depth);
}

/* The rule `rule` on [a, b] sequentially (the composite one as `threads` threads share it). */
static inline ai_rule ai_rule_cpu(const ai_params *p, int rule, int threads, double a, double b)
{
    if (rule == AI_RULE_SIMPLE)
        return ai_rule_simple(a, b, p->frequency);
    double fine[1024], coarse[1024]; /* threads <= 1024: a CUDA block */
    for (int t = 0; t < threads; t++)
        ai_rule_composite_part(a, b, t, threads, p->frequency, &fine[t], &coarse[t]);
    return ai_rule_composite_sum(a, b, fine, coarse, threads);
}

/* The recursion of the task programs, sequentially: the same leaves, the same sums in the
 * same tree. On a failure records the first failing interval in *f and returns zero. */
static inline ai_result ai_reference(const ai_params *p, int rule, int threads, double a, double b, int depth,
                                     ai_failure *f)
{
    if (f->failed)
        return ai_result_make(0.0, 0);
    ai_rule r = ai_rule_cpu(p, rule, threads, a, b);
    const int step = ai_decide(r, a, b, depth, p);
    switch (step) {
    case AI_STEP_LEAF:
        return ai_result_make(r.estimate, 1);
    case AI_STEP_SPLIT: {
        const double m = ai_mid(a, b);
        ai_result left = ai_reference(p, rule, threads, a, m, depth + 1, f);
        ai_result right = ai_reference(p, rule, threads, m, b, depth + 1, f);
        return ai_result_add(left, right);
    }
    default:
        f->failed = step;
        f->depth = depth;
        f->a = a;
        f->b = b;
        return ai_result_make(0.0, 0);
    }
}

/* The closed form: the integral of cos(f x) over [lo, hi]. */
static inline double ai_exact(const ai_params *p)
{
    if (p->frequency == 0)
        return p->hi - p->lo;
    return (sin(p->frequency * p->hi) - sin(p->frequency * p->lo)) / p->frequency;
}

/* How far a run of `intervals` leaves may be from the closed form. Each leaf's error is
 * bounded by its |fine - coarse| < tolerance (Richardson's estimate is of higher order than
 * that difference). Rounding: each sample is cos of a phase rounded by up to eps |f x| <=
 * eps AI_MAX_PHASE, our cosine adds a few ulps, the tree's sums one rounding per level; all
 * weighted by at most the width hi - lo. Plus the closed form's own sin() rounding. */
static inline double ai_bound(const ai_params *p, unsigned long long intervals)
{
    const double phase = fabs(p->frequency) * fmax(fabs(p->lo), fabs(p->hi));
    const double width = p->hi - p->lo;
    const double exact_round = p->frequency == 0 ? 0 : 4 * DBL_EPSILON * (1 + phase) / fabs(p->frequency);
    return (double)intervals * p->tolerance + DBL_EPSILON * width * (2 * phase + AI_MAX_DEPTH_LIMIT + 16) +
           exact_round;
}

/* Checks a run's result: against the sequential recursion with the same rule (the intervals
 * exactly, the integral within AI_CHECK_REL) and against the closed form within ai_bound.
 * Prints what it checked to `log`; returns the number of failed comparisons. */
static inline int ai_check(const ai_params *p, int rule, int threads, ai_result got, FILE *log)
{
    ai_failure f = {0, 0, 0.0, 0.0};
    ai_result want = ai_reference(p, rule, threads, p->lo, p->hi, 0, &f);
    const double exact = ai_exact(p), bound = ai_bound(p, got.intervals);
    int bad = 0;
    if (f.failed) {
        fprintf(log, "adaptive_integration: the CPU's recursion did not converge at [%.17g, %.17g]\n", f.a, f.b);
        bad++;
    }
    if (got.intervals != want.intervals) {
        fprintf(log, "adaptive_integration: %llu intervals, the CPU's recursion has %llu\n", got.intervals,
                want.intervals);
        bad++;
    }
    if (!(fabs(got.integral - want.integral) <= AI_CHECK_REL * fmax(1.0, fabs(want.integral)))) {
        fprintf(log, "adaptive_integration: integral %.17g, the CPU's recursion has %.17g\n", got.integral,
                want.integral);
        bad++;
    }
    if (!(fabs(got.integral - exact) <= bound)) {
        fprintf(log, "adaptive_integration: integral %.17g, the closed form is %.17g (error %.3g > bound %.3g)\n",
                got.integral, exact, fabs(got.integral - exact), bound);
        bad++;
    }
    fprintf(log, "checked: CPU recursion (%s; integral differs by %.3g) and closed form %.17g (error %.3g, bound %.3g)\n",
            got.integral == want.integral ? "same bits" : "within 1e-9", fabs(got.integral - want.integral), exact,
            fabs(got.integral - exact), bound);
    return bad;
}

/* The answer line: the same in every implementation of the same rule. */
static inline void ai_answer(char *buf, size_t size, ai_result r)
{
    snprintf(buf, size, "integral=%.12e;intervals=%llu", r.integral, r.intervals);
}

#endif /* AI_COMMON_H */
