#!/bin/sh
# cross_resume.sh WORKDIR SINGLE DIST NP N [OPTIONS...]: the single-process program (SINGLE)
# and the distributed one (DIST, on NP ranks under mpi_run.sh) read and write the same
# checkpoint files (apps/nqueens_tuned/README.md, "Across ranks"):
#  1. a run of SINGLE dies by SIGKILL after a checkpoint with 20 finished subtrees;
#  2. DIST resumes it and dies (rank 0 by SIGKILL, the job through the launcher) after 60;
#  3. SINGLE resumes that to the exact total;
#  4. DIST resumes the finished file: the same total, nothing to run.
# Exit status 77 (skipped) when a program finds no GPU. NQT_KILLED (a regex, optional): what
# the launcher must say of the killed rank in step 2.
set -u
dir=$1
single=$2
dist=$3
np=$4
n=$5
shift 5
mpi="$(dirname "$0")/mpi_run.sh $np"
rm -rf "$dir"
mkdir -p "$dir"
ck=$dir/run.ckpt

fail() {
    echo "cross_resume: FAIL: $*" >&2
    exit 1
}

done_in() {
    sed -n 's/^done \([0-9]*\)$/\1/p' "$ck"
}

# run LOG COMMAND...: runs COMMAND with its output in LOG (and here); returns its status
run() {
    log=$1
    shift
    "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    [ "$rc" -eq 77 ] && exit 77
    return "$rc"
}

echo "== 1. the single-process program, killed after 20 subtrees"
run "$dir/run1.log" "$single" --n "$n" "$@" --checkpoint "$ck" --checkpoint-s 0.05 --test-kill-after 20
[ "$rc" -eq 137 ] || fail "expected death by SIGKILL (exit status 137), got $rc"
[ "$(done_in)" = 20 ] || fail "the checkpoint holds $(done_in) subtrees, not 20"

echo "== 2. resumed on $np ranks, killed after 60"
run "$dir/run2.log" $mpi "$dist" --n "$n" "$@" --resume "$ck" --checkpoint-s 0.05 --test-kill-after 60
[ "$rc" -ne 0 ] || fail "the job whose rank 0 was killed exited with status 0"
[ -z "${NQT_KILLED:-}" ] || grep -Eq -- "$NQT_KILLED" "$dir/run2.log" ||
    fail "the launcher did not report the killed rank: /$NQT_KILLED/"
grep -q "20 finished before this run" "$dir/run2.log" || fail "the distributed run did not start from 20 subtrees"
grep -q "test-kill-after 60: checkpoint with 60 subtrees written; SIGKILL" "$dir/run2.log" ||
    fail "no line saying that the checkpoint with 60 subtrees was written before the kill"
[ "$(done_in)" = 60 ] || fail "the checkpoint holds $(done_in) subtrees, not 60"

echo "== 3. the single-process program to the end"
run "$dir/run3.log" "$single" --n "$n" "$@" --resume "$ck" || fail "the resumed run exited with $rc"
grep -q "60 finished before this run" "$dir/run3.log" || fail "the single-process run did not start from 60 subtrees"
grep -q "^check: PASS" "$dir/run3.log" || fail "the resumed total is wrong"
answer=$(sed -n 's/^answer: //p' "$dir/run3.log")

echo "== 4. the finished file on $np ranks"
run "$dir/run4.log" $mpi "$dist" --n "$n" "$@" --resume "$ck" || fail "the distributed run exited with $rc"
grep -q " finished before this run, 0 to run" "$dir/run4.log" || fail "a finished checkpoint ran subtrees again"
[ "$(sed -n 's/^answer: //p' "$dir/run4.log")" = "$answer" ] || fail "the distributed program gives another total"
echo "cross_resume: all checks passed ($n-queens: $answer)"
