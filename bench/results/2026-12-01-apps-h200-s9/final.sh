#!/bin/bash
# Session 9's final device call: GPU tests and sanitizers on the resume buffer, then 6.3
# (thread rows) and 6.2 (GPU rows) re-measured, then a same-machine A/B of the knob.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/apps.tgz -C $W && tar xzf build-stage/ci.tgz -C $W
rm -rf build build-final; ln -s $W/build build; ln -s $W/build-final build-final
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build-final/apps
{
 for t in memcheck racecheck synccheck; do
  echo "== $t binary_tree one warp"; compute-sanitizer --tool $t $A/tree/binary_tree --n 10 --mem 16 --compute 64 --grid 1 --block 32 --repeat 2
  echo "== $t cilksort one warp"; compute-sanitizer --tool $t $A/cilksort/cilksort --n 20011 --grid 1 --block 32 --repeat 1
 done
 echo "== memcheck fib 4 warps"; compute-sanitizer --tool memcheck $A/fib/fib --n 18 --grid 1 --block 128 --repeat 2
 echo "== memcheck binary_tree default grid D=14"; compute-sanitizer --tool memcheck $A/tree/binary_tree --n 14 --repeat 1
 echo "== stats binary tree D=20 8192"; GTAP_STATS=1 $A/tree/binary_tree --n 20 --compute 8192 --repeat 1
} > $L/sanitizer.log 2>&1
echo "6.3 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build-final /tmp/apps --resume-from build-stage/seed --only 6.3 --budget 260 > $L/run63.console.log 2>&1
echo "6.2 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build-final /tmp/apps --only 6.2 --budget 110 > $L/run62.console.log 2>&1
echo "ab $(date +%T)" >> $L/progress.txt
run() { local n=$1; shift
 for v in 0 1; do echo "== rq$v $n $*" >> $L/ab.log; GTAP_RESUME_BATCHING=$v $A/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2; do
 [ $SECONDS -gt 470 ] && break
 for c in 4096 8192 32768; do run tree/binary_tree --n 20 --compute $c --mem 256; done
 run tree/binary_tree --n 18 --compute 256 --mem 256
 run tree/bary_tree --n 32
 run fib/fib --n 30
 run cilksort/cilksort --n 200000
 run cilksort/cilksort --n 1000000
done
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && tar czf all.tgz log -C /tmp apps && rm -rf log
