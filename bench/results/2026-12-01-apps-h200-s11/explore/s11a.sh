#!/bin/bash
# Session 11, device call a: GPU CTest of HEAD (1d72a12: the commits of session 10 not yet run
# on a GPU), sanitizers with spreading, the cilksort trace (10^5, 2x10^5), cilksort and small-fib
# timings for reference.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
tar xzf build-stage/s11/ci.tgz -C $W
rm -rf build; ln -s $W/build build
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build/apps
{
 for t in memcheck racecheck; do
  echo "== $t binary_tree spreading (one SM)"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 6 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck cilksort spreading"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 200000 --warmup 0 --repeat 1
 echo "== memcheck fib 4 warps"; compute-sanitizer --tool memcheck $A/fib/fib --n 18 --grid 1 --block 128 --repeat 2
} > $L/sanitizer.log 2>&1
echo "trace $(date +%T)" >> $L/progress.txt
for n in 100000 200000; do
 for r in 1 2 3; do
  CILK_TRACE_OUT=$L/trace_${n}_$r.bin build-stage/s11/cilk_trace --n $n --warmup 2 --repeat 1 --csv >> $L/trace_runs.log 2>&1
 done
done
echo "times $(date +%T)" >> $L/progress.txt
for r in 1 2; do
 for n in 100000 200000; do
  for s in 0 4; do echo "== s$s cilksort $n" >> $L/ab.log; GTAP_SPREAD=$s $A/cilksort/cilksort --n $n --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done
 done
 for n in 2 4 10 20; do echo "== fib $n" >> $L/ab.log; $A/fib/fib --n $n --warmup 2 --repeat 21 --csv >> $L/ab.log 2>&1; done
done
echo "end $(date +%T)" >> $L/progress.txt
cd $OUT && tar czf all.tgz log && rm -rf log
