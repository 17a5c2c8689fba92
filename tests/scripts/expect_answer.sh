#!/bin/sh
# expect_answer.sh KEYS VALUE... COMMAND [ARGS...]: passes when COMMAND exits 0, prints
# "check: PASS" (the app's own comparison) and an "answer: " line whose ';'-separated fields
# are exactly KEY=VALUE for each key of KEYS (comma-separated; their values follow in the same
# order; the line may list the fields in any order). Exit status 77 (no GPU) is passed on.
keys=$1
shift
want=""
for k in $(printf '%s' "$keys" | tr ',' ' '); do
    want="$want$k=$1
"
    shift
done
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
got=$(printf '%s\n' "$out" | sed -n 's/^answer: //p' | tail -n 1 | tr ';' '\n' | sort)
expected=$(printf '%s' "$want" | sort)
if [ "$got" != "$expected" ]; then
    echo "expect_answer: expected the answer fields $(printf '%s' "$expected" | tr '\n' ' ')" >&2
    exit 1
fi
echo "expect_answer: ok"
