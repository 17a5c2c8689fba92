#!/bin/bash
# sweep.sh BUILD_DIR OUT_DIR [--graph "ARGS"] [--k "3 4 5 6 7 8"] [--algo "pivot orient"]
#          [--repeat N] [--variants "LIST"] [--check] [--threads T] [--extra "ARGS"]
#
# Sweeps k-clique counting (apps/kclique) over k for one graph, for every variant built in
# BUILD_DIR (nothing is built; a variant that is not built is left out with a note):
#   thread    kclique           thread-level tasks: root ranges, split roots' tree nodes
#   block     kclique_block     block-level tasks (32 threads), a block per root / node
#   block64   kclique_block64   the same with 64-thread blocks (-DGTAP_APPS_VARIANTS=ON)
#   omp, seq  kclique_omp / _seq  the CPU baselines (OpenMP tasks on every core, sequential)
# --graph: the graph options of the programs (default "--graph rmat --n 2^14"; a SNAP file:
# "--input PATH", as the upstream's DBLP / as-Skitter / Orkut runs); --algo: pivot (Pivoter,
# the default) and/or orient (listing: its work grows with the number of cliques, keep k
# small); --extra: more options for every run (e.g. "--order degree", "--split 64").
# One process per point: 1 warm-up run and --repeat (5) timed ones, each variant's median
# time (GPU: the kernel, CUDA events; CPU: the timed region; the graph's loading and
# orientation are not timed). The runs skip their own CPU check unless --check (the CPU's
# count can take longer than the sweep); instead every variant's count at a point must be the
# same. Writes
#   OUT_DIR/sweep.csv  variant,algo,k,median_ms,count  (NA when the run failed)
#   OUT_DIR/sweep.log  every command and its whole output
# Exit status 1 when a run failed or two variants disagreed on a count.
#
# The upstream's pivot runs (evaluation/benchmarks/k_clique: degeneracy order, k = 5, 7, 9 on
# com-DBLP, as-Skitter, com-Orkut), e.g.:
#   bench/kclique/sweep.sh build out/skitter --graph "--input as-Skitter.txt" --k "5 7 9" --repeat 11
set -u
usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "sweep.sh: no build folder $1" >&2; exit 2; }
out=$2
shift 2
graph="--graph rmat --n 2^14" ks="3 4 5 6 7 8" algos="pivot" repeat=5 extra="" check="--no-check" threads=0
variants="thread block block64 omp seq"
while [ $# -gt 0 ]; do
    case $1 in
        --check) check="--check"; shift; continue ;;
    esac
    [ $# -ge 2 ] || usage
    case $1 in
        --graph) graph=$2 ;;
        --k) ks=$2 ;;
        --algo) algos=$2 ;;
        --repeat) repeat=$2 ;;
        --variants) variants=$2 ;;
        --threads) threads=$2 ;;
        --extra) extra=$2 ;;
        *) usage ;;
    esac
    shift 2
done
bin=$build/apps/kclique
[ -d "$bin" ] || { echo "sweep.sh: $bin does not exist (build the kclique targets)" >&2; exit 2; }
mkdir -p "$out" || exit 2
csv=$out/sweep.csv log=$out/sweep.log
echo "variant,algo,k,median_ms,count" > "$csv"
{
    echo "sweep.sh $(date -u +%FT%TZ) build=$build"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null
    echo "graph=$graph k=$ks algo=$algos repeat=$repeat variants=$variants extra=$extra $check"
} > "$log"

# The binary of a variant and its extra arguments; empty when it is not built.
variant_cmd() {
    local v=$1 b=""
    case $v in
        thread) b=kclique ;;
        block) b=kclique_block ;;
        block64) b=kclique_block64 ;;
        omp) b=kclique_omp ;;
        seq) b=kclique_seq ;;
        *) echo "sweep.sh: unknown variant $v" >&2; exit 2 ;;
    esac
    [ -x "$bin/$b" ] || return
    case $v in
        omp) echo "$bin/$b --threads $threads" ;;
        *) echo "$bin/$b" ;;
    esac
}

built=""
for v in $variants; do
    if [ -z "$(variant_cmd "$v")" ]; then
        echo "sweep.sh: variant $v is not built in $bin; left out" | tee -a "$log" >&2
    else
        built="$built $v"
    fi
done

failed=0
for algo in $algos; do
    for k in $ks; do
        first_count=""
        for v in $built; do
            cmd=$(variant_cmd "$v")
            # shellcheck disable=SC2086 # the option strings are word lists on purpose
            full="$cmd $graph --k $k --algo $algo $extra --warmup 1 --repeat $repeat $check --csv"
            echo "\$ $full" >> "$log"
            row=$($full 2>>"$log")
            rc=$?
            echo "$row" >> "$log"
            # CSV row of app_cli.h: kernel_ms is field 10, check field 15, answer field 16
            ms=$(echo "$row" | awk -F, 'NF >= 16 && $15 != "FAIL" { print $10 }')
            count=$(echo "$row" | awk -F, 'NF >= 16 { print $16 }' | sed -n 's/.*count=\([0-9a-z]*\).*/\1/p')
            if [ $rc -ne 0 ] || [ -z "$ms" ] || [ -z "$count" ]; then
                echo "sweep.sh: FAILED (exit $rc): $full" | tee -a "$log" >&2
                ms=NA count=NA
                failed=1
            elif [ -z "$first_count" ]; then
                first_count=$count
            elif [ "$count" != "$first_count" ]; then
                echo "sweep.sh: MISMATCH at k=$k ($algo): $v counted $count, an earlier variant $first_count" |
                    tee -a "$log" >&2
                failed=1
            fi
            echo "$v,$algo,$k,$ms,$count" | tee -a "$csv"
        done
    done
done
exit $failed
