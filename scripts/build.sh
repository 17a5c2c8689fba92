#!/bin/sh
# build.sh [BUILD_DIR]: installs missing packages, configures and builds everything.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/install_deps.sh"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release > "$build/configure.log" 2>&1 || {
    cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)"
