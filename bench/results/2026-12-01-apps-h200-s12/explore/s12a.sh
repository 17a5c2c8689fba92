#!/bin/bash
# Session 12, device call a: GTAP_TOPUP_STEAL (a warp with an empty deque steals once before
# running a partial batch of resumed tasks). Stats of the tree with the knob 0 / 1, where the
# one-SM test sees top-up steals, and an A/B in one binary: t0 / t1 = GTAP_TOPUP_STEAL=0 / 1;
# t1e0 = knob on, GTAP_EARLY_PUBLISH=0 (tree points only).
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
A=build/apps
echo "stats $(date +%T)" >> $L/progress.txt
{
 for t in 0 1; do for c in 8192 32768; do
  echo "== t$t binary_tree D=20 compute $c"; GTAP_TOPUP_STEAL=$t GTAP_STATS=1 $A/tree/binary_tree --n 20 --compute $c --repeat 1 2>&1 | grep -E "stats|Execution|check"
 done; done
 for t in 0 1; do echo "== t$t bary_tree D=32"; GTAP_TOPUP_STEAL=$t GTAP_STATS=1 $A/tree/bary_tree --n 32 --repeat 1 2>&1 | grep -E "stats|Execution|check"; done
 for t in 0 1; do echo "== t$t fib 30"; GTAP_TOPUP_STEAL=$t GTAP_STATS=1 $A/fib/fib --n 30 --repeat 1 2>&1 | grep -E "stats|Execution|check"; done
 for t in 0 1; do echo "== t$t nqueens 14"; GTAP_TOPUP_STEAL=$t GTAP_STATS=1 $A/nqueens/nqueens --n 14 --repeat 1 2>&1 | grep -E "stats|Execution|check"; done
 for n in 10 11 12; do for c in 2048 8192; do
  echo "== one SM binary_tree D=$n compute $c"; GTAP_STATS=1 $A/tree/binary_tree --n $n --mem 16 --compute $c --grid 1 --block 256 --warmup 0 --repeat 1 2>&1 | grep -E "stats|check"
 done; done
 for n in 10 12; do echo "== one SM bary_tree D=$n compute 8192"; GTAP_STATS=1 $A/tree/bary_tree --n $n --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1 2>&1 | grep -E "stats|check"; done
 echo "== racecheck binary_tree D=11 one SM"; GTAP_STATS=1 compute-sanitizer --tool racecheck $A/tree/binary_tree --n 11 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1 2>&1 | tail -5
 echo "== memcheck binary_tree D=11 one SM"; GTAP_STATS=1 compute-sanitizer --tool memcheck $A/tree/binary_tree --n 11 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1 2>&1 | tail -5
} > $L/stats.log 2>&1
echo "ab $(date +%T)" >> $L/progress.txt
run() { local d=$1 n=$2 tree=$3; shift 3
 for t in 0 1; do echo "== t$t $n $*" >> $L/ab.log; GTAP_TOPUP_STEAL=$t $A/$d/$n "$@" --warmup 2 --repeat 7 --csv >> $L/ab.log 2>&1; done
 if [ $tree = 1 ]; then echo "== t1e0 $n $*" >> $L/ab.log; GTAP_EARLY_PUBLISH=0 $A/$d/$n "$@" --warmup 2 --repeat 7 --csv >> $L/ab.log 2>&1; fi; }
for r in 1 2 3; do
 echo "round $r $(date +%T)" >> $L/progress.txt
 for c in 2048 8192 16384 32768; do run tree binary_tree 1 --n 20 --compute $c --mem 256; done
 run tree binary_tree 1 --n 18 --compute 256 --mem 256
 run tree binary_tree 1 --n 22 --compute 256 --mem 256
 run tree bary_tree 1 --n 32
 run tree bary_tree 1 --n 32 --compute 8192
 for n in 30 35; do run fib fib 0 --n $n; done
 run nqueens nqueens 0 --n 14
 run cilksort cilksort 0 --n 1000000
 run cilksort cilksort 0 --n 100000
done
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log && rm -rf log
