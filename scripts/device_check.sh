#!/bin/bash
# device_check.sh BUILD_DIR OUT_DIR [quick]: on a machine with a GPU, runs the gpu-labelled
# tests of a build made elsewhere (the build folder is carried to the machine), then
# compute-sanitizer memcheck and racecheck on small inputs. Logs go to OUT_DIR.
# The build's CTest files name the path it was configured at; when the checkout lives
# elsewhere here, that path is made to point at this checkout.
set -u
build=${1:-build}
out=${2:-${OUT:-/tmp/gtap-out}}
mode=${3:-full}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
cfg_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$cfg_root" ] && [ "$cfg_root" != "$root" ] && [ ! -e "$cfg_root" ]; then
    mkdir -p "$(dirname "$cfg_root")" && ln -s "$root" "$cfg_root"
fi
export NCCL_NVLS_ENABLE=0
{
    date -u +"date %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') x $(nproc)"
    nvcc --version | tail -1
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

# Smoke test first: a broken runtime should not burn the session on timeouts.
if ! timeout 60 "$build/tests/handcomp/hc_fib" 20 > "$out/smoke.log" 2>&1; then
    echo "SMOKE FAILED"; cat "$out/smoke.log"
    exit 1
fi
cat "$out/smoke.log"
(cd "$build" && ctest -L gpu --timeout 120 --output-on-failure) > "$out/ctest_gpu.log" 2>&1
tail -25 "$out/ctest_gpu.log"
[ "$mode" = quick ] && exit 0

if command -v compute-sanitizer > /dev/null; then
    hc=$build/tests/handcomp
    {
        echo "== memcheck fib 16"; timeout 300 compute-sanitizer --tool memcheck "$hc/hc_fib" 16 14
        echo "== memcheck tree thread D=8"; timeout 300 compute-sanitizer --tool memcheck "$hc/hc_tree_thread" 8 4 4 1
        echo "== memcheck tree block D=6"; timeout 300 compute-sanitizer --tool memcheck "$hc/hc_tree_block" 6 4 4 1
        echo "== memcheck bfs block"; timeout 300 compute-sanitizer --tool memcheck "$hc/hc_bfs_block" 2000 4
        echo "== memcheck nqueens 9"; timeout 300 compute-sanitizer --tool memcheck "$hc/hc_nqueens" 9 8
        echo "== racecheck tree block D=5"; timeout 300 compute-sanitizer --tool racecheck "$hc/hc_tree_block" 5 4 4 1
        echo "== racecheck fib 12"; timeout 300 compute-sanitizer --tool racecheck "$hc/hc_fib" 12 12
        echo "== synccheck tree block D=5"; timeout 300 compute-sanitizer --tool synccheck "$hc/hc_tree_block" 5 4 4 1
    } > "$out/sanitizer.log" 2>&1
    grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" "$out/sanitizer.log"
else
    echo "compute-sanitizer not found" | tee "$out/sanitizer.log"
fi
