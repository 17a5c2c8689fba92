#!/bin/sh
# periodic.sh WORKDIR PROGRAM [OPTIONS...]: a run that saves a checkpoint every millisecond
# while it searches (the writer thread reading the subtree states the search publishes) must
# give the exact total, leave a complete final checkpoint, and resume from it to the same
# total with nothing left to run. Exit status 77 (skipped) when the program finds no GPU.
set -u
dir=$1
prog=$2
shift 2
rm -rf "$dir"
mkdir -p "$dir"
ck=$dir/run.ckpt

fail() {
    echo "periodic: FAIL: $*" >&2
    exit 1
}

"$prog" "$@" --checkpoint "$ck" --checkpoint-s 0.001 >"$dir/run.log" 2>&1
rc=$?
cat "$dir/run.log"
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "the run exited with $rc"
grep -q "^check: PASS" "$dir/run.log" || fail "wrong total"
subtrees=$(sed -n 's/^subtrees \([0-9]*\)$/\1/p' "$ck")
[ -n "$subtrees" ] && [ "$(sed -n 's/^done \([0-9]*\)$/\1/p' "$ck")" = "$subtrees" ] ||
    fail "the final checkpoint is not complete"
"$prog" "$@" --resume "$ck" >"$dir/resume.log" 2>&1 || fail "resuming the finished run failed"
cat "$dir/resume.log"
grep -q "$subtrees finished before this run, 0 to run" "$dir/resume.log" || fail "the resumed run ran subtrees again"
[ "$(sed -n 's/^answer: //p' "$dir/resume.log")" = "$(sed -n 's/^answer: //p' "$dir/run.log")" ] ||
    fail "the resumed run gives another total"
echo "periodic: all checks passed"
