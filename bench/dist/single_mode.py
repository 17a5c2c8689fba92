#!/usr/bin/env python3
"""single_mode.py - the distributed build costs nothing to a program that does not ask for
distribution: runs the same fib program built alone (dist_single_mode_plain) and linked with
the distributed layer (dist_single_mode_linked), alternating, and compares the best run of
each process across rounds (minimum, 25th percentile and median: on a shared, noisy machine
the minimum is the reproducible number).

  python3 bench/dist/single_mode.py --build build --out DIR [--n 30] [--rounds 10]"""
import argparse, os, re, statistics, subprocess

ap = argparse.ArgumentParser()
ap.add_argument("--build", default="build")
ap.add_argument("--out", required=True)
ap.add_argument("--n", type=int, default=30)
ap.add_argument("--rounds", type=int, default=10)
ap.add_argument("--runs", type=int, default=5)
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
bins = {v: os.path.join(a.build, "apps/dist", f"dist_single_mode_{v}") for v in ("plain", "linked")}
times = {v: [] for v in bins}
for _ in range(a.rounds):
    for v, b in bins.items():
        out = subprocess.run([b, str(a.n), str(a.runs)], capture_output=True, text=True, check=True).stdout
        ts = [float(x) for x in re.findall(r"in ([0-9.]+) ms", out)]
        times[v].append(min(ts[1:]))
def q(t, f):
    t = sorted(t)
    return t[min(len(t) - 1, int(f * len(t)))]
stat = {v: {"min": min(t), "p25": q(t, 0.25), "median": statistics.median(t)} for v, t in times.items()}
med = {v: stat[v]["min"] for v in stat}
diff = 100 * (med["linked"] - med["plain"]) / med["plain"]
with open(os.path.join(a.out, "single_mode.csv"), "w") as f:
    f.write("round,plain_ms,linked_ms\n")
    for i, (p, l) in enumerate(zip(times["plain"], times["linked"])):
        f.write(f"{i},{p:.3f},{l:.3f}\n")
with open(os.path.join(a.out, "single_mode.md"), "w") as f:
    f.write(f"# Single-node mode in the distributed build (CPU reference executor)\n\n"
            f"fib({a.n}), every call a task; {a.rounds} alternating rounds, each the best of runs 2..{a.runs} "
            f"of one process.\n\n| build | min (ms) | 25th pct (ms) | median (ms) |\n|---|---:|---:|---:|\n")
    for v, name in [("plain", "host target alone"), ("linked", "linked with libgtap_dist, no gtap_init_distributed")]:
        f.write(f"| {name} | {stat[v]['min']:.2f} | {stat[v]['p25']:.2f} | {stat[v]['median']:.2f} |\n")
    f.write(f"| difference | {diff:+.2f}% | "
            f"{100 * (stat['linked']['p25'] - stat['plain']['p25']) / stat['plain']['p25']:+.2f}% | "
            f"{100 * (stat['linked']['median'] - stat['plain']['median']) / stat['plain']['median']:+.2f}% |\n")
print(f"min: plain {med['plain']:.2f} ms, linked {med['linked']:.2f} ms, difference {diff:+.2f}%; "
      f"p25 {stat['plain']['p25']:.2f} / {stat['linked']['p25']:.2f}; median {stat['plain']['median']:.2f} / {stat['linked']['median']:.2f}")
