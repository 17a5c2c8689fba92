#!/bin/sh
# periodic.sh WORKDIR PROGRAM [OPTIONS...]: a run that saves a checkpoint every millisecond
# while it searches (the writer thread reading the subtree states the search publishes) must
# give the exact total, leave a complete final checkpoint, and resume from it to the same
# total with nothing left to run. Exit status 77 (skipped) when the program finds no GPU.
# A distributed program runs under the launcher NQT_LAUNCH (kill_resume.sh): its run is a
# sequence of launches over slices of the subtree list, and rank 0 must have written the
# checkpoint after every slice but the last (the final write follows it), in at least
# NQT_MIN_SLICES slices (a list of more than 680 subtrees takes at least 5 whatever their
# times: nqt_slice.h starts at 8 and grows at most 4 times a slice).
set -u
dir=$1
prog=$2
shift 2
launch=${NQT_LAUNCH:-}
rm -rf "$dir"
mkdir -p "$dir"
ck=$dir/run.ckpt

fail() {
    echo "periodic: FAIL: $*" >&2
    exit 1
}

$launch "$prog" "$@" --checkpoint "$ck" --checkpoint-s 0.001 >"$dir/run.log" 2>&1
rc=$?
cat "$dir/run.log"
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "the run exited with $rc"
grep -q "^check: PASS" "$dir/run.log" || fail "wrong total"
subtrees=$(sed -n 's/^subtrees \([0-9]*\)$/\1/p' "$ck")
[ -n "$subtrees" ] && [ "$(sed -n 's/^done \([0-9]*\)$/\1/p' "$ck")" = "$subtrees" ] ||
    fail "the final checkpoint is not complete"
if [ -n "$launch" ]; then
    writes=$(sed -n 's/^checkpoint: .*, \([0-9]*\) periodic writes, \([0-9]*\) slices)$/\1/p' "$dir/run.log")
    slices=$(sed -n 's/^checkpoint: .*, \([0-9]*\) periodic writes, \([0-9]*\) slices)$/\2/p' "$dir/run.log")
    [ -n "$slices" ] || fail "no line 'checkpoint: FILE (... W periodic writes, S slices)'"
    [ "$slices" -ge "${NQT_MIN_SLICES:-1}" ] || fail "$slices slices, expected at least ${NQT_MIN_SLICES:-1}"
    [ "$writes" -eq $((slices - 1)) ] || fail "$writes checkpoints written after $slices slices, expected $((slices - 1))"
fi
$launch "$prog" "$@" --resume "$ck" >"$dir/resume.log" 2>&1 || fail "resuming the finished run failed"
cat "$dir/resume.log"
grep -q "$subtrees finished before this run, 0 to run" "$dir/resume.log" || fail "the resumed run ran subtrees again"
[ "$(sed -n 's/^answer: //p' "$dir/resume.log")" = "$(sed -n 's/^answer: //p' "$dir/run.log")" ] ||
    fail "the resumed run gives another total"
echo "periodic: all checks passed"
