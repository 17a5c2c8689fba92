#!/bin/bash
# Session 11's final device call: GPU tests and sanitizers of the landed build (early
# publishing on), a same-machine A/B (v0 = HEAD 1d72a12's binaries; e0 / e1 = this build with
# GTAP_EARLY_PUBLISH=0 / 1), then 6.2 (GPU rows) and 6.3 (thread rows) re-measured.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s11/final.tgz -C $W
rm -rf build; ln -s $W/build build
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build/apps; V0=build-stage/s11/v0
{
 for t in memcheck racecheck; do
  echo "== $t cilksort early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 compute-sanitizer --tool $t $A/cilksort/cilksort --n 30011 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t binary_tree spread 16 (one SM)"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 10 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t fib (one SM)"; GTAP_STATS=1 compute-sanitizer --tool $t $A/fib/fib --n 18 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck cilksort 2e5"; GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 200000 --warmup 0 --repeat 1
 echo "== memcheck cilksort 1e6"; GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 1000000 --warmup 0 --repeat 1
} > $L/sanitizer.log 2>&1
echo "ab $(date +%T)" >> $L/progress.txt
run() { local d=$1 n=$2; shift 2
 echo "== v0 $n $*" >> $L/ab.log; $V0/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1
 for e in 0 1; do echo "== e$e $n $*" >> $L/ab.log; GTAP_EARLY_PUBLISH=$e $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for n in 100000 200000 1000000 10000000; do run cilksort cilksort --n $n; done
for n in 4 20 22 24 30 35; do run fib fib --n $n; done
for n in 12 14; do run nqueens nqueens --n $n; done
run mergesort mergesort --n 1000000
for c in 8192 32768; do run tree binary_tree --n 20 --compute $c --mem 256; done
run tree binary_tree --n 18 --compute 256 --mem 256
run tree bary_tree --n 32
echo "6.2 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --resume-from build-stage/seed --only 6.2 --budget 70 > $L/run62.console.log 2>&1
echo "6.3 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.3 --budget 170 > $L/run63.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
