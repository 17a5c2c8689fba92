"""runner.py - runs experiment points (experiments.py) as separate processes, appends one
CSV row per point to <out>/<exp>/results.csv, and skips points already there (resumable).
Each program repeats its launch itself (median of --repeat after --warmup); the runner picks
the repetitions from the point's estimate so a point stays near a time cap.
"""
import csv
import os
import subprocess
import sys
import time

from experiments import DIRS, app_of

APP_COLUMNS = ["app", "impl", "n", "params", "grid", "block", "workers", "queues", "repeat", "kernel_ms",
               "wall_ms", "kernel_min_ms", "kernel_q1_ms", "kernel_q3_ms", "check", "answer"]
COLUMNS = ["exp", "table", "series", "x", "status", "seconds"] + APP_COLUMNS + ["command"]

# Per process: start-up (CUDA context, runtime allocation), a guess used only for estimates;
# input preparation and checks are estimated per point (experiments.prep_seconds).
OVERHEAD_S = 1.2


def key(p):
    return "%s|%s|%s|%s" % (p["exp"], p["table"], p["series"], p["x"])


def binary_path(build, name):
    return os.path.join(build, "apps", DIRS[app_of(name)], name)


def plan_reps(p, quick):
    """(warmup, repeat) for a point: 5 timed runs (3 in quick mode) after one warm-up, fewer
    when one run is long; no warm-up when a run takes seconds (its cold-start share is small)."""
    est = p["est_ms"]
    cap = 3000.0 if quick else 20000.0
    reps = max(1, min(3 if quick else 5, int(cap / est)))
    warm = 0 if est > (1000.0 if quick else 5000.0) else 1
    return warm, reps


def point_seconds(p, quick):
    w, r = plan_reps(p, quick)
    return OVERHEAD_S + p.get("prep_s", 0.0) + (w + r) * p["est_ms"] / 1e3


def load_done(path, retry_failed):
    done = {}
    if os.path.exists(path):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                # no-gpu rows (a run on a machine without a device) are never final
                if row["status"] == "ok" or (row["status"] != "no-gpu" and not retry_failed):
                    done["%s|%s|%s|%s" % (row["exp"], row["table"], row["series"], row["x"])] = row
    return done


def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def run_points(points, build, out, quick, budget_s, retry_failed, timeout_s, started):
    """Runs the points not yet in their experiment's CSV. Returns (ran, failed, stopped):
    stopped when the time budget would be exceeded by the next point."""
    ran = failed = 0
    by_exp = {}
    for p in points:
        by_exp.setdefault(p["exp"], []).append(p)
    for exp, pts in by_exp.items():
        d = os.path.join(out, exp)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "results.csv")
        done = load_done(path, retry_failed)
        todo = [p for p in pts if key(p) not in done]
        missing = [p for p in todo if not os.path.exists(binary_path(build, p["binary"]))]
        for p in missing:
            print("[%s] skip %s: %s not built" % (exp, p["label"], p["binary"]), flush=True)
        todo = [p for p in todo if p not in missing]
        left = sum(point_seconds(p, quick) for p in todo)
        print("[%s] %d points, %d done, %d to run (estimate %.1f min)" % (
            exp, len(pts), len(pts) - len(todo) - len(missing), len(todo), left / 60), flush=True)
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        with open(path, "a", newline="") as f, open(os.path.join(d, "runs.log"), "a") as log:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            if new:
                w.writeheader()
            for i, p in enumerate(todo):
                elapsed = time.time() - started
                need = point_seconds(p, quick)
                if budget_s and elapsed + need > budget_s:
                    print("[%s] time budget reached (%.0f s used, next point needs ~%.0f s); "
                          "run again with the same --out to resume" % (exp, elapsed, need), flush=True)
                    return ran, failed, True
                row = run_one(p, build, quick, timeout_s, log)
                w.writerow(row)
                f.flush()
                ran += 1
                failed += row["status"] != "ok"
                left -= need
                print("[%s %d/%d] %-26s %-10s x=%-10s %10s ms  %-7s %5.1f s  (elapsed %.1f min, left ~%.1f min)" % (
                    exp, i + 1, len(todo), p["label"], p["series"], p["x"], row.get("kernel_ms", "-"),
                    row["status"] if row["status"] != "ok" else row.get("check", ""), float(row["seconds"]),
                    (time.time() - started) / 60, max(left, 0) / 60), flush=True)
    return ran, failed, False


def run_one(p, build, quick, timeout_s, log):
    warm, reps = plan_reps(p, quick)
    # a hung or far slower than estimated point costs at most 5x its estimate (>= 30 s)
    timeout_s = min(timeout_s, max(30.0, 5 * point_seconds(p, quick)))
    cmd = [binary_path(build, p["binary"])] + p["args"] + ["--warmup", str(warm), "--repeat", str(reps), "--csv"]
    env = dict(os.environ)
    env.update(p["env"])
    shown = " ".join(["%s=%s" % kv for kv in sorted(p["env"].items())] + [os.path.relpath(cmd[0], build)] + cmd[1:])
    row = {"exp": p["exp"], "table": p["table"], "series": p["series"], "x": p["x"], "command": shown}
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout_s)
        out, err, rc = r.stdout, r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")) + "\n[timeout]"
        rc = "timeout"
    row["seconds"] = "%.2f" % (time.time() - t0)
    log.write("$ %s\n%s%s[exit %s]\n\n" % (shown, err, out, rc))
    log.flush()
    fields = None
    for line in out.splitlines():  # with --csv the program's stdout is its CSV row
        parts = line.strip().split(",")
        if len(parts) == len(APP_COLUMNS):
            fields = parts
    if fields:
        row.update(dict(zip(APP_COLUMNS, fields)))
    if rc == 0 and fields and fields[14] in ("pass", "skipped"):
        row["status"] = "ok"
    elif rc == 77:
        row["status"] = "no-gpu"
    elif rc == "timeout":
        row["status"] = "timeout"
    else:
        row["status"] = "fail"
        tail = [l for l in err.splitlines() if l.strip()][-2:]
        print("    %s failed (exit %s): %s" % (p["label"], rc, " | ".join(tail)), file=sys.stderr, flush=True)
    return row
