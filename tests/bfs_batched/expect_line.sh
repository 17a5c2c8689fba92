#!/bin/sh
# expect_line.sh REGEX COMMAND [ARGS...]: passes when COMMAND (e.g. an expect_answer.sh line)
# exits 0 and prints a line matching the extended REGEX (a statistics line, say). Exit status
# 77 (no GPU) is passed on.
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -ne 0 ]; then
    echo "expect_line: exit status $rc" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "expect_line: no line matches: $regex" >&2
    exit 1
fi
echo "expect_line: ok"
