#!/bin/sh
# expect_usage.sh [--first-line] REGEX COMMAND [ARGS...]: passes when COMMAND exits with status
# 2 (a usage error) and its first line matches the extended REGEX (it names the option and the
# value). Without --first-line the message must be that one line; with it, more may follow
# (app_cli.h prints the usage after an unknown option).
first_only=0
if [ "$1" = "--first-line" ]; then
    first_only=1
    shift
fi
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 2 ]; then
    echo "expect_usage: exit status $rc, expected 2" >&2
    exit 1
fi
lines=$(printf '%s\n' "$out" | wc -l)
if [ "$first_only" -eq 0 ] && [ "$lines" -ne 1 ]; then
    echo "expect_usage: $lines lines of output, expected one" >&2
    exit 1
fi
if ! printf '%s\n' "$out" | head -n 1 | grep -Eq -- "$regex"; then
    echo "expect_usage: the first line does not match: $regex" >&2
    exit 1
fi
echo "expect_usage: ok"
