#!/usr/bin/env python3
"""profile_summary.py DIR...: summarizes profiler output (task_execution_intervals.csv) -
how long workers wait for their first task, how busy they are, how long an iteration takes
and how full batches are - to find where a run's time goes."""
import csv
import statistics
import sys


def summarize(d):
    per = {}
    with open(d + "/task_execution_intervals.csv") as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            w, s, e, t = int(row[0]), int(row[1]), int(row[2]), int(row[3])
            per.setdefault(w, []).append((s, e, t))
    ivs = [x for v in per.values() for x in v]
    span = max(e for _, e, _ in ivs) - min(s for s, _, _ in ivs)
    durs = [e - s for s, e, _ in ivs]
    first = sorted(min(s for s, _, _ in v) for v in per.values())
    busy = sum(durs)
    gaps = []
    for v in per.values():
        v.sort()
        gaps += [v[i + 1][0] - v[i][1] for i in range(len(v) - 1)]
    q = lambda xs, p: sorted(xs)[int(p * (len(xs) - 1))] if xs else 0
    print("%s: %d workers with work, %d intervals, span %.1f us" % (d, len(per), len(ivs), span / 1e3))
    print("  first work: median %.1f us, 90%% %.1f us, max %.1f us after the first interval" % (
        q(first, .5) / 1e3, q(first, .9) / 1e3, first[-1] / 1e3))
    print("  iteration: median %.2f us, 90%% %.2f us; tasks per iteration: mean %.1f" % (
        q(durs, .5) / 1e3, q(durs, .9) / 1e3, statistics.mean(t for _, _, t in ivs)))
    print("  gaps between iterations: median %.2f us, 90%% %.2f us" % (q(gaps, .5) / 1e3, q(gaps, .9) / 1e3))
    print("  busy fraction over span x workers-with-work: %.3f" % (busy / (span * len(per))))


for d in sys.argv[1:]:
    summarize(d)
