#!/bin/bash
# s10e: formulations of GTAP_SPREAD's per-iteration test (the kernel's code generation moves
# with it, s10d): A = fa597ab, B = the change (lane 0 clock in shared memory + shuffle),
# F = lane 0 decides before the existing __syncwarp and lanes read shared memory,
# H = B with the start clock in a register, I = every lane's clock and a vote. GTAP_SPREAD=4.
S=build-stage/s10; L=$OUT/log; mkdir -p $L
run() { local n=$1; shift
 for v in A B F H I; do
  echo "== $v $n $*" >> $L/ab.log; GTAP_SPREAD=4 $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 run binary_tree --n 18 --compute 256 --mem 256
 run binary_tree --n 20 --compute 256 --mem 256
 run binary_tree --n 20 --compute 4096 --mem 256
 run binary_tree --n 20 --compute 32768 --mem 256
 run fib --n 30
done
for v in A B F H I; do cuobjdump -sass $S/$v/binary_tree > $L/binary_tree_$v.sass 2>&1; done
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && rm -rf log
