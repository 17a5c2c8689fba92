#!/bin/sh
# kill_resume.sh WORKDIR PROGRAM N [OPTIONS...]: the checkpoint/resume contract of
# nqueens_tuned (apps/nqueens_tuned/README.md) on one program and board size:
#  1. a run is killed by SIGKILL right after a checkpoint with 5 finished subtrees is written
#     (--test-kill-after: the run finishes exactly 5, so no timing decides what is saved);
#  2. resumed, it is killed again at 40; 3. resumed again, it gives the exact total;
#  4. a finished checkpoint resumes to the same total with nothing to run;
#  5. files of another board or depth, a newer version, a corrupt, truncated or foreign file,
#     and a --checkpoint over an existing file are refused: exit status 2 and one line, once.
# Exit status 77 (skipped) when the program finds no GPU.
# A distributed program runs under a launcher: NQT_LAUNCH (e.g. "mpi_run.sh 2") runs steps 1
# and 5, NQT_RELAUNCH (default: the same) steps 2 and 4, so that a run resumes on another
# number of ranks, and NQT_FINISH (default: NQT_LAUNCH) step 3 (e.g. with an environment that
# requires tasks to migrate). A killed job may then end with any status but 0 (rank 0's
# SIGKILL, or another rank's abort), and its output must match NQT_KILLED, the launcher's
# report of the killed rank.
set -u
dir=$1
prog=$2
n=$3
shift 3
launch=${NQT_LAUNCH:-}
relaunch=${NQT_RELAUNCH:-$launch}
finish=${NQT_FINISH:-$launch}
killed_regex=${NQT_KILLED:-}
rm -rf "$dir"
mkdir -p "$dir"
ck=$dir/run.ckpt

fail() {
    echo "kill_resume: FAIL: $*" >&2
    exit 1
}

# field NAME FILE: the number after "NAME " in the checkpoint header
field() {
    sed -n "s/^$1 \([0-9]*\)\$/\1/p" "$2"
}

# killed_at LAUNCHER K LOG [ARGS...]: runs the program expecting death by SIGKILL with K
# subtrees saved
killed_at() {
    runner=$1
    k=$2
    log=$3
    shift 3
    $runner "$prog" --n "$n" "$@" --checkpoint-s 0.05 --test-kill-after "$k" >"$log" 2>&1
    rc=$?
    cat "$log"
    [ "$rc" -eq 77 ] && exit 77
    if [ -z "$runner" ]; then
        [ "$rc" -eq 137 ] || fail "expected death by SIGKILL (exit status 137), got $rc"
    else
        [ "$rc" -ne 0 ] || fail "the job whose rank 0 was killed exited with status 0"
        grep -Eq -- "$killed_regex" "$log" || fail "the launcher did not report the killed rank: /$killed_regex/"
    fi
    grep -q "test-kill-after $k: checkpoint with $k subtrees written; SIGKILL" "$log" ||
        fail "no line saying that the checkpoint with $k subtrees was written before the kill"
    grep -q "^checksum " "$ck" || fail "no complete checkpoint in $ck"
    [ "$(field done "$ck")" = "$k" ] || fail "the checkpoint holds $(field done "$ck") subtrees, not $k"
}

# refused REGEX ARGS...: the program must exit with status 2 (every rank) and print one line
# matching REGEX (once, not once per rank)
refused() {
    regex=$1
    shift
    out=$($launch "$prog" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    [ "$rc" -eq 2 ] || fail "expected exit status 2, got $rc: $*"
    lines=$(printf '%s\n' "$out" | grep -Ec -- "$regex")
    [ "$lines" -eq 1 ] || fail "$lines lines match '$regex', expected one: $*"
}

echo "== 1. killed after 5 subtrees"
killed_at "$launch" 5 "$dir/run1.log" "$@" --checkpoint "$ck"
subtrees=$(field subtrees "$ck")
[ "$subtrees" -gt 40 ] || fail "pick a larger N: only $subtrees subtrees"
cp "$ck" "$dir/partial.ckpt"

echo "== 2. resumed, killed again after 40"
killed_at "$relaunch" 40 "$dir/run2.log" "$@" --resume "$ck"
grep -q "5 finished before this run" "$dir/run2.log" || fail "the second run did not start from 5 finished subtrees"

echo "== 3. resumed to the end"
$finish "$prog" --n "$n" "$@" --resume "$ck" --checkpoint-s 0.05 >"$dir/run3.log" 2>&1
rc=$?
cat "$dir/run3.log"
[ "$rc" -eq 0 ] || fail "the resumed run exited with $rc"
grep -q "40 finished before this run" "$dir/run3.log" || fail "the third run did not start from 40 finished subtrees"
grep -q "^check: PASS" "$dir/run3.log" || fail "the resumed total is wrong"
[ "$(field done "$ck")" = "$subtrees" ] || fail "the final checkpoint holds $(field done "$ck") of $subtrees subtrees"
answer=$(sed -n 's/^answer: //p' "$dir/run3.log")

echo "== 4. a finished checkpoint"
$relaunch "$prog" --n "$n" "$@" --resume "$ck" >"$dir/run4.log" 2>&1 || fail "resuming a finished checkpoint failed"
cat "$dir/run4.log"
grep -q "$subtrees finished before this run, 0 to run" "$dir/run4.log" || fail "a finished checkpoint ran subtrees again"
[ "$(sed -n 's/^answer: //p' "$dir/run4.log")" = "$answer" ] || fail "a finished checkpoint gives another total"

echo "== 5. refusals"
p=$dir/partial.ckpt
refused "is for --n $n, not --n $((n + 1))" --n $((n + 1)) "$@" --resume "$p"
refused "at --checkpoint-depth [0-9]+, not 2" --n "$n" "$@" --checkpoint-depth 2 --resume "$p"
sed '7s/$/7/' "$p" >"$dir/edited.ckpt"
refused "corrupt: checksum" --n "$n" "$@" --resume "$dir/edited.ckpt"
head -c 60 "$p" >"$dir/cut.ckpt"
refused "truncated" --n "$n" "$@" --resume "$dir/cut.ckpt"
sed '1s/ 1$/ 2/' "$p" >"$dir/v2.ckpt"
refused "version '2'" --n "$n" "$@" --resume "$dir/v2.ckpt"
echo "hello" >"$dir/foreign.ckpt"
refused "not an nqueens_tuned checkpoint" --n "$n" "$@" --resume "$dir/foreign.ckpt"
refused "cannot open" --n "$n" "$@" --resume "$dir/missing.ckpt"
refused "--checkpoint $p: the file exists" --n "$n" "$@" --checkpoint "$p"
echo "kill_resume: all checks passed ($n-queens: $answer, $subtrees subtrees)"
