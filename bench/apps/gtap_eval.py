#!/usr/bin/env python3
"""gtap_eval.py - reproduces the evaluation of the GTaP paper's section 6 with the programs in
apps/ (GPU builds, OpenMP and sequential baselines), writing per experiment a resumable CSV, a
markdown table beside the paper's GH200 numbers, and a PNG plot.

  gtap_eval.py run --build DIR --out DIR [--quick] [--only EXP[,EXP...]] [--budget SECONDS]
                   [--retry-failed] [--timeout SECONDS] [--dry-run]
  gtap_eval.py report --out DIR

Experiments (experiments.py): check, 6.1a, 6.1b, 6.1c, 6.2, 6.2g, 6.3, 6.4, prof; --only also
takes "6.1" for all three ablations. A point already in <out>/<exp>/results.csv is not run
again (delete the row, or use --retry-failed for failed ones), so an interrupted or
budget-limited session resumes where it stopped. --dry-run prints the plan and its estimated
run time (from the paper's numbers; ours are usually faster).
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import experiments  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402


def selected(only):
    if not only:
        return list(experiments.EXPERIMENTS)
    want = []
    for e in only.split(","):
        e = e.strip()
        if e == "6.1":
            want += ["6.1a", "6.1b", "6.1c"]
        elif e in experiments.EXPERIMENTS:
            want.append(e)
        else:
            sys.exit("gtap_eval: unknown experiment %r (known: %s)" % (e, ", ".join(experiments.EXPERIMENTS)))
    return want


def cmd_run(a):
    out = os.path.abspath(a.out)
    build = os.path.abspath(a.build)
    os.makedirs(out, exist_ok=True)
    exps = selected(a.only)
    started = time.time()
    total = 0.0
    plans = {}
    for e in exps:
        pts = experiments.build(e, a.quick, out)
        plans[e] = pts
        done = runner.load_done(os.path.join(out, e, "results.csv"), a.retry_failed)
        left = [p for p in pts if runner.key(p) not in done]
        est = sum(runner.point_seconds(p, a.quick) for p in left)
        total += est
        print("plan %-5s %3d points, %3d to run, estimate %5.1f min" % (e, len(pts), len(left), est / 60), flush=True)
    print("plan total: estimate %.1f min (%s mode)" % (total / 60, "quick" if a.quick else "full"), flush=True)
    if a.dry_run:
        return 0
    failed = 0
    for e in exps:
        ran, bad, stopped = runner.run_points(plans[e], build, out, a.quick, a.budget, a.retry_failed, a.timeout,
                                             started)
        failed += bad
        report.report_exp(out, e)
        if stopped:
            break
    report.summary(out)
    print("done in %.1f min; %d failed point(s); tables: %s/*/results.md, summary: %s/summary.md" % (
        (time.time() - started) / 60, failed, out, out), flush=True)
    return 1 if failed else 0


def cmd_report(a):
    out = os.path.abspath(a.out)
    for e in experiments.EXPERIMENTS:
        md = report.report_exp(out, e)
        if md:
            print("wrote", md)
    print("wrote", report.summary(out))
    if not report.HAVE_PLT:
        print("note: matplotlib is not installed, so no PNG plots were drawn")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", required=True, help="build directory holding apps/<app>/<binary>")
    r.add_argument("--out", required=True)
    r.add_argument("--quick", action="store_true", help="a few points per sweep (about 8 minutes on an H200)")
    r.add_argument("--only", help="comma-separated experiments")
    r.add_argument("--budget", type=float, default=0, help="stop starting points after this many seconds")
    r.add_argument("--timeout", type=float, default=300,
                   help="most seconds one point may take (also capped at 5x its estimate, at least 30)")
    r.add_argument("--retry-failed", action="store_true")
    r.add_argument("--dry-run", action="store_true")
    r.set_defaults(fn=cmd_run)
    p = sub.add_parser("report")
    p.add_argument("--out", required=True)
    p.set_defaults(fn=cmd_report)
    a = ap.parse_args()
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
