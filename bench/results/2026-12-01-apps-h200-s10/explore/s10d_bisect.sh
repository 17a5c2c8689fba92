#!/bin/bash
# s10d: which part of the GTAP_SPREAD change slows the small binary trees and fib(30)?
# A = fa597ab headers, B = the change, C = A + the new shared-memory fields only,
# D = B without the busy marks, E = B without the per-iteration clock and spread test
# (all built by hand the same way); v0 / v3 = the CMake builds of s10c. GTAP_SPREAD=4.
S=build-stage/s10; L=$OUT/log; mkdir -p $L
run() { local n=$1; shift
 for v in A B C D E v0 v3; do
  echo "== $v $n $*" >> $L/ab.log; GTAP_SPREAD=4 $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 run binary_tree --n 18 --compute 256 --mem 256
 run binary_tree --n 20 --compute 256 --mem 256
 run binary_tree --n 20 --compute 4096 --mem 256
 run binary_tree --n 20 --compute 32768 --mem 256
 run fib --n 30
done
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && rm -rf log
