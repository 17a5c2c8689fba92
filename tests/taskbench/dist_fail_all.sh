#!/bin/sh
# dist_fail_all.sh [--gpu-job] [--env VAR=VALUE]... STATUS REGEX NP PROGRAM [ARGS...]: runs
# PROGRAM on NP MPI ranks (tests/dist/run_mpi.sh, which takes the options) and passes when
# every rank left main() with exit status STATUS (none succeeded, none was killed or aborted
# the job) and exactly one line of the output matches the extended REGEX (rank 0 says it, the
# other ranks stay quiet).
set -u
opts=""
while [ $# -gt 0 ]; do
    case "$1" in
    --gpu-job) opts="$opts $1"; shift ;;
    --env) opts="$opts $1 $2"; shift 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 4 ]; then
    echo "usage: dist_fail_all.sh [--gpu-job] [--env VAR=VALUE]... STATUS REGEX NP PROGRAM [ARGS...]" >&2
    exit 2
fi
status=$1 regex=$2 np=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
# each rank runs the program under sh, which reports the program's exit status and exits 0:
# mpirun ends a job at its first rank with a non-zero status, which could cut the others'
# reports short
# shellcheck disable=SC2016,SC2086
out=$("$here/../dist/run_mpi.sh" $opts "$np" \
    sh -c '"$0" "$@"; echo "dist_fail_all: rank exit status $?"' "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -ne 0 ]; then
    echo "FAIL: the job ended with status $rc" >&2
    exit 1
fi
lines=$(printf '%s\n' "$out" | grep -Ec -- "$regex")
if [ "$lines" -ne 1 ]; then
    echo "FAIL: $lines lines match /$regex/; one (rank 0's) was expected" >&2
    exit 1
fi
left=$(printf '%s\n' "$out" | grep -c "^dist_fail_all: rank exit status $status\$")
if [ "$left" -ne "$np" ]; then
    echo "FAIL: $left of $np ranks left with exit status $status" >&2
    exit 1
fi
if printf '%s\n' "$out" | grep -Eq "MPI_ABORT|without calling gtap_dist_finalize|signal [0-9]"; then
    echo "FAIL: a rank aborted the job instead of leaving" >&2
    exit 1
fi
echo "dist_fail_all: every one of $np ranks left with exit status $status"
exit 0
