#!/bin/sh
# check_resumed.sh 1|0 COMMAND [ARGS...]: runs an application with GTAP_STATS=1 and checks
# that it passes its check and that its warps ran at least one batch from the resume buffer
# (GTAP_RESUME_BATCHING, worker_thread.cuh), or none when the first argument is 0. Exit 77
# passes on.
want=$1
shift
out=$(GTAP_STATS=1 "$@" 2>&1)
rc=$?
[ "$rc" -eq 77 ] && exit 77
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || { echo "check_resumed: exit status $rc" >&2; exit 1; }
printf '%s\n' "$out" | grep -q "check: PASS" || { echo "check_resumed: no passing check" >&2; exit 1; }
n=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9]*\) batches of resumed tasks.*/\1/p' | tail -n 1)
[ -n "$n" ] || { echo "check_resumed: no statistics line" >&2; exit 1; }
if [ "$want" = 0 ]; then
    [ "$n" -eq 0 ] || { echo "check_resumed: $n batches of resumed tasks, expected none" >&2; exit 1; }
else
    [ "$n" -ge 1 ] || { echo "check_resumed: no batch of resumed tasks" >&2; exit 1; }
fi
