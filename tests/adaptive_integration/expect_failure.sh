#!/bin/sh
# expect_failure.sh REGEX COMMAND [ARGS...]: passes when COMMAND exits with status 1, prints
# one line matching the extended REGEX (the error naming the interval that cannot converge)
# and no answer line (a run that failed must not report a result). Exit status 77 (no GPU)
# is passed on.
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -ne 1 ]; then
    echo "expect_failure: exit status $rc, expected 1" >&2
    exit 1
fi
if [ "$(printf '%s\n' "$out" | grep -Ec -- "$regex")" -ne 1 ]; then
    echo "expect_failure: not exactly one line matches: $regex" >&2
    exit 1
fi
if printf '%s\n' "$out" | grep -q "^answer:"; then
    echo "expect_failure: the failed run printed an answer" >&2
    exit 1
fi
echo "expect_failure: ok"
