#!/usr/bin/env python3
"""test_metg.py - unit test of metg.py's METG computation and sweep (standard library only).

    test_metg.py            runs the tests (exit 0, or 1 with FAIL lines)
    test_metg.py --fake ... acts as a Task Bench program with a known cost model (the sweep's
                            stand-in): each task costs OVERHEAD us plus 1 us per 1000 iterations
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metg  # noqa: E402

OVERHEAD_US = 4.0   # the fake program's per-task overhead
US_PER_ITER = 1e-3  # and its work per iteration
TASKS, WORKERS = 4096, 64

failures = []


def expect(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg)


def rows_from_curve(points, workers=4, tasks=1000, peak=1e9):
    """Rows whose granularity (us) and efficiency are exactly the given pairs."""
    rows = []
    for i, (g_us, eff) in enumerate(points):
        elapsed = g_us * 1e-6 * tasks / workers
        rows.append({"iter": 1000 - i, "tasks": tasks, "elapsed_s": elapsed, "flops": int(round(eff * peak * elapsed)),
                     "bytes": 0, "workers": workers, "worker_kind": "lanes", "impl": "test"})
    return rows


def test_known_crossing():
    # piecewise linear: the 50% crossing lies between (10 us, 0.6) and (5 us, 0.4): 7.5 us
    rows = rows_from_curve([(100, 1.0), (50, 0.95), (20, 0.8), (10, 0.6), (5, 0.4), (2, 0.1)], peak=1e12)
    metg.derive(rows, "flops")
    value, bracketed = metg.metg(rows, 0.5)
    expect(bracketed and abs(value - 7.5) < 1e-6, "synthetic crossing: got %r %r, want 7.5" % (value, bracketed))
    value, _ = metg.metg(rows, 0.9)  # between (50, 0.95) and (20, 0.8): 20 + 0.1 / 0.15 x 30
    expect(abs(value - 40.0) < 1e-6, "90%% crossing: got %r, want 40" % value)
    # order of the rows does not matter, and a noisy point above the crossing is ignored
    rows.reverse()
    value, _ = metg.metg(rows, 0.5)
    expect(abs(value - 7.5) < 1e-6, "reversed rows: got %r" % value)


def test_not_bracketed():
    rows = rows_from_curve([(100, 1.0), (50, 0.9), (20, 0.7)])
    metg.derive(rows, "flops")
    value, bracketed = metg.metg(rows, 0.5)
    expect(not bracketed and abs(value - 20) < 1e-6, "all above: got %r %r" % (value, bracketed))
    rows = rows_from_curve([(100, 1.0), (50, 0.3), (20, 0.1)])
    rows[0]["flops"] = 0
    rows[1]["flops"] = 10
    metg.derive(rows, "flops")
    try:
        metg.metg([r for r in rows if r["efficiency"] < 0.5], 0.5)
        expect(False, "no row above the threshold must raise")
    except ValueError:
        pass


def model_output(it):
    """The fake program's output for -iter it: TASKS tasks on WORKERS workers."""
    per_task_us = OVERHEAD_US + US_PER_ITER * it
    elapsed = per_task_us * 1e-6 * TASKS / WORKERS
    flops = TASKS * (128 * it + 64)
    return ("taskbench [fake] n=%d x workers=%d repeat=1\nRunning Task Benchmark\n"
            "Total Tasks %d\nTotal Dependencies 0\nTotal FLOPs %d\nTotal Bytes 0\n"
            "Elapsed Time %e seconds\nFLOP/s %e\nB/s %e\ncheck: PASS\n"
            % (TASKS, WORKERS, TASKS, flops, elapsed, flops / elapsed, 0.0))


def test_model_sweep():
    # the fake program's efficiency is w / (o + w) (relative to the limit of large w); it
    # reaches 50% at w = o, a granularity of 2 o. The sweep's peak is its largest w.
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sweep")
        rc = metg.main(["sweep", "--out", out, "--iter-start", "65536", "--iter-min", "0", "--",
                        sys.executable, os.path.abspath(__file__), "--fake"])
        expect(rc == 0, "sweep exit status %d" % rc)
        rows = metg.read_csv(out + ".csv")
        expect(len(rows) == 18, "sweep rows: %d, want 18 (2^16 .. 1, 0)" % len(rows))
        peak = metg.derive(rows, "flops")
        value, bracketed = metg.metg(rows, 0.5)
        w_peak = US_PER_ITER * 65536
        # exact 50% of the sweep's own peak: w / (o + w) = 0.5 w_peak / (o + w_peak)
        e = 0.5 * w_peak / (OVERHEAD_US + w_peak)
        w = e * OVERHEAD_US / (1 - e)
        want = OVERHEAD_US + w
        expect(bracketed and abs(value - want) / want < 0.15,
               "model METG %.3f us, want %.3f (+-15%%, interpolated between powers of two)" % (value, want))
        expect(rows[0]["workers"] == WORKERS and rows[0]["impl"] == "fake", "banner parse: %r" % rows[0])
        md = open(out + ".md").read()
        expect("METG(50%)" in md and "| 65536 |" in md, "markdown table")
        # analyze gives the same number from the CSV
        rc = metg.main(["analyze", "--out", out + "_again", out + ".csv"])
        expect(rc == 0, "analyze exit status %d" % rc)
        again = open(out + "_again.md").read()
        m1 = re.search(r"METG\(50%\) = ([0-9.]+)", md)
        m2 = re.search(r"METG\(50%\) = ([0-9.]+)", again)
        expect(m1 and m2 and m1.group(1) == m2.group(1), "analyze differs from sweep")
        expect(peak > 0, "peak")


def test_parse_failures():
    text = model_output(10).replace("check: PASS", "check: FAIL")
    try:
        metg.parse_output(text)
        expect(False, "a failed run must not parse")
    except ValueError:
        pass
    try:
        metg.parse_output("Total Tasks 3\n")
        expect(False, "a truncated run must not parse")
    except ValueError:
        pass
    expect(metg.iterations(8, 0, 2) == [8, 4, 2, 1, 0], "iterations: %r" % metg.iterations(8, 0, 2))
    expect(metg.iterations(100, 10, 3) == [100, 33, 11], "iterations: %r" % metg.iterations(100, 10, 3))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--fake":
        it = int(sys.argv[sys.argv.index("-iter") + 1])
        sys.stdout.write(model_output(it))
        return 0
    test_known_crossing()
    test_not_bracketed()
    test_parse_failures()
    test_model_sweep()
    if failures:
        print("FAIL: %d check(s)" % len(failures))
        return 1
    print("metg: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
