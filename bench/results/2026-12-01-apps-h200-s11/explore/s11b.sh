#!/bin/bash
# Session 11, device call b: early publishing (GTAP_EARLY_PUBLISH). GPU CTest of the new build,
# sanitizers with early publishing on one SM, the cilksort trace with it on and off, and a
# same-machine A/B: v0 = HEAD 1d72a12's binaries, e0 / e1 = the new build with the knob off / on.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
tar xzf build-stage/s11/new.tgz -C $W
rm -rf build; ln -s $W/build build
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build/apps; V0=build-stage/s11/v0
{
 for t in memcheck racecheck; do
  echo "== $t cilksort early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 compute-sanitizer --tool $t $A/cilksort/cilksort --n 30011 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t binary_tree early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 8 --mem 16 --compute 16384 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck cilksort 2e5 early+spread"; GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 200000 --warmup 0 --repeat 1
 echo "== racecheck v0 binary_tree spread 16 (the warning of call a)"; GTAP_SPREAD=16 compute-sanitizer --tool racecheck $V0/binary_tree --n 6 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
 echo "== racecheck v0 binary_tree spread 0"; GTAP_SPREAD=0 compute-sanitizer --tool racecheck $V0/binary_tree --n 6 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
 echo "== stats cilksort 1e5 / 2e5"; for n in 100000 200000; do GTAP_STATS=1 $A/cilksort/cilksort --n $n --repeat 3 2>&1 | grep -E "stats|Execution"; done
 echo "== stats binary_tree D=20 8192"; GTAP_STATS=1 $A/tree/binary_tree --n 20 --compute 8192 --repeat 1 2>&1 | grep -E "stats|Execution"
} > $L/sanitizer.log 2>&1
echo "trace $(date +%T)" >> $L/progress.txt
for n in 100000 200000; do
 for r in 1 2; do
  for e in 0 1; do
   GTAP_EARLY_PUBLISH=$e CILK_TRACE_OUT=$L/trace_e${e}_${n}_$r.bin build-stage/s11/cilk_trace_new --n $n --warmup 2 --repeat 1 --csv >> $L/trace_runs.log 2>&1
  done
 done
done
echo "ab $(date +%T)" >> $L/progress.txt
run() { local d=$1 n=$2; shift 2
 echo "== v0 $n $*" >> $L/ab.log; $V0/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1
 for e in 0 1; do echo "== e$e $n $*" >> $L/ab.log; GTAP_EARLY_PUBLISH=$e $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2; do
 for n in 100000 200000 500000 1000000; do run cilksort cilksort --n $n; done
 for n in 4 20 30; do run fib fib --n $n; done
 for n in 12 14; do run nqueens nqueens --n $n; done
 run mergesort mergesort --n 1000000
 for c in 8192 32768; do run tree binary_tree --n 20 --compute $c --mem 256; done
 run tree binary_tree --n 18 --compute 256 --mem 256
 run tree bary_tree --n 32
 run tree bary_tree --n 32 --compute 8192
done
echo "end $(date +%T)" >> $L/progress.txt
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/ab_summary.txt 2>&1
cd $OUT && cp log/ab_summary.txt log/progress.txt . && tar czf all.tgz log && rm -rf log
