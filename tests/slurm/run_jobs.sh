#!/bin/bash
# run_jobs.sh - submits jobs/slurm/*.sbatch with sbatch --wait to a private one-node Slurm
# cluster (cluster.sh) and checks each job's state and output.
#   run_jobs.sh SUITE SOURCE_DIR FIB NQUEENS UTS FAILTEST
# SUITE: "answers" (exact results on 1-4 ranks, the job layout, GTAP_STATS, stand-in GPUs) or
# "failures" (a failing rank ends the job: state FAILED, its message in the output). The apps
# are the host-target builds (CPU reference executor, one MPI rank per task); the jobs drop
# the scripts' GPU request with sbatch --gpus-per-task=0, as on a CPU partition.
# Exit 77 (skipped) when Slurm or munge is not installed or the user is not root, except under
# CI=true, where that is a failure (CI runs scripts/install_deps.sh as root).
set -eu
if [ $# -ne 6 ]; then
    echo "usage: $0 answers|failures SOURCE_DIR FIB NQUEENS UTS FAILTEST" >&2
    exit 2
fi
suite=$1 src=$2 fib=$3 nqueens=$4 uts=$5 failtest=$6
here=$(cd "$(dirname "$0")" && pwd)

missing=""
for c in munged slurmctld slurmd sbatch srun scontrol squeue scancel sinfo python3; do
    command -v "$c" > /dev/null 2>&1 || missing="$missing $c"
done
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: not installed:$missing (scripts/install_deps.sh installs slurmctld, slurmd, slurm-client, munge)"
        exit 1
    fi
    echo "SKIP: not installed:$missing (apt-get install slurmctld slurmd slurm-client munge libpmix-dev)"
    exit 77
fi
# slurmd starts job steps as the submitting user and must be root to do so
if [ "$(id -u)" -ne 0 ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: the Slurm test needs root (slurmd launches the tasks) and CI runs as root"
        exit 1
    fi
    echo "SKIP: the Slurm test needs root (slurmd launches the tasks)"
    exit 77
fi

. "$here/cluster.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/gtap-slurm.XXXXXX")
failures=0
finish() {
    cluster_stop
    if [ "$failures" -eq 0 ]; then
        rm -rf "$work"
    else
        cluster_logs
        echo "(kept $work)"
    fi
}
trap finish EXIT
trap 'exit 130' INT TERM

cluster_start "$work" "$here/slurm.conf.in" || { failures=1; exit 1; }
mkdir -p "$work/jobs" "$work/run"
# tasks inherit the environment of sbatch: Open MPI's session files under our work dir, and no
# core files from the rank that aborts on purpose
export TMPDIR="$work/tmp"
ulimit -c 0
export GTAP_WATCHDOG_S=60

fail() {
    echo "FAIL: $job_name: $*"
    failures=$((failures + 1))
}

# submit NAME SCRIPT [SBATCH_OPTION...] -- PROGRAM [ARG...]: runs the script with sbatch --wait
# from the source root (the scripts find common.sh there) and sets job_id, job_out, job_state,
# job_exit (the job's exit code) and job_seconds. A job that runs past its --time is killed by
# Slurm (--time=2, in minutes); sbatch --wait itself is bounded by timeout, and the suite by
# a budget that keeps it well inside the CTest timeout (a killed test could not stop the
# daemons).
suite_start=$(date +%s)
submit() {
    local script opts=() rc start
    job_name=$1 script=$2
    shift 2
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    job_out="$work/jobs/$job_name.out"
    job_id="" job_state="" job_exit="" job_seconds=0
    if [ $(( $(date +%s) - suite_start )) -gt 420 ]; then
        fail "not submitted: the suite has used its 420 s"
        return 0
    fi
    echo "== $job_name: sbatch ${opts[*]} jobs/slurm/$script $*"
    start=$(date +%s)
    rc=0
    (cd "$src" && timeout 180 sbatch --wait --parsable --time=2 --job-name="gtap-$job_name" \
        --chdir="$work/run" --output="$job_out" "${opts[@]}" "jobs/slurm/$script" "$@") \
        > "$work/jobs/$job_name.sbatch" 2>&1 || rc=$?
    job_seconds=$(( $(date +%s) - start ))
    job_id=$(grep -m1 -E '^[0-9]+$' "$work/jobs/$job_name.sbatch" || true)
    sed 's/^/   sbatch: /' "$work/jobs/$job_name.sbatch"
    [ -f "$job_out" ] && sed 's/^/   | /' "$job_out"
    if [ "$rc" -eq 124 ]; then
        fail "sbatch --wait did not return within 180 s"
    fi
    if [ -n "$job_id" ]; then
        local info
        info=$(scontrol show job "$job_id" 2>&1 || true)
        job_state=$(echo "$info" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)
        job_exit=$(echo "$info" | grep -o ' ExitCode=[0-9]*' | cut -d= -f2 || true)
    fi
    echo "   job $job_id: state ${job_state:-?}, exit code ${job_exit:-?}, sbatch status $rc, ${job_seconds}s"
}

# expect_line REGEX [COUNT]: the job's output has a line matching REGEX (exactly COUNT of them)
expect_line() {
    local n
    n=$(grep -Ec -- "$1" "$job_out" 2> /dev/null || true)
    n=${n:-0}
    if [ $# -gt 1 ]; then
        [ "$n" -eq "$2" ] || fail "expected $2 line(s) matching /$1/, found $n"
    else
        [ "$n" -gt 0 ] || fail "no line matches /$1/"
    fi
}

# expect_ok: the job completed with status 0 and no FAIL line
expect_ok() {
    [ "$job_state" = COMPLETED ] || fail "state ${job_state:-unknown}, expected COMPLETED"
    [ "$job_exit" = 0 ] || fail "exit code ${job_exit:-unknown}, expected 0"
    expect_line '^FAIL' 0
    expect_line '^gtap job: exit status 0$' 1
}

# expect_failed REGEX: the job failed with a message matching REGEX, and ended well before its
# time limit (no rank was left hanging)
expect_failed() {
    [ "$job_state" = FAILED ] || fail "state ${job_state:-unknown}, expected FAILED"
    [ "${job_exit:-0}" != 0 ] || fail "exit code ${job_exit:-unknown}, expected non-zero"
    expect_line "$1"
    expect_line '^gtap job: exit status [1-9][0-9]*$' 1
    [ "$job_seconds" -lt 90 ] || fail "took ${job_seconds}s: the other ranks did not end promptly"
}

# expect_layout NTASKS: the script printed one layout line per task (rank, host, local rank)
expect_layout() {
    local t
    expect_line "^gtap job [0-9]+: 1 node\\(s\\) \\[[^]]+\\], $1 task\\(s\\), " 1
    for t in $(seq 0 $(($1 - 1))); do
        expect_line "^gtap job: task $t on [^ ]+, local rank $t, " 1
    done
}

host=$(hostname -s)
nogpu=--gpus-per-task=0
case $suite in
answers)
    submit 1node_np2 gtap_1node.sbatch $nogpu -- "$fib" 28 2
    expect_ok
    expect_layout 2
    expect_line '^PASS: fib\(28\) = 317811 on 2 rank\(s\)' 2

    submit 1node_np4 gtap_1node.sbatch $nogpu --ntasks-per-node=4 -- "$nqueens" 13 9 2
    expect_ok
    expect_layout 4
    expect_line '^PASS: nqueens\(13, cutoff 9\) = 73712 on 4 rank\(s\)' 2

    # one node is all we have; GTAP_STATS names every rank
    GTAP_STATS=1 submit multinode_n1_np4 gtap_multinode.sbatch $nogpu --nodes=1 --ntasks-per-node=4 \
        -- "$uts" T1S 1
    expect_ok
    expect_layout 4
    expect_line '^PASS: UTS T1S = 63914 nodes .* on 4 rank\(s\)' 1
    expect_line '^gtap job: GTAP_STATS=1$' 1
    for r in 0 1 2 3; do
        expect_line "^gtap: stats: +$r( +[0-9.]+){16}\$" 1
    done

    submit 1gpu gtap_1gpu.sbatch $nogpu -- "$fib" 25
    expect_ok
    expect_layout 1
    expect_line '^PASS: fib\(25\) = 75025 on 1 rank\(s\)' 1

    # the GPU request as written, served by the stand-in devices: Slurm allocates one GPU per
    # task, and with --gpu-bind=none every task sees all of the job's GPUs on the node
    if grep -q '^NodeName=' "$work/etc/gres.conf"; then
        submit 1node_gpus gtap_1node.sbatch --ntasks-per-node=4 -- "$fib" 24
        expect_ok
        expect_layout 4
        expect_line ", GPUs of the job on this node: 4, " 4
        expect_line '^PASS: fib\(24\) = 46368 on 4 rank\(s\)' 1
        scontrol show job -d "$job_id" | grep -q 'JOB_GRES=gpu:4' || fail "the job was not given 4 GPUs"
    else
        echo "note: no stand-in character devices; the job with GPUs is left out"
    fi
    ;;
failures)
    # GTAP_* reaches every rank through srun; the runtime names the rank and its device
    submit abort_np3 gtap_1node.sbatch $nogpu --ntasks-per-node=3 -- "$failtest" abort 2
    expect_failed "^gtap: rank 2 \\(host ${host}[^,]*, CPU [^)]*\\)\\): fatal signal SIGABRT; the job ends"
    expect_layout 3

    submit exit_np2 gtap_1node.sbatch $nogpu -- "$failtest" exit 1
    expect_failed "^gtap: rank 1 \\(host ${host}[^,]*, .*\\): the process exited with status 3 without calling gtap_dist_finalize"

    submit task_error_np4 gtap_multinode.sbatch $nogpu --nodes=1 --ntasks-per-node=4 -- "$failtest" task 0
    expect_failed "^gtap: rank 0 \\(host ${host}[^,]*, .*\\): task runtime error: queue\\(5\\)"

    GTAP_WATCHDOG_S=3 submit watchdog_np3 gtap_1node.sbatch $nogpu --ntasks-per-node=3 -- "$failtest" hang 2 22
    expect_failed "collective of gtap_dist_finalize"
    expect_line '^gtap job: GTAP_WATCHDOG_S=3$' 1
    ;;
*)
    echo "usage: $0 answers|failures ..." >&2
    exit 2
    ;;
esac

if [ "$failures" -ne 0 ]; then
    echo "FAIL: $failures check(s) failed"
    exit 1
fi
echo "ok: suite $suite passed"
