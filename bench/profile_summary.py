#!/usr/bin/env python3
"""profile_summary.py [--workers N] PATH...: summarizes profiler output - how long workers
wait for their first task, how busy they are, how long an iteration takes, how full batches
are (weighted by time) and, over 20 slices of the span, the share of workers and of lanes
(tasks x 32) busy - to find where a run's time goes. PATH is a profile directory (with
task_execution_intervals.csv) or such a CSV, plain or .gz. --workers: the launch's workers
(warps, or blocks), for the timeline's shares; default: the workers that had work."""
import csv
import gzip
import os
import statistics
import sys

SLICES = 20


def read(path):
    if os.path.isdir(path):
        path = os.path.join(path, "task_execution_intervals.csv")
    per = {}
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            w, s, e, t = int(row[0]), int(row[1]), int(row[2]), int(row[3])
            per.setdefault(w, []).append((s, e, t))
    return per


def summarize(path, workers):
    per = read(path)
    ivs = [x for v in per.values() for x in v]
    t0 = min(s for s, _, _ in ivs)
    span = max(e for _, e, _ in ivs) - t0
    durs = [e - s for s, e, _ in ivs]
    first = sorted(min(s for s, _, _ in v) - t0 for v in per.values())
    busy = sum(durs)
    gaps = []
    for v in per.values():
        v.sort()
        gaps += [v[i + 1][0] - v[i][1] for i in range(len(v) - 1)]
    q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))] if xs else 0
    nw = workers or len(per)
    print("%s: %d workers with work, %d intervals, span %.1f us" % (path, len(per), len(ivs), span / 1e3))
    print("  first work: median %.1f us, 90%% %.1f us, max %.1f us after the first interval" % (
        q(first, .5) / 1e3, q(first, .9) / 1e3, first[-1] / 1e3))
    print("  iteration: median %.2f us, 90%% %.2f us; tasks per iteration: mean %.1f" % (
        q(durs, .5) / 1e3, q(durs, .9) / 1e3, statistics.mean(t for _, _, t in ivs)))
    print("  gaps between iterations: median %.2f us, 90%% %.2f us" % (q(gaps, .5) / 1e3, q(gaps, .9) / 1e3))
    print("  busy fraction over span x workers-with-work: %.3f" % (busy / (span * len(per))))
    # Thread mode: a batch of t tasks keeps t of 32 lanes busy for the iteration.
    print("  thread mode: batch fill weighted by time %.3f of 32 lanes" % (sum((e - s) * t for s, e, t in ivs) / (32.0 * busy)))
    hist = {}
    for s, e, t in ivs:
        b = min(t // 4 * 4, 32)
        hist[b] = hist.get(b, 0) + e - s
    print("  time by batch size (4-wide bins): " + " ".join("%d:%.2f" % (b, hist[b] / busy) for b in sorted(hist)))
    wb, lb = [0.0] * SLICES, [0.0] * SLICES
    for s, e, t in ivs:
        for b in range(SLICES):
            lo, hi = t0 + span * b / SLICES, t0 + span * (b + 1) / SLICES
            o = min(e, hi) - max(s, lo)
            if o > 0:
                wb[b] += o
                lb[b] += o * t
    width = span / SLICES
    print("  timeline, %% of %d workers busy: %s" % (nw, " ".join("%d" % (100 * x / (nw * width)) for x in wb)))
    print("  timeline, %% of their lanes busy:   %s" % " ".join("%d" % (100 * x / (32 * nw * width)) for x in lb))


args = sys.argv[1:]
workers = 0
if args[:1] == ["--workers"]:
    workers = int(args[1])
    args = args[2:]
if not args:
    sys.exit(__doc__)
for p in args:
    summarize(p, workers)
