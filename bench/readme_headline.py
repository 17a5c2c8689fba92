#!/usr/bin/env python3
"""readme_headline.py - the README's headline table, generated from headline.csv.

    python3 bench/readme_headline.py                       # print the markdown table
    python3 bench/readme_headline.py --check README.md     # exit 1 if README's table differs
    python3 bench/readme_headline.py --write README.md     # replace README's table
    python3 bench/readme_headline.py --commands            # the workloads, for headline.sh

The table sits in README.md between the lines `<!-- headline:begin -->` and
`<!-- headline:end -->`. Its numbers are the `median_ms` column of
bench/results/current/headline.csv (--csv FILE for another), written as they are there, so the
README cannot say what the last measurement did not. WORKLOADS below is the one list of the
headline's workloads: headline.sh runs exactly these commands (--commands prints them).
Python 3 standard library only.
"""
import argparse
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CSV = os.path.join(ROOT, "bench", "results", "current", "headline.csv")
HEADER = ["workload", "size", "impl", "median_ms", "paper_ms", "commit", "date", "gpu"]
BEGIN, END = "<!-- headline:begin -->", "<!-- headline:end -->"
REPEAT = 11  # timed launches per row; the app reports their median

# (workload = the app's program name, size = its --n, impl, program path in the build folder,
#  extra arguments, description, paper GTaP on the GH200 (ms), upstream runtime on our H200 (ms))
# Paper and upstream numbers: DESIGN.md section 8 and bench/apps/paper_data.py.
WORKLOADS = [
    ("fib", 2, "gtap-thread", "apps/fib/fib", "", "fib, fixed cost", 0.048, None),
    ("fib", 30, "gtap-thread", "apps/fib/fib", "", "fib, every call a task", 0.958, 1.018),
    ("fib", 40, "gtap-thread", "apps/fib/fib", "", "fib, every call a task", 76.799, 92.4),
    ("nqueens", 12, "gtap-thread", "apps/nqueens/nqueens", "--cutoff 7", "N-Queens, cutoff 7", 0.396, None),
    ("nqueens", 14, "gtap-thread", "apps/nqueens/nqueens", "--cutoff 7", "N-Queens, cutoff 7", 3.014, 2.45),
    ("nqueens", 16, "gtap-thread", "apps/nqueens/nqueens", "--cutoff 7", "N-Queens, cutoff 7", 115.67, 107.7),
    ("mergesort", 10000000, "gtap-thread", "apps/mergesort/mergesort", "--cutoff 128",
     "mergesort, cutoff 128", 6681.3, None),
    ("cilksort", 100000000, "gtap-thread", "apps/cilksort/cilksort", "--cut-sort 64 --cut-merge 256",
     "cilksort, cutoffs 64 / 256", 82.188, None),
    ("binary_tree", 20, "gtap-thread", "apps/tree/binary_tree", "--mem 256 --compute 256",
     "binary tree (256 loads + 256 FMAs per node), thread-level", 4.736, 4.42),
    ("binary_tree", 22, "gtap-thread", "apps/tree/binary_tree", "--mem 256 --compute 256",
     "binary tree (256 loads + 256 FMAs per node), thread-level", 16.022, 15.6),
    ("binary_tree_block", 20, "gtap-block", "apps/tree/binary_tree_block", "--mem 256 --compute 256",
     "binary tree (256 loads + 256 FMAs per node), block-level", 18.941, None),
    ("binary_tree_block", 22, "gtap-block", "apps/tree/binary_tree_block", "--mem 256 --compute 256",
     "binary tree (256 loads + 256 FMAs per node), block-level", 74.932, None),
    ("bary_tree", 32, "gtap-thread", "apps/tree/bary_tree", "--mem 256 --compute 256",
     "pruned B-ary tree (B=3; 256 + 256 per node), thread-level", 62.489, None),
    ("mergesort-warp", 10000000, "gtap-thread", "apps/mergesort/mergesort_warp", "--cutoff 128",
     "mergesort, merges on the warp (warp task functions)", None, None),
    ("cilksort-warp", 100000000, "gtap-thread", "apps/cilksort/cilksort_warp", "--cut-sort 64 --cut-merge 256",
     "cilksort, merges on the warp (warp task functions)", None, None),
    # FIRST_LAUNCH: launch 1 minus launch 2 of one process, median over `repeat` processes
    ("first-launch", "fib30", "gtap-thread", "apps/fib/fib", "--n 30",
     "first launch of a process minus its second, fib(30); median of 11 processes", None, None),
    # The upstream's newest evaluation (paper column: its published GTaP medians on the GH200) and
    # the cluster-scale N-Queens and UTS. A ninth element overrides the command: "args" replaces
    # "--n SIZE EXTRA", "n" is the size in the app's CSV row, "repeat" / "warmup" are fixed launch
    # counts (runs of seconds), and "format": "uts" reads the median of the UTS programs' PASS lines.
    ("fmm", "5e7-theta0.2", "gtap-thread", "apps/fmm/fmm", "",
     "FMM dual-tree traversal, uniform cube, P=4 (upstream GH200)", 429.4, None,
     {"args": "--n 50000000 --theta 0.2", "n": "50000000", "repeat": 5}),
    ("fmm", "5e7-theta0.5", "gtap-thread", "apps/fmm/fmm", "",
     "FMM dual-tree traversal, uniform cube, P=4 (upstream GH200)", 30.9, None,
     {"args": "--n 50000000 --theta 0.5", "n": "50000000", "repeat": 5}),
    ("hetero-tree-queues", 28, "gtap-thread", "apps/hetero_tree/hetero_tree_kq", "--k 2 --compute 1024",
     "heterogeneous binary tree, K=2, a queue per leaf kind (upstream GH200)", 324.4, None, {"n": "28"}),
    ("nqueens-tuned", 20, "gtap-thread", "apps/nqueens_tuned/nqueens_tuned", "",
     "N-Queens, tuned leaf (iterative DFS), default cutoffs", None, None, {"repeat": 3}),
    ("nqueens-tuned", 21, "gtap-thread", "apps/nqueens_tuned/nqueens_tuned", "",
     "N-Queens, tuned leaf (iterative DFS), default cutoffs; one run", None, None, {"repeat": 1, "warmup": 0}),
    ("uts", "T1XXL", "gtap-thread", "apps/uts/uts_dfs_gpu", "",
     "UTS T1XXL (4.23 G nodes, geometric), budgeted DFS tasks; host time per run, median of 3", None, None,
     {"args": "T1XXL 3", "format": "uts"}),
    ("uts", "T3XXL", "gtap-thread", "apps/uts/uts_dfs_gpu", "",
     "UTS T3XXL (2.79 G nodes, binomial), budgeted DFS tasks; host time per run, median of 3", None, None,
     {"args": "T3XXL 3", "format": "uts"}),
]
FIRST_LAUNCH = "first-launch"


def options(w):
    """The workload's command overrides (the optional ninth element), or {}."""
    return w[8] if len(w) > 8 else {}


def command(w, build="build", repeat=REPEAT):
    """The exact command line of workload w, run from the repository root (for FIRST_LAUNCH: of
    one of its processes)."""
    size, prog, extra, o = w[1], w[3], w[4], options(w)
    if w[0] == FIRST_LAUNCH:
        return "%s/%s %s --warmup 0 --repeat 2 --verbose" % (build, prog, extra)
    args = o.get("args", "--n %s %s" % (size, extra))
    if o.get("format") != "uts":
        args += " --warmup %d --repeat %d" % (o.get("warmup", 1), o.get("repeat", repeat))
    return "%s/%s %s" % (build, prog, " ".join(args.split()))


def read_rows(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        if r.fieldnames != HEADER:
            sys.exit("%s: header is %s, expected %s" % (path, ",".join(r.fieldnames or []), ",".join(HEADER)))
        return list(r)


def fmt_size(workload, size):
    """The size as the paper writes it: n=40, 10^7 keys, D=22."""
    if not size.isdigit():
        return size
    n = int(size)
    if workload.split("-")[0] in ("mergesort", "cilksort"):
        e = len(size) - 1
        return "10^%d keys" % e if n == 10 ** e else "%d keys" % n
    if "tree" in workload:
        return "D=%d" % n
    return "n=%d" % n


def fmt_ms(s):
    """A number of ms as the CSV holds it, with its unit; '' stays empty."""
    return "%s ms" % s if s else ""


def table(rows):
    """The markdown block for README: a line saying where the numbers come from, the table."""
    by_key = {(r["workload"], r["size"], r["impl"]): r for r in rows}
    known = {(w[0], str(w[1]), w[2]) for w in WORKLOADS}
    extra = [k for k in by_key if k not in known]
    if extra:
        sys.exit("headline.csv rows not in WORKLOADS: %s" % extra)
    lines = []
    present = [w for w in WORKLOADS if (w[0], str(w[1]), w[2]) in by_key]
    runs = sorted({(by_key[(w[0], str(w[1]), w[2])]["commit"], by_key[(w[0], str(w[1]), w[2])]["date"],
                    by_key[(w[0], str(w[1]), w[2])]["gpu"]) for w in present})
    if len(runs) == 1:
        c, d, g = runs[0]
        lines.append("Kernel time (CUDA events), median of the timed launches of one process, measured on one %s "
                     "at commit %s on %s by `bench/headline.sh build OUT`, which runs the commands below from the "
                     "repository root after `./scripts/build.sh` (`bench/results/current/headline.csv`):" % (g, c, d))
    else:
        lines.append("Kernel time (CUDA events), median of the timed launches of one process "
                     "(`bench/results/current/headline.csv`: each row with the commit, date and GPU of its "
                     "measurement; rows from the 6.2 / 6.3 tables of bench/results/INDEX.md until "
                     "`bench/headline.sh build OUT` re-measures them all with the commands below, run from the "
                     "repository root after `./scripts/build.sh`):")
    lines.append("")
    cols = ["workload", "size", "paper GTaP (GH200)", "upstream runtime (H200)", "this runtime"]
    if len(runs) > 1:
        cols.append("measured")
    cols.append("command")
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "|".join("---:" if c in ("size", "paper GTaP (GH200)", "upstream runtime (H200)", "this runtime")
                                else "---" for c in cols) + "|")
    for w in present:
        r = by_key[(w[0], str(w[1]), w[2])]
        cells = [w[5], fmt_size(w[0], r["size"]), fmt_ms(r["paper_ms"]), "%s ms" % w[7] if w[7] else "",
                 "**%s ms**" % r["median_ms"]]
        if len(runs) > 1:
            cells.append("%s, %s, %s" % (r["commit"], r["date"], r["gpu"]))
        cells.append("`%s`" % command(w))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def readme_block(text, path):
    try:
        a = text.index(BEGIN + "\n") + len(BEGIN) + 1
        b = text.index(END, a)
    except ValueError:
        sys.exit("%s: no %s ... %s block" % (path, BEGIN, END))
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=DEFAULT_CSV, help="headline.csv to read (default: %(default)s)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", metavar="README", help="exit 1 if README's table differs from the CSV's")
    g.add_argument("--write", metavar="README", help="replace README's table with the CSV's")
    g.add_argument("--commands", action="store_true",
                   help="print the workloads as tab-separated workload, size, impl, paper_ms, output "
                        "format (app or uts), the size in the app's CSV row, command (program path and "
                        "arguments, relative to a build folder)")
    ap.add_argument("--repeat", type=int, default=REPEAT, help="timed launches in --commands (default %(default)s)")
    a = ap.parse_args()

    if a.commands:
        for w in WORKLOADS:
            o = options(w)
            print("\t".join([w[0], str(w[1]), w[2], repr(w[6]), o.get("format", "app"), str(o.get("n", w[1])),
                             command(w, ".", a.repeat)[2:]]))
        return 0
    want = table(read_rows(a.csv))
    if not a.check and not a.write:
        sys.stdout.write(want)
        return 0
    path = a.check or a.write
    with open(path) as f:
        text = f.read()
    s, e = readme_block(text, path)
    if a.check:
        if text[s:e] == want:
            return 0
        sys.stderr.write("%s: the headline table differs from %s; run python3 bench/readme_headline.py --write %s\n"
                         % (path, a.csv, path))
        import difflib
        sys.stderr.writelines(difflib.unified_diff(text[s:e].splitlines(True), want.splitlines(True),
                                                   "README", "headline.csv"))
        return 1
    with open(path, "w") as f:
        f.write(text[:s] + want + text[e:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
