#!/bin/bash
# dist_one_rank.sh [-r R] [-n N] BUILD OUT [WORKLOAD...]
#
# The distributed layer's cost on one GPU: each workload runs as a one-rank MPI job of the
# distributed build (dist_<app>_gpu / uts_dist_gpu: a GPU node attached, the agent warp and
# the scheduler's node hooks in the loop) and as the same source built without the layer
# (dist_<app>_alone_gpu / uts_gpu), alternating, R rounds (default 3) of one process each with
# N+1 launches (default N = 11; the first launch of a process is dropped). WORKLOAD is
# "APP ARGS" without the launch count, APP one of fib nqueens bintree bary uts, e.g.
# 'fib 34' 'nqueens 18 7' 'bintree 24' 'uts T1L'; the default list is the headline's.
# Writes OUT/one_rank.log (every command and its output), OUT/one_rank.csv
# (workload,variant,round,launch,ms) and OUT/summary.txt (median of each variant over all its
# launches, dist/alone). Exit status 1 when a run fails its check.
set -u
rounds=3 n=11
while [ $# -gt 0 ]; do
    case $1 in
        -r) rounds=$2; shift 2 ;;
        -n) n=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build=$1 out=$2
shift 2
[ $# -gt 0 ] || set -- 'fib 34' 'nqueens 16 8' 'nqueens 18 7' 'bintree 22' 'bintree 24' 'uts T1L'
mkdir -p "$out"
log=$out/one_rank.log csv=$out/one_rank.csv
: > "$log"
echo "workload,variant,round,launch,ms" > "$csv"
flags="--bind-to none"
[ "$(id -u)" -eq 0 ] && flags="$flags --allow-run-as-root"
status=0

# Runs one variant of a workload once; appends its launch times to the csv.
run_one() {
    local wl=$1 variant=$2 round=$3 app=${1%% *} args=${1#* } bin
    [ "$args" = "$wl" ] && args=""
    if [ "$app" = uts ]; then
        bin=$build/apps/uts/uts_gpu
        [ "$variant" = dist ] && bin=$build/apps/uts/uts_dist_gpu
    else
        bin=$build/apps/dist/dist_${app}_alone_gpu
        [ "$variant" = dist ] && bin=$build/apps/dist/dist_${app}_gpu
    fi
    local cmd="$bin $args $((n + 1))"
    [ "$variant" = dist ] && cmd="mpirun $flags -np 1 $cmd"
    echo "== $variant round $round: $cmd" >> "$log"
    local o
    # shellcheck disable=SC2086
    o=$($cmd 2>&1)
    echo "$o" >> "$log"
    if echo "$o" | grep -q '^FAIL' || ! echo "$o" | grep -q '^PASS'; then
        echo "dist_one_rank: $variant '$wl' failed (see $log)" >&2
        status=1
        return
    fi
    echo "$o" | grep '^PASS' | sed -n 's/.* in \([0-9.]*\) ms.*/\1/p' | tail -n +2 |
        awk -v w="$wl" -v v="$variant" -v r="$round" '{ printf "%s,%s,%s,%d,%s\n", w, v, r, NR, $1 }' >> "$csv"
}

for wl in "$@"; do
    for ((r = 0; r < rounds; r++)); do
        if ((r % 2 == 0)); then
            run_one "$wl" alone $r; run_one "$wl" dist $r
        else
            run_one "$wl" dist $r; run_one "$wl" alone $r
        fi
    done
done
python3 - "$csv" > "$out/summary.txt" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
order = []
for r in rows:
    if r["workload"] not in order:
        order.append(r["workload"])
print(f"{'workload':<16} {'alone_ms':>10} {'dist_ms':>10} {'dist/alone':>10} {'launches':>8}")
for w in order:
    m = {}
    for v in ("alone", "dist"):
        xs = [float(r["ms"]) for r in rows if r["workload"] == w and r["variant"] == v]
        m[v] = (statistics.median(xs), len(xs)) if xs else (float("nan"), 0)
    print(f"{w:<16} {m['alone'][0]:>10.3f} {m['dist'][0]:>10.3f} {m['dist'][0] / m['alone'][0]:>10.3f} {m['dist'][1]:>8}")
PY
cat "$out/summary.txt"
exit $status
