#!/bin/sh
# same_totals.sh "PROGRAM [ARGS]" ... -- FLAGS...: runs every program (each quoted command is
# split into words) with the same Task Bench FLAGS and passes when each one exits 0 with
# "check: PASS" and all of them print the same Task Bench totals (tasks, dependencies, FLOPs,
# bytes): the implementations count one graph the same way.
set -u
n=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    n=$((n + 1))
    eval "prog_$n=\$1"
    shift
done
if [ $# -eq 0 ] || [ "$n" -eq 0 ]; then
    echo "usage: same_totals.sh \"PROGRAM [ARGS]\"... -- FLAGS..." >&2
    exit 2
fi
shift
first=""
i=1
while [ "$i" -le "$n" ]; do
    eval "prog=\$prog_$i"
    # shellcheck disable=SC2086
    out=$($prog "$@" 2>&1)
    rc=$?
    totals=$(printf '%s\n' "$out" | grep -E '^Total (Tasks|Dependencies|FLOPs|Bytes) ')
    printf '== %s (exit %d)\n%s\n' "$prog" "$rc" "$totals"
    if [ "$rc" -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^check: PASS$'; then
        printf '%s\n' "$out"
        echo "FAIL: $prog did not pass"
        exit 1
    fi
    if [ -z "$totals" ]; then
        echo "FAIL: $prog printed no Task Bench totals"
        exit 1
    fi
    if [ -z "$first" ]; then
        first=$totals
    elif [ "$totals" != "$first" ]; then
        echo "FAIL: $prog's totals differ from the first program's"
        exit 1
    fi
    i=$((i + 1))
done
echo "same totals from $n programs"
