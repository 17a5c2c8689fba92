#!/bin/sh
# run_2gpu.sh BUILD OUT - the inter-GPU benchmarks of issue 5 on the 2-GPU H200 machine:
#   strong scaling 1 -> 2 GPUs: N-Queens(18) and binary tree D=24, without work per node and
#   with the paper's 256 loads + 256 FMAs per node ("treew") (goal: >= 1.85x); N-Queens(17),
#   a pruned B-ary tree (B=4, 30% of the children pruned, depth BARY_D), fib(34), UTS T1/T3;
#   weak scaling: binary tree D=23 on 1 GPU vs D=24 on 2 GPUs, UTS T1 vs T1L-like;
#   single-GPU mode vs the node runtime alone (goal: within 2%): each app's "_alone" build
#   (no distributed layer) vs its distributed build on 1 rank, and fib built plain vs linked
#   with libgtap_dist without gtap_init_distributed.
# BUILD must be configured with -DGTAP_DIST_GPU_APPS=ON (and the GPU node side present).
# Writes OUT/runs.csv (one line per run), OUT/summary.md, OUT/scaling.png and OUT/logs/*.log
# (GTAP_STATS=1).
# Knobs (environment): REPS (5), NQ_N (18), NQ_CUTOFF (7), TREE_D (24), BARY_D (17), RUNS (3 launches per
# process, the first is dropped), MPIRUN (mpirun), RUN_TIMEOUT (180 s per process: a hang is
# reported as a failed run and the script goes on).
set -eu
build=${1:?usage: run_2gpu.sh BUILD OUT}
out=${2:?usage: run_2gpu.sh BUILD OUT}
REPS=${REPS:-5}; NQ_N=${NQ_N:-18}; NQ_CUTOFF=${NQ_CUTOFF:-7}; TREE_D=${TREE_D:-24}; BARY_D=${BARY_D:-17}
RUNS=${RUNS:-3}
RUN_TIMEOUT=${RUN_TIMEOUT:-180}; failed=0
MPIRUN=${MPIRUN:-mpirun}
d=$build/apps/dist
u=$build/apps/uts
mkdir -p "$out/logs"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${ngpu:-0}" -ge 2 ] || { echo "run_2gpu.sh: needs 2 GPUs, found ${ngpu:-0}" >&2; exit 1; }
flags=""
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
    flags="--bind-to none -x GTAP_STATS=1"
    [ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
fi
{
    echo "# $(date -Is) $(hostname)"
    nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv,noheader
    nvidia-smi topo -m 2>/dev/null | head -4
    "$MPIRUN" --version 2>&1 | head -1
    git -C "$(dirname "$0")/../.." log -1 --format='commit %H %s' 2>/dev/null || true
} > "$out/environment.txt"
echo "workload,config,ranks,rep,run,ms" > "$out/runs.csv"

# run NAME CONFIG RANKS COMMAND...: RANKS 0 = without mpirun
run() {
    name=$1; config=$2; np=$3; shift 3
    i=1
    while [ $i -le "$REPS" ]; do
        log="$out/logs/$name.$config.np$np.rep$i.log"
        rc=0
        if [ "$np" -eq 0 ]; then
            GTAP_STATS=1 timeout -k 5 "$RUN_TIMEOUT" "$@" > "$log" 2>&1 || rc=$?
        else
            # shellcheck disable=SC2086
            GTAP_STATS=1 timeout -k 5 "$RUN_TIMEOUT" "$MPIRUN" $flags -np "$np" "$@" > "$log" 2>&1 || rc=$?
        fi
        if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$log"; then
            echo "FAIL: $name $config np=$np exit $rc (see $log)"
            failed=$((failed + 1))
            return
        fi
        grep -oE '(PASS: |^run [0-9]).* in [0-9.]+ ms' "$log" | sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' | awk -v w="$name" -v c="$config" \
            -v n="$np" -v r="$i" 'NR > 1 { print w "," c "," n "," r "," NR "," $1 }' >> "$out/runs.csv"
        i=$((i + 1))
    done
    echo "done: $name $config ranks=$np"
}

# strong scaling
run nqueens$NQ_N alone 0 "$d/dist_nqueens_alone_gpu" "$NQ_N" "$NQ_CUTOFF" "$RUNS"
run nqueens$NQ_N dist 1 "$d/dist_nqueens_gpu" "$NQ_N" "$NQ_CUTOFF" "$RUNS"
run nqueens$NQ_N dist 2 "$d/dist_nqueens_gpu" "$NQ_N" "$NQ_CUTOFF" "$RUNS"
run tree$TREE_D alone 0 "$d/dist_bintree_alone_gpu" "$TREE_D" "$RUNS"
run tree$TREE_D dist 1 "$d/dist_bintree_gpu" "$TREE_D" "$RUNS"
run tree$TREE_D dist 2 "$d/dist_bintree_gpu" "$TREE_D" "$RUNS"
# the paper's tree: 256 loads and 256 FMAs per node (section 6.3's defaults)
run treew$TREE_D alone 0 "$d/dist_bintree_alone_gpu" "$TREE_D" "$RUNS" 256 256
run treew$TREE_D dist 1 "$d/dist_bintree_gpu" "$TREE_D" "$RUNS" 256 256
run treew$TREE_D dist 2 "$d/dist_bintree_gpu" "$TREE_D" "$RUNS" 256 256
# weak scaling: twice the work on twice the GPUs
run tree$((TREE_D - 1)) dist 1 "$d/dist_bintree_gpu" $((TREE_D - 1)) "$RUNS"
# single-GPU mode: a program that does not ask for distribution, alone vs linked
run fib34_single plain 0 "$d/dist_single_mode_plain_gpu" 34 $((RUNS + 2))
run fib34_single linked 0 "$d/dist_single_mode_linked_gpu" 34 $((RUNS + 2))
run fib34 dist 1 "$d/dist_fib_gpu" 34 "$RUNS"
run fib34 dist 2 "$d/dist_fib_gpu" 34 "$RUNS"
if [ "$NQ_N" != 17 ]; then
    run nqueens17 dist 1 "$d/dist_nqueens_gpu" 17 "$NQ_CUTOFF" "$RUNS"
    run nqueens17 dist 2 "$d/dist_nqueens_gpu" 17 "$NQ_CUTOFF" "$RUNS"
fi
run bary$BARY_D dist 1 "$d/dist_bary_gpu" 4 "$BARY_D" 300 "$RUNS"
run bary$BARY_D dist 2 "$d/dist_bary_gpu" 4 "$BARY_D" 300 "$RUNS"
run utsT1 dist 1 "$u/uts_dist_gpu" T1 "$RUNS"
run utsT1 dist 2 "$u/uts_dist_gpu" T1 "$RUNS"
run utsT3 dist 1 "$u/uts_dist_gpu" T3 "$RUNS"
run utsT3 dist 2 "$u/uts_dist_gpu" T3 "$RUNS"
# the protocol at more ranks than GPUs: 4 and 8 ranks on the 2 GPUs, a quarter (an eighth)
# of the SMs each (GTAP_DIST_SHARE_GPU; without MPS the kernels on a GPU take turns, so this
# measures the protocol, not speed)
if [ "${SHARED:-1}" -eq 1 ]; then
    flags0=$flags
    flags="$flags0 -x GTAP_DIST_SHARE_GPU=1 -x GTAP_GRID_SIZE=33"
    run nqueens16_shared dist 4 "$d/dist_nqueens_gpu" 16 7 2
    flags="$flags0 -x GTAP_DIST_SHARE_GPU=1 -x GTAP_GRID_SIZE=16"
    run nqueens16_shared dist 8 "$d/dist_nqueens_gpu" 16 7 2
    flags=$flags0
fi
echo "failed runs: $failed"

python3 - "$out" "$NQ_N" "$TREE_D" "$BARY_D" <<'PY'
import csv, statistics, sys
out, nq, d, bd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
t = {}
for r in csv.DictReader(open(f"{out}/runs.csv")):
    t.setdefault((r["workload"], r["config"], int(r["ranks"])), []).append(float(r["ms"]))
med = {k: statistics.median(v) for k, v in t.items()}
def m(w, c, n): return med.get((w, c, n), float("nan"))
lines = ["# Inter-GPU benchmarks (2 GPUs)", "", "Medians over all runs but the first of each process.", "",
         "| workload | node runtime alone (ms) | 1 GPU (ms) | 2 GPUs (ms) | speedup 1 -> 2 | goal |",
         "|---|---:|---:|---:|---:|---|"]
for w, goal in [(f"nqueens{nq}", ">= 1.85x"), (f"tree{d}", ">= 1.85x"), (f"treew{d}", ">= 1.85x"), ("fib34", ""),
                ("nqueens17", ""), (f"bary{bd}", ""), ("utsT1", ""), ("utsT3", "")]:
    a, one, two = m(w, "alone", 0), m(w, "dist", 1), m(w, "dist", 2)
    lines.append(f"| {w} | {a:.2f} | {one:.2f} | {two:.2f} | {one / two:.2f}x | {goal} |")
lines += ["", "| single-GPU mode | ms |", "|---|---:|"]
for w, c in [(f"nqueens{nq}", "alone"), (f"nqueens{nq}", "dist"), (f"tree{d}", "alone"), (f"tree{d}", "dist")]:
    n = 0 if c == "alone" else 1
    lines.append(f"| {w} {'node runtime alone' if n == 0 else 'distributed build, 1 rank'} | {m(w, c, n):.2f} |")
p, l = m("fib34_single", "plain", 0), m("fib34_single", "linked", 0)
lines.append(f"| fib(34) alone / linked with libgtap_dist, no init | {p:.2f} / {l:.2f} ({100 * (l - p) / p:+.2f}%, goal within 2%) |")
w1, w2 = m(f"tree{d-1}", "dist", 1), m(f"tree{d}", "dist", 2)
lines += ["", f"Weak scaling, binary tree: D={d-1} on 1 GPU {w1:.2f} ms, D={d} on 2 GPUs {w2:.2f} ms: "
          f"efficiency {w1 / w2:.2f}."]
shared = [(n, m("nqueens16_shared", "dist", n)) for n in (4, 8)]
lines += ["", "Ranks sharing the 2 GPUs (N-Queens(16), exact answers; the kernels on a GPU take turns): " +
          ", ".join(f"{n} ranks {v:.1f} ms" for n, v in shared) + "."]
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
python3 "$(dirname "$0")/plot_scaling.py" "$out/runs.csv" "$out/scaling.png" || echo "(no plot: matplotlib missing?)"
