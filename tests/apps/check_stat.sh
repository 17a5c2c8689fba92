#!/bin/sh
# check_stat.sh resumed|spread|early|topup 1|0 COMMAND [ARGS...]: runs an application with
# GTAP_STATS=1 and checks that it passes its check and that in some launch its warps ran at
# least one batch from the resume buffer (resumed: GTAP_RESUME_BATCHING), handed their tasks
# to idle warps (spread: GTAP_SPREAD), published an entry before their iteration's end (early:
# GTAP_EARLY_PUBLISH; worker_thread.cuh) or stole in place of a partial batch of resumed tasks
# (topup: gtap_thread_fill); or in no launch when the second argument is 0.
# Exit 77 passes on.
case $1 in
resumed) pattern='s/.*; \([0-9]*\) batches of resumed tasks.*/\1/p'; what="batches of resumed tasks" ;;
spread) pattern='s/.*; \([0-9]*\) spread to idle warps.*/\1/p'; what="spreads to idle warps" ;;
early) pattern='s/.*; \([0-9]*\) published early;.*/\1/p'; what="entries published early" ;;
topup) pattern='s/.*; \([0-9]*\) steals in place of a partial batch.*/\1/p'; what="steals in place of a partial batch" ;;
*) echo "check_stat: unknown statistic '$1' (resumed, spread, early or topup)" >&2; exit 2 ;;
esac
want=$2
shift 2
out=$(GTAP_STATS=1 "$@" 2>&1)
rc=$?
[ "$rc" -eq 77 ] && exit 77
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || { echo "check_stat: exit status $rc" >&2; exit 1; }
printf '%s\n' "$out" | grep -q "check: PASS" || { echo "check_stat: no passing check" >&2; exit 1; }
n=$(printf '%s\n' "$out" | sed -n "$pattern" | sort -n | tail -n 1) # the most of any launch
[ -n "$n" ] || { echo "check_stat: no statistics line" >&2; exit 1; }
if [ "$want" = 0 ]; then
    [ "$n" -eq 0 ] || { echo "check_stat: $n $what, expected none" >&2; exit 1; }
else
    [ "$n" -ge 1 ] || { echo "check_stat: no $what" >&2; exit 1; }
fi
