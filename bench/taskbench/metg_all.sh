#!/bin/bash
# metg_all.sh - Task Bench's METG(50%) for every pattern on this machine, in one call:
# thread-level and block-level tasks on the GPU (dataflow mapping; fork-join and the
# no-taskwait dataflow builds for stencil_1d), then OpenMP, MPI and one core on the CPU cores.
#   metg_all.sh BUILD OUT [CORES]
# BUILD: a build folder (apps/taskbench/ in it); OUT: where the sweeps go (OUT/<name>.csv,
# .md, .png and OUT/summary.csv); CORES: CPU cores for the baselines (default: nproc).
#
# Widths: one task per worker per step (the banner's workers=: lanes for thread-level tasks,
# blocks for block-level ones, cores for the baselines), so a step fills the machine and
# granularity = elapsed x workers / tasks is the time one worker spends per task. all_to_all
# is the exception: each task reads every point of the previous step (width^2 inputs per step),
# so its width is 1024 lanes / 132 blocks and its granularity is per point (--workers = width).
set -u
build=$1
out=$2
cores=${3:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
tb=$build/apps/taskbench
metg="python3 $here/metg.py"
mkdir -p "$out"
echo "name,impl,pattern,width,workers,metg_us,line" >"$out/summary.csv"

workers_of() { # the banner's workers= of a one-task run
    "$@" -steps 1 -width 1 --repeat 1 --warmup 0 2>/dev/null | sed -n 's/.*workers=\([0-9]*\).*/\1/p' | head -1
}

# sweep NAME ITER_START [--workers W] -- COMMAND...
sweep() {
    local name=$1 start=$2
    shift 2
    local extra=()
    while [ "$1" != "--" ]; do extra+=("$1"); shift; done
    shift
    echo "== $name: $*"
    if $metg sweep --out "$out/$name" --iter-start "$start" "${extra[@]}" -- "$@" >"$out/$name.log" 2>&1; then
        local line
        line=$(grep -h "^METG" "$out/$name.md" | head -1)
        echo "$line"
        local value
        value=$(echo "$line" | sed -n 's/^METG([0-9]*%) = [<= ]*\([0-9.e+-]*\) us.*/\1/p')
        echo "$name,${name%%.*},$pattern,$width,$wk,$value,\"$line\"" >>"$out/summary.csv"
    else
        echo "FAILED (see $out/$name.log)"; tail -5 "$out/$name.log"
        echo "$name,${name%%.*},$pattern,$width,$wk,,FAILED" >>"$out/summary.csv"
    fi
}

patterns="trivial no_comm stencil_1d stencil_1d_periodic dom tree fft nearest spread random_nearest all_to_all"
R=(--repeat 3 --warmup 1)
lanes=$(workers_of "$tb/taskbench")
blocks=$(workers_of "$tb/taskbench_block")
echo "GPU workers: $lanes lanes, $blocks blocks; CPU cores: $cores"

for pattern in $patterns; do
    width=$lanes; wk=$lanes; wopt=()
    [ "$pattern" = all_to_all ] && { width=1024; wk=1024; wopt=(--workers 1024 --worker-kind "lanes (one per point)"); }
    sweep "thread.$pattern" 16384 "${wopt[@]}" -- "$tb/taskbench" -steps 100 -width "$width" -type "$pattern" \
        -kernel compute_bound "${R[@]}"
    width=$blocks; wk=$blocks; wopt=()
    [ "$pattern" = all_to_all ] && { width=132; wk=132; wopt=(--workers 132 --worker-kind "blocks (one per point)"); }
    sweep "block.$pattern" 262144 "${wopt[@]}" -- "$tb/taskbench_block" -steps 100 -width "$width" -type "$pattern" \
        -kernel compute_bound "${R[@]}"
done
pattern=stencil_1d
width=$lanes; wk=$lanes
sweep thread_forkjoin.stencil_1d 16384 -- "$tb/taskbench" --mapping forkjoin -steps 100 -width "$width" \
    -type stencil_1d -kernel compute_bound "${R[@]}"
sweep thread_ntw.stencil_1d 16384 -- "$tb/taskbench_dataflow" -steps 100 -width "$width" -type stencil_1d \
    -kernel compute_bound "${R[@]}"
width=$blocks; wk=$blocks
sweep block_forkjoin.stencil_1d 262144 -- "$tb/taskbench_block" --mapping forkjoin -steps 100 -width "$width" \
    -type stencil_1d -kernel compute_bound "${R[@]}"

# The CPU baselines: one task per core per step, 1000 steps.
width=$cores; wk=$cores
for pattern in stencil_1d nearest fft; do
    sweep "omp.$pattern" 65536 -- "$tb/taskbench_omp" --threads "$cores" -steps 1000 -width "$cores" \
        -type "$pattern" -kernel compute_bound "${R[@]}"
    if [ -x "$tb/taskbench_mpi" ] && command -v mpirun >/dev/null; then
        sweep "mpi.$pattern" 65536 -- mpirun --allow-run-as-root --oversubscribe --bind-to core -np "$cores" \
            "$tb/taskbench_mpi" -steps 1000 -width "$cores" -type "$pattern" -kernel compute_bound "${R[@]}"
    fi
done
width=1; wk=1; pattern=stencil_1d
sweep seq.stencil_1d 65536 -- "$tb/taskbench_seq" -steps 1000 -width 1 -type stencil_1d -kernel compute_bound "${R[@]}"
echo "summary: $out/summary.csv"
