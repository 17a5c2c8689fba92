#!/bin/bash
S=build-stage; L=$OUT/log; mkdir -p $L
run() { local n=$1; shift
 for v in before after; do echo "== $v $n $*" >> $L/ab.log; $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 for n in 14 20 24 30 35; do run fib --n $n; done
 for n in 8 10 12 14 16; do run nqueens --n $n; done
 for n in 100000 200000 500000 1000000 10000000; do run cilksort --n $n; done
 run mergesort --n 100000
 run binary_tree --n 18 --compute 256 --mem 256
 run binary_tree --n 20 --compute 8192 --mem 256
 run bary_tree --n 22
 run bary_tree --n 32
done
( set -x
$S/after/bfs --n 262144 --graph rmat --repeat 3
$S/after/bfs --n 65536 --graph grid --repeat 3
$S/after/spmv --n 100000 --repeat 3
$S/after/fib_epaq --n 30 --cutoff 10 --repeat 3
$S/after/nqueens_epaq --n 14 --repeat 3
$S/after/cilksort_epaq --n 10000000 --cutoff 256 --repeat 3
compute-sanitizer --tool memcheck $S/after/fib --n 18 --repeat 2
compute-sanitizer --tool memcheck $S/after/cilksort --n 30011 --repeat 2
) > $L/checks.log 2>&1
grep -E "check:|ERROR SUMMARY" $L/checks.log
