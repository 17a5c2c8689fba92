#!/bin/bash
# batched_sweep.sh BUILD_DIR OUT_DIR [--scales "20 21 22"] [--grid-n "2^22"] [--batches "8 16 32 64"]
#                  [--split-degree S] [--repeat N] [--programs "bfs bfs_batched"] [--host]
#
# Times the asynchronous BFS (apps/bfs) against the batched one over the batch size: on R-MAT
# graphs of 2^scale vertices (edge factor 16, seed 1) for each --scales, and on the road-like
# grid of about --grid-n vertices (keep 0.5, seed 1). For each graph, each program of
# --programs (bfs, bfs_block, bfs_batched; a program not built is left out with a note), and
# bfs_batched once per batch size (--split-degree, default the program's 64). Nothing is built.
# One process per point: 1 warm-up run and --repeat (5) timed ones, each answer checked against
# the CPU queue BFS. Writes
#   OUT_DIR/sweep.csv  graph,vertices,edges,program,batch,median_ms,min_ms,speedup_vs_bfs,answer
#                      (the app's median and fastest kernel time, CUDA events around every
#                      phase's launch; speedup = bfs's median / this median on the same graph;
#                      NA when the run or its check failed; answer as the app prints it)
#   OUT_DIR/sweep.log  every command and its whole output
# Exit status 1 when a run or its check failed.
#
# --host runs the CPU reference-executor builds (*_host) instead: a smoke test of this script
# at small sizes (--scales 12 --grid-n 4096).
#
# On one H200 the default sweep is 20 processes; generating R-MAT 2^22 on the host takes
# seconds, so the whole sweep takes a few minutes.
set -u
usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "batched_sweep.sh: no build folder $1" >&2; exit 2; }
out=$2
shift 2
scales="20 21 22" grid_n="2^22" batches="8 16 32 64" split="" repeat=5 programs="bfs bfs_batched" suffix=""
while [ $# -gt 0 ]; do
    case $1 in
        --host) suffix=_host; shift; continue ;;
    esac
    [ $# -ge 2 ] || usage
    case $1 in
        --scales) scales=$2 ;;
        --grid-n) grid_n=$2 ;;
        --batches) batches=$2 ;;
        --split-degree) split=$2 ;;
        --repeat) repeat=$2 ;;
        --programs) programs=$2 ;;
        *) usage ;;
    esac
    shift 2
done
bin=$build/apps/bfs
[ -d "$bin" ] || { echo "batched_sweep.sh: $bin does not exist (build the bfs targets)" >&2; exit 2; }
mkdir -p "$out" || exit 2
csv=$out/sweep.csv log=$out/sweep.log
echo "graph,vertices,edges,program,batch,median_ms,min_ms,speedup_vs_bfs,answer" > "$csv"
{
    echo "batched_sweep.sh $(date -u +%FT%TZ) build=$build"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null
    echo "scales=$scales grid_n=$grid_n batches=$batches split=${split:-default} repeat=$repeat programs=$programs${suffix:+ (the _host builds)}"
} > "$log"

# The graphs: a name and the options that generate it.
graphs=()
for s in $scales; do
    graphs+=("rmat$s|--graph rmat --n 2^$s --edge-factor 16 --seed 1")
done
[ -n "$grid_n" ] && graphs+=("grid|--graph grid --n $grid_n --keep 0.5 --seed 1")

failed=0
for entry in "${graphs[@]}"; do
    name=${entry%%|*} opts=${entry#*|} bfs_ms=""
    for p in $programs; do
        exe=$bin/$p$suffix
        if [ ! -x "$exe" ]; then
            echo "batched_sweep.sh: $exe is not built; left out" | tee -a "$log" >&2
            continue
        fi
        points="-"
        [ "$p" = bfs_batched ] && points=$batches
        for b in $points; do
            extra=""
            [ "$b" != "-" ] && extra="--batch $b${split:+ --split-degree $split}"
            full="$exe $opts $extra --warmup 1 --repeat $repeat --csv"
            echo "\$ $full" >> "$log"
            row=$($full 2>>"$log")
            rc=$?
            echo "$row" >> "$log"
            # the CSV row of app_cli.h: workers 7, kernel_ms 10, kernel_min_ms 12, check 15,
            # answer 16 (vertices=V;edges=E;reached=R;depth=D)
            ms=$(echo "$row" | awk -F, 'NF >= 16 && $15 == "pass" { print $10 }')
            min=$(echo "$row" | awk -F, 'NF >= 16 && $15 == "pass" { print $12 }')
            ans=$(echo "$row" | awk -F, 'NF >= 16 { print $16 }')
            nv=$(echo "$ans" | sed -n 's/.*vertices=\([0-9]*\).*/\1/p')
            ne=$(echo "$ans" | sed -n 's/.*edges=\([0-9]*\).*/\1/p')
            if [ $rc -ne 0 ] || [ -z "$ms" ]; then
                echo "batched_sweep.sh: FAILED (exit $rc): $full" | tee -a "$log" >&2
                ms=NA min=NA
                failed=1
            fi
            [ "$p" = bfs ] && bfs_ms=$ms
            speedup=NA
            if [ -n "$bfs_ms" ] && [ "$bfs_ms" != NA ] && [ "$ms" != NA ]; then
                speedup=$(awk -v a="$bfs_ms" -v b="$ms" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "NA" }')
            fi
            echo "$name,${nv:-NA},${ne:-NA},$p,$b,$ms,$min,$speedup,${ans:-NA}" | tee -a "$csv"
        done
    done
done
exit $failed
