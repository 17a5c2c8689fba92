#!/bin/bash
# device_2gpu.sh BUILD OUT [bench] - the GPU node on the 2-GPU machine, in one call:
#   1. every distributed GPU app on 1 and 2 ranks at test sizes, each under a hang timeout
#      (OUT/check.*.log, a PASS/FAIL line each in OUT/check.txt);
#   2. with "bench": bench/dist/run_2gpu.sh BUILD OUT/bench (strong / weak scaling, single-GPU
#      mode), when every check passed.
# BUILD holds apps/dist/dist_*_gpu and apps/uts/uts_dist_gpu (-DGTAP_DIST_GPU_APPS=ON).
set -u
build=$(cd "${1:?usage: device_2gpu.sh BUILD OUT [bench]}" && pwd)
out=${2:?usage: device_2gpu.sh BUILD OUT [bench]}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
d=$build/apps/dist
u=$build/apps/uts
flags="--bind-to none -x GTAP_WATCHDOG_S=30 -x GTAP_STATS=1"
[ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
fails=0
check() { # check NAME NP PROGRAM ARGS...
    name=$1; np=$2; shift 2
    log="$out/check.$name.np$np.log"
    start=$(date +%s%N)
    if [ "$np" -eq 0 ]; then
        timeout -k 5 "${CHECK_TIMEOUT:-60}" "$@" > "$log" 2>&1
    else
        # shellcheck disable=SC2086
        timeout -k 5 "${CHECK_TIMEOUT:-60}" mpirun $flags -np "$np" "$@" > "$log" 2>&1
    fi
    rc=$?
    s=$(( ($(date +%s%N) - start) / 1000000 ))
    line=$(grep -E '^(PASS|FAIL)' "$log" | tail -1)
    [ "$rc" -eq 0 ] && echo "$line" | grep -q '^PASS' || { fails=$((fails + 1)); line="FAIL (exit $rc) ${line}"; }
    printf '%-12s np=%d %6d ms  %s\n' "$name" "$np" "$s" "$line" | tee -a "$out/check.txt"
}
nvidia-smi -L > "$out/check.txt"
[ -x "$u/uts_gpu" ] && check uts_T1S 0 "$u/uts_gpu" T1S 2 # the node runtime alone (np 0: no mpirun)
for np in 1 2; do
    check fib "$np" "$d/dist_fib_gpu" 30 3
    check nqueens "$np" "$d/dist_nqueens_gpu" 14 8 3
    check bintree "$np" "$d/dist_bintree_gpu" 22 3
    check bintree_work "$np" "$d/dist_bintree_gpu" 16 3 64 64
    check bary "$np" "$d/dist_bary_gpu" 4 14 300 3
    check detached "$np" "$d/dist_detached_gpu" 20 3
    check nqueens_ntw "$np" "$d/dist_nqueens_ntw_gpu" 13 3
    check uts_T1 "$np" "$u/uts_dist_gpu" T1 2
done
echo "checks failed: $fails" | tee -a "$out/check.txt"
if [ "${3:-}" = bench ] && [ "$fails" -eq 0 ]; then
    REPS=${REPS:-1} RUNS=${RUNS:-6} sh "$(dirname "$0")/run_2gpu.sh" "$build" "$out/bench"
fi
