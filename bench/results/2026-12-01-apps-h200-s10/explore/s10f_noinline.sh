#!/bin/bash
# s10f: task functions out of line (GTAP_TASK_FN __noinline__), so that their code is
# compiled apart from the scheduler's. A = fa597ab, B = GTAP_SPREAD change, NA / NB = the same
# with task functions and the dispatcher out of line, NB2 = NB with the dispatcher inline.
S=build-stage/s10; L=$OUT/log; mkdir -p $L
run() { local n=$1; shift
 for v in A B NA NB NB2; do
  echo "== $v $n $*" >> $L/ab.log; GTAP_SPREAD=4 $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 run fib --n 30
 run fib --n 35
 run nqueens --n 14
 run cilksort --n 200000
 run binary_tree --n 18 --compute 256 --mem 256
 run binary_tree --n 20 --compute 256 --mem 256
 run binary_tree --n 20 --compute 32768 --mem 256
done
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && rm -rf log
