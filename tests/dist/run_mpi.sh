#!/bin/sh
# run_mpi.sh - runs an MPI test program with the flags this MPI needs, under a hang timeout.
#   run_mpi.sh [--expect-fail REGEX] [--max-seconds S] [--env VAR=VALUE]... [--gpu-job]
#              NP PROGRAM [ARGS...]
# Passes when the job exits 0 and prints no "FAIL" line (or, with --expect-fail, when it
# exits non-zero within S seconds and its output matches REGEX). The timeout (default 120 s)
# only catches hangs; it is not a performance check. --gpu-job: a job of a GPU build; it exits 77
# (skipped) on a machine without a GPU, and with fewer GPUs than ranks the ranks share them
# (GTAP_DIST_SHARE_GPU=1; the gtap_mps fixture runs them under MPS where it can). A GPU job
# whose ranks could not open the GPU because the MPS server was restarting (after an earlier
# test's rank was killed or faulted, MPS ends every client of its server and starts a new one:
# "MPS server is not ready", "busy or unavailable" for a second or two) runs again, at most
# twice, 2 s apart, with a note; any other failure counts at once.
set -u
expect_fail=""
max_s=120
envs=""
gpu_job=0
while [ $# -gt 0 ]; do
    case "$1" in
    --expect-fail) expect_fail=$2; shift 2 ;;
    --max-seconds) max_s=$2; shift 2 ;;
    --env) envs="$envs $2"; shift 2 ;;
    --gpu-job) gpu_job=1; shift ;;
    *) break ;;
    esac
done
np=$1; shift
. "$(dirname "$0")/mps_restarting.sh" # mps_restarting LOG
if [ "$gpu_job" -eq 1 ]; then
    have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
    if [ "${have:-0}" -eq 0 ]; then
        echo "SKIP: a GPU job, and this machine has no GPU"
        exit 77
    fi
    if [ "$have" -lt "$np" ]; then
        echo "note: $np ranks on $have GPU(s): the ranks share them (GTAP_DIST_SHARE_GPU=1)"
        envs="$envs GTAP_DIST_SHARE_GPU=1"
    fi
fi
MPIRUN=${MPIRUN:-$(command -v mpirun || command -v mpiexec || true)}
if [ -z "$MPIRUN" ]; then
    echo "FAIL: mpirun not found: install openmpi-bin (scripts/install_deps.sh does)"
    exit 1
fi
flags=""
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
    # --bind-to none: a rank is two threads (executor + proxy); bound to one core they would
    # time-share it in scheduler quanta (milliseconds)
    flags="--oversubscribe --bind-to none"
    [ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
    # quiet, local-only transports: CI containers have no InfiniBand
    flags="$flags --mca btl self,vader --mca pml ob1"
    for e in $envs; do flags="$flags -x $e"; done
else
    for e in $envs; do flags="$flags -genv $(echo "$e" | sed 's/=/ /')"; done
fi
out=$(mktemp)
tries=0
while :; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    env $envs timeout -k 5 "$max_s" "$MPIRUN" $flags -np "$np" "$@" > "$out" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    cat "$out"
    tries=$((tries + 1))
    if [ "$gpu_job" -eq 1 ] && [ "$rc" -ne 0 ] && [ "$tries" -lt 3 ] && mps_restarting "$out"; then
        echo "note: the GPU was unavailable while the MPS server restarted; running the job again in 2 s"
        sleep 2
        continue
    fi
    break
done
# 124: timeout stopped the job; 137 is also a job whose rank died of SIGKILL (128 + 9), a
# hang only when it came from timeout's -k after max_s
if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$elapsed" -ge "$max_s" ]; }; then
    echo "FAIL: the job did not end within $max_s s (hang)"
    rm -f "$out"; exit 1
fi
if [ -n "$expect_fail" ]; then
    if [ "$rc" -eq 0 ]; then
        echo "FAIL: the job succeeded but was expected to fail"
        rm -f "$out"; exit 1
    fi
    if ! grep -Eq "$expect_fail" "$out"; then
        echo "FAIL: the output does not match /$expect_fail/"
        rm -f "$out"; exit 1
    fi
    echo "ok: failed as expected (status $rc) after ${elapsed}s"
    rm -f "$out"; exit 0
fi
if [ "$rc" -ne 0 ] || grep -q "^FAIL" "$out"; then
    echo "FAIL: status $rc"
    rm -f "$out"; exit 1
fi
rm -f "$out"
exit 0
