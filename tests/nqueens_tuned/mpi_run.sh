#!/bin/sh
# mpi_run.sh [--gpu-job] NP PROGRAM [ARGS...]: runs PROGRAM on NP MPI ranks of this machine
# (Open MPI: the flags of tests/dist/run_mpi.sh) and exits with the job's status, for the
# checkpoint scripts of this directory (kill_resume.sh, periodic.sh, cross_resume.sh), which
# run a distributed program several times and judge each status themselves:
#  - a rank that dies on a signal ends the job through the launcher: mpirun's status (137
#    after a SIGKILL, or 1 when another rank noticed first and aborted the job);
#  - else every rank's own exit status, which must be the same on every rank (a rank that
#    left on its own while the others went on is an error: status 1 and a line naming them).
# Each rank runs under a shell that records its status and exits 0 (so that the launcher does
# not kill the other ranks before they record theirs) unless a signal ended the program,
# which it passes on to the launcher by ending itself with that signal.
# --gpu-job: exit 77 (skipped) on a machine without a GPU; with fewer GPUs than ranks the
# ranks share them (GTAP_DIST_SHARE_GPU=1), and a job whose ranks could not open the GPU while
# the MPS server restarted runs again (at most twice, 2 s apart), as tests/dist/run_mpi.sh does.
set -u
gpu_job=0
if [ "$1" = "--gpu-job" ]; then
    gpu_job=1
    shift
fi
np=$1
shift
if [ "$gpu_job" -eq 1 ]; then
    have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
    if [ "${have:-0}" -eq 0 ]; then
        echo "SKIP: a GPU job, and this machine has no GPU"
        exit 77
    fi
    if [ "$have" -lt "$np" ]; then
        GTAP_DIST_SHARE_GPU=1
        export GTAP_DIST_SHARE_GPU
    fi
fi
MPIRUN=${MPIRUN:-$(command -v mpirun || command -v mpiexec || true)}
if [ -z "$MPIRUN" ]; then
    echo "FAIL: mpirun not found: install openmpi-bin (scripts/install_deps.sh does)"
    exit 1
fi
flags=""
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
    flags="--oversubscribe --bind-to none --mca btl self,vader --mca pml ob1"
    [ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
fi
. "$(dirname "$0")/../dist/mps_restarting.sh" # mps_restarting LOG
log=$(mktemp)
tries=0
while :; do
    statuses=$(mktemp -d)
    # shellcheck disable=SC2016,SC2086
    "$MPIRUN" $flags -np "$np" sh -c '
        dir=$1
        shift
        "$@"
        s=$?
        echo "$s" >"$dir/${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}}"
        if [ "$s" -gt 128 ]; then
            kill -s "$(kill -l "$s")" $$
        fi
        exit 0' rank "$statuses" "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    tries=$((tries + 1))
    if [ "$gpu_job" -eq 1 ] && [ "$tries" -lt 3 ] && mps_restarting "$log"; then
        echo "note: the GPU was unavailable while the MPS server restarted; running the job again in 2 s"
        rm -rf "$statuses"
        sleep 2
        continue
    fi
    break
done
rm -f "$log"
if [ "$rc" -ne 0 ]; then
    rm -rf "$statuses"
    exit "$rc"
fi
first=""
all=""
differ=0
r=0
while [ "$r" -lt "$np" ]; do
    s=$(cat "$statuses/$r" 2>/dev/null || echo none)
    all="$all rank $r: $s;"
    [ -z "$first" ] && first=$s
    [ "$s" = "$first" ] || differ=1
    r=$((r + 1))
done
rm -rf "$statuses"
if [ "$differ" -ne 0 ] || [ "$first" = none ]; then
    echo "mpi_run: FAIL: the ranks ended differently:$all"
    exit 1
fi
exit "$first"
