#!/bin/bash
# run_all.sh BUILD OUT [--quick] [--resume-from DIR] [gtap_eval.py run options...]
#
# The applications' evaluation on a GPU machine, building nothing (BUILD is a carried build
# folder, e.g. one configured with -DGTAP_BUILD_TESTS=OFF, see README.md): records the machine,
# checks every program at the paper's largest sizes, then runs the experiments of the paper's
# section 6 (6.1 ablations, 6.2 size sweeps vs OpenMP and sequential on this machine's CPU,
# 6.3 tree sweeps, 6.4 EPAQ, the mergesort profile), writing OUT/<exp>/results.{csv,md,png}
# and OUT/summary.md. Resumable: points already in OUT's CSVs are skipped; --resume-from DIR
# first copies an earlier session's OUT into OUT. --quick: a few points per sweep (about 8
# minutes of H200 time); see `gtap_eval.py run --help` for --only, --budget, --dry-run.
set -u
if [ $# -lt 2 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
build=$(cd "$1" && pwd) || exit 2
out=$2
shift 2
if [ "${1:-}" = "--resume-from" ]; then
    mkdir -p "$out"
    cp -rn "$2"/. "$out"/ 2>/dev/null || cp -r "$2"/. "$out"/
    shift 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

{
    echo "session $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    if command -v nvidia-smi > /dev/null 2>&1; then
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | sed 's/^/gpu: /'
    else
        echo "gpu: (nvidia-smi not found)"
    fi
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc) cores"
    echo "os: $(uname -sr)"
    echo "build: $build ($(cat "$build/CMakeCache.txt" 2>/dev/null | grep -m1 '^CMAKE_CUDA_COMPILER_VERSION' | cut -d= -f2 || true))"
    echo "source: $( (cd "$root" && git rev-parse --short HEAD 2>/dev/null) || echo 'not a git checkout')"
    echo "command: bench/apps/run_all.sh $* (OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset})"
} >> "$out/machine.txt"
tail -7 "$out/machine.txt"

python3 -u "$root/bench/apps/gtap_eval.py" run --build "$build" --out "$out" "$@"
rc=$?
# Chrome traces of the profiles are large; the CSVs and the timeline PNGs stay as they are.
find "$out" -name trace.json -exec gzip -f {} + 2> /dev/null
exit $rc
