#!/bin/bash
# clause_sweep.sh BUILD [--host] [--fib-n N] [--k FIRST:LAST[:STEP]] [--nq-n N] [--c FIRST:LAST[:STEP]]
#                       [--nq-cutoff ROW] [--repeat R] [--warmup W]
#
# Times the if/final variants of the apps over their cutoff (docs/compiler.md, "if and final"):
# fib_if (`#pragma gtap task if(n > k)`) for each k, nqueens_final (`final(row >= c)`) for each
# c, and prints the CSV `workload,param,median_ms` (median kernel time of R runs after W
# warm-up runs; every run's answer is checked, a wrong one fails the script). Defaults: fib
# n=40, k=1..30; N-Queens n=16 with tasks down to row 7 (--nq-cutoff), c=0..8; R=10, W=2.
# k=1 and c > the cutoff are the programs without the clauses' effect (every call a task).
# --host runs the CPU reference-executor builds instead (a smoke test of this script).
#
# The serial clones recurse on the CUDA stack: GTAP_STACK_BYTES (default here 4096, the
# runtime's own default is 1024) is the room the runtime gives them above the kernel's frame.
set -u
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
build=$1
shift
suffix="" fib_n=40 k_range=1:30 nq_n=16 c_range=0:8 nq_cutoff=7 repeat=10 warmup=2
while [ $# -gt 0 ]; do
    case $1 in
    --host) suffix=_host; shift ;;
    --fib-n) fib_n=$2; shift 2 ;;
    --k) k_range=$2; shift 2 ;;
    --nq-n) nq_n=$2; shift 2 ;;
    --c) c_range=$2; shift 2 ;;
    --nq-cutoff) nq_cutoff=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    *) echo "clause_sweep.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export GTAP_STACK_BYTES=${GTAP_STACK_BYTES:-4096}

# FIRST:LAST[:STEP] -> the values, one per line
range() {
    local first last step
    IFS=: read -r first last step <<< "$1"
    seq "$first" "${step:-1}" "$last"
}

fib=$build/apps/fib/fib_if$suffix
nq=$build/apps/nqueens/nqueens_final$suffix
for b in "$fib" "$nq"; do
    if [ ! -x "$b" ]; then
        echo "clause_sweep.sh: $b is not built (cmake --build $build --target $(basename "$b"))" >&2
        exit 2
    fi
done

failed=0
# run WORKLOAD PARAM BINARY ARGS...: one CSV line; the app's own CSV row has the median kernel
# time in field 10 and the check in field 15 (apps/common/app_cli.h, app_report)
run() {
    local workload=$1 param=$2 row
    shift 2
    row=$("$@" --repeat "$repeat" --warmup "$warmup" --csv 2>/dev/null | grep -v '^[a-zA-Z ]*:' | tail -n 1)
    if [ "$(echo "$row" | cut -d, -f15)" != "pass" ]; then
        echo "clause_sweep.sh: $workload $param failed: $* (row: ${row:-none})" >&2
        echo "$workload,$param,nan"
        failed=1
        return
    fi
    echo "$workload,$param,$(echo "$row" | cut -d, -f10)"
}

echo "workload,param,median_ms"
for k in $(range "$k_range"); do
    run "fib_if_n$fib_n" "$k" "$fib" --n "$fib_n" --if-cutoff "$k"
done
for c in $(range "$c_range"); do
    run "nqueens_final_n${nq_n}_cutoff$nq_cutoff" "$c" "$nq" --n "$nq_n" --cutoff "$nq_cutoff" --final-row "$c"
done
exit $failed
