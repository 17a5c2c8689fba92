"""experiments.py - the points of each experiment of the paper's section 6, as run by
gtap_eval.py: which binary, which arguments, and a run-time estimate (ms per launch, from
the paper's GH200 / 72-core numbers; the OpenMP ones scaled to a 16-core CPU) that sets the
number of repetitions and lets --dry-run predict the session's length.

Experiment ids: check (every program at the paper's largest sizes), 6.1a (work stealing vs
global queue, thread-level), 6.1b (the same, block-level trees), 6.1c (batched vs sequential
Chase-Lev), 6.2 (fib, N-Queens, mergesort, cilksort vs OpenMP and sequential), 6.2g (BFS and
SpMV, not in the paper's tables), 6.3 (binary and B-ary tree sweeps), 6.4 (EPAQ cutoff
sweeps), prof (the mergesort profile), geom (launch geometry: default vs the paper's).
"""
from paper_data import PAPER

# Where each binary lives under <build>/apps/.
DIRS = {"fib": "fib", "nqueens": "nqueens", "mergesort": "mergesort", "cilksort": "cilksort",
        "binary_tree": "tree", "bary_tree": "tree", "bfs": "bfs", "spmv": "spmv"}

OMP_CORE_SCALE = 72 / 16  # paper OpenMP ran on 72 Grace cores; the H200 host has 16
SEQ_SCALE = 1.3           # a guess: one Xeon core vs one Grace core


def app_of(binary):
    for app in sorted(DIRS, key=len, reverse=True):
        if binary == app or binary.startswith(app + "_"):
            return app
    raise KeyError(binary)


def prep_seconds(binary, args):
    """Untimed work of one process besides start-up: input generation, upload and the CPU
    check (measured on the development machine; a guess, used only for estimates)."""
    a = dict(zip(args[::2], args[1::2]))
    n = float(a.get("--n", 0))
    app = app_of(binary)
    if app == "bfs":
        return 5.5 * n / 2**20 if a.get("--graph", "rmat") == "rmat" else 0.1 * n / 2**20
    if app == "spmv":
        return 3.6 * n / 1e5
    if app in ("mergesort", "cilksort"):
        return 2.0 * n / 1e8
    if app == "bary_tree":
        return 3.0 * 2 ** (n - 32) if n > 24 else 0.1
    if app == "binary_tree":
        return 1.0 * 2 ** (n - 22) if n > 16 else 0.1
    return 0.0


def point(exp, series, x, binary, args, est_ms, env=None, label=None, table=None):
    """One measured configuration: `binary args` run once as a process (it repeats the launch
    itself). series/x place it in the experiment's tables and plots; table names the table."""
    args = [str(a) for a in args]
    return {"exp": exp, "series": series, "x": x, "binary": binary, "args": args,
            "est_ms": max(float(est_ms or 1.0), 0.05), "env": env or {}, "label": label or binary,
            "table": table or app_of(binary), "prep_s": prep_seconds(binary, args)}


def _est(d, x, scale=1.0, default=1.0):
    v = d.get(x) if d else None
    return v * scale if v else default


OMP_SERIES = [("omp-llvm", "_omp_llvm"), ("omp", "_omp")]


def omp_series(quick):
    """OpenMP baselines: LLVM libomp (the paper's runtime) and GCC libgomp (the system
    compiler's); quick runs only the first one that exists."""
    return OMP_SERIES[:1] if quick else OMP_SERIES


# ---- check: every program passes at the paper's largest sizes --------------------------------

def exp_check(quick):
    P = PAPER
    pts = [
        point("check", "gtap-thread", 40, "fib", ["--n", 40], P["fib"]["gtap"][40]),
        point("check", "gtap-thread", 16, "nqueens", ["--n", 16], P["nqueens"]["gtap"][16]),
        point("check", "gtap-thread", 10**7, "mergesort", ["--n", 10**7], P["mergesort"]["gtap"][10**7]),
        point("check", "gtap-thread", 10**8, "cilksort", ["--n", 10**8], P["cilksort"]["gtap"][10**8]),
        point("check", "gtap-thread-regs", 10**8, "cilksort_regs", ["--n", 10**8], P["cilksort"]["gtap"][10**8]),
        point("check", "gtap-thread", 22, "binary_tree", ["--n", 22], P["binary_tree_depth"]["thread"][22]),
        point("check", "gtap-block", 22, "binary_tree_block", ["--n", 22], P["binary_tree_depth"]["block"][22]),
        point("check", "gtap-thread", 32, "bary_tree", ["--n", 32], P["bary_tree_depth"]["thread"][32]),
        point("check", "gtap-block", 32, "bary_tree_block", ["--n", 32], P["bary_tree_depth"]["block"][32]),
    ]
    scale = 20 if quick else 22
    side = 2048 if quick else 4096
    rows = 10**5 if quick else 10**6
    for b, s in (("bfs", "gtap-thread"), ("bfs_block", "gtap-block")):
        pts.append(point("check", s, 2**scale, b, ["--n", 2**scale, "--graph", "rmat"], 20, label=b + " rmat"))
        pts.append(point("check", s + "-grid", side * side, b, ["--n", side * side, "--graph", "grid"],
                         100 if quick else 400, label=b + " grid"))
    for b, s in (("spmv", "gtap-thread"), ("spmv_block", "gtap-block")):
        pts.append(point("check", s, rows, b, ["--n", rows], 5 if quick else 50))
    # variants at sizes of the experiments that use them
    pts += [
        point("check", "gtap-thread-cutoff", 40, "fib_cutoff", ["--n", 40, "--cutoff", 10], 9),
        point("check", "gtap-thread-epaq", 40, "fib_epaq", ["--n", 40, "--cutoff", 10], 5),
        point("check", "gtap-thread-gq", 30, "fib_gq", ["--n", 30], 60),
        point("check", "gtap-thread-cl", 35, "fib_cl", ["--n", 35], 12),
        point("check", "gtap-thread-epaq", 16, "nqueens_epaq", ["--n", 16], 110),
        point("check", "gtap-thread-gq", 14, "nqueens_gq", ["--n", 14], 40),
        point("check", "gtap-thread-cl", 16, "nqueens_cl", ["--n", 16], 130),
        point("check", "gtap-thread-epaq", 5 * 10**7, "cilksort_epaq", ["--n", 5 * 10**7, "--cutoff", 256], 45),
        point("check", "gtap-thread-gq", 10**7, "cilksort_gq", ["--n", 10**7], 80),
        point("check", "gtap-thread-cl", 2 * 10**7, "cilksort_cl", ["--n", 2 * 10**7], 25),
    ]
    for bs in (32, 256):
        pts.append(point("check", "gtap-block%d" % bs, 20, "binary_tree_block%d" % bs, ["--n", 20], 20))
        pts.append(point("check", "gtap-block%d-gq" % bs, 20, "binary_tree_block%d_gq" % bs, ["--n", 20], 800))
    for p in pts:
        p["table"] = "check"
    return pts


# ---- 6.1: scheduler ablations (worker sweeps) -------------------------------------------------

THREAD_ABLATION = [("fib", ["--n", 35], "scal_fib"), ("nqueens", ["--n", 16], "scal_nqueens"),
                   ("cilksort", ["--n", 2 * 10**7], "scal_cilksort")]


def _max_tasks_thread(total_threads):
    """Task records per warp for a sweep point: generous at few warps (a global queue runs
    breadth first), at least the runtime's default."""
    warps = max(1, total_threads // 32)
    return max(8192, min(1 << 22, (1 << 25) // warps))


def exp_61(quick, which):
    totals = [2**10, 2**14, 2**17] if quick else [2**k for k in range(10, 19)]
    bss = [32] if quick else [32, 256]
    pts = []
    env = {"GTAP_MAX_TASK_MEMORY": str(48 << 30)}
    if which in ("a", "c"):
        scheds = [("ws", ""), ("gq", "_gq")] if which == "a" else [("ws", ""), ("cl", "_cl")]
        if which == "c":
            totals = [t for t in totals if t >= 2**12] or totals
        for app, args, key in THREAD_ABLATION:
            for bs in bss:
                for sched, suffix in scheds:
                    for t in totals:
                        if t // bs < 1:
                            continue
                        est = _est(PAPER[key][sched], (t, bs), default=2000)
                        # 32-thread blocks: a build whose shared scheduler state is sized for them
                        # (apps/fib/CMakeLists.txt), as the paper built each block size.
                        binary = app + suffix + ("_bs32" if bs == 32 else "")
                        pts.append(point("6.1" + which, "%s-bs%d" % (sched, bs), t, binary,
                                         args + ["--grid", t // bs, "--block", bs,
                                                 "--max-tasks", _max_tasks_thread(t)], est, env=env,
                                         table="%s" % app))
    else:  # b: block-level trees
        for kind, comp, mem, key in (("compute", 1024, 64, "scal_tree_compute"),
                                     ("memory", 64, 1024, "scal_tree_memory")):
            for bs in bss:
                limit = {32: 8192, 64: 4096, 128: 2048, 256: 1024}[bs]
                grids = [16, 256, 4096] if quick else [2**k for k in range(4, 14)]
                for sched, suffix in (("ws", ""), ("gq", "_gq")):
                    for g in grids:
                        if g > limit:
                            continue
                        est = _est(PAPER[key][sched], (g, bs), default=3000)
                        pts.append(point("6.1b", "%s-bs%d" % (sched, bs), g,
                                         "binary_tree_block%d%s" % (bs, suffix),
                                         ["--n", 20, "--compute", comp, "--mem", mem, "--grid", g,
                                          "--max-tasks", max(16384, (1 << 22) // g)], est, env=env,
                                         table="tree-%s" % kind))
    return pts


# ---- 6.2: size sweeps against OpenMP and sequential ----------------------------------------------

def exp_62(quick):
    P = PAPER
    pts = []
    omp = omp_series(quick)
    fib_ns = [2, 30, 40] if quick else list(range(2, 41, 2))
    fib_env = {"OMP_STACKSIZE": "500M"}
    for n in fib_ns:
        pts.append(point("6.2", "gtap", n, "fib", ["--n", n], _est(P["fib"]["gtap"], n)))
        for s, suf in omp:
            if s == "omp" and n > 34:  # libgomp's shared task queue: minutes at n = 40
                continue
            pts.append(point("6.2", s, n, "fib" + suf, ["--n", n],
                             _est(P["fib"]["omp"], n, OMP_CORE_SCALE), env=fib_env))
        pts.append(point("6.2", "seq", n, "fib_seq", ["--n", n], _est(P["fib"]["seq"], n, SEQ_SCALE, 0.01)))
    nq_ns = [12, 16] if quick else list(range(1, 17))
    for n in nq_ns:
        pts.append(point("6.2", "gtap", n, "nqueens", ["--n", n], _est(P["nqueens"]["gtap"], n)))
        for s, suf in omp:
            pts.append(point("6.2", s, n, "nqueens" + suf, ["--n", n],
                             _est(P["nqueens"]["omp"], n, OMP_CORE_SCALE)))
        if not quick or n <= 14:
            pts.append(point("6.2", "seq", n, "nqueens_seq", ["--n", n],
                             _est(P["nqueens"]["seq"], n, SEQ_SCALE, 0.01)))
    ms_ns = [10**4, 10**6, 10**7] if quick else [10**k for k in range(2, 8)]
    for n in ms_ns:
        pts.append(point("6.2", "gtap", n, "mergesort", ["--n", n], _est(P["mergesort"]["gtap"], n)))
        for s, suf in omp:
            pts.append(point("6.2", s, n, "mergesort" + suf, ["--n", n],
                             _est(P["mergesort"]["omp"], n, OMP_CORE_SCALE)))
        pts.append(point("6.2", "seq", n, "mergesort_seq", ["--n", n], _est(P["mergesort"]["seq"], n, SEQ_SCALE)))
    cs_ns = [10**6, 10**8] if quick else sorted(P["cilksort"]["gtap"])
    for n in cs_ns:
        pts.append(point("6.2", "gtap", n, "cilksort", ["--n", n], _est(P["cilksort"]["gtap"], n)))
        if not quick:
            pts.append(point("6.2", "gtap-regs", n, "cilksort_regs", ["--n", n], _est(P["cilksort"]["gtap"], n)))
        for s, suf in omp:
            pts.append(point("6.2", s, n, "cilksort" + suf, ["--n", n],
                             _est(P["cilksort"]["omp"], n, OMP_CORE_SCALE)))
            pts.append(point("6.2", s + "256", n, "cilksort" + suf, ["--n", n, "--cut-sort", 64, "--cut-merge", 256],
                             _est(P["cilksort"]["omp256"], n, OMP_CORE_SCALE)))
        pts.append(point("6.2", "seq", n, "cilksort_seq", ["--n", n], _est(P["cilksort"]["seq"], n, SEQ_SCALE)))
    return pts


def exp_62g(quick):
    """BFS and SpMV on generated inputs (the paper has no comparable table: its BFS used
    downloaded graphs and its SpMV has no results)."""
    pts = []
    omp = omp_series(quick)
    graphs = [("rmat", 2**18), ("grid", 1024**2)] if quick else \
        [("rmat", 2**k) for k in (16, 18, 20, 22)] + [("grid", s * s) for s in (512, 1024, 2048, 4096)]
    for kind, n in graphs:
        args = ["--n", n, "--graph", kind]
        tbl = "bfs-" + kind
        pts.append(point("6.2g", "gtap-thread", n, "bfs", args, 20, table=tbl))
        pts.append(point("6.2g", "gtap-block", n, "bfs_block", args, 100 if kind == "grid" else 20, table=tbl))
        for s, suf in omp:
            pts.append(point("6.2g", s, n, "bfs" + suf, args, 50, table=tbl))
        pts.append(point("6.2g", "seq", n, "bfs_seq", args, 100, table=tbl))
    rows = [10**4, 10**5] if quick else [10**4, 10**5, 3 * 10**5, 10**6]
    for r in rows:
        args = ["--n", r]
        pts.append(point("6.2g", "gtap-thread", r, "spmv", args, 5, table="spmv"))
        pts.append(point("6.2g", "gtap-block", r, "spmv_block", args, 5, table="spmv"))
        for s, suf in omp:
            pts.append(point("6.2g", s, r, "spmv" + suf, args, 20, table="spmv"))
        pts.append(point("6.2g", "seq", r, "spmv_seq", args, r / 2000.0, table="spmv"))
    return pts


# ---- 6.3: tree sweeps -------------------------------------------------------------------------

def exp_63(quick):
    P = PAPER
    pts = []
    omp = omp_series(quick)[:1]  # one OpenMP runtime: the tree sweeps are long on the CPU
    env = {"OMP_STACKSIZE": "10M"}
    sweeps = {
        "binary_tree": [("depth", [20, 22] if quick else list(range(10, 23)), lambda x: (x, 256, 256)),
                        ("compute", [32768] if quick else [64 << k for k in range(10)],
                         lambda x: (20, x, 256)),
                        ("mem", [8192] if quick else [8 << k for k in range(11)], lambda x: (20, 256, x))],
        "bary_tree": [("depth", [28, 32] if quick else list(range(20, 35)), lambda x: (x, 256, 256)),
                      ("compute", [8192] if quick else [64 << k for k in range(10)],
                       lambda x: (32, x, 256)),
                      ("mem", [2048] if quick else [8 << k for k in range(11)], lambda x: (32, 256, x))],
    }
    for tree, lst in sweeps.items():
        for sweep, xs, cfg in lst:
            paper = P["%s_%s" % (tree, sweep)]
            for x in xs:
                d, comp, mem = cfg(x)
                args = ["--n", d, "--compute", comp, "--mem", mem]
                tbl = "%s-%s" % (tree, sweep)
                pts.append(point("6.3", "gtap-thread", x, tree, args, _est(paper["thread"], x, default=100), table=tbl))
                pts.append(point("6.3", "gtap-block", x, tree + "_block", args, _est(paper["block"], x, default=100),
                                 table=tbl))
                for s, suf in omp:
                    pts.append(point("6.3", s, x, tree + suf, args, _est(paper["omp"], x, OMP_CORE_SCALE, 500),
                                     env=env, table=tbl))
    return pts


# ---- 6.4: EPAQ cutoff sweeps ------------------------------------------------------------------

def exp_64(quick):
    P = PAPER
    pts = []
    for c in ([4, 8, 12, 16] if quick else list(range(2, 19))):
        args = ["--n", 40, "--cutoff", c]
        pts.append(point("6.4", "1q", c, "fib_cutoff", args, _est(P["epaq_fib"]["q1"], c), table="fib"))
        pts.append(point("6.4", "3q", c, "fib_epaq", args, _est(P["epaq_fib"]["q3"], c), table="fib"))
    for c in ([5, 7, 9] if quick else list(range(3, 11))):
        args = ["--n", 16, "--cutoff", c]
        pts.append(point("6.4", "1q", c, "nqueens", args, _est(P["epaq_nqueens"]["q1"], c), table="nqueens"))
        pts.append(point("6.4", "2q", c, "nqueens_epaq", args, _est(P["epaq_nqueens"]["q2"], c), table="nqueens"))
    for c in ([64, 256, 1024] if quick else [64 << k for k in range(7)]):
        args = ["--n", 5 * 10**7, "--cutoff", c]
        pts.append(point("6.4", "1q", c, "cilksort", args, _est(P["epaq_cilksort"]["q1"], c), table="cilksort"))
        pts.append(point("6.4", "3q", c, "cilksort_epaq", args, _est(P["epaq_cilksort"]["q3"], c), table="cilksort"))
    return pts


# ---- geometry: the runtime's default launch vs the paper's Table 3 and a few others --------

# program, arguments, the paper's (grid, block), estimate (ms)
GEOMETRY = [("fib", ["--n", 40], (4000, 32), PAPER["fib"]["gtap"][40]),
            ("nqueens", ["--n", 16], (2000, 32), PAPER["nqueens"]["gtap"][16]),
            ("mergesort", ["--n", 10**6], (1000, 32), PAPER["mergesort"]["gtap"][10**6]),
            ("cilksort", ["--n", 10**8], (2000, 32), PAPER["cilksort"]["gtap"][10**8]),
            ("binary_tree", ["--n", 22], (1000, 64), PAPER["binary_tree_depth"]["thread"][22]),
            ("bary_tree", ["--n", 32], (1000, 64), PAPER["bary_tree_depth"]["thread"][32]),
            ("binary_tree_block", ["--n", 22], (1000, 64), PAPER["binary_tree_depth"]["block"][22]),
            ("bary_tree_block", ["--n", 32], (1000, 64), PAPER["bary_tree_depth"]["block"][32])]


def exp_geom(quick):
    """Launch geometry: the runtime's default (thread level: 16 warps per SM in blocks of 256;
    block level: every resident block) against the paper's tuned Table 3 settings, and (full
    mode) other block sizes and warps per SM, to see whether a program wants another default."""
    pts = []
    for binary, args, (pg, pb), est in GEOMETRY:
        if quick and (binary.endswith("_block") or binary == "mergesort"):
            continue
        x = int(args[1])
        block_level = binary.endswith("_block")
        confs = [("default", []), ("paper-%dx%d" % (pg, pb), ["--grid", pg] + ([] if block_level else ["--block", pb]))]
        if not quick and not block_level:
            confs += [("block32", ["--block", 32]), ("block128", ["--block", 128]),
                      ("8-warps-per-SM", ["--grid", 132, "--block", 256]),
                      ("32-warps-per-SM", ["--grid", 528, "--block", 256])]
        if not quick and block_level:
            confs += [("grid264", ["--grid", 264]), ("grid2112", ["--grid", 2112])]
        for name, extra in confs:
            pts.append(point("geom", name, x, binary, args + extra, est, table=binary))
    return pts


# ---- mergesort profile: where the time goes ----------------------------------------------------

def exp_prof(quick, out_dir):
    pts = []
    for n in ([200000, 10**6] if quick else [200000, 10**6, 10**7]):
        pts.append(point("prof", "gtap-prof", n, "mergesort_prof",
                         ["--n", n, "--profile", "%s/prof/mergesort-%d" % (out_dir, n)],
                         _est(PAPER["mergesort"]["gtap"], n, default=500), table="mergesort",
                         env={"GTAP_PROFILE_CAPACITY": "20000"}))
    return pts


# In the order run_all.sh runs them: correctness and the paper's headline comparisons first.
EXPERIMENTS = ["check", "6.2", "6.3", "6.4", "6.1a", "6.1c", "6.1b", "prof", "geom", "6.2g"]


def build(exp, quick, out_dir):
    if exp == "check":
        return exp_check(quick)
    if exp.startswith("6.1"):
        return exp_61(quick, exp[-1])
    if exp == "6.2":
        return exp_62(quick)
    if exp == "6.2g":
        return exp_62g(quick)
    if exp == "6.3":
        return exp_63(quick)
    if exp == "6.4":
        return exp_64(quick)
    if exp == "prof":
        return exp_prof(quick, out_dir)
    if exp == "geom":
        return exp_geom(quick)
    raise KeyError(exp)
