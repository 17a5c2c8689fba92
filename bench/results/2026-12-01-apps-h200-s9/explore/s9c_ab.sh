#!/bin/bash
# A/B of GTAP_RESUME_BATCHING (0 = before, 1 = after) with one binary per app.
S=build-stage/rq; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv > $L/gpu.txt
run() { local n=$1; shift
 for v in 0 1; do echo "== rq$v $n $*" >> $L/ab.log; GTAP_RESUME_BATCHING=$v $S/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 run binary_tree --n 18 --compute 256 --mem 256
 for c in 4096 8192 16384 32768; do run binary_tree --n 20 --compute $c --mem 256; done
 run binary_tree --n 22 --compute 256 --mem 256
 run bary_tree --n 22
 run bary_tree --n 32
 for n in 14 24 30 35; do run fib --n $n; done
 for n in 10 12 14; do run nqueens --n $n; done
 for n in 100000 200000 500000 1000000 10000000; do run cilksort --n $n; done
 run mergesort --n 100000
 echo "round $r $(date +%T)" >> $L/progress.txt
done
for v in 0 1; do GTAP_RESUME_BATCHING=$v $S/binary_tree_prof --n 20 --compute 8192 --mem 256 --repeat 1 --profile $OUT/prof_rq$v > $L/prof_rq$v.log 2>&1; done
( set -x
$S/bfs --n 262144 --graph rmat --repeat 3
$S/spmv --n 100000 --repeat 3
$S/binary_tree_block --n 18 --repeat 3
$S/fib_epaq --n 30 --cutoff 10 --repeat 3
$S/nqueens_epaq --n 14 --repeat 3
$S/cilksort_epaq --n 10000000 --cutoff 256 --repeat 3
$S/fib_gq --n 24 --repeat 3
$S/fib_cl --n 24 --repeat 3
$S/fib --n 40 --repeat 2
$S/nqueens --n 16 --repeat 2
$S/cilksort --n 100000000 --repeat 2
GTAP_MAX_TASKS_PER_WARP=64 $S/fib --n 30 --repeat 2
GTAP_STATS=1 $S/binary_tree --n 20 --compute 8192 --repeat 1
compute-sanitizer --tool memcheck $S/fib --n 18 --repeat 2
compute-sanitizer --tool memcheck $S/binary_tree --n 12 --compute 64 --mem 64 --repeat 2
compute-sanitizer --tool racecheck $S/binary_tree --n 10 --compute 64 --mem 64 --repeat 1
compute-sanitizer --tool memcheck $S/cilksort --n 30011 --repeat 2
) > $L/checks.log 2>&1
grep -E "check:|ERROR SUMMARY" $L/checks.log
cd $OUT && tar czf all.tgz log prof_rq0 prof_rq1 && rm -rf log prof_rq0 prof_rq1
