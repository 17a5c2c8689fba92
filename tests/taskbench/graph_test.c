/* graph_test.c - unit test of the Task Bench model (apps/taskbench/taskbench_graph.h): the
 * points and dependencies of each pattern on small graphs, worked out by hand from Task
 * Bench's definitions; then, over a grid of shapes, that the reverse walk mirrors the
 * forward one, that the span counts agree with the walks, which tasks have no input, and
 * the random draws. Prints a FAIL line per broken expectation; exit status 1 if any. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "taskbench_graph.h"

static int failures;

#define EXPECT(cond, ...)                                                                                          \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            failures++;                                                                                            \
            printf("FAIL: %s:%d: ", __FILE__, __LINE__);                                                           \
            printf(__VA_ARGS__);                                                                                   \
            printf("\n");                                                                                          \
        }                                                                                                          \
    } while (0)

static tb_graph graph(int pattern, long steps, long width, long radix, long period)
{
    tb_graph g;
    memset(&g, 0, sizeof g);
    g.steps = steps;
    g.width = width;
    g.pattern = pattern;
    g.kernel = TB_EMPTY;
    g.radix = radix;
    g.period = period;
    g.fraction = 0.25;
    g.samples = 16;
    g.output_bytes = TB_RECORD_BYTES;
    return g;
}

/* The dependencies (reverse: dependents) of p in edge set dset as "a b c". */
static const char *deps_str(const tb_graph *g, long dset, long p, int reverse)
{
    static char buf[512];
    tb_deps it;
    tb_span s;
    int n = 0;
    buf[0] = 0;
    tb_deps_init(&it, g, dset, p, reverse);
    while (tb_deps_next(&it, &s))
        for (long q = s.first; q <= s.last; q++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, n ? " %ld" : "%ld", q);
    return buf;
}

#define EXPECT_DEPS(g, dset, p, reverse, want)                                                                    \
    do {                                                                                                           \
        const char *got_ = deps_str(g, dset, p, reverse);                                                          \
        EXPECT(!strcmp(got_, want), "%s %s of point %ld (set %ld): got \"%s\", want \"%s\"",                       \
               tb_pattern_name((g)->pattern), reverse ? "dependents" : "dependencies", (long)(p), (long)(dset),   \
               got_, want);                                                                                        \
    } while (0)

/* Task Bench's definitions, by hand. */
static void test_patterns(void)
{
    tb_graph g = graph(TB_STENCIL_1D, 4, 4, 3, 0);
    EXPECT_DEPS(&g, 0, 0, 0, "0 1");
    EXPECT_DEPS(&g, 0, 2, 0, "1 2 3");
    EXPECT_DEPS(&g, 0, 3, 1, "2 3");
    g = graph(TB_STENCIL_1D_PERIODIC, 4, 5, 3, 0);
    EXPECT_DEPS(&g, 0, 0, 0, "0 1 4");
    EXPECT_DEPS(&g, 0, 4, 0, "3 4 0");
    EXPECT_DEPS(&g, 0, 2, 1, "1 2 3");
    g = graph(TB_NO_COMM, 4, 4, 3, 0);
    EXPECT_DEPS(&g, 0, 2, 0, "2");
    g = graph(TB_TRIVIAL, 4, 4, 3, 0);
    EXPECT_DEPS(&g, 0, 2, 0, "");
    EXPECT(!tb_has_deps(&g), "trivial has no dependencies");
    g = graph(TB_ALL_TO_ALL, 4, 3, 3, 0);
    EXPECT_DEPS(&g, 0, 1, 0, "0 1 2");

    /* dom, 9 steps x 4 (Task Bench's README example): a band one point wider each step, then
     * narrower; point p reads p - 1 and p */
    g = graph(TB_DOM, 9, 4, 3, 0);
    const long dom_off[9] = {0, 0, 0, 0, 0, 0, 1, 2, 3}, dom_w[9] = {1, 2, 3, 4, 4, 4, 3, 2, 1};
    for (long t = 0; t < 9; t++)
        EXPECT(tb_offset_at(&g, t) == dom_off[t] && tb_width_at(&g, t) == dom_w[t],
               "dom 9x4 step %ld: offset %ld width %ld, want %ld %ld", t, tb_offset_at(&g, t), tb_width_at(&g, t),
               dom_off[t], dom_w[t]);
    EXPECT_DEPS(&g, 0, 2, 0, "1 2");
    EXPECT_DEPS(&g, 0, 0, 0, "0");
    EXPECT_DEPS(&g, 0, 2, 1, "2 3");
    EXPECT(tb_num_inputs(&g, 6, 1) == 2 && tb_num_inputs(&g, 8, 3) == 2 && tb_num_inputs(&g, 1, 1) == 1,
           "dom 9x4 inputs");

    /* tree: step t has 2^t points (at most the width); p reads its parent p / 2 */
    g = graph(TB_TREE, 6, 10, 3, 0);
    const long tree_w[6] = {1, 2, 4, 8, 10, 10};
    for (long t = 0; t < 6; t++)
        EXPECT(tb_width_at(&g, t) == tree_w[t] && tb_offset_at(&g, t) == 0, "tree step %ld width %ld", t,
               tb_width_at(&g, t));
    EXPECT_DEPS(&g, 0, 7, 0, "3");
    EXPECT_DEPS(&g, 0, 4, 1, "8 9");
    EXPECT_DEPS(&g, 0, 5, 1, "");

    /* fft, width 8: three butterfly levels; step 1 uses level 0 (distance 1), step 3 level 2 */
    g = graph(TB_FFT, 6, 8, 3, 0);
    EXPECT(tb_dsets(&g) == 3, "fft width 8: %ld sets", tb_dsets(&g));
    EXPECT(tb_dset_at(&g, 1) == 0 && tb_dset_at(&g, 3) == 2 && tb_dset_at(&g, 4) == 0 && tb_dset_at(&g, 0) == 2,
           "fft set order");
    EXPECT_DEPS(&g, 1, 5, 0, "3 5 7");
    EXPECT_DEPS(&g, 2, 5, 0, "1 5");
    EXPECT_DEPS(&g, 0, 0, 0, "0 1");
    g = graph(TB_FFT, 6, 5, 3, 0);
    EXPECT(tb_dsets(&g) == 3, "fft width 5: %ld sets", tb_dsets(&g));

    /* nearest: radix points around p, more below it */
    g = graph(TB_NEAREST, 4, 10, 3, 0);
    EXPECT_DEPS(&g, 0, 5, 0, "4 5 6");
    g.radix = 4;
    EXPECT_DEPS(&g, 0, 5, 0, "3 4 5 6");
    EXPECT_DEPS(&g, 0, 5, 1, "4 5 6 7");
    EXPECT_DEPS(&g, 0, 0, 0, "0 1");
    g.radix = 0;
    EXPECT_DEPS(&g, 0, 5, 0, "");
    EXPECT(!tb_has_deps(&g), "nearest -radix 0 has no dependencies");

    /* spread, width 12, radix 3: p, p + 4, p + 8 (mod 12), the later ones shifted by the set */
    g = graph(TB_SPREAD, 4, 12, 3, 3);
    EXPECT_DEPS(&g, 0, 1, 0, "1 5 9");
    EXPECT_DEPS(&g, 1, 1, 0, "1 6 10");
    EXPECT_DEPS(&g, 2, 10, 0, "10 4 8");
    EXPECT_DEPS(&g, 1, 1, 1, "1 8 4");
    EXPECT(tb_dset_at(&g, 4) == 1, "spread period 3: step 4 uses set 1");

    /* random_nearest: fraction 0 keeps p alone, fraction 1 the whole window */
    g = graph(TB_RANDOM_NEAREST, 4, 10, 5, 3);
    g.fraction = 0;
    EXPECT_DEPS(&g, 1, 5, 0, "5");
    g.fraction = 1;
    EXPECT_DEPS(&g, 1, 5, 0, "3 4 5 6 7");
    EXPECT_DEPS(&g, 1, 9, 0, "7 8 9");
}

/* Brute force over many shapes: mirrors, counts, tasks without inputs. */
static void test_invariants(void)
{
    long graphs = 0;
    for (int pattern = TB_TRIVIAL; pattern <= TB_RANDOM_NEAREST; pattern++)
        for (long width = 1; width <= 17; width++)
            for (long steps = 1; steps <= 12; steps += 3)
                for (long radix = 0; radix <= 5; radix++)
                    for (long period = 1; period <= 3; period++) {
                        const int periodic = pattern == TB_SPREAD || pattern == TB_RANDOM_NEAREST;
                        if ((!periodic && period > 1) || (pattern == TB_SPREAD && radix == 0))
                            continue;
                        if (pattern == TB_SPREAD && (period > (width + radix - 1) / radix || radix > width))
                            continue; /* rejected by the command line, or duplicate edges */
                        if (pattern == TB_STENCIL_1D_PERIODIC && width <= 2)
                            continue; /* duplicate edges: rejected */
                        tb_graph g = graph(pattern, steps, width, radix, periodic ? period : 0);
                        g.fraction = 0.4;
                        g.graph_index = radix;
                        graphs++;
                        for (long dset = 0; dset < tb_dsets(&g); dset++)
                            for (long p = 0; p < width; p++)
                                for (long q = 0; q < width; q++) {
                                    long fwd = tb_count_in(&g, dset, q, 0, p, p + 1); /* q reads p */
                                    long rev = tb_count_in(&g, dset, p, 1, q, q + 1); /* p feeds q */
                                    EXPECT(fwd == rev && fwd <= 1,
                                           "%s w=%ld r=%ld set %ld: %ld reads %ld %ld times, its dependents list "
                                           "says %ld", tb_pattern_name(pattern), width, radix, dset, q, p, fwd, rev);
                                }
                        long late = tb_graph_late_starts(&g, NULL), zero = 0;
                        for (long t = 1; t < steps; t++)
                            for (long p = tb_offset_at(&g, t); p < tb_offset_at(&g, t) + tb_width_at(&g, t); p++)
                                zero += tb_num_inputs(&g, t, p) == 0;
                        if (tb_has_deps(&g))
                            EXPECT(zero == late && (pattern == TB_DOM || zero == 0),
                                   "%s %ldx%ld r=%ld: %ld later tasks have no input, %ld listed as starts",
                                   tb_pattern_name(pattern), steps, width, radix, zero, late);
                        else
                            EXPECT(tb_start_count(&g) == steps * width, "%s: every task starts",
                                   tb_pattern_name(pattern));
                    }
    EXPECT(graphs > 1000, "only %ld graphs checked", graphs);
}

/* The draws: the same every time, spread as asked. */
static void test_random(void)
{
    tb_graph g = graph(TB_COMPUTE_BOUND, 10, 100, 3, 0);
    g.kernel = TB_LOAD_IMBALANCE;
    g.iterations = 1000;
    g.imbalance = 1.0;
    double sum = 0;
    long lo = 1 << 30, hi = 0;
    for (long t = 0; t < 10; t++)
        for (long p = 0; p < 100; p++) {
            long it = tb_imbalance_iterations(&g, t, p);
            EXPECT(it == tb_imbalance_iterations(&g, t, p), "load_imbalance draws differ");
            sum += it;
            lo = it < lo ? it : lo;
            hi = it > hi ? it : hi;
        }
    EXPECT(lo >= 500 && hi <= 1500 && lo < 600 && hi > 1400, "load_imbalance 1.0 of 1000: [%ld, %ld]", lo, hi);
    EXPECT(sum / 1000 > 950 && sum / 1000 < 1050, "load_imbalance mean %.1f", sum / 1000);
    EXPECT(tb_task_flops(&g, 0, 0) == 128 * tb_imbalance_iterations(&g, 0, 0) + 64, "load_imbalance FLOPs");
    g.imbalance = 0;
    EXPECT(tb_imbalance_iterations(&g, 3, 4) == 1000, "no imbalance: the iterations");

    g = graph(TB_RANDOM_NEAREST, 4, 1000, 9, 2);
    g.fraction = 0.3;
    long kept = 0, candidates = 0;
    for (long p = 0; p < 1000; p++) {
        kept += tb_count_in(&g, 0, p, 0, 0, 1000) - 1; /* less the point itself */
        candidates += tb_minl(p + 4, 999) - tb_maxl(0, p - 4);
    }
    EXPECT(kept > 0.25 * candidates && kept < 0.35 * candidates, "random_nearest 0.3: %ld of %ld kept", kept,
           candidates);
    tb_graph h = g;
    h.seed = 7;
    int differ = 0;
    for (long p = 500; p < 510; p++) {
        char a[512];
        snprintf(a, sizeof a, "%s", deps_str(&g, 0, p, 0));
        differ += strcmp(a, deps_str(&h, 0, p, 0)) != 0;
    }
    EXPECT(differ > 0, "-seed changes the random edges");
}

/* Task Bench's configuration lines, as its scripts parse them. */
static void test_display(void)
{
    static tb_app app;
    char *text = NULL;
    size_t len = 0;
    memset(&app, 0, sizeof app);
    app.ngraphs = 1;
    app.graphs[0] = graph(TB_DOM, 9, 4, 3, 0);
    app.graphs[0].iterations = 7;
    app.verbose = 1;
    FILE *f = open_memstream(&text, &len);
    tb_app_display(&app, f);
    tb_app_report_timing(&app, 0.5, f);
    fclose(f);
    const char *want[] = {"Running Task Benchmark\n", "    Task Graph 1:\n", "      Time Steps: 9\n",
                          "      Max Width: 4\n", "      Dependence Type: dom\n", "        Iterations: 7\n",
                          "      Output Bytes: 16\n",
                          "      Timestep 6 (offset 1, width 3, last offset 0, last width 4):\n",
                          "        Points: 1 2 3\n", "          Point 1: 0 1\n", "Total Tasks 24\n",
                          "Total Dependencies 38\n", "Total FLOPs 0\n", "Elapsed Time 5.000000e-01 seconds\n",
                          "FLOP/s 0.000000e+00\n", "B/s 0.000000e+00\n", NULL};
    for (int k = 0; want[k]; k++)
        EXPECT(strstr(text, want[k]), "the output lacks \"%.*s\"", (int)strlen(want[k]) - 1, want[k]);
    free(text);
}

int main(void)
{
    test_patterns();
    test_invariants();
    test_random();
    test_display();
    if (failures) {
        printf("FAIL: %d expectation(s) broken\n", failures);
        return 1;
    }
    printf("taskbench graph model: all checks passed\n");
    return 0;
}
