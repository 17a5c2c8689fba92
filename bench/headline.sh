#!/bin/bash
# headline.sh BUILD_DIR OUT_DIR [--only WORKLOAD[:SIZE],...] [--repeat N] [--into CSV]
#
# Measures the README's headline workloads (the list is WORKLOADS in bench/readme_headline.py:
# fib 2 / 30 / 40, N-Queens 12 / 14 / 16, mergesort 10^7, cilksort 10^8, the binary tree D=20 /
# 22 thread- and block-level, the B-ary tree D=32, mergesort and cilksort with merges on the warp,
# the first launch's extra time) with the applications of BUILD_DIR (a build
# folder holding apps/...; nothing is built), one process per workload, 1 warm-up and N timed
# launches (default 11), and writes
#   OUT_DIR/headline.csv   workload,size,impl,median_ms,paper_ms,commit,date,gpu
#                          (median_ms: the app's median kernel time, CUDA events; first-launch:
#                          launch 1 - launch 2 of one process, median over N processes)
#   OUT_DIR/headline.log   every command and its whole output
# --only fib:40,nqueens   only those rows (a workload alone = all its sizes)
# --into CSV              also merge the rows into CSV (rows of the same workload, size and impl
#                         are replaced), e.g. bench/results/current/headline.csv
# commit: $GTAP_COMMIT if set (the commit the build was made from), else `git rev-parse --short
# HEAD` of this script's checkout; date: UTC today; gpu: nvidia-smi's name of the first visible GPU.
# Needs bash and python3 (standard library). Exit status 1 when a run failed or its check did.
# Then: python3 bench/readme_headline.py --write README.md
set -u
usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "headline.sh: no build folder $1" >&2; exit 2; }
out=$2
shift 2
only="" repeat=11 into=""
while [ $# -gt 0 ]; do
    case $1 in
        --only) only=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --into) into=$2; shift 2 ;;
        *) usage ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
commit=${GTAP_COMMIT:-$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)}
day=$(date -u +%Y-%m-%d)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
gpu=${gpu:-unknown}
log=$out/headline.log
rows=$out/headline.rows
: > "$log"
: > "$rows"
echo "headline.sh: build $build, commit $commit, $day, $gpu, $repeat launches per row" | tee -a "$log"

selected() { # workload size -> 0 when --only selects it
    [ -z "$only" ] && return 0
    local item
    for item in ${only//,/ }; do
        [ "$item" = "$1" ] || [ "$item" = "$1:$2" ] && return 0
    done
    return 1
}

fail=0
while IFS=$'\t' read -r workload size impl paper format csv_size cmd; do
    selected "$workload" "$size" || continue
    if [ "$workload" = first-launch ]; then
        # launch 1 - launch 2 of one process (app_gtap_run's --verbose lines), in $repeat processes
        diffs=""
        for p in $(seq 1 "$repeat"); do
            echo "== $workload $size, process $p: $cmd" >> "$log"
            (cd "$build" && ./$cmd) > "$out/run.out" 2>&1
            rc=$?
            cat "$out/run.out" >> "$log"
            d=$(awk '/^run 0 kernel_ms/ {a = $4} /^run 1 kernel_ms/ {b = $4} END {if (a != "" && b != "") printf "%.4f", a - b}' "$out/run.out")
            if [ $rc -ne 0 ] || [ -z "$d" ]; then
                diffs=""
                break
            fi
            diffs="$diffs $d"
        done
        if [ -z "$diffs" ]; then
            echo "headline.sh: $workload $size failed; see $log" >&2
            fail=1
            continue
        fi
        median=$(printf '%s\n' $diffs | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
        echo "first launch - second launch (ms):$diffs" >> "$log"
        printf '%s,%s,%s,%s,%s\n' "$workload" "$size" "$impl" "$median" "$paper" >> "$rows"
        printf "%-18s %10s %10.3f ms  (launch 1 - launch 2, median of %d processes)\n" "$workload" "$size" "$median" "$repeat"
        continue
    fi
    if [ "$format" = uts ]; then
        # the UTS programs' lines (apps/uts/uts.h uts_report): "PASS: UTS ... in X ms", one per
        # run, or a FAIL line; the row is the median of the runs
        echo "== $workload $size: $cmd" >> "$log"
        (cd "$build" && ./$cmd) > "$out/run.out" 2>&1
        rc=$?
        cat "$out/run.out" >> "$log"
        row=$(sed -n 's/^PASS: .* in \([0-9.]*\) ms.*/\1/p' "$out/run.out" | sort -g |
              awk '{t[NR] = $1} END {if (NR) print t[int((NR + 1) / 2)]}')
        median=$row
        check=pass
        grep -q '^FAIL' "$out/run.out" && check=fail
    else
        echo "== $workload $size: $cmd --csv" >> "$log"
        (cd "$build" && ./$cmd --csv) > "$out/run.out" 2>&1
        rc=$?
        cat "$out/run.out" >> "$log"
        # The app's CSV row (apps/common/app_cli.h, APP_CSV_HEADER; block-level programs print the
        # thread-level name with impl gtap-block; csv_size is its n field): field 10 kernel_ms
        # (the median), field 15 check.
        row=$(grep -E "^[A-Za-z0-9_]+,$impl,$csv_size," "$out/run.out" | tail -n 1)
        median=$(echo "$row" | cut -d, -f10)
        check=$(echo "$row" | cut -d, -f15)
    fi
    if [ $rc -ne 0 ] || [ -z "$row" ] || [ "$check" != pass ]; then
        echo "headline.sh: $workload $size failed (exit $rc, check '${check}'); see $log" >&2
        fail=1
        continue
    fi
    printf '%s,%s,%s,%s,%s\n' "$workload" "$size" "$impl" "$median" "$paper" >> "$rows"
    printf "%-18s %10s %10.3f ms  (paper %s ms)\n" "$workload" "$size" "$median" "$paper"
done < <(python3 "$here/readme_headline.py" --commands --repeat "$repeat")
rm -f "$out/run.out"

python3 - "$rows" "$out/headline.csv" "$commit" "$day" "$gpu" "$into" <<'EOF'
import csv, sys
rows_path, out_path, commit, day, gpu, into = sys.argv[1:7]
header = ["workload", "size", "impl", "median_ms", "paper_ms", "commit", "date", "gpu"]
new = []
for line in open(rows_path):
    w, size, impl, median, paper = line.rstrip("\n").split(",")
    # The app prints 4 decimals; keep 3 significant places after the point as the README shows.
    new.append({"workload": w, "size": size, "impl": impl, "median_ms": "%.3f" % float(median),
                "paper_ms": "" if paper == "None" else paper, "commit": commit, "date": day, "gpu": gpu})

def write(path, rows):
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        wr.writeheader()
        wr.writerows(rows)

write(out_path, new)
if into:
    try:
        old = list(csv.DictReader(open(into, newline="")))
    except FileNotFoundError:
        old = []
    key = lambda r: (r["workload"], r["size"], r["impl"])
    fresh = {key(r): r for r in new}
    merged = [fresh.pop(key(r), r) for r in old] + list(fresh.values())
    write(into, merged)
EOF
rm -f "$rows"
echo "headline.sh: wrote $out/headline.csv${into:+ and merged it into $into}"
exit $fail
