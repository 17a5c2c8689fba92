#!/bin/bash
# run_node_device.sh BUILD OUT: the node-runtime benchmark session on a GPU machine - the
# benchmark table (node_bench.py), a profile of the runs we examine, and a grid-size sweep.
set -u
build=${1:-build}
out=${2:-${OUT:-/tmp/gtap-bench}}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
python3 "$root/bench/node_bench.py" --build "$build" --out "$out/bench" --reps 5 2>&1 | tail -22
hc=$(cd "$build" && pwd)/tests/handcomp
(
    cd "$out" || exit 1
    GTAP_PROFILE_CAPACITY=2000 HC_PROFILE_NAME=nq14 timeout 60 "$hc/hc_nqueens_profile" bench 14 2 7 > /dev/null 2>&1
    GTAP_PROFILE_CAPACITY=2000 HC_PROFILE_NAME=fib30 timeout 60 "$hc/hc_fib_profile" bench 30 2 > /dev/null 2>&1
    python3 "$root/bench/profile_summary.py" profile/nq14 profile/fib30
    tar czf profiles.tgz profile && rm -rf profile
) | tee "$out/profile_summary.txt"
{
    echo "# grid sweep (median of 5, ms): GTAP_GRID_SIZE blocks of 256 threads"
    for g in 132 264 396 528; do
        for p in "hc_tree_thread bench 22 256 256 6" "hc_nqueens bench 14 6 7" "hc_fib bench 35 6" "hc_nqueens bench 12 6 7" "hc_fib bench 20 6"; do
            set -- $p
            t=$(GTAP_GRID_SIZE=$g timeout 60 "$hc/$1" "${@:2}" 2>/dev/null | awk '/^run [1-9]/ {print $6}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
            echo "grid $g  $p  median_ms $t"
        done
    done
} | tee "$out/grid_sweep.txt"
