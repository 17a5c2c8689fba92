#!/bin/sh
# expect_fail.sh REGEX COMMAND [ARGS...]: passes when COMMAND exits non-zero (and not with 77,
# the "skipped" code, which is passed on) and its output matches the extended REGEX, and it
# did not crash on the way (a kernel fault or a signal is never the expected error).
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -eq 0 ]; then
    echo "expect_fail: the command succeeded; an error was expected" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "expect_fail: exit status $rc, but the output does not match: $regex" >&2
    exit 1
fi
if [ "$rc" -gt 128 ] || printf '%s\n' "$out" | grep -Eq -- \
    "unspecified launch failure|illegal memory access|misaligned address|illegal instruction|Segmentation fault|core dumped"; then
    echo "expect_fail: the expected error came with a crash (exit status $rc)" >&2
    exit 1
fi
echo "expect_fail: failed as expected (exit status $rc)"
exit 0
