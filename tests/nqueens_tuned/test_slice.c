/* test_slice.c - the slice sizes of a checkpointed distributed nqueens_tuned run
 * (apps/nqueens_tuned/nqt_slice.h), against simulated slice times: the slices cover the list
 * once and in order, start with NQT_SLICE_FIRST, move by at most NQT_SLICE_STEP times a step,
 * settle at the size that takes the target time, and end exactly at the kill test's entry.
 * Prints one line per failed check and "FAIL", or "PASS". */
#include <stdio.h>

#include "nqt_slice.h"

static int failures;

static void check(int ok, const char *what, long long a, long long b)
{
    if (!ok) {
        printf("slice: %s (%lld, %lld)\n", what, a, b);
        failures++;
    }
}

/* Runs a list of todo entries whose entry i takes cost(i) seconds, with the target
 * target_s and the kill entry stop_at; checks the invariants of every slice and returns the
 * size of the last slice that ended before the list's end (or at the end). */
static long long run(long long todo, double target_s, long long stop_at, double (*cost)(long long),
                     long long *slices_p)
{
    nqt_slicer s;
    long long lo, hi, expect_lo = 0, prev = 0, last = 0, slices = 0, ended_at_stop = 0;
    nqt_slicer_init(&s, todo, target_s, stop_at);
    while (nqt_slicer_next(&s, &lo, &hi)) {
        check(lo == expect_lo, "a slice does not start where the last one ended", lo, expect_lo);
        check(hi > lo && hi <= todo, "an empty slice, or one past the list", lo, hi);
        check(!(stop_at > lo && hi > stop_at), "a slice crosses the kill entry", hi, stop_at);
        ended_at_stop |= hi == stop_at;
        if (slices == 0) {
            long long first = todo < NQT_SLICE_FIRST ? todo : NQT_SLICE_FIRST;
            first = stop_at > 0 && stop_at < first ? stop_at : first;
            check(hi - lo == first, "the first slice", hi - lo, first);
        }
        if (prev && hi < todo && !(stop_at > lo && hi == stop_at)) {
            check(hi - lo <= prev * NQT_SLICE_STEP, "a slice grew more than a step", hi - lo, prev);
            check(hi - lo >= prev / NQT_SLICE_STEP, "a slice shrank more than a step", hi - lo, prev);
        }
        double t = 0;
        for (long long i = lo; i < hi; i++)
            t += cost(i);
        nqt_slicer_ran(&s, lo, hi, t);
        prev = hi - lo;
        last = hi < todo ? hi - lo : last;
        expect_lo = hi;
        slices++;
    }
    check(expect_lo == todo, "the slices do not cover the list", expect_lo, todo);
    if (stop_at > 0 && stop_at < todo)
        check(ended_at_stop, "no slice ends at the kill entry", stop_at, 0);
    *slices_p = slices;
    return last;
}

static double ms(long long i) { (void)i; return 1e-3; }
static double free_(long long i) { (void)i; return 0; }
/* a list whose second half costs 100 times more per entry */
static double jump(long long i) { return i < 50000 ? 1e-4 : 1e-2; }

int main(void)
{
    long long slices, last;
    /* 1 ms per subtree, 1 s per slice: settles at 1000 entries a slice */
    last = run(1000000, 1.0, 0, ms, &slices);
    check(last >= 990 && last <= 1010, "the slice size does not settle at the target", last, 1000);
    /* slices that cost nothing grow by NQT_SLICE_STEP: 8, 32, ..., 8192 (10920), then 1 */
    run(10921, 1.0, 0, free_, &slices);
    check(slices == 7, "free slices do not grow geometrically", slices, 7);
    /* the cost jumps 100 times: the slice shrinks by at most a step at a time, and settles */
    last = run(200000, 1.0, 0, jump, &slices);
    check(last >= 99 && last <= 101, "the slice size does not settle after a jump", last, 100);
    /* the kill test's entry: a slice ends there, also inside the first slice and at its end */
    run(5000, 0.05, 37, ms, &slices);
    run(5000, 0.05, 3, ms, &slices);
    run(5000, 0.05, 8, free_, &slices);
    run(5000, 0.05, 5000, ms, &slices);
    /* lists shorter than the first slice; one entry; none */
    run(5, 1.0, 0, ms, &slices);
    check(slices == 1, "a list of 5 takes more than one slice", slices, 1);
    run(1, 1.0, 0, ms, &slices);
    run(0, 1.0, 0, ms, &slices);
    check(slices == 0, "an empty list has slices", slices, 0);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
