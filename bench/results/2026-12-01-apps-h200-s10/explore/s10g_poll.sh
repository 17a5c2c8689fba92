#!/bin/bash
# s10g: v0 = fa597ab; L = 598c5f9 (spreading with a clock read every iteration, GTAP_ENTRY_KERNEL);
# P = L with the clock read every 8th iteration, or every one while they are long, and
# fire-and-forget busy bits. GTAP_SPREAD=4 (default). Then P's spread tests by hand.
S=build-stage/s10; L=$OUT/log; mkdir -p $L
run() { local n=$1; shift
 for v in v0 L P; do
  echo "== $v $n $*" >> $L/ab.log; $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 for n in 4 24 30; do run fib --n $n; done
 run nqueens --n 14
 for n in 100000 200000; do run cilksort --n $n; done
 run binary_tree --n 18 --compute 256 --mem 256
 for c in 8192 16384 32768; do run binary_tree --n 20 --compute $c --mem 256; done
done
{
 GTAP_SPREAD=16 bash tests/apps/check_stat.sh spread 1 $S/P/binary_tree --n 8 --mem 16 --compute 8192 --grid 1 --block 256 --repeat 2; echo "rc $?"
 GTAP_SPREAD=16 bash tests/apps/check_stat.sh spread 1 $S/P/bary_tree --n 12 --mem 16 --compute 8192 --grid 1 --block 256 --repeat 2; echo "rc $?"
 GTAP_SPREAD=0 bash tests/apps/check_stat.sh spread 0 $S/P/binary_tree --n 8 --mem 16 --compute 8192 --grid 1 --block 256 --repeat 2; echo "rc $?"
 GTAP_STATS=1 $S/P/binary_tree --n 20 --compute 32768 --repeat 1 2>&1 | grep -E "spread|check:"
} > $L/spread_tests.log 2>&1
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && grep -E "^rc|check_stat" log/spread_tests.log > tests.txt; rm -rf log
