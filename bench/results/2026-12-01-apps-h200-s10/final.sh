#!/bin/bash
# Session 10's final device call: GPU tests and sanitizers with spreading in use, a
# same-machine A/B (v0 = fa597ab, the landed build with GTAP_SPREAD=0 and 4), then 6.3
# (thread rows) and 6.2 (GPU rows) re-measured with the landed build.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s10/final.tgz -C $W && tar xzf build-stage/s10/ci.tgz -C $W
rm -rf build build-final; ln -s $W/build build; ln -s $W/build-final build-final
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build-final/apps
{
 for t in memcheck racecheck; do
  echo "== $t binary_tree spreading (one SM)"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 6 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck cilksort spreading"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 200000 --warmup 0 --repeat 1
 echo "== memcheck fib 4 warps"; compute-sanitizer --tool memcheck $A/fib/fib --n 18 --grid 1 --block 128 --repeat 2
 echo "== stats binary tree D=20 32768"; GTAP_STATS=1 $A/tree/binary_tree --n 20 --compute 32768 --repeat 1
} > $L/sanitizer.log 2>&1
echo "ab $(date +%T)" >> $L/progress.txt
V0=build-stage/s10/v0
run() { local d=$1 n=$2; shift 2
 echo "== v0 $n $*" >> $L/ab.log; $V0/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1
 for v in 0 4; do echo "== s$v $n $*" >> $L/ab.log; GTAP_SPREAD=$v $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2; do
 for n in 30 35; do run fib fib --n $n; done
 run nqueens nqueens --n 14
 for n in 100000 200000 1000000; do run cilksort cilksort --n $n; done
 run mergesort mergesort --n 1000000
 for c in 256 4096 8192 16384 32768; do run tree binary_tree --n 20 --compute $c --mem 256; done
 run tree binary_tree --n 18 --compute 256 --mem 256
 run tree binary_tree --n 20 --compute 256 --mem 2048
 run tree bary_tree --n 32
 run tree bary_tree --n 32 --compute 8192
done
echo "6.3 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build-final /tmp/apps --resume-from build-stage/seed --only 6.3 --budget 190 > $L/run63.console.log 2>&1
echo "6.2 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build-final /tmp/apps --only 6.2 --budget 70 > $L/run62.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/ab_summary.txt 2>&1
cd $OUT && cp log/ab_summary.txt log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
