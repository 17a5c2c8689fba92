"""report.py - markdown tables and PNG plots from the experiments' CSVs (runner.py), with our
H200 numbers beside the paper's GH200 numbers and the OpenMP / sequential baselines measured
on the same machine's CPU. Plots need matplotlib; without it the tables are still written and
`gtap_eval.py report --out DIR` can be re-run where matplotlib is installed.
"""
import csv
import os

from paper_data import PAPER
from runner import read_rows

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    HAVE_PLT = True
except Exception:  # noqa: BLE001 - any import problem means "no plots"
    HAVE_PLT = False

# DESIGN.md section 8: the points with a target (paper GTaP median, GH200).
TARGETS = [
    ("fib, every call a task", "6.2", "fib", "gtap", 30, PAPER["fib"]["gtap"][30]),
    ("fib", "6.2", "fib", "gtap", 40, PAPER["fib"]["gtap"][40]),
    ("fib, fixed cost", "6.2", "fib", "gtap", 2, PAPER["fib"]["gtap"][2]),
    ("N-Queens, cutoff 7", "6.2", "nqueens", "gtap", 14, PAPER["nqueens"]["gtap"][14]),
    ("N-Queens", "6.2", "nqueens", "gtap", 16, PAPER["nqueens"]["gtap"][16]),
    ("mergesort, cutoff 128", "6.2", "mergesort", "gtap", 10**7, PAPER["mergesort"]["gtap"][10**7]),
    ("cilksort, cutoffs 64/256", "6.2", "cilksort", "gtap", 10**8, PAPER["cilksort"]["gtap"][10**8]),
    ("binary tree, thread", "6.3", "binary_tree-depth", "gtap-thread", 20, PAPER["binary_tree_depth"]["thread"][20]),
    ("binary tree, thread", "6.3", "binary_tree-depth", "gtap-thread", 22, PAPER["binary_tree_depth"]["thread"][22]),
    ("binary tree, block-level", "6.3", "binary_tree-depth", "gtap-block", 20, PAPER["binary_tree_depth"]["block"][20]),
    ("binary tree, block-level", "6.3", "binary_tree-depth", "gtap-block", 22, PAPER["binary_tree_depth"]["block"][22]),
    ("B-ary tree, thread", "6.3", "bary_tree-depth", "gtap-thread", 32, PAPER["bary_tree_depth"]["thread"][32]),
    ("B-ary tree, block-level", "6.3", "bary_tree-depth", "gtap-block", 32, PAPER["bary_tree_depth"]["block"][32]),
]

# The check experiment's points that correspond to a paper number: label -> value.
CHECK_PAPER = {
    ("fib", "40"): PAPER["fib"]["gtap"][40], ("nqueens", "16"): PAPER["nqueens"]["gtap"][16],
    ("mergesort", "10000000"): PAPER["mergesort"]["gtap"][10**7],
    ("cilksort", "100000000"): PAPER["cilksort"]["gtap"][10**8],
    ("cilksort_regs", "100000000"): PAPER["cilksort"]["gtap"][10**8],
    ("binary_tree", "22"): PAPER["binary_tree_depth"]["thread"][22],
    ("binary_tree_block", "22"): PAPER["binary_tree_depth"]["block"][22],
    ("bary_tree", "32"): PAPER["bary_tree_depth"]["thread"][32],
    ("bary_tree_block", "32"): PAPER["bary_tree_depth"]["block"][32],
    ("fib_epaq", "40"): PAPER["epaq_fib"]["q3"][10], ("fib_cutoff", "40"): PAPER["epaq_fib"]["q1"][10],
    ("nqueens_epaq", "16"): PAPER["epaq_nqueens"]["q2"][7],
    ("cilksort_epaq", "50000000"): PAPER["epaq_cilksort"]["q3"][256],
}


def paper_value(exp, table, series, x):
    """The paper's median for one of our points, or None."""
    x = float(x)
    xi = int(x)
    if exp == "6.2":
        impl = {"gtap": "gtap", "omp-llvm": "omp", "omp": "omp", "omp-llvm256": "omp256", "omp256": "omp256",
                "seq": "seq"}.get(series)
        return PAPER.get(table, {}).get(impl, {}).get(xi) if impl else None
    if exp == "6.3":
        impl = {"gtap-thread": "thread", "gtap-block": "block", "omp-llvm": "omp", "omp": "omp"}.get(series)
        return PAPER.get(table.replace("-", "_"), {}).get(impl, {}).get(xi)
    if exp == "6.4":
        return PAPER.get("epaq_" + table, {}).get({"1q": "q1", "2q": "q2", "3q": "q3"}[series], {}).get(xi)
    if exp in ("6.1a", "6.1b", "6.1c"):
        sched, bs = series.split("-bs")
        name = {"tree-compute": "scal_tree_compute", "tree-memory": "scal_tree_memory"}.get(table, "scal_" + table)
        return PAPER.get(name, {}).get(sched, {}).get((xi, int(bs)))
    return None


def fnum(v):
    if v is None or v == "":
        return ""
    v = float(v)
    if v >= 1000:
        return "{:,.0f}".format(v)
    if v >= 100:
        return "%.1f" % v
    if v >= 10:
        return "%.2f" % v
    return "%.3f" % v


def cell(row):
    if row is None:
        return ""
    if row["status"] != "ok":
        return "*%s*" % row["status"]
    s = fnum(row["kernel_ms"])
    if int(row.get("repeat") or 1) >= 3:
        s += " [%s–%s]" % (fnum(row["kernel_q1_ms"]), fnum(row["kernel_q3_ms"]))
    if row["check"] != "pass":
        s += " (%s)" % row["check"]
    return s


def xfmt(x):
    v = float(x)
    if v >= 10**5 and v == int(v):
        k = 0
        while v % 10 == 0 and v >= 10:
            v /= 10
            k += 1
        return ("%d×10^%d" % (v, k)) if v != 1 else "10^%d" % k
    return "%g" % v


def series_order(series):
    pref = ["gtap", "gtap-thread", "gtap-block", "gtap-regs", "1q", "2q", "3q", "ws", "gq", "cl", "omp-llvm",
            "omp-llvm256", "omp", "omp256", "seq"]
    def k(s):
        base = s.split("-bs")[0]
        return (pref.index(base) if base in pref else len(pref), s)
    return sorted(series, key=k)


def machine_header(out):
    path = os.path.join(out, "machine.txt")
    if not os.path.exists(path):
        return ""
    return "Machine:\n\n```\n" + open(path).read().strip() + "\n```\n\n"


def write_table(f, exp, table, rows, ratio_pairs=()):
    """One markdown table: x down, each series ours + paper + ours/paper across."""
    xs = sorted({float(r["x"]) for r in rows})
    series = series_order({r["series"] for r in rows})
    byk = {(r["series"], float(r["x"])): r for r in rows}
    has_paper = {s: any(paper_value(exp, table, s, x) for x in xs) for s in series}
    hdr = ["x"]
    for s in series:
        hdr.append("%s (ours)" % s)
        if has_paper[s]:
            hdr += ["%s paper GH200" % s, "ours / paper"]
    for a, b in ratio_pairs:
        hdr.append("%s / %s" % (a, b))
    f.write("| " + " | ".join(hdr) + " |\n|" + "---:|" * len(hdr) + "\n")
    for x in xs:
        line = [xfmt(x)]
        for s in series:
            r = byk.get((s, x))
            line.append(cell(r))
            if has_paper[s]:
                pv = paper_value(exp, table, s, x)
                line.append(fnum(pv))
                ok = r is not None and r["status"] == "ok" and pv
                line.append("%.2f" % (float(r["kernel_ms"]) / pv) if ok else "")
        for a, b in ratio_pairs:
            ra, rb = byk.get((a, x)), byk.get((b, x))
            ok = ra and rb and ra["status"] == "ok" and rb["status"] == "ok" and float(rb["kernel_ms"]) > 0
            line.append("%.2f" % (float(ra["kernel_ms"]) / float(rb["kernel_ms"])) if ok else "")
        f.write("| " + " | ".join(line) + " |\n")
    f.write("\n")


def series_color(s):
    """One color per implementation across every panel."""
    order = ["gtap", "omp-llvm", "omp", "seq", "omp-llvm256", "omp256", "gtap-block", "gtap-regs"]
    base = {"gtap-thread": "gtap", "1q": "gtap", "ws": "gtap", "2q": "gtap-block", "3q": "gtap-block",
            "gq": "omp-llvm", "cl": "seq"}
    name = s.split("-bs")[0]
    name = base.get(name, name)
    c = "C%d" % (order.index(name) if name in order else 9)
    if "-bs" in s and not s.endswith("-bs32"):  # the second block size: a darker shade
        c = {"C0": "navy", "C1": "saddlebrown", "C3": "darkred"}.get(c, c)
    return c


def xscale(exp, table):
    """Log base of a table's x axis, or None for a linear one."""
    if exp.startswith("6.1"):
        return 2
    if (exp in ("6.2", "6.4") and table in ("fib", "nqueens")) or table.endswith("-depth"):
        return None
    if exp == "6.4":
        return 2
    return 10


def plot_tables(out_png, exp, tables, xlabel):
    if not HAVE_PLT or not tables:
        return False
    n = len(tables)
    cols = min(n, 3)
    rows_n = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 4.0 * rows_n), squeeze=False)
    for ax, (table, rows) in zip(axes.flat, tables.items()):
        series = series_order({r["series"] for r in rows})
        for s in series:
            pts = sorted((float(r["x"]), float(r["kernel_ms"])) for r in rows
                         if r["series"] == s and r["status"] == "ok" and r["kernel_ms"] and float(r["kernel_ms"]) > 0)
            if not pts:
                continue
            color = series_color(s)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=color, label="%s (ours)" % s)
            pp = sorted((x, paper_value(exp, table, s, x)) for x, _ in pts)
            pp = [(x, v) for x, v in pp if v]
            if pp:
                ax.plot([p[0] for p in pp], [p[1] for p in pp], "x--", color=color, alpha=0.6,
                        label="%s (paper GH200)" % s)
        xs = xscale(exp, table)
        if xs:
            ax.set_xscale("log", base=xs)
        ax.set_yscale("log")
        ax.set_title(table)
        ax.set_xlabel(xlabel.get(table, "size") if isinstance(xlabel, dict) else xlabel)
        ax.set_ylabel("time (ms)")
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return True


XLABELS = {
    "6.1a": "total threads (grid x block)", "6.1c": "total threads (grid x block)",
    "6.1b": "blocks (block workers)", "6.2": {"fib": "n", "nqueens": "board size n", "mergesort": "elements",
                                              "cilksort": "elements"},
    "6.2g": "vertices / rows", "6.3": {"binary_tree-depth": "depth D", "binary_tree-compute": "compute_iters",
                                      "binary_tree-mem": "mem_ops", "bary_tree-depth": "depth D",
                                      "bary_tree-compute": "compute_iters", "bary_tree-mem": "mem_ops"},
    "6.4": "cutoff",
}

TITLES = {
    "check": "Correctness at the paper's largest sizes",
    "6.1a": "6.1.1 Work stealing vs global queue, thread-level workers (fib 35, N-Queens 16, cilksort 2x10^7)",
    "6.1b": "6.1.1 Work stealing vs global queue, block-level workers (binary tree D=20)",
    "6.1c": "6.1.2 Warp-batched deque vs sequential Chase-Lev (fib 35, N-Queens 16, cilksort 2x10^7)",
    "6.2": "6.2 GPU vs CPU task parallelism: fib, N-Queens, mergesort, cilksort",
    "6.2g": "BFS and SpMV on generated inputs (no paper table to compare with)",
    "6.3": "6.3 Worker granularity: full binary tree and pruned B-ary tree",
    "6.4": "6.4 EPAQ: cutoff sweeps",
    "prof": "Mergesort profile: where the time goes",
    "geom": "Launch geometry: the runtime's default vs the paper's Table 3 (grid x block) and others",
}


def report_exp(out, exp):
    d = os.path.join(out, exp)
    rows = read_rows(os.path.join(d, "results.csv"))
    if not rows:
        return None
    # the last row of a point wins (a retried point)
    last = {}
    for r in rows:
        last[(r["table"], r["series"], r["x"])] = r
    rows = list(last.values())
    md = os.path.join(d, "results.md")
    with open(md, "w") as f:
        f.write("# %s\n\n" % TITLES.get(exp, exp))
        f.write(machine_header(out))
        f.write("Kernel time in ms: median [Q1–Q3] of the timed launches of one process (CUDA events "
                "around the launch; OpenMP / sequential: the timed region), measured on the machine above. "
                "\"paper GH200\": the published median of 20 processes on one GH200 (OpenMP on 72 Grace "
                "cores). Commands: `runs.log` and the `command` column of `results.csv`.\n\n")
        if exp == "check":
            write_check(f, rows)
        elif exp == "prof":
            write_prof(f, out, rows)
        else:
            tables = {}
            for r in rows:
                tables.setdefault(r["table"], []).append(r)
            for table in sorted(tables):
                f.write("## %s\n\n" % table)
                pairs = []
                ser = {r["series"] for r in tables[table]}
                if exp in ("6.2", "6.2g"):
                    g = "gtap" if "gtap" in ser else "gtap-thread"
                    pairs = [(s, g) for s in series_order(ser) if s.startswith("omp") or s == "seq"]
                if exp == "6.4":
                    multi = [s for s in ser if s != "1q"]
                    pairs = [("1q", m) for m in multi]
                if exp == "6.3":
                    pairs = [(s, "gtap-thread") for s in series_order(ser) if s.startswith("omp")] + \
                            [("gtap-block", "gtap-thread")]
                write_table(f, exp, table, tables[table], pairs)
            png = os.path.join(d, "results.png")
            if plot_tables(png, exp, tables, XLABELS.get(exp, "size")):
                f.write("![plot](results.png)\n")
            elif not HAVE_PLT:
                f.write("(plot not drawn: matplotlib is not installed here; run `python3 bench/apps/gtap_eval.py "
                        "report --out DIR` where it is)\n")
    return md


def write_check(f, rows):
    f.write("| program | series | size | check | kernel ms (H200 run) | paper GH200 | ours / paper | answer |\n"
            "|---|---|---:|---|---:|---:|---:|---|\n")
    for r in sorted(rows, key=lambda r: (r["series"], r.get("app", ""), float(r["x"]))):
        label = r["command"].split()[0] if r.get("command") else ""
        name = os.path.basename([t for t in r["command"].split() if "/" in t][0]) if r.get("command") else ""
        pv = CHECK_PAPER.get((name, r["x"]))
        ok = r["status"] == "ok" and pv
        f.write("| %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
            name or label, r["series"], xfmt(r["x"]), r.get("check") or r["status"], fnum(r.get("kernel_ms")),
            fnum(pv), "%.2f" % (float(r["kernel_ms"]) / pv) if ok else "", r.get("answer", "")))
    f.write("\n")


def write_prof(f, out, rows):
    for r in sorted(rows, key=lambda r: float(r["x"])):
        n = int(float(r["x"]))
        pdir = os.path.join(out, "prof", "mergesort-%d" % n)
        f.write("## mergesort n = %s: %s ms\n\n" % (xfmt(n), fnum(r.get("kernel_ms"))))
        summary = profile_summary(pdir, os.path.join(out, "prof", "mergesort-%d.png" % n), n)
        f.write(summary + "\n")


def profile_summary(pdir, png, n):
    path = os.path.join(pdir, "task_execution_intervals.csv")
    if not os.path.exists(path):
        return "(no profile at %s)\n" % pdir
    per = {}
    with open(path) as fh:
        rd = csv.reader(fh)
        next(rd)
        for w, s, e, t in rd:
            per.setdefault(int(w), []).append((int(s), int(e), int(t)))
    ivs = [x for v in per.values() for x in v]
    t0 = min(s for s, _, _ in ivs)
    t1 = max(e for _, e, _ in ivs)
    span = t1 - t0
    # busy workers over time: sweep over interval ends
    ev = sorted([(s, 1) for s, _, _ in ivs] + [(e, -1) for _, e, _ in ivs])
    busy, last, cur = {}, t0, 0
    solo = 0  # time with at most one busy worker
    timeline = []
    for t, dlt in ev:
        if cur <= 1:
            solo += t - last
        timeline.append((last, cur))
        last = t
        cur += dlt
    timeline.append((last, cur))
    longest = sorted(ivs, key=lambda x: x[1] - x[0], reverse=True)[:4]
    lines = ["%d workers ran tasks; span %.2f ms; at most one worker busy for %.2f ms (%.0f%% of the span)." % (
        len(per), span / 1e6, solo / 1e6, 100.0 * solo / max(span, 1)),
        "Longest scheduler iterations (one merge each, on one thread): " + ", ".join(
            "%.2f ms ending at %.0f%%" % ((e - s) / 1e6, 100.0 * (e - t0) / max(span, 1)) for s, e, _ in longest) + "."]
    if HAVE_PLT:
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
        top = sorted(per, key=lambda w: -sum(e - s for s, e, _ in per[w]))[:40]
        for i, w in enumerate(top):
            a1.broken_barh([((s - t0) / 1e6, (e - s) / 1e6) for s, e, _ in per[w]], (i - 0.4, 0.8), color="C0")
        a1.set_ylabel("40 busiest warps")
        a1.set_title("mergesort n=%d: per-warp task execution (GTAP_ENABLE_PROFILING)" % n)
        a2.step([(t - t0) / 1e6 for t, _ in timeline], [c for _, c in timeline], where="post")
        a2.set_yscale("symlog")
        a2.set_ylabel("busy warps")
        a2.set_xlabel("time (ms)")
        fig.tight_layout()
        fig.savefig(png, dpi=110)
        plt.close(fig)
        lines.append("\n![timeline](%s)" % os.path.basename(png))
    return "\n".join(lines) + "\n"


def summary(out):
    """summary.md: every target of DESIGN.md section 8 with our number beside it (from 6.2 / 6.3,
    else from the check run at the same size)."""
    found = {}
    for exp in ("check", "6.2", "6.3"):  # later experiments win
        for r in read_rows(os.path.join(out, exp, "results.csv")):
            if r["status"] != "ok":
                continue
            found[(exp, r["table"], r["series"], float(r["x"]))] = r
            if exp == "check":  # index by program and implementation as well
                found[("check", r["app"], r["series"], float(r["n"]))] = r  # series tells variants apart
    path = os.path.join(out, "summary.md")
    with open(path, "w") as f:
        f.write("# GTaP applications on the H200: summary against the paper (DESIGN.md section 8)\n\n")
        f.write(machine_header(out))
        f.write("| benchmark | size | paper GTaP (GH200) | ours (H200) | ours / paper | target met | from |\n"
                "|---|---:|---:|---:|---:|---|---|\n")
        for name, exp, table, series, x, pv in TARGETS:
            r, src = found.get((exp, table, series, float(x))), exp
            if r is None:
                app = table.split("-")[0]
                impl = "gtap-thread" if series in ("gtap", "gtap-thread") else series
                r, src = found.get(("check", app, impl, float(x))), "check"
            ours = float(r["kernel_ms"]) if r else None
            f.write("| %s | %s | %s | %s | %s | %s | %s |\n" % (
                name, xfmt(x), fnum(pv), fnum(ours) if ours else "not run",
                "%.2f" % (ours / pv) if ours else "", ("yes" if ours <= pv else "**no**") if ours else "",
                src if ours else ""))
        f.write("\nPer experiment: ")
        f.write(", ".join("[%s](%s/results.md)" % (e, e) for e in ("check", "geom", "6.1a", "6.1b", "6.1c", "6.2",
                                                                  "6.2g", "6.3", "6.4", "prof")
                          if os.path.exists(os.path.join(out, e, "results.csv"))))
        f.write(".\n")
    return path
