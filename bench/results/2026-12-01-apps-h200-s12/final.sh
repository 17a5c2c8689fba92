#!/bin/bash
# Session 12's final device call: GPU tests and sanitizers of the landed build (top-up steals
# on), a same-machine A/B in one binary (t0 / t1 = GTAP_TOPUP_STEAL=0 / 1), then 6.2 (GPU rows)
# and 6.3 (thread rows) re-measured, resuming from session 11's CSVs without those rows.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
echo "ctest $(date +%T)" >> $L/progress.txt
scripts/device_check.sh build $L/ctest quick > $L/device_check.console.log 2>&1
A=build/apps; T="timeout 60"
{
 for t in memcheck racecheck; do
  echo "== $t binary_tree top-up (one SM)"; GTAP_STATS=1 timeout 120 compute-sanitizer --tool $t $A/tree/binary_tree --n 12 --mem 16 --compute 2048 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t bary_tree top-up (one SM)"; GTAP_STATS=1 timeout 120 compute-sanitizer --tool $t $A/tree/bary_tree --n 12 --mem 16 --compute 2048 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t cilksort early (one SM)"; GTAP_SPREAD=0 GTAP_STATS=1 timeout 120 compute-sanitizer --tool $t $A/cilksort/cilksort --n 30011 --grid 1 --block 256 --warmup 0 --repeat 1
  echo "== $t fib (one SM)"; GTAP_STATS=1 timeout 120 compute-sanitizer --tool $t $A/fib/fib --n 18 --grid 1 --block 256 --warmup 0 --repeat 1
 done
 echo "== memcheck binary_tree D=16 compute 2048"; GTAP_STATS=1 timeout 120 compute-sanitizer --tool memcheck $A/tree/binary_tree --n 16 --compute 2048 --warmup 0 --repeat 1
 echo "== stats"; for c in 16384 32768; do GTAP_STATS=1 $T $A/tree/binary_tree --n 20 --compute $c --repeat 1 2>&1 | grep -E "stats|Execution"; done
} > $L/sanitizer.log 2>&1
echo "ab $(date +%T)" >> $L/progress.txt
run() { local d=$1 n=$2; shift 2
 for t in 0 1; do echo "== t$t $n $*" >> $L/ab.log; GTAP_TOPUP_STEAL=$t $T $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for c in 8192 16384 32768; do run tree binary_tree --n 20 --compute $c --mem 256; done
run tree binary_tree --n 18 --compute 256 --mem 256
run tree bary_tree --n 32
run fib fib --n 30
run nqueens nqueens --n 14
run cilksort cilksort --n 100000
echo "6.2 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --resume-from build-stage/seed --only 6.2 --budget 70 > $L/run62.console.log 2>&1
echo "6.3 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.3 --budget 170 > $L/run63.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
