#!/bin/bash
# A/B of the resume buffer's order: newest first (lifo) vs oldest first (fifo).
S=build-stage; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
run() { local n=$1; shift
 for v in lifo fifo; do echo "== $v $n $*" >> $L/ab.log; $S/$v/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 run binary_tree --n 18 --compute 256 --mem 256
 for c in 4096 8192 16384 32768; do run binary_tree --n 20 --compute $c --mem 256; done
 run binary_tree --n 22 --compute 256 --mem 256
 run bary_tree --n 22
 run bary_tree --n 32
 for n in 14 30 35; do run fib --n $n; done
 run nqueens --n 12
 for n in 200000 1000000 10000000; do run cilksort --n $n; done
 echo "round $r $(date +%T)" >> $L/progress.txt
done
kill $CLK
cd $OUT && tar czf all.tgz log && rm -rf log
