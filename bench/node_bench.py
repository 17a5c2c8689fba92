#!/usr/bin/env python3
"""node_bench.py - benchmarks of the single-GPU node runtime (issue: node runtime).

Runs the hand-compiled fib, N-Queens and full-binary-tree programs of a build (each run is
a separate launch inside one process after one warm-up launch; kernel time by CUDA events
around the launch, as the paper measures), takes the median of --reps runs per point, and
writes results.csv and results.md (beside the paper's GH200 numbers and the upstream runtime
measured on an H200) into --out. Usage:

    python3 bench/node_bench.py --build build --out bench/results/<date>-node [--reps 5]
"""
import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

# Published numbers (ms): the paper's GH200 medians (as bench/apps/paper_data.py) and the
# upstream runtime measured on our H200 (the README's headline table).
PAPER = {
    ("fib", 2): 0.048, ("fib", 20): 0.273, ("fib", 30): 0.958, ("fib", 35): None, ("fib", 40): 76.799,
    ("nqueens", 12): 0.396, ("nqueens", 13): 0.851, ("nqueens", 14): 3.014, ("nqueens", 15): 17.175,
    ("nqueens", 16): 115.67,
    ("tree_thread", 16): None, ("tree_thread", 18): 1.868, ("tree_thread", 20): 4.736, ("tree_thread", 22): 16.02,
    ("tree_block", 20): 18.9, ("tree_block", 22): 74.9,
}
UPSTREAM_H200 = {
    ("fib", 30): 1.018, ("fib", 35): 8.512, ("fib", 40): 92.39,
    ("nqueens", 12): 0.266, ("nqueens", 13): 0.590, ("nqueens", 14): 2.453, ("nqueens", 15): 15.43,
    ("nqueens", 16): 107.7,
    ("tree_thread", 18): 1.602, ("tree_thread", 20): 4.416, ("tree_thread", 22): 15.61,
}

POINTS = [("fib", n) for n in (2, 20, 30, 35, 40)] + [("nqueens", n) for n in (12, 13, 14, 15, 16)] + \
         [("tree_thread", d) for d in (16, 18, 20, 22)] + [("tree_block", d) for d in (16, 18, 20, 22)]


def command(build, bench, size, reps):
    hc = os.path.join(build, "tests", "handcomp")
    if bench == "fib":
        return [os.path.join(hc, "hc_fib"), "bench", str(size), str(reps + 1)]
    if bench == "nqueens":
        return [os.path.join(hc, "hc_nqueens"), "bench", str(size), str(reps + 1), "7"]
    prog = "hc_tree_thread" if bench == "tree_thread" else "hc_tree_block"
    return [os.path.join(hc, prog), "bench", str(size), "256", "256", str(reps + 1)]


def run_point(build, bench, size, reps, env, log):
    cmd = command(build, bench, size, reps)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    log.write("$ GTAP_STATS=1 %s\n%s%s\n" % (" ".join(cmd), p.stdout, p.stderr))
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
    kern, wall = [], []
    init_ms = mem = None
    for line in p.stdout.splitlines():
        m = re.match(r"run (\d+) \S+ \d+ kernel_ms ([\d.]+) wall_ms ([\d.]+)", line)
        if m and int(m.group(1)) > 0:  # run 0 is the warm-up launch
            kern.append(float(m.group(2)))
            wall.append(float(m.group(3)))
        m = re.match(r"init_ms ([\d.]+) device_bytes (\d+)", line)
        if m:
            init_ms, mem = float(m.group(1)), int(m.group(2))
    stats = re.findall(r"gtap: stats: (\d+) task segments in (\d+) iterations \(([\d.]+) per iteration\), "
                       r"(\d+) steals of (\d+) claims, (\d+) slow allocations; (\d+) of", p.stderr)
    last = stats[-1] if stats else None
    return {
        "bench": bench, "size": size, "reps": len(kern),
        "kernel_median_ms": statistics.median(kern), "kernel_min_ms": min(kern), "kernel_max_ms": max(kern),
        "wall_median_ms": statistics.median(wall), "init_ms": init_ms, "device_mib": mem / 1048576.0,
        "segments": int(last[0]) if last else None, "tasks_per_iteration": float(last[2]) if last else None,
        "steals": int(last[3]) if last else None, "records_used": int(last[6]) if last else None,
        "command": " ".join(cmd),
    }


def machine():
    def q(args):
        try:
            return subprocess.run(args, capture_output=True, text=True, timeout=30).stdout.strip()
        except OSError:
            return "?"
    gpu = q(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return gpu, "%s x %d" % (cpu, os.cpu_count()), platform.platform()


def fmt(x, d=3):
    return "" if x is None else ("%.*f" % (d, x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated bench names")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ, GTAP_STATS="1")
    rows = []
    only = set(x for x in a.only.split(",") if x)
    with open(os.path.join(a.out, "runs.log"), "w") as log:
        for bench, size in POINTS:
            if only and bench not in only:
                continue
            r = run_point(a.build, bench, size, a.reps, env, log)
            rows.append(r)
            print("%-12s %3d  median %10.4f ms  (min %.4f, max %.4f)  init %.2f ms  %.0f MiB" % (
                bench, size, r["kernel_median_ms"], r["kernel_min_ms"], r["kernel_max_ms"], r["init_ms"],
                r["device_mib"]), flush=True)
    gpu, cpu, osname = machine()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    keys = ["bench", "size", "reps", "kernel_median_ms", "kernel_min_ms", "kernel_max_ms", "wall_median_ms",
            "init_ms", "device_mib", "segments", "tasks_per_iteration", "steals", "records_used", "command"]
    with open(os.path.join(a.out, "results.csv"), "w") as f:
        f.write(",".join(keys + ["paper_gh200_ms", "upstream_h200_ms"]) + "\n")
        for r in rows:
            k = (r["bench"], r["size"])
            f.write(",".join(str(r[x]) for x in keys) + ",%s,%s\n" % (
                fmt(PAPER.get(k)), fmt(UPSTREAM_H200.get(k))))
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("# Node runtime benchmarks\n\n")
        f.write("- date: %s\n- GPU, driver: %s\n- CPU: %s\n- OS: %s\n" % (date, gpu, cpu, osname))
        f.write("- command: `python3 bench/node_bench.py --build %s --out %s --reps %d`\n" % (a.build, a.out, a.reps))
        f.write("- kernel time: CUDA events around one launch (initialization excluded, as the paper); "
                "median of %d launches after one warm-up launch, each point a separate process\n" % a.reps)
        f.write("- programs: tests/handcomp (written as gtapcc translates them); default configuration: "
                "thread mode GTAP_BLOCK_SIZE 256 with 16 warps per SM, block mode GTAP_BLOCK_SIZE 64 with "
                "as many blocks as are resident; GTAP_MAX_TASKS_PER_WARP 8192 / PER_BLOCK 16384\n\n")
        f.write("| benchmark | size | ours (ms) | paper GH200 (ms) | upstream H200 (ms) | ours / best | "
                "init (ms) | device MiB | records used | tasks/iteration |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            k = (r["bench"], r["size"])
            refs = [x for x in (PAPER.get(k), UPSTREAM_H200.get(k)) if x]
            ratio = r["kernel_median_ms"] / min(refs) if refs else None
            f.write("| %s | %d | %s | %s | %s | %s | %s | %.0f | %s | %s |\n" % (
                r["bench"], r["size"], fmt(r["kernel_median_ms"], 4), fmt(PAPER.get(k)), fmt(UPSTREAM_H200.get(k)),
                fmt(ratio, 2), fmt(r["init_ms"], 2), r["device_mib"], r["records_used"] or "",
                fmt(r["tasks_per_iteration"], 1)))
    print("wrote %s/results.csv and results.md" % a.out)


if __name__ == "__main__":
    sys.exit(main())
