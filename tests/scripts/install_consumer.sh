#!/bin/sh
# install_consumer.sh BUILD_DIR SOURCE_DIR: installs the build into a fresh prefix, then builds
# and runs a separate CMake project that uses find_package(gtap) and gtap_add_executable() with
# the host target (the demo, on the CPU reference executor), and builds its GPU target.
set -eu
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
mkdir "$work/app"
cp "$src/apps/demo/demo.cu" "$work/app/"
cat > "$work/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.24)
project(consumer LANGUAGES C CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
find_package(gtap REQUIRED)
gtap_add_executable(demo_cpu TARGET host SOURCES demo.cu)
gtap_add_executable(demo_gpu SOURCES demo.cu)
CM
cmake -S "$work/app" -B "$work/app/build" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/app/build" -j 2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/app/build/demo_cpu" 18 8
test -x "$work/app/build/demo_gpu"
echo "installed package: find_package(gtap) + gtap_add_executable work (host and gpu targets)"
