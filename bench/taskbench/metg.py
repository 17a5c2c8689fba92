#!/usr/bin/env python3
"""metg.py - Task Bench's METG (minimum effective task granularity) for one program and graph.

    metg.py sweep --out PREFIX [--iter-start N] [--iter-min M] [--factor F] [--threshold 0.5]
                  [--resource flops|bytes] [--workers W] [--worker-kind KIND] -- COMMAND...
    metg.py analyze [--out PREFIX] [--threshold 0.5] [--resource flops|bytes]
                    [--workers W] [--worker-kind KIND] SWEEP.csv

sweep runs COMMAND once per iteration count, from --iter-start (default 2^16) down by --factor
(default 2) to --iter-min (default 0; 0 itself is run last): the count replaces "{iter}" in
COMMAND, or `-iter N` is appended (Task Bench's flags are per graph: with -and, write
`-iter {iter}` in each graph). COMMAND is any taskbench program (apps/taskbench) with a kernel
that counts FLOPs (compute_bound, load_imbalance) or, with --resource bytes, bytes
(memory_bound); each run must pass its checks. analyze recomputes the result from a sweep's CSV.

For each run: rate = Total FLOPs / Elapsed Time (or Total Bytes); efficiency = rate / peak,
the peak being the best rate of the sweep; task granularity = Elapsed Time x workers / Total
Tasks, the time one worker spends per task. METG(threshold) is the granularity where the
efficiency crosses the threshold: the smallest granularity whose efficiency is at least the
threshold, interpolated linearly towards the next smaller granularity (Task Bench's rule).
Workers: GPU lanes (threads) for thread-level tasks, blocks for block-level ones, cores (OpenMP
threads or MPI ranks) for the baselines; read from the program's banner (`workers=N`, and the
implementation in brackets) unless --workers / --worker-kind say otherwise.

Writes PREFIX.csv (one row per run), PREFIX.md (the table and the METG line) and, when
matplotlib can be imported, PREFIX.png (efficiency against granularity). Exit status: 0 with a
result (bracketed or not: the md says which), 1 when a run failed or no run reached the
threshold, 2 for usage errors. Standard library only.
"""
import argparse
import csv
import math
import re
import shlex
import subprocess
import sys

CSV_FIELDS = ["iter", "tasks", "elapsed_s", "flops", "bytes", "flops_per_s", "bytes_per_s", "efficiency",
              "granularity_us", "workers", "worker_kind", "impl"]

_LINES = {
    "tasks": (re.compile(r"^Total Tasks (\d+)$", re.M), int),
    "flops": (re.compile(r"^Total FLOPs (\d+)$", re.M), int),
    "bytes": (re.compile(r"^Total Bytes (\d+)$", re.M), int),
    "elapsed_s": (re.compile(r"^Elapsed Time ([0-9.eE+-]+) seconds$", re.M), float),
}
_BANNER = re.compile(r"^\S+ \[([^\]]+)\] .*\bworkers=(\d+)\b", re.M)


def worker_kind(impl):
    """The worker of an implementation name (the banner's [impl])."""
    if impl.startswith("gtap-host"):
        return "host executor thread"
    if impl.startswith("gtap-thread"):
        return "lanes (GPU threads)"
    if impl.startswith("gtap-block"):
        return "blocks"
    if impl == "mpi":
        return "cores (MPI ranks)"
    if impl in ("omp", "seq"):
        return "cores (OpenMP threads)" if impl == "omp" else "cores (1, sequential)"
    return "workers"


def parse_output(text):
    """Task Bench's summary and our banner from one run's output, as a dict."""
    row = {}
    for key, (pattern, conv) in _LINES.items():
        found = pattern.findall(text)
        if len(found) != 1:
            raise ValueError("expected one '%s' line, found %d" % (pattern.pattern, len(found)))
        row[key] = conv(found[0])
    banner = _BANNER.search(text)
    row["impl"] = banner.group(1) if banner else ""
    row["workers"] = int(banner.group(2)) if banner else 0
    row["worker_kind"] = worker_kind(row["impl"])
    if re.search(r"^check: FAIL$", text, re.M) or "FAIL:" in text:
        raise ValueError("the run failed its checks")
    return row


def derive(rows, resource, workers=None, kind=None):
    """Fills rate, efficiency (against the best rate) and granularity into every row."""
    for r in rows:
        if workers:
            r["workers"] = workers
        if kind:
            r["worker_kind"] = kind
        r["flops_per_s"] = r["flops"] / r["elapsed_s"]
        r["bytes_per_s"] = r["bytes"] / r["elapsed_s"]
        r["granularity_us"] = r["elapsed_s"] * r["workers"] / r["tasks"] * 1e6
    key = "flops_per_s" if resource == "flops" else "bytes_per_s"
    peak = max((r[key] for r in rows), default=0.0)
    if peak <= 0:
        raise ValueError("no run did any %s: use a kernel that counts them (compute_bound, load_imbalance; "
                         "memory_bound with --resource bytes)" % resource)
    for r in rows:
        r["efficiency"] = r[key] / peak
    return peak


def metg(rows, threshold=0.5):
    """METG from rows with efficiency and granularity_us.

    Returns (value_us, bracketed): the smallest granularity whose efficiency reaches the
    threshold, interpolated linearly (granularity against efficiency) towards the run with the
    next smaller iteration count when that one is finer (Task Bench's rule, which a noisy run
    at some tiny iteration count does not disturb); bracketed is False when there is no such
    run (the value is then an upper bound). Raises ValueError when no row reaches the
    threshold."""
    order = sorted(rows, key=lambda r: -r["iter"])
    above = [i for i, r in enumerate(order) if r["efficiency"] >= threshold]
    if not above:
        raise ValueError("no run reached %.0f%% efficiency" % (100 * threshold))
    i = min(above, key=lambda i: order[i]["granularity_us"])
    best = order[i]
    if i + 1 >= len(order) or order[i + 1]["granularity_us"] >= best["granularity_us"]:
        return best["granularity_us"], False
    nxt = order[i + 1]
    g0, e0 = best["granularity_us"], best["efficiency"]
    g1, e1 = nxt["granularity_us"], nxt["efficiency"]
    if e0 == e1:
        return g0, True
    return g1 + (threshold - e1) * (g0 - g1) / (e0 - e1), True


def iterations(start, minimum, factor):
    """start, start / factor, ... down to minimum (0: then 0 itself last)."""
    out, it = [], start
    while it >= max(minimum, 1):
        out.append(it)
        nxt = int(it / factor)
        it = nxt if nxt < it else it - 1
    if minimum == 0:
        out.append(0)
    return out


def run_one(command, it):
    argv = [a.replace("{iter}", str(it)) for a in command]
    if argv == command:
        argv = command + ["-iter", str(it)]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode != 0:
        raise RuntimeError("%s: exit status %d\n%s" % (" ".join(shlex.quote(a) for a in argv), proc.returncode,
                                                      proc.stdout[-2000:]))
    row = parse_output(proc.stdout)
    row["iter"] = it
    return row


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def read_csv(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append({"iter": int(r["iter"]), "tasks": int(r["tasks"]), "elapsed_s": float(r["elapsed_s"]),
                         "flops": int(r["flops"]), "bytes": int(r["bytes"]), "workers": int(r["workers"]),
                         "worker_kind": r.get("worker_kind", "workers"), "impl": r.get("impl", "")})
    if not rows:
        raise ValueError("%s: no rows" % path)
    return rows


def summary_line(rows, threshold, resource, peak):
    value, bracketed = metg(rows, threshold)
    w = rows[0]
    return ("METG(%d%%) = %s%.3f us per task (%s, %d %s; peak %s %.4e)%s"
            % (round(100 * threshold), "" if bracketed else "<= ", value, w.get("impl") or "?", w["workers"],
               w["worker_kind"], "FLOP/s" if resource == "flops" else "B/s", peak,
               "" if bracketed else "; not bracketed: no smaller granularity was measured"))


def write_markdown(path, rows, line, resource, command=None):
    unit = "FLOP/s" if resource == "flops" else "B/s"
    with open(path, "w") as f:
        f.write("# METG sweep\n\n")
        if command:
            f.write("Command: `%s`\n\n" % " ".join(shlex.quote(a) for a in command))
        f.write("| -iter | tasks | elapsed (s) | %s | efficiency | granularity (us) |\n" % unit)
        f.write("|---:|---:|---:|---:|---:|---:|\n")
        for r in sorted(rows, key=lambda r: -r["iter"]):
            f.write("| %d | %d | %.6e | %.4e | %.3f | %.3f |\n" % (
                r["iter"], r["tasks"], r["elapsed_s"], r["flops_per_s" if resource == "flops" else "bytes_per_s"],
                r["efficiency"], r["granularity_us"]))
        f.write("\n%s\n\nGranularity = elapsed time x workers / tasks; efficiency = %s / the sweep's best.\n"
                % (line, unit))


def write_plot(path, rows, threshold):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    pts = sorted(rows, key=lambda r: r["granularity_us"])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([r["granularity_us"] for r in pts], [r["efficiency"] for r in pts], "o-")
    ax.axhline(threshold, color="gray", linestyle="--")
    ax.set_xscale("log")
    ax.set_xlabel("task granularity (us)")
    ax.set_ylabel("efficiency")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def finish(rows, args, command=None):
    peak = derive(rows, args.resource, args.workers, args.worker_kind)
    write_csv(args.out + ".csv", rows)
    try:
        line = summary_line(rows, args.threshold, args.resource, peak)
        status = 0
    except ValueError as e:
        line = "METG: %s" % e
        status = 1
    write_markdown(args.out + ".md", rows, line, args.resource, command)
    plotted = write_plot(args.out + ".png", rows, args.threshold)
    print(line)
    print("wrote %s.csv, %s.md%s" % (args.out, args.out, ", %s.png" % args.out if plotted else
                                    " (no plot: matplotlib is not installed)"))
    return status


def main(argv=None):
    p = argparse.ArgumentParser(description="Task Bench METG sweep / analysis")
    sub = p.add_subparsers(dest="mode")
    for name in ("sweep", "analyze"):
        s = sub.add_parser(name)
        s.add_argument("--out", default=None, help="output prefix (PREFIX.csv, .md, .png)")
        s.add_argument("--threshold", type=float, default=0.5)
        s.add_argument("--resource", choices=("flops", "bytes"), default="flops")
        s.add_argument("--workers", type=int, default=None, help="override the banner's worker count")
        s.add_argument("--worker-kind", default=None, help="what a worker is (lanes, blocks, cores)")
    sw = sub.choices["sweep"]
    sw.add_argument("--iter-start", type=int, default=1 << 16)
    sw.add_argument("--iter-min", type=int, default=0)
    sw.add_argument("--factor", type=float, default=2.0)
    sw.add_argument("command", nargs=argparse.REMAINDER)
    sub.choices["analyze"].add_argument("csv")
    args = p.parse_args(argv)
    if args.mode is None:
        p.print_usage(sys.stderr)
        return 2
    if not 0 < args.threshold < 1:
        print("metg.py: --threshold must be in (0, 1)", file=sys.stderr)
        return 2
    if args.mode == "analyze":
        if args.out is None:
            args.out = re.sub(r"\.csv$", "", args.csv) + "_metg"
        try:
            rows = read_csv(args.csv)
            return finish(rows, args)
        except (OSError, ValueError, KeyError) as e:
            print("metg.py: %s" % e, file=sys.stderr)
            return 1
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.out is None:
        print("metg.py sweep: needs --out PREFIX and a command after --", file=sys.stderr)
        return 2
    if args.factor <= 1 or args.iter_start < 1 or args.iter_min < 0:
        print("metg.py sweep: --factor must be > 1, --iter-start >= 1, --iter-min >= 0", file=sys.stderr)
        return 2
    rows = []
    for it in iterations(args.iter_start, args.iter_min, args.factor):
        try:
            row = run_one(command, it)
        except (RuntimeError, ValueError, OSError) as e:
            print("metg.py: -iter %d: %s" % (it, e), file=sys.stderr)
            return 1
        rows.append(row)
        print("-iter %d: %d tasks in %.6e s, %d FLOPs, %d B" % (it, row["tasks"], row["elapsed_s"], row["flops"],
                                                                 row["bytes"]), flush=True)
    try:
        return finish(rows, args, command)
    except ValueError as e:
        print("metg.py: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
