#!/usr/bin/env python3
"""recover_from_log.py OUT [--quick] - rebuilds OUT/<exp>/results.csv from OUT/run_all.log
(the progress output of run_all.sh) for experiments whose CSV did not come back from the
GPU machine, then redraws every table and plot (gtap_eval.py report).

The progress line of a point carries its median kernel time and its check; quartiles,
answers and wall times are not in it, so recovered rows have only the median, `repeat` 1
(tables then print no [Q1-Q3]), app / impl / n taken from the point, and a command that
starts with "recovered from run_all.log". Each line is
matched to the point of experiments.py it reports (same experiment, label, series and x,
in run order); a line that matches nothing stops the script.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiments  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402

LINE = re.compile(r"^\[(\S+) (\d+)/(\d+)\] (.{26}) (\S+)\s+x=(\S+)\s+(\S+) ms\s+(\S+)\s+([\d.]+) s")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv[2:]
    with open(os.path.join(out, "run_all.log")) as f:
        lines = [m for m in (LINE.match(l) for l in f) if m]
    by_exp = {}
    for m in lines:
        by_exp.setdefault(m.group(1), []).append(m)
    for exp, ms in by_exp.items():
        path = os.path.join(out, exp, "results.csv")
        if os.path.exists(path):
            print("%s: results.csv came back, kept" % exp)
            continue
        points = experiments.build(exp, quick, out)
        rows, i = [], 0
        for m in ms:
            label, series, x = m.group(4).strip(), m.group(5), m.group(6)
            while i < len(points) and not (points[i]["label"] == label and points[i]["series"] == series
                                           and str(points[i]["x"]) == x):
                i += 1
            if i == len(points):
                sys.exit("%s: no point for the line %r" % (exp, m.group(0)))
            p = points[i]
            i += 1
            ok = m.group(8) == "pass"
            row = {c: "" for c in runner.COLUMNS}
            row.update({"exp": exp, "table": p["table"], "series": series, "x": x,
                        "status": "ok" if ok else m.group(8), "seconds": m.group(9),
                        "app": experiments.app_of(p["binary"]), "impl": series, "n": x,
                        "kernel_ms": m.group(7) if ok else "", "check": "pass" if ok else "",
                        "repeat": "1", "command": "recovered from run_all.log: " + " ".join(
                            ["apps/%s/%s" % (experiments.DIRS[experiments.app_of(p["binary"])], p["binary"])]
                            + p["args"])})
            rows.append(row)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=runner.COLUMNS)
            w.writeheader()
            w.writerows(rows)
        print("%s: %d rows recovered" % (exp, len(rows)))
    for exp in experiments.EXPERIMENTS:
        report.report_exp(out, exp)
    print("wrote", report.summary(out))


if __name__ == "__main__":
    main()
