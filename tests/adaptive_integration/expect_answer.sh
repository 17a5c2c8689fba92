#!/bin/sh
# expect_answer.sh INTERVALS INTEGRAL COMMAND [ARGS...]: passes when COMMAND exits 0, prints
# "check: PASS" (its own comparison with the CPU's recursion and the closed form) and exactly
# "answer: integral=INTEGRAL;intervals=INTERVALS" (the values pinned in the test). Exit status
# 77 (no GPU) is passed on.
want="integral=$2;intervals=$1"
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -ne 0 ]; then
    echo "expect_answer: exit status $rc" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qx "check: PASS"; then
    echo "expect_answer: no 'check: PASS' line" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qxF "answer: $want"; then
    echo "expect_answer: expected 'answer: $want'" >&2
    exit 1
fi
echo "expect_answer: ok"
