#!/bin/bash
# s10a: A/B of GTAP_SPREAD (0 = off, 4 = spread while < 4/16 of the warps are busy, 8 = < 8/16),
# alternating in one process order per round; then per-node traces of the binary tree with it on.
S=build-stage/s10/bin; L=$OUT/log; mkdir -p $L
E=bench/results/2026-12-01-apps-h200-s10/explore
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $L/gpu.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
run() { local vs=$1 n=$2; shift 2
 for v in $vs; do echo "== $v $n $*" >> $L/ab.log; GTAP_SPREAD=$v $S/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 for c in 256 2048 4096 8192 16384 32768; do run "0 4 8" binary_tree --n 20 --compute $c --mem 256; done
 run "0 4 8" binary_tree --n 18 --compute 256 --mem 256
 run "0 4 8" binary_tree --n 22 --compute 256 --mem 256
 run "0 4 8" binary_tree --n 20 --compute 256 --mem 8192
 run "0 4 8" bary_tree --n 32
 run "0 4 8" bary_tree --n 32 --compute 8192
 run "0 4" bary_tree --n 26
 for n in 30 35; do run "0 4" fib --n $n; done
 run "0 4" nqueens --n 14
 for n in 100000 200000 1000000; do run "0 4" cilksort --n $n; done
 run "0 4" mergesort --n 1000000
 echo "round $r $(date +%T)" >> $L/progress.txt
done
for c in 8192 32768; do
 GTAP_STATS=1 $S/binary_tree --n 20 --compute $c --mem 256 --repeat 1 >> $L/stats.log 2>&1
 GTAP_SPREAD=4 TREE_TRACE_OUT=/tmp/tr_$c.bin $S/binary_tree_trace --n 20 --mem 256 --compute $c --repeat 1 --no-check >> $L/stats.log 2>&1
 python3 $E/tree_trace_analyze.py /tmp/tr_$c.bin 20 > $L/trace_spread4_c$c.txt 2>&1
done
for a in "cilksort --n 200000" "bary_tree --n 32" "fib --n 30"; do GTAP_STATS=1 $S/$a --repeat 1 >> $L/stats.log 2>&1; done
kill $CLK
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt . && rm -rf log
