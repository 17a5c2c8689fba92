#!/bin/bash
# sweep.sh BUILD_DIR OUT_DIR [--heights "20 22 24 26 28"] [--iters "256 1024 4096"] [--k "2 4"]
#          [--repeat N] [--cutoff H] [--variants "LIST"] [--seq-max-height H] [--omp-max-height H]
#
# Sweeps the heterogeneous binary tree (apps/hetero_tree) over the tree's height, the compute
# per leaf (iterations of the leaf kernel) and the number of kinds K, for every variant built
# in BUILD_DIR (nothing is built; a variant that is not built is left out with a note):
#   thread        hetero_tree               one task per node, leaves mixed in a warp
#   thread_kq     hetero_tree_kq            + EPAQ queue per kind, queue 0 for inner nodes
#   block         hetero_tree_block         block-level workers (32 threads), a task per node
#   block_cutoff  hetero_tree_block_cutoff  + subtrees of height <= --cutoff in one task
#   thread_w32, thread_kq_w32               the thread-level two at 32 warps per SM
#                                           (built with -DGTAP_APPS_VARIANTS=ON)
#   omp, seq      hetero_tree_omp / _seq    CPU baselines (OMP_STACKSIZE=10M, every core);
#                                           only up to --omp-max-height (24) / --seq-max-height
#                                           (20): the sequential one runs 2^h x iters iterations
# One process per point: 1 warm-up launch and --repeat (5) timed ones; every answer checked
# against the CPU (sampled above 2^28 leaf iterations; hetero_common.h). Writes
#   OUT_DIR/sweep.csv  variant,height,k,iters,median_ms  (the app's median kernel time, CUDA
#                      events; CPU: the timed region; NA when the run or its check failed)
#   OUT_DIR/sweep.log  every command and its whole output
# Exit status 1 when a run or its check failed.
#
# The headline (height 28, 1024 iterations, K = 2, as upstream), 11 timed launches each:
#   bench/hetero_tree/sweep.sh build out/h28 --heights 28 --iters 1024 --k 2 --repeat 11
#
# The upstream GTaP's published medians (evaluation/benchmarks/hetero_tree, one GH200), height
# 28, its defaults: 1024 iterations per leaf, K = 2 (HETERO_TREE_K ?= 2, K + 1 = 3 queues),
# cutoff 5, 2000 x 32 launches:
#   thread (no kind queues)        501.4 ms
#   thread with kind queues (DAQ)  324.4 ms
#   block                         1733.0 ms
#   block with cutoff 5            369.0 ms
# Our targets on one H200: the kind-queue variant <= 160 ms, every variant at or under these.
set -u
usage() { sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "sweep.sh: no build folder $1" >&2; exit 2; }
out=$2
shift 2
heights="20 22 24 26 28" iters_list="256 1024 4096" kinds="2 4" repeat=5 cutoff=5
variants="thread thread_kq block block_cutoff thread_w32 thread_kq_w32 omp seq"
seq_max=20 omp_max=24
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
        --heights) heights=$2 ;;
        --iters) iters_list=$2 ;;
        --k) kinds=$2 ;;
        --repeat) repeat=$2 ;;
        --cutoff) cutoff=$2 ;;
        --variants) variants=$2 ;;
        --seq-max-height) seq_max=$2 ;;
        --omp-max-height) omp_max=$2 ;;
        *) usage ;;
    esac
    shift 2
done
bin=$build/apps/hetero_tree
[ -d "$bin" ] || { echo "sweep.sh: $bin does not exist (build the hetero_tree targets)" >&2; exit 2; }
mkdir -p "$out" || exit 2
csv=$out/sweep.csv log=$out/sweep.log
echo "variant,height,k,iters,median_ms" > "$csv"
{
    echo "sweep.sh $(date -u +%FT%TZ) build=$build"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null
    echo "heights=$heights iters=$iters_list k=$kinds repeat=$repeat cutoff=$cutoff variants=$variants"
} > "$log"

# The binary and extra arguments of a variant; empty when it is not built.
variant_cmd() {
    local v=$1 b=""
    case $v in
        thread) b=hetero_tree ;;
        thread_kq) b=hetero_tree_kq ;;
        block) b=hetero_tree_block ;;
        block_cutoff) b=hetero_tree_block_cutoff ;;
        thread_w32) b=hetero_tree_w32 ;;
        thread_kq_w32) b=hetero_tree_kq_w32 ;;
        omp) b=hetero_tree_omp ;;
        seq) b=hetero_tree_seq ;;
        *) echo "sweep.sh: unknown variant $v" >&2; exit 2 ;;
    esac
    [ -x "$bin/$b" ] || return
    case $v in
        block_cutoff) echo "$bin/$b --cutoff $cutoff" ;;
        omp) echo "env OMP_STACKSIZE=10M $bin/$b" ;;
        *) echo "$bin/$b" ;;
    esac
}

failed=0
for v in $variants; do
    cmd=$(variant_cmd "$v")
    if [ -z "$cmd" ]; then
        echo "sweep.sh: variant $v is not built in $bin; left out" | tee -a "$log" >&2
        continue
    fi
    for h in $heights; do
        [ "$v" = seq ] && [ "$h" -gt "$seq_max" ] && continue
        [ "$v" = omp ] && [ "$h" -gt "$omp_max" ] && continue
        for k in $kinds; do
            for it in $iters_list; do
                full="$cmd --n $h --k $k --compute $it --warmup 1 --repeat $repeat --csv"
                echo "\$ $full" >> "$log"
                row=$($full 2>>"$log")
                rc=$?
                echo "$row" >> "$log"
                # CSV row of app_cli.h: kernel_ms is field 10, check field 15
                ms=$(echo "$row" | awk -F, 'NF >= 16 && $15 == "pass" { print $10 }')
                if [ $rc -ne 0 ] || [ -z "$ms" ]; then
                    echo "sweep.sh: FAILED (exit $rc): $full" | tee -a "$log" >&2
                    ms=NA
                    failed=1
                fi
                echo "$v,$h,$k,$it,$ms" | tee -a "$csv"
            done
        done
    done
done
exit $failed
