#!/bin/bash
# Session 11, device call c: early publishing without the timing condition, lanes first wait up
# to GTAP_EARLY_PUBLISH_WAIT_CYCLES (8000) for the others. GPU CTest, sanitizers, the cilksort
# trace, and an A/B: v0 = HEAD 1d72a12; e0 / e1 = new build, knob off / on; w0 / w32k = wait 0 /
# 32000 cycles; s1k = GTAP_IDLE_SLEEP_MAX_NS=1024 (idle back-off), knob on.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
tar xzf build-stage/s11/new.tgz -C $W
rm -rf build; ln -s $W/build build
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build/apps; S=build-stage/s11; tar xzf $S/variants.tgz -C $S
{
 for t in memcheck racecheck; do
  echo "== $t cilksort early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 compute-sanitizer --tool $t $A/cilksort/cilksort --n 30011 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t binary_tree early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 10 --mem 16 --compute 16384 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t binary_tree spread 16 (one SM)"; GTAP_SPREAD=16 GTAP_STATS=1 compute-sanitizer --tool $t $A/tree/binary_tree --n 10 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t fib early (one SM)"; GTAP_STATS=1 compute-sanitizer --tool $t $A/fib/fib --n 18 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck cilksort 2e5"; GTAP_STATS=1 compute-sanitizer --tool memcheck $A/cilksort/cilksort --n 200000 --warmup 0 --repeat 1
 echo "== stats"; for n in 100000 200000 1000000; do GTAP_STATS=1 $A/cilksort/cilksort --n $n --repeat 1 2>&1 | grep -E "stats|Execution"; done
 GTAP_STATS=1 $A/fib/fib --n 30 --repeat 1 2>&1 | grep -E "stats|Execution"
 GTAP_STATS=1 $A/tree/binary_tree --n 20 --compute 8192 --repeat 1 2>&1 | grep -E "stats|Execution"
} > $L/sanitizer.log 2>&1
echo "trace $(date +%T)" >> $L/progress.txt
for n in 100000 200000; do for r in 1 2; do for e in 0 1; do
  GTAP_EARLY_PUBLISH=$e CILK_TRACE_OUT=$L/trace_e${e}_${n}_$r.bin $S/cilk_trace_new --n $n --warmup 2 --repeat 1 --csv >> $L/trace_runs.log 2>&1
done; done; done
echo "ab $(date +%T)" >> $L/progress.txt
run() { local d=$1 n=$2; shift 2
 echo "== v0 $n $*" >> $L/ab.log; $S/v0/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1
 for e in 0 1; do echo "== e$e $n $*" >> $L/ab.log; GTAP_EARLY_PUBLISH=$e $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done
 for v in w0 w32k s1k; do echo "== $v $n $*" >> $L/ab.log; $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2; do
 for n in 100000 200000 1000000; do run cilksort cilksort --n $n; done
 for n in 4 20 30; do run fib fib --n $n; done
 run nqueens nqueens --n 12
 run tree binary_tree --n 20 --compute 8192 --mem 256
 run tree binary_tree --n 18 --compute 256 --mem 256
 run tree bary_tree --n 32
done
echo "end $(date +%T)" >> $L/progress.txt
cd $OUT && cp log/progress.txt . && tar czf all.tgz log && rm -rf log
