#!/bin/sh
# upstream_style.sh GTAPCC PROGDIR OUTDIR CUDA_PATH [run-gpu] - gtapcc called as the paper's Makefiles call
# their compiler (CLANG_BIN=gtapcc alone): clang-style flags, -I$(GT_INC) naming the paper's
# own runtime, -Wl,-rpath,..., and the newer programs' "experimental/" header paths. Here the
# -I path holds headers of the same names that stop the build if they are used, so the build
# passes only if gtapcc's own runtime comes first; the -Wl option must reach the linker (a
# RUNPATH entry). Host target: built and run. GPU target (where nvcc is): built and linked,
# and with run-gpu also run (exit 77 without a GPU). With run-gpu on a machine where gtapcc
# cannot run (a GPU machine without libclang, given a build made elsewhere), the GPU programs
# the build's own run left in OUTDIR are run.
set -eu
gtapcc=$1 prog=$2 out=$3 cuda=$4 run_gpu=${5:-}
run_gpu_programs() { # exit 77 without a GPU
    if ! nvidia-smi -L 2> /dev/null | grep -q '^GPU'; then
        echo "SKIP: no GPU to run the GPU builds"
        exit 77
    fi
    "$out/fib_paper_gpu"
    "$out/block_gq_gpu"
}
if [ "$run_gpu" = run-gpu ] && ! "$gtapcc" --version > /dev/null 2>&1; then
    if [ ! -x "$out/fib_paper_gpu" ] || [ ! -x "$out/block_gq_gpu" ]; then
        echo "FAIL: gtapcc cannot run here and $out holds no GPU programs built by it"
        exit 1
    fi
    echo "note: gtapcc cannot run on this machine; running the GPU programs built where it can"
    run_gpu_programs
    echo "PASS: upstream-style builds"
    exit 0
fi
fake=$out/other_runtime
rpath=/opt/gtap-rpath-check
mkdir -p "$fake/experimental"
for h in gtap_thread.cuh gtap_block.cuh gtap_block_gq.cuh gtap_thread_gq.cuh gtap_thread_chaselev.cuh \
         experimental/gtap_block_gq.cuh experimental/gtap_thread_gq.cuh experimental/gtap_thread_chaselev.cuh; do
    echo "#error \"$h of the other runtime on the -I path was used: gtapcc's runtime must come first\"" > "$fake/$h"
done
has_rpath() {
    if ! readelf -d "$1" | grep -q "$rpath"; then
        echo "FAIL: -Wl,-rpath,$rpath did not reach the linker of $1"
        exit 1
    fi
}
# thread-level (the paper's fib with EPAQ) and block-level through experimental/
"$gtapcc" --target=host -O3 -x cuda --cuda-gpu-arch=sm_90 -I"$fake" -DGTAP_NUM_QUEUES=3 \
    "$prog/fib_paper.cu" -lcudart -Wl,-rpath,$rpath -o "$out/fib_paper_host"
has_rpath "$out/fib_paper_host"
"$out/fib_paper_host"
"$gtapcc" --target=host -O3 -x cuda -I"$fake" -DGTAP_BLOCK_SIZE=32 "$prog/upstream/block_gq_include.cu" \
    -Wl,-rpath,$rpath -o "$out/block_gq_host"
has_rpath "$out/block_gq_host"
"$out/block_gq_host"
if [ -x "$cuda/bin/nvcc" ]; then
    "$gtapcc" -O3 -x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_90 -I"$fake" -DGTAP_NUM_QUEUES=3 \
        -L"$cuda/lib64" -lcudart "$prog/fib_paper.cu" -Wl,-rpath,$rpath -o "$out/fib_paper_gpu"
    has_rpath "$out/fib_paper_gpu"
    "$gtapcc" -O3 -x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_90 -I"$fake" -DGTAP_BLOCK_SIZE=32 \
        -L"$cuda/lib64" -lcudart "$prog/upstream/block_gq_include.cu" -Wl,-rpath,$rpath -o "$out/block_gq_gpu"
    has_rpath "$out/block_gq_gpu"
    if [ "$run_gpu" = run-gpu ]; then
        run_gpu_programs
    fi
else
    echo "note: no nvcc at $cuda; GPU builds not checked"
fi
echo "PASS: upstream-style builds"
