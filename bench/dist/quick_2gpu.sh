#!/bin/bash
# quick_2gpu.sh BUILD OUT - a short look at the GPU node's scaling on the 2-GPU machine, for
# tuning between full runs of run_2gpu.sh: the scaling workloads on 1 and 2 ranks, a few
# launches each, with GTAP_STATS=1 (per-rank steals, exports refused / empty, export time).
# Writes OUT/<name>.np<N>.log and one line per run to OUT/summary.txt.
# Knobs: RUNS (4 launches per process, the first dropped in the summary), WORKLOADS (a
# subset of: tree24 treew24 nq17 nq18 fib34 uts utsT1), NPS (rank counts, "1 2"), RUN_TIMEOUT
# (120 s per process).
# Every GTAP_* variable of the caller's environment is passed to the ranks.
set -u
build=$(cd "${1:?usage: quick_2gpu.sh BUILD OUT}" && pwd)
out=${2:?usage: quick_2gpu.sh BUILD OUT}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
RUNS=${RUNS:-4}
d=$build/apps/dist
flags="--bind-to none -x GTAP_STATS=1 -x GTAP_WATCHDOG_S=30"
[ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
for v in $(env | sed -n 's/^\(GTAP_[A-Z0-9_]*\)=.*/\1/p'); do
    flags="$flags -x $v"
done
for w in ${WORKLOADS:-tree24 treew24 nq17 nq18}; do
    case $w in
        tree24) cmd="$d/dist_bintree_gpu 24 $RUNS" ;;
        treew24) cmd="$d/dist_bintree_gpu 24 $RUNS 256 256" ;;
        nq17) cmd="$d/dist_nqueens_gpu 17 7 $RUNS" ;;
        nq18) cmd="$d/dist_nqueens_gpu 18 7 $RUNS" ;;
        fib34) cmd="$d/dist_fib_gpu 34 $RUNS" ;;
        uts) cmd="$build/apps/uts/uts_dist_gpu T3 $RUNS" ;;
        utsT1) cmd="$build/apps/uts/uts_dist_gpu T1 $RUNS" ;;
        *) echo "quick_2gpu.sh: unknown workload $w" >&2; exit 2 ;;
    esac
    for np in ${NPS:-1 2}; do
        log=$out/$w.np$np.log
        # shellcheck disable=SC2086
        timeout -k 5 "${RUN_TIMEOUT:-120}" mpirun $flags -np $np $cmd > "$log" 2>&1
        rc=$?
        ms=$(sed -n 's/.*PASS: .* in \([0-9.]*\) ms.*/\1/p' "$log" | tail -n +2 | tr '\n' ' ')
        echo "$w np=$np rc=$rc $ms" | tee -a "$out/summary.txt"
    done
done
