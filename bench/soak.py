#!/usr/bin/env python3
"""soak.py - randomized runs of the apps, every answer checked, every outcome classified.

    bench/soak.py --build BUILD [--target gpu|host] [--mpi] [--runs N | --minutes M]
                  [--seed S] [--hang-s T] [--jobs J] [--out DIR] [--replay I]

Run i draws, from its own generator (seed S, run i), an app and variant (thread- and block-level,
EPAQ, global queue, Chase-Lev, block sizes: whatever the build has), a problem size, and on the
GPU a grid size and the four scheduling-policy knobs (docs/configuration.md); on the host target
the reference executor's random order (GTAP_REFEXEC_SEED). With --mpi it draws a distributed app
(apps/dist, 2-4 ranks; on one GPU the ranks share it: GTAP_DIST_SHARE_GPU=1, under MPS if its
daemon runs) and the direct-steal knob. Each run is one process, classified as

    PASS         exit 0 and the app's check passed (a "check: PASS" or "PASS:" line, no FAIL)
    NAMED_ERROR  a non-zero exit with a "gtap: error" / "gtap: rank" message (a capacity limit
                 and its knob, a refused configuration): correct behaviour for the input
    WRONG        the app's check failed
    HANG         no exit within --hang-s seconds (default 120; the process group is killed),
                 or a watchdog ended it (single-GPU runs set GTAP_WATCHDOG_S to a third of it)
    SLOW         killed at --hang-s while its progress report (single-GPU runs set
                 GTAP_PROGRESS to a tenth of it) still counted new task segments: a problem
                 too large for its grid and time, not a stuck run (replay it with more time)
    CRASH        a signal, a CUDA fault, or a non-zero exit without a runtime message

Writes DIR/soak.csv (run, class, seconds, rc, command with its environment), DIR/soak.log (the
output of every run that did not pass) and DIR/summary.txt (counts per class and per app). Exit
status 1 if any run was WRONG, HANG or CRASH; 77 with --target gpu on a machine without a GPU.
--jobs J runs J at a time (on one GPU they share it by time slices, or under MPS; each run still
draws from its own generator, so a run replays alone the same). --replay I runs only run I of
the seed again and prints its output. Needs Python 3 (standard library) and, with --mpi, mpirun.
"""
import argparse
import concurrent.futures
import csv
import os
import random
import re
import signal
import subprocess
import sys
import time

# app: (directory, [(variant suffix, kind)], size(rng, target) -> args)
# kind: "thread" or "block"; GPU variants are binaries APP+suffix, host ones APP+suffix+"_host".
GPU_VARIANTS = {
    "fib": ["", "_cl", "_gq", "_epaq", "_cutoff", "_bs32", "_cl_bs32", "_gq_bs32"],
    "nqueens": ["", "_cl", "_gq", "_epaq", "_bs32", "_cl_bs32", "_gq_bs32"],
    "cilksort": ["", "_cl", "_gq", "_epaq", "_bs32", "_cl_bs32", "_gq_bs32", "_regs", "_warp"],
    "mergesort": ["", "_warp"],
    "binary_tree": ["", "_block", "_block32", "_block256", "_block32_gq", "_block256_gq"],
    "bary_tree": ["", "_block"],
    "bfs": ["", "_block", "_batched"],
    "spmv": ["", "_block"],
    "nqueens_tuned": ["", "_epaq"],
    "hetero_tree": ["", "_kq", "_block", "_block_cutoff"],
    "adaptive_integration": ["", "_block"],
    "fmm": ["", "_fused", "_partitioned", "_worklist"],
    "kclique": ["", "_block"],
    "uts": ["_gpu", "_dfs_gpu"],
}
HOST_VARIANTS = {
    "fib": ["", "_epaq"],
    "nqueens": ["", "_epaq"],
    "cilksort": ["", "_epaq", "_warp"],
    "mergesort": ["", "_warp"],
    "binary_tree": ["", "_block"],
    "bary_tree": ["", "_block"],
    "bfs": ["", "_block", "_batched"],
    "spmv": [""],
    "nqueens_tuned": ["", "_epaq"],
    "hetero_tree": ["", "_kq", "_block", "_block_cutoff"],
    "adaptive_integration": ["", "_block"],
    "fmm": ["", "_fused", "_partitioned", "_worklist"],
    "kclique": ["", "_block"],
    "uts": ["_host", "_dfs_host"],
}
APP_DIR = {"fib": "fib", "nqueens": "nqueens", "cilksort": "cilksort", "mergesort": "mergesort",
           "binary_tree": "tree", "bary_tree": "tree", "bfs": "bfs", "spmv": "spmv",
           "nqueens_tuned": "nqueens_tuned", "hetero_tree": "hetero_tree",
           "adaptive_integration": "adaptive_integration", "fmm": "fmm", "kclique": "kclique", "uts": "uts"}


def binary_name(app, variant, host):
    """The binary of a variant: APP+variant (+"_host" on the host target); UTS names its
    targets uts_gpu / uts_host / uts_dfs_gpu / uts_dfs_host, its variants carry the suffix."""
    if app == "uts":
        return app + variant
    return app + variant + ("_host" if host else "")


def app_args(app, variant, rng, host):
    """The app's command-line arguments: a size its check can verify, small on the host target
    (smaller still for block-level variants, whose every task runs on 32-256 simulated threads)."""
    s = 0 if host else 1
    blk = host and "_block" in variant
    if app == "fib":
        a = ["--n", str(rng.randint(2, 27 if host else 32))]
        if variant in ("_epaq", "_cutoff"):
            a += ["--cutoff", str(rng.randint(2, 12))]
    elif app == "nqueens":
        a = ["--n", str(rng.randint(4, 11 if host else 14))]
        a += ["--cutoff", str(rng.randint(1, 8))]
    elif app == "cilksort":
        a = ["--n", str(rng.randint(1, [1000000, 4000000][s]))]
        if variant == "_warp":  # warp merges from 300 elements up (cut-merge 256 at least)
            a += ["--warp-merge", str(rng.choice([300, 1024, 2048, 8192]))]
    elif app == "mergesort":
        a = ["--n", str(rng.randint(1, [1000000, 4000000][s]))]
        if variant == "_warp":
            wm = rng.choice([16, 256, 1024, 4096])
            a += ["--warp-merge", str(wm), "--split", str(wm * rng.choice([1, 2, 8, 64]))]
    elif app == "binary_tree":
        a = ["--n", str(rng.randint(1, 10 if blk else [16, 20][s])), "--mem", str(rng.choice([0, 1, 16, 64])),
             "--compute", str(rng.choice([0, 1, 16, 64]))]
    elif app == "bary_tree":
        # nodes grow about 2.5x a level with 5 branches (depth 18: 22 M), under 2x with 4
        branch = rng.randint(2, 4 if host else 5)
        a = ["--n", str(rng.randint(2, 8 if blk else [12, 18 if branch == 5 else 24][s])),
             "--branch", str(branch),
             "--mem", str(rng.choice([0, 8])), "--compute", str(rng.choice([0, 8]))]
    elif app == "bfs":
        a = ["--n", str(rng.randint(2, 3000 if blk else [50000, 300000][s])),
             "--graph", rng.choice(["rmat", "grid"]), "--seed", str(rng.randint(1, 1000))]
    elif app == "spmv":
        a = ["--n", str(rng.randint(1, [50000, 200000][s])), "--nnz-max", str(rng.randint(1, 64)),
             "--seed", str(rng.randint(1, 1000))]
    elif app == "nqueens_tuned":
        n = rng.randint(1, 12 if host else 17)
        # a budget of one step makes every DFS step a task: only on small boards
        a = ["--n", str(n), "--cutoff", str(rng.randint(1, min(n, 8))),
             "--leaf-budget", str(rng.choice([0, 64, 1024, 16384] + ([1] if n <= 10 else [])))]
    elif app == "hetero_tree":
        a = ["--n", str(rng.randint(0, 8 if blk else [12, 22][s])), "--k", str(rng.choice([2, 4])),
             "--compute", str(rng.choice([0, 1, 33, 100])), "--seed", str(rng.randint(0, (1 << 32) - 1))]
    elif app == "adaptive_integration":
        lo = rng.uniform(-3, 3)
        a = ["--lo", "%.3f" % lo, "--hi", "%.3f" % (lo + rng.uniform(0.1, 2)),
             "--frequency", str(rng.randint(-100, 300)),
             "--tolerance", rng.choice(["1e-6", "1e-8", "1e-9"] if blk else ["1e-6", "1e-8", "1e-10"])]
    elif app == "fmm":
        a = ["--n", str(rng.randint(1, [8000, 300000][s])), "--dist", rng.choice(["cube", "plummer"]),
             "--theta", rng.choice(["0.25", "0.3", "0.4", "0.5", "0.6"]),
             "--leaf-size", str(rng.choice([16, 32, 64, 100])), "--seed", str(rng.randint(1, 1000))]
        if variant != "_worklist":
            a += ["--task-min", str(rng.choice([1, 64, 256, 4096]))]
    elif app == "kclique":
        a = ["--graph", "rmat", "--n", str(rng.randint(16, [1024, 8192][s])),
             "--edge-factor", str(rng.choice([4, 8, 16])), "--seed", str(rng.randint(1, 1000)),
             "--k", str(rng.randint(3, 6)), "--algo", rng.choice(["pivot", "orient"])]
    else:  # uts: positional PRESET RUNS [BUDGET], its own PASS / FAIL line
        preset = rng.choice(["T1S", "T3S", "T1M", "T3M"] if host else ["T1", "T3", "T1L", "T3L"])
        a = [preset, str(rng.randint(1, 3))]
        if variant.startswith("_dfs"):
            a.append(str(rng.choice([1, 4, 16, 64, 1024])))
        return a
    if app == "bfs" and variant == "_batched":
        a += ["--batch", str(rng.randint(1, 128))]
    return a + ["--repeat", str(rng.randint(1, 3)), "--warmup", str(rng.randint(0, 1))]


GPU_KNOBS = [("GTAP_RESUME_BATCHING", ["0", "1"]), ("GTAP_EARLY_PUBLISH", ["0", "1"]),
             ("GTAP_SPREAD", [str(v) for v in range(0, 17)]), ("GTAP_TOPUP_STEAL", ["0", "1"])]


def draw_single(rng, build, host):
    variants = HOST_VARIANTS if host else GPU_VARIANTS
    choices = []
    for app, vs in variants.items():
        for v in vs:
            path = os.path.join(build, "apps", APP_DIR[app], binary_name(app, v, host))
            if os.access(path, os.X_OK):
                choices.append((app, v, path))
    if not choices:
        sys.exit("soak: no app binaries under %s/apps (build the project first)" % build)
    app, v, path = rng.choice(choices)
    env = {}
    if host:
        env["GTAP_REFEXEC_SEED"] = str(rng.randint(0, 1 << 30))
    else:
        if rng.random() < 0.5:
            env["GTAP_GRID_SIZE"] = str(rng.choice([1, 2, 3, 7, 16, 33, 66, 132, 264, 528]))
        for k, vals in GPU_KNOBS:
            if rng.random() < 0.5:
                env[k] = rng.choice(vals)
    return app + v, env, [path] + app_args(app, v, rng, host)


# Distributed apps (apps/dist, positional arguments) and what they take.
def dist_args(app, rng, host):
    s = 0 if host else 1
    if app == "fib":
        return [str(rng.randint(2, [20, 32][s])), str(rng.randint(1, 3))]
    if app == "nqueens":
        return [str(rng.randint(4, [10, 15][s])), str(rng.randint(1, 8)), str(rng.randint(1, 3))]
    if app in ("bintree", "bintree_block"):
        return [str(rng.randint(1, [12, 22][s])), str(rng.randint(1, 3))]
    if app in ("bary", "bary_block"):
        return [str(rng.randint(2, 5)), str(rng.randint(2, [8, 13][s])), "300", str(rng.randint(1, 3))]
    if app == "detached":
        return [str(rng.randint(2, [14, 20][s])), str(rng.randint(1, 3))]
    if app == "nqueens_ntw":
        return [str(rng.randint(4, [10, 14][s])), str(rng.randint(1, 8))]
    if app in ("bfs", "bfs_block"):  # vertices, degree, runs, levels per phase (-1: the default)
        return [str(rng.randint(2, [3000, 500000][s])), str(rng.randint(1, 8)), str(rng.randint(1, 3)),
                str(rng.choice([-1, -1, 1, 4, 16]))]
    if app in ("uts", "uts_dfs"):
        a = [rng.choice(["T1S", "T3S", "T1M", "T3M"] if host else ["T1", "T3", "T1L"]), str(rng.randint(1, 3))]
        return a + ([str(rng.choice([1, 4, 16, 64, 1024]))] if app == "uts_dfs" else [])
    if app in ("hetero", "hetero_kq", "hetero_block"):  # height, kinds, iterations, runs, seed
        return [str(rng.randint(0, [14, 20][s])), str(rng.choice([2, 4])), str(rng.choice([0, 1, 64, 1024])),
                str(rng.randint(1, 3)), str(rng.randint(0, 1000))]
    if app == "nqueens_tuned":  # apps/nqueens_tuned: nqueens_tuned_dist
        return ["--n", str(rng.randint(1, [12, 17][s])), "--leaf-budget", rng.choice(["0", "64", "16384"]),
                "--repeat", "1", "--warmup", "0"]
    if app == "fmm":  # the fused traversal across ranks (apps/fmm: fmm_dist)
        return ["--n", str(rng.randint(1, [30000, 2000000][s])), "--dist", rng.choice(["cube", "plummer"]),
                "--theta", rng.choice(["0.3", "0.5", "0.7"]), "--task-min", rng.choice(["64", "256", "1024"]),
                "--seed", str(rng.randint(1, 1000)), "--repeat", "1", "--warmup", "0"]
    if app == "warp_sum":  # n, runs, elements per warp task
        return [str(rng.randint(1, [100000, 50000000][s])), str(rng.randint(1, 3)), str(rng.choice([8, 33, 256, 4096]))]
    if app in ("taskbench", "taskbench_block"):  # apps/taskbench: taskbench_dist, the fork-join mapping
        return taskbench_args(rng, [16, 2048][s], [6, 24][s]) + ["--repeat", "1", "--warmup", "0"]
    return [str(rng.randint(2, [8, 12][s])), "ok", str(rng.randint(1, 2))]  # block_check


def taskbench_args(rng, max_width, max_steps):
    """One Task Bench graph that the driver accepts (apps/taskbench/README.md): any pattern and
    kernel, the period and radix the pattern allows."""
    pattern = rng.choice(["trivial", "no_comm", "stencil_1d", "stencil_1d_periodic", "dom", "tree", "fft",
                          "all_to_all", "nearest", "spread", "random_nearest"])
    width = rng.randint(3 if pattern == "stencil_1d_periodic" else 1, max_width)
    a = ["-steps", str(rng.randint(1, max_steps)), "-width", str(width), "-type", pattern,
         "-kernel", rng.choice(["empty", "compute_bound", "busy_wait", "load_imbalance"]),
         "-iter", str(rng.choice([0, 16, 256, 4096])), "-seed", str(rng.randint(0, 1000))]
    if pattern in ("nearest", "spread", "random_nearest"):
        radix = rng.randint(1, min(5, width))  # more than width: a dependency twice (rejected)
        a += ["-radix", str(radix)]
        if pattern == "spread":  # later edge sets must not wrap around: period <= ceil(width / radix)
            a += ["-period", str(rng.randint(1, min(3, (width + radix - 1) // radix)))]
    return a


DIST_APPS = ["fib", "nqueens", "bintree", "bary", "detached", "nqueens_ntw", "bfs", "bintree_block",
             "bary_block", "bfs_block", "block_check", "uts", "uts_dfs", "warp_sum", "hetero", "hetero_kq",
             "hetero_block", "fmm", "nqueens_tuned", "taskbench", "taskbench_block"]


def dist_binary(build, app, host):
    """apps/dist/dist_APP_{host,gpu}; UTS's are apps/uts/uts[_dfs]_dist_{host,gpu}, the FMM's
    apps/fmm/fmm_dist_{host,gpu}, the tuned N-Queens' apps/nqueens_tuned/nqueens_tuned_dist_*,
    Task Bench's apps/taskbench/taskbench_dist[_block]_*."""
    kind = "host" if host else "gpu"
    folder = {"uts": "uts", "uts_dfs": "uts", "fmm": "fmm", "nqueens_tuned": "nqueens_tuned"}
    if app in folder:
        return os.path.join(build, "apps", folder[app], "%s_dist_%s" % (app, kind))
    if app.startswith("taskbench"):  # taskbench_dist_{host,gpu}, taskbench_dist_block_{host,gpu}
        return os.path.join(build, "apps", "taskbench", app.replace("taskbench", "taskbench_dist") + "_" + kind)
    return os.path.join(build, "apps", "dist", "dist_%s_%s" % (app, kind))


def draw_dist(rng, build, host):
    choices = []
    for app in DIST_APPS:
        path = dist_binary(build, app, host)
        if os.access(path, os.X_OK):
            choices.append((app, path))
    if not choices:
        sys.exit("soak: no distributed app binaries under %s/apps/dist" % build)
    app, path = rng.choice(choices)
    np = rng.randint(2, 4)
    env = {"GTAP_WATCHDOG_S": "60"}
    if not host:
        env["GTAP_DIST_SHARE_GPU"] = "1"
        env["GTAP_DIST_DIRECT"] = rng.choice(["0", "1"])
        # a few blocks per rank, so that the ranks of --jobs jobs sharing one GPU under MPS are
        # all resident at once (5 jobs x 4 ranks x 12 blocks of 256 threads fit an H200)
        env["GTAP_GRID_SIZE"] = rng.choice(["4", "8", "12"])
    else:
        env["GTAP_REFEXEC_SEED"] = str(rng.randint(0, 1 << 30))
    flags = ["--bind-to", "none", "--oversubscribe"]
    if os.geteuid() == 0:
        flags.append("--allow-run-as-root")
    for k in env:
        flags += ["-x", k]
    return "dist_" + app, env, ["mpirun"] + flags + ["-np", str(np), path] + dist_args(app, rng, host)


# A kernel that faulted: CUDA's own errors, which gtap_synchronize prints as "the task kernel
# failed". (A failure the runtime detected and named reaches the app as cudaErrorLaunchFailure,
# "unspecified launch failure", after its "gtap: error" message: that is a named error.)
FAULTS = ("illegal memory access", "misaligned address", "illegal instruction", "the task kernel failed",
          "Segmentation fault", "core dumped")


def classify(rc, out, hung):
    # a watchdog that fired (the single-GPU one's or the distributed layer's) ended a hang and
    # printed where it was: still a hang
    if "watchdog: no " in out:
        return "HANG"
    if hung:
        # killed at --hang-s: a single-GPU run whose progress report still counted segments in
        # its last two lines was working, not stuck
        counts = [int(m) for m in re.findall(r"^gtap: progress: .*? about (\d+) task segments", out, re.M)]
        return "SLOW" if len(counts) >= 2 and counts[-1] > counts[-2] else "HANG"
    if rc < 0 or rc >= 128 or any(f in out for f in FAULTS):
        return "CRASH"
    wrong = ("check: FAIL" in out or "\nFAIL" in "\n" + out or "MISMATCH" in out or "WRONG" in out)
    if rc == 0:
        passed = "check: PASS" in out or "check: SKIPPED" in out or "PASS:" in out
        return "WRONG" if wrong or not passed else "PASS"
    if "gtap: error" in out or "gtap: rank" in out or "gtap: the task graph failed" in out:
        # a runtime that refused the input names why; a wrong answer reported next to it is not
        # excused by it
        return "WRONG" if "check: FAIL" in out else "NAMED_ERROR"
    return "WRONG" if wrong else "CRASH"


def run_one(cmd, env, hang_s):
    e = dict(os.environ)
    e.update(env)
    t0 = time.time()
    p = subprocess.Popen(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    hung = False
    try:
        out, _ = p.communicate(timeout=hang_s)
    except subprocess.TimeoutExpired:
        hung = True
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
    return p.returncode, out.decode(errors="replace"), hung, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--target", choices=["gpu", "host"], default="gpu")
    ap.add_argument("--mpi", action="store_true")
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hang-s", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="soak-out")
    ap.add_argument("--replay", type=int, default=-1)
    a = ap.parse_args()
    if a.runs <= 0 and a.minutes <= 0 and a.replay < 0:
        ap.error("give --runs N or --minutes M (or --replay I)")
    host = a.target == "host"
    draw = draw_dist if a.mpi else draw_single
    if not host:
        try:
            gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
        except OSError:
            gpus = ""
        if "GPU" not in gpus:
            print("SKIP: --target gpu, and this machine has no GPU")
            return 77

    def drawn(i):
        name, env, cmd = draw(random.Random(a.seed * 1000003 + i), a.build, host)
        if not host and not a.mpi:  # a hang then says where it was (docs/debug.md, "Watchdog")
            env["GTAP_WATCHDOG_S"] = "%g" % max(5.0, a.hang_s / 3)
            env["GTAP_PROGRESS"] = "%g" % max(1.0, a.hang_s / 10)
        return name, env, cmd

    if a.replay >= 0:
        name, env, cmd = drawn(a.replay)
        print("replay run %d of seed %d: %s %s" % (a.replay, a.seed,
              " ".join("%s=%s" % kv for kv in sorted(env.items())), " ".join(cmd)))
        rc, out, hung, sec = run_one(cmd, env, a.hang_s)
        print(out, end="")
        print("class: %s (exit %d, %.1f s)" % (classify(rc, out, hung), rc, sec))
        return 0
    os.makedirs(a.out, exist_ok=True)
    counts, per_app = {}, {}
    t_end = time.time() + a.minutes * 60 if a.minutes > 0 else None
    with open(os.path.join(a.out, "soak.csv"), "w", newline="") as fc, \
            open(os.path.join(a.out, "soak.log"), "w") as fl:
        w = csv.writer(fc)
        w.writerow(["run", "class", "seconds", "rc", "app", "command"])
        def one(i):
            name, env, cmd = drawn(i)
            return (i, name, env, cmd) + run_one(cmd, env, a.hang_s)

        def more(i):
            return (a.runs <= 0 or i < a.runs) and (t_end is None or time.time() < t_end)

        i = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            pending = set()
            while more(i) or pending:
                while more(i) and len(pending) < max(1, a.jobs):
                    pending.add(pool.submit(one, i))
                    i += 1
                done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for f in sorted(done, key=lambda f: f.result()[0]):
                    r, name, env, cmd, rc, out, hung, sec = f.result()
                    c = classify(rc, out, hung)
                    line = " ".join("%s=%s" % kv for kv in sorted(env.items())) + " " + " ".join(cmd)
                    w.writerow([r, c, "%.2f" % sec, rc, name, line])
                    fc.flush()
                    if c != "PASS":
                        fl.write("== run %d (seed %d): %s\n%s\n%s\n" % (r, a.seed, c, line, out))
                        fl.flush()
                        print("run %d: %s: %s" % (r, c, line), file=sys.stderr)
                    counts[c] = counts.get(c, 0) + 1
                    per_app.setdefault(name, {}).setdefault(c, 0)
                    per_app[name][c] += 1
    classes = ["PASS", "NAMED_ERROR", "WRONG", "HANG", "CRASH", "SLOW"]
    with open(os.path.join(a.out, "summary.txt"), "w") as fs:
        head = "soak: %d runs (seed %d, %s%s): %s" % (i, a.seed, a.target, ", mpi" if a.mpi else "",
                                                       ", ".join("%s %d" % (k, counts.get(k, 0)) for k in classes))
        fs.write(head + "\n")
        for app in sorted(per_app):
            fs.write("  %-24s %s\n" % (app, " ".join("%s=%d" % (k, per_app[app].get(k, 0)) for k in classes
                                                      if per_app[app].get(k, 0))))
    print(head)
    bad = sum(counts.get(k, 0) for k in ("WRONG", "HANG", "CRASH"))
    return 1 if bad or i == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
