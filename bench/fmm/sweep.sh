#!/bin/sh
# sweep.sh BUILD_DIR OUT: the FMM's traversal time over N in {1e6, 1e7, 5e7} x theta in {0.2,
# 0.3, 0.4, 0.5} (uniform cube, the upstream's headline sweep) for every GPU program and the
# host baselines, one CSV row per (program, N, theta): the app's --csv row (kernel_ms = the
# median traversal of REPEAT runs after one warm-up; answer = the tree and interaction counts)
# plus the other phases (ms, from the last run) and the sample errors.
#
# Headline (one H200; target: fmm at N = 5e7, theta 0.2 <= 215 ms traversal):
#   bench/fmm/sweep.sh build bench/results/<date>-fmm-h200/fmm.csv
# Environment: REPEAT (5), NS ("1e6 1e7 5e7"), THETAS ("0.2 0.3 0.4 0.5"), DIST (cube),
#   PROGRAMS (GPU: "fmm fmm_partitioned fmm_worklist fmm_fused"; host: "fmm_omp fmm_seq"),
#   TASK_MINS (task programs: extra --task-min values to sweep, default "256"),
#   OMP_THREADS (0 = all), SEQ_MAX_N (1e7: fmm_seq above it is skipped, it takes minutes),
#   FUSED_MAX_N (1e7: the fused build's atomics make it slow at 5e7), SAMPLES (1000 GPU, 100 host).
set -u
build=${1:?usage: sweep.sh BUILD_DIR OUT}
out=${2:?usage: sweep.sh BUILD_DIR OUT}
bin=$build/apps/fmm
repeat=${REPEAT:-5}
ns=${NS:-"1e6 1e7 5e7"}
thetas=${THETAS:-"0.2 0.3 0.4 0.5"}
dist=${DIST:-cube}
programs=${PROGRAMS:-"fmm fmm_partitioned fmm_worklist fmm_fused fmm_omp fmm_seq"}
task_mins=${TASK_MINS:-256}
seq_max=${SEQ_MAX_N:-1e7}
fused_max=${FUSED_MAX_N:-1e7}
mkdir -p "$(dirname "$out")"
log=${out%.csv}.log
: >"$log"

num() { awk "BEGIN { printf \"%.0f\", $1 }"; }

"$bin/fmm_seq" --csv-header | sed 's/$/,build_ms,upward_ms,lists_ms,downward_ms,phi_err,acc_err/' >"$out"
for n in $ns; do
    for theta in $thetas; do
        for p in $programs; do
            [ -x "$bin/$p" ] || { echo "sweep: $bin/$p missing, skipped" >&2; continue; }
            extra=""
            tms="-"
            samples=${SAMPLES:-1000}
            case $p in
            fmm_seq)
                [ "$(num "$n")" -gt "$(num "$seq_max")" ] && continue
                samples=${SAMPLES:-100} ;;
            fmm_omp)
                extra="--threads ${OMP_THREADS:-0}"
                samples=${SAMPLES:-100} ;;
            fmm_fused)
                [ "$(num "$n")" -gt "$(num "$fused_max")" ] && continue
                tms=$task_mins ;;
            fmm | fmm_partitioned) tms=$task_mins ;;
            esac
            for tm in $tms; do
                opt=""
                [ "$tm" = "-" ] || opt="--task-min $tm"
                err=$(mktemp)
                row=$(env OMP_STACKSIZE=10M "$bin/$p" --n "$n" --theta "$theta" --dist "$dist" $extra $opt \
                      --check-samples "$samples" --repeat "$repeat" --warmup 1 --csv 2>"$err")
                rc=$?
                cat "$err" >>"$log"
                if [ $rc -ne 0 ] || [ -z "$row" ]; then
                    echo "sweep: $p --n $n --theta $theta $opt failed (status $rc), see $log" >&2
                    rm -f "$err"
                    continue
                fi
                phases=$(awk -F': ' '/^build ms/ {b=$2} /^upward ms/ {u=$2} /^list interactions ms/ {l=$2}
                    /^downward ms/ {d=$2} /^potential rel L2 error/ {split($2, a, " "); pe=a[1]}
                    /^acceleration rel L2 error/ {split($2, a, " "); ae=a[1]}
                    END {printf "%s,%s,%s,%s,%s,%s", b, u, l, d, pe, ae}' "$err")
                rm -f "$err"
                echo "$row,$phases" >>"$out"
                echo "$row,$phases"
            done
        done
    done
done
