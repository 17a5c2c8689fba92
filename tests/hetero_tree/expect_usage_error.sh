#!/bin/sh
# expect_usage_error.sh REGEX COMMAND [ARGS...]: passes when COMMAND exits with status 2 (a
# usage error) and prints exactly one line, which matches the extended REGEX (it names the
# option and the value).
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 2 ]; then
    echo "expect_usage_error: exit status $rc, expected 2" >&2
    exit 1
fi
lines=$(printf '%s\n' "$out" | wc -l)
if [ "$lines" -ne 1 ]; then
    echo "expect_usage_error: $lines lines of output, expected one" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "expect_usage_error: the message does not match: $regex" >&2
    exit 1
fi
echo "expect_usage_error: ok"
