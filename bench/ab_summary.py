#!/usr/bin/env python3
"""ab_summary.py - medians and ratios of an A/B log written by bench/ab.sh.

    python3 bench/ab_summary.py OUT/ab.log [--names A,B] [--csv OUT/ab.csv]

The log holds one block per process: a line `== VARIANT WORKLOAD`, optionally `round R`, the
application's output (apps/common/app_cli.h: `check: PASS|FAIL|skipped`, `runs (kernel ms):
t1 t2 ...`) and optionally `exit RC`. Logs of earlier per-call scripts (`== t0 WORKLOAD` and
the output only) parse too. For every workload it prints the median kernel time of each
variant over all its timed launches, the ratio B/A (B = the second variant named, or the
second seen), the min-max of the per-process medians, and at the end the geometric mean of
the ratios. Exit status 1 when a process failed, printed no times, or failed its check.
Python 3 standard library only.
"""
import argparse
import collections
import csv
import math
import statistics
import sys


def parse(path):
    """Returns ([(variant, workload, round, [kernel ms], check, exit)], variants in order seen)."""
    procs, seen, cur = [], [], None
    count = collections.Counter()
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("== "):
            parts = line[3:].split(" ", 1)
            variant, workload = parts[0], parts[1] if len(parts) > 1 else ""
            if variant not in seen:
                seen.append(variant)
            cur = {"variant": variant, "workload": workload, "round": count[(variant, workload)],
                   "runs": [], "check": "", "exit": None}
            count[(variant, workload)] += 1
            procs.append(cur)
        elif cur is None:
            continue
        elif line.startswith("round "):
            cur["round"] = int(line.split()[1])
        elif line.startswith("runs (kernel ms):"):
            cur["runs"] = [float(x) for x in line.split(":", 1)[1].split()]
        elif line.startswith("check: "):
            cur["check"] = line.split()[1]
        elif line.startswith("exit "):
            cur["exit"] = int(line.split()[1])
    return procs, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--names", help="A,B: the variants to compare (default: the first two seen)")
    ap.add_argument("--csv", help="write one row per timed launch here")
    a = ap.parse_args()

    procs, seen = parse(a.log)
    names = a.names.split(",", 1) if a.names else seen[:2]
    if len(names) != 2:
        sys.exit("ab_summary.py: need two variants, found %s" % seen)
    bad = 0
    for p in procs:
        if (p["exit"] not in (None, 0)) or not p["runs"] or p["check"] == "FAIL":
            print("FAILED: %s %s (round %d): exit %s, check %s, %d launches" %
                  (p["variant"], p["workload"], p["round"], p["exit"], p["check"] or "-", len(p["runs"])))
            bad = 1
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["workload", "variant", "round", "launch", "kernel_ms", "check"])
            for p in procs:
                for i, t in enumerate(p["runs"]):
                    w.writerow([p["workload"], p["variant"], p["round"], i, "%.4f" % t, p["check"].lower()])

    workloads = list(dict.fromkeys(p["workload"] for p in procs))
    width = max([len(x) for x in workloads] + [8])
    print("%-*s %12s %12s %8s  %s" % (width, "workload", names[0] + " ms", names[1] + " ms", "B/A",
                                      "per-process medians A | B"))
    logs = []
    for wl in workloads:
        times = {v: [t for p in procs if p["workload"] == wl and p["variant"] == v for t in p["runs"]] for v in names}
        meds = {v: [statistics.median(p["runs"]) for p in procs
                    if p["workload"] == wl and p["variant"] == v and p["runs"]] for v in names}
        if not times[names[0]] or not times[names[1]]:
            print("%-*s %12s %12s %8s" % (width, wl, "-", "-", "-"))
            continue
        ma, mb = statistics.median(times[names[0]]), statistics.median(times[names[1]])
        ratio = mb / ma if ma > 0 else float("nan")
        if ma > 0:
            logs.append(math.log(ratio))
        spread = " | ".join("%.3f-%.3f" % (min(meds[v]), max(meds[v])) for v in names)
        print("%-*s %12.3f %12.3f %8.3f  %s" % (width, wl, ma, mb, ratio, spread))
    if logs:
        print("geometric mean of B/A over %d workloads: %.3f" % (len(logs), math.exp(sum(logs) / len(logs))))
    print("A = %s, B = %s; medians over every timed launch of a variant" % (names[0], names[1]))
    return bad


if __name__ == "__main__":
    sys.exit(main())
