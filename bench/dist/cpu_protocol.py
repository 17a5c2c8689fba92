#!/usr/bin/env python3
"""cpu_protocol.py - the inter-rank protocol on the CPU (distributed host target): for 1..32
MPI ranks on this machine, runs apps with GTAP_STATS=1 and records, per run, the time,
steals attempted / succeeded, messages per successful steal, and the stop latency (rank 0's
termination decision to the last rank leaving the run). Writes runs.csv, summary.csv,
summary.md and SVG plots to OUT.

  python3 bench/dist/cpu_protocol.py --build build --out bench/results/DATE-dist-cpu

Every rank is two threads (executor + proxy); with more threads than cores the numbers
include oversubscription (the report states the core count)."""
import argparse, csv, os, re, statistics, subprocess, sys, time

APPS = {
    # name: (binary relative to build, args, termination mode)
    "uts_T1M": ("apps/uts/uts_dist_host", ["T1M", "{runs}"], "root completion"),
    "uts_T1": ("apps/uts/uts_dist_host", ["T1", "{runs}"], "root completion"),
    "fib_27": ("apps/dist/dist_fib_host", ["27", "{runs}"], "root completion"),
    "nqueens_ntw_12": ("apps/dist/dist_nqueens_ntw_host", ["12", "{runs}"], "Safra token"),
}
HEAD = re.compile(r"gtap: stats: run (\d+), (\d+) ranks, termination by ([a-zA-Z ]+), stop latency max ([0-9.]+) ms")
ROW = re.compile(r"gtap: stats:\s+(\d+)\s+" + r"\s+".join([r"([0-9.]+)"] * 16) + r"\s*$")
PASS = re.compile(r"PASS: .* in ([0-9.]+) ms")
COLS = ["steals_att", "steals_ok", "served", "tasks_in", "tasks_out", "kib_in", "kib_out", "results_in",
        "results_out", "msgs_sent", "msgs_recv", "segments", "idle_ms", "first_work_ms", "run_ms", "stop_ms"]


def mpirun_cmd(np_):
    cmd = ["mpirun"]
    ver = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout
    if "Open MPI" in ver:
        cmd += ["--oversubscribe", "--bind-to", "none", "--mca", "btl", "self,vader", "-x", "GTAP_STATS=1"]
        if os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
    return cmd + ["-np", str(np_)]


def run_once(build, app, np_, runs):
    binary, args, mode = APPS[app]
    args = [a.format(runs=runs) for a in args]
    env = dict(os.environ, GTAP_STATS="1", GTAP_WATCHDOG_S="120")
    p = subprocess.run(mpirun_cmd(np_) + [os.path.join(build, binary)] + args, capture_output=True,
                       text=True, env=env, timeout=600)
    out = p.stdout + p.stderr
    if p.returncode != 0 or "FAIL" in out:
        sys.exit(f"{app} on {np_} ranks failed:\n{out}")
    times = [float(m.group(1)) for m in PASS.finditer(out)]
    runs_out, cur = [], None
    for line in out.splitlines():
        m = HEAD.search(line)
        if m:
            cur = {"run": int(m.group(1)), "ranks": int(m.group(2)), "mode": m.group(3).strip(),
                   "stop_ms_max": float(m.group(4)), "rows": []}
            runs_out.append(cur)
            continue
        m = ROW.search(line)
        if m and cur is not None:
            cur["rows"].append(dict(zip(["rank"] + COLS, [float(x) for x in m.groups()])))
    for r, t in zip(runs_out, times):
        r["time_ms"] = t
    return runs_out


def summarize(r):
    rows = r["rows"]
    att = sum(x["steals_att"] for x in rows)
    ok = sum(x["steals_ok"] for x in rows)
    msgs = sum(x["msgs_sent"] for x in rows)
    seg = sum(x["segments"] for x in rows)
    idle = sum(x["idle_ms"] for x in rows)
    busy_total = sum(x["run_ms"] for x in rows)
    return {"ranks": r["ranks"], "mode": r["mode"], "time_ms": r.get("time_ms", float("nan")),
            "steals_attempted": att, "steals_succeeded": ok,
            "msgs_total": msgs, "msgs_per_successful_steal": msgs / ok if ok else float("nan"),
            "steal_msgs_per_successful_steal": 2 * att / ok if ok else float("nan"),
            "tasks_migrated": sum(x["tasks_in"] for x in rows),
            "stop_latency_ms": r["stop_ms_max"], "idle_fraction": idle / busy_total if busy_total else 0,
            "segments": seg}


def svg_plot(path, title, xlabel, ylabel, series, logx=True, logy=False):
    """A minimal line plot (no matplotlib needed): series = {name: [(x, y), ...]}."""
    import math
    W, H, L, R, T, B = 640, 400, 70, 150, 40, 50
    xs = [x for s in series.values() for x, _ in s]
    ys = [y for s in series.values() for _, y in s if y == y]
    if not xs or not ys:
        return
    fx = (lambda v: math.log2(v)) if logx else (lambda v: v)
    x0, x1 = fx(min(xs)), fx(max(xs))
    fy = (lambda v: math.log10(max(v, 1e-9))) if logy else (lambda v: v)
    if logy:
        y0, y1 = math.floor(fy(min(ys))), math.ceil(fy(max(ys)))
        y1 = y1 if y1 > y0 else y0 + 1
    else:
        y0, y1 = 0.0, max(ys) * 1.1 or 1.0
    X = lambda v: L + (fx(v) - x0) / ((x1 - x0) or 1) * (W - L - R)
    Y = lambda v: H - B - (fy(v) - y0) / (y1 - y0) * (H - T - B)
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W/2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{L}" y1="{H-B}" x2="{W-R}" y2="{H-B}" stroke="black"/>',
           f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>',
           f'<text x="{(L+W-R)/2}" y="{H-10}" text-anchor="middle">{xlabel}</text>',
           f'<text x="15" y="{(T+H-B)/2}" text-anchor="middle" transform="rotate(-90 15 {(T+H-B)/2})">{ylabel}</text>']
    for v in sorted(set(xs)):
        out.append(f'<text x="{X(v)}" y="{H-B+16}" text-anchor="middle">{v}</text>')
    ticks = [10 ** e for e in range(int(y0), int(y1) + 1)] if logy else [y0 + (y1 - y0) * i / 4 for i in range(5)]
    for v in ticks:
        out.append(f'<text x="{L-6}" y="{Y(v)+4}" text-anchor="end">{v:.3g}</text>')
        out.append(f'<line x1="{L}" y1="{Y(v)}" x2="{W-R}" y2="{Y(v)}" stroke="#ddd"/>')
    for k, (name, pts) in enumerate(series.items()):
        c = colors[k % len(colors)]
        pts = [(x, y) for x, y in sorted(pts) if y == y]
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                   % (c, " ".join(f"{X(x):.1f},{Y(y):.1f}" for x, y in pts)))
        for x, y in pts:
            out.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="3" fill="{c}"/>')
        out.append(f'<text x="{W-R+10}" y="{T+20+18*k}" fill="{c}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranks", default="1,2,4,8,16,32")
    ap.add_argument("--apps", default="uts_T1M,fib_27,nqueens_ntw_12")
    ap.add_argument("--runs", type=int, default=5, help="runs per job (the first is not counted)")
    ap.add_argument("--replot", action="store_true", help="only redraw the plots from OUT/summary.csv")
    a = ap.parse_args()
    if a.replot:
        summary = [{k: (v if k in ("app", "mode") else float(v)) for k, v in r.items()}
                   for r in csv.DictReader(open(os.path.join(a.out, "summary.csv")))]
        plots(a.out, summary)
        return
    os.makedirs(a.out, exist_ok=True)
    ranks = [int(x) for x in a.ranks.split(",")]
    allruns, summary = [], []
    for app in a.apps.split(","):
        for np_ in ranks:
            t0 = time.time()
            runs = run_once(a.build, app, np_, a.runs)
            per = [summarize(r) for r in runs[1:]] or [summarize(r) for r in runs]
            for i, s in enumerate(per):
                allruns.append(dict(app=app, run=i + 2, **s))
            med = {k: statistics.median([s[k] for s in per]) for k in per[0] if k != "mode"}
            med.update(app=app, mode=per[0]["mode"], runs=len(per))
            summary.append(med)
            print(f"{app:16s} ranks={np_:3d} time={med['time_ms']:9.2f} ms  steals {med['steals_succeeded']:.0f}/"
                  f"{med['steals_attempted']:.0f}  msgs/steal {med['msgs_per_successful_steal']:.2f}  "
                  f"stop {med['stop_latency_ms']:.3f} ms  ({time.time()-t0:.1f} s)", flush=True)
    keys = ["app", "ranks", "mode", "runs", "time_ms", "steals_attempted", "steals_succeeded", "msgs_total",
            "msgs_per_successful_steal", "steal_msgs_per_successful_steal", "tasks_migrated",
            "stop_latency_ms", "idle_fraction", "segments"]
    with open(os.path.join(a.out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["run"] + keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(allruns)
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(summary)
    ncpu = os.cpu_count()
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(f"# Inter-rank protocol on the CPU ({ncpu} cores; every rank = 2 threads, so "
                f"{2*max(ranks)} threads at {max(ranks)} ranks: oversubscribed {2*max(ranks)/ncpu:.0f}x)\n\n")
        f.write("Medians over runs 2..N of one job per point. msgs/steal = all runtime messages / "
                "successful steals; steal msgs/steal = (requests + replies) / successful steals; "
                "stop latency = rank 0's termination decision to the last rank leaving the run.\n\n")
        f.write("| app | termination | ranks | time (ms) | steals ok / attempted | msgs / successful steal "
                "| steal msgs / successful steal | tasks migrated | stop latency (ms) | idle |\n")
        f.write("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for s in summary:
            f.write(f"| {s['app']} | {s['mode']} | {s['ranks']:.0f} | {s['time_ms']:.2f} | "
                    f"{s['steals_succeeded']:.0f} / {s['steals_attempted']:.0f} | "
                    f"{s['msgs_per_successful_steal']:.2f} | {s['steal_msgs_per_successful_steal']:.2f} | "
                    f"{s['tasks_migrated']:.0f} | {s['stop_latency_ms']:.3f} | {100*s['idle_fraction']:.0f}% |\n")
    plots(a.out, summary)
    print("wrote", a.out)


def plots(out, summary):
    ncpu = os.cpu_count()
    for metric, ylabel, fname, logy in [("msgs_per_successful_steal", "messages / successful steal", "msgs_per_steal.svg", True),
                                        ("stop_latency_ms", "stop latency (ms)", "stop_latency.svg", False),
                                        ("time_ms", "run time (ms)", "time.svg", True)]:
        series = {}
        for s in summary:
            if s["ranks"] > 1 or metric == "time_ms":
                series.setdefault(s["app"], []).append((int(s["ranks"]), s[metric]))
        svg_plot(os.path.join(out, fname), f"{ylabel} vs ranks (CPU, {ncpu} cores)", "MPI ranks", ylabel, series,
                 logy=logy)


if __name__ == "__main__":
    main()
