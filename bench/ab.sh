#!/bin/bash
# ab.sh [-n N] [-r R] [-w W] [-o OUT] [-b BUILD] [--names A,B] A B WORKLOAD...
#
# A/B of the applications: two builds, two binaries, or one build under two knob settings.
# A and B are each one of
#   a build folder (holds apps/...)   WORKLOAD = a program path in it and its arguments
#   an executable file                WORKLOAD = the arguments only (the program is A or B)
#   knob settings 'NAME=V [NAME=V]'   run in the build folder -b BUILD (default: build) with
#                                     those environment variables, e.g. GTAP_TOPUP_STEAL=0
# WORKLOAD: one quoted string each, e.g. 'apps/fib/fib --n 30' 'apps/tree/binary_tree --n 20'.
# For every workload, each of R rounds (default 1) runs A then B (B then A in odd rounds), each
# as one process with --warmup W (default 1) --repeat N (default 11) --csv: the variants
# alternate, so a drift of the machine's clock or temperature hits both. Writes
#   OUT/ab.log        every command ("== A|B WORKLOAD" before it) and its whole output
#   OUT/ab.csv        workload,variant,round,launch,kernel_ms,check (one row per timed launch)
#   OUT/summary.txt   per workload: median kernel time of A and of B over all their launches,
#                     the ratio B/A, the spread of the per-round medians; the geometric mean
#                     of the ratios (also printed)
# OUT defaults to ab-YYYYmmdd-HHMMSS. bench/ab_summary.py OUT/ab.log redoes the summary.
# Needs bash and python3 (standard library). Exit status 1 when a run or a check failed.
# Examples:
#   bench/ab.sh -b build GTAP_TOPUP_STEAL=0 GTAP_TOPUP_STEAL=1 'apps/tree/binary_tree --n 20 --compute 8192'
#   bench/ab.sh -r 3 build-old build-new 'apps/fib/fib --n 30' 'apps/cilksort/cilksort --n 1e6'
set -u
usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
n=11 rounds=1 warmup=1 out="" build=build names="A,B"
while [ $# -gt 0 ]; do
    case $1 in
        -n) n=$2; shift 2 ;;
        -r) rounds=$2; shift 2 ;;
        -w) warmup=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        -b) build=$2; shift 2 ;;
        --names) names=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || usage
spec_a=$1 spec_b=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
out=${out:-ab-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out" || exit 2
name_a=${names%%,*} name_b=${names#*,}

# Resolves a variant spec into "kind<TAB>path<TAB>env": kind dir, bin or env.
resolve() {
    local s=$1
    if [[ $s =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
        [ -d "$build" ] || { echo "ab.sh: knob settings '$s' need a build folder (-b $build: none)" >&2; exit 2; }
        printf 'env\t%s\t%s\n' "$(cd "$build" && pwd)" "$s"
    elif [ -d "$s" ]; then
        printf 'dir\t%s\t\n' "$(cd "$s" && pwd)"
    elif [ -f "$s" ] && [ -x "$s" ]; then
        printf 'bin\t%s\t\n' "$(cd "$(dirname "$s")" && pwd)/$(basename "$s")"
    else
        echo "ab.sh: '$s' is neither a build folder, an executable nor NAME=VALUE settings" >&2
        exit 2
    fi
}
IFS=$'\t' read -r kind_a path_a env_a < <(resolve "$spec_a") || exit 2
IFS=$'\t' read -r kind_b path_b env_b < <(resolve "$spec_b") || exit 2
[ -n "$kind_a" ] && [ -n "$kind_b" ] || exit 2
if [ "$kind_a" = bin ] || [ "$kind_b" = bin ]; then
    [ "$kind_a" = "$kind_b" ] || { echo "ab.sh: an executable can only be compared with another executable" >&2; exit 2; }
fi

log=$out/ab.log
{
    echo "# ab.sh $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# $name_a: $kind_a $path_a $env_a"
    echo "# $name_b: $kind_b $path_b $env_b"
    echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
    echo "# launches: $rounds round(s) x $n per process, warmup $warmup"
} > "$log"
cat "$log"

# run NAME KIND PATH ENV ROUND WORKLOAD: one process, appended to the log.
run() {
    local name=$1 kind=$2 path=$3 env=$4 round=$5 workload=$6 rc
    echo "== $name $workload" >> "$log"
    echo "round $round" >> "$log"
    case $kind in
        dir) (cd "$path" && ./$workload --warmup "$warmup" --repeat "$n" --csv) >> "$log" 2>&1 ;;
        bin) "$path" $workload --warmup "$warmup" --repeat "$n" --csv >> "$log" 2>&1 ;;
        env) (cd "$path" && env $env ./$workload --warmup "$warmup" --repeat "$n" --csv) >> "$log" 2>&1 ;;
    esac
    rc=$?
    echo "exit $rc" >> "$log"
    [ $rc -eq 0 ] || echo "ab.sh: $name '$workload' exited $rc (see $log)" >&2
}

for ((r = 0; r < rounds; r++)); do
    for w in "$@"; do
        if ((r % 2 == 0)); then
            run "$name_a" "$kind_a" "$path_a" "$env_a" "$r" "$w"
            run "$name_b" "$kind_b" "$path_b" "$env_b" "$r" "$w"
        else
            run "$name_b" "$kind_b" "$path_b" "$env_b" "$r" "$w"
            run "$name_a" "$kind_a" "$path_a" "$env_a" "$r" "$w"
        fi
    done
done
python3 "$here/ab_summary.py" "$log" --names "$name_a,$name_b" --csv "$out/ab.csv" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
