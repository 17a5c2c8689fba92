#!/bin/bash
# s10b: the cost of GTAP_SPREAD's bookkeeping. v0 = runtime without it (fa597ab); v1 = slow
# paths out of line, GTAP_SPREAD=0 / 4; v2 = the same inline, GTAP_SPREAD=4. Alternating.
S=build-stage/s10; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
run() { local n=$1; shift
 for v in v0:4 v1:0 v1:4 v2:4; do d=${v%:*}; e=${v#*:}
  echo "== ${d}s$e $n $*" >> $L/ab.log; GTAP_SPREAD=$e $S/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 for n in 30 35; do run fib --n $n; done
 run nqueens --n 14
 for n in 100000 200000; do run cilksort --n $n; done
 for c in 8192 16384 32768; do run binary_tree --n 20 --compute $c --mem 256; done
 echo "round $r $(date +%T)" >> $L/progress.txt
done
kill $CLK
cuobjdump -sass $S/v1/binary_tree > $L/binary_tree_v1.sass 2>&1
cuobjdump -sass $S/v0/binary_tree > $L/binary_tree_v0.sass 2>&1
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && rm -rf log
