#!/bin/bash
# s10c: GPU CTest of the CI build, compute-sanitizer on runs that spread, and the A/B of
# v0 (fa597ab, no GTAP_SPREAD) against the landed runtime with GTAP_SPREAD=0 / 4 (v3).
S=build-stage/s10; L=$OUT/log; mkdir -p $L
tar xzf $S/ci.tgz
bash scripts/device_check.sh build $L/checks quick > $L/checks.log 2>&1
B=build/apps/tree
{
 for t in memcheck racecheck synccheck; do
  echo "== $t binary_tree spread"
  GTAP_SPREAD=16 GTAP_STATS=1 timeout 300 compute-sanitizer --tool $t $B/binary_tree --n 6 --mem 16 --compute 8192 --grid 1 --block 256 --warmup 0 --repeat 1 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|check:|spread to|Hazard" | sed 's/.*per iteration;//' | head -8
 done
 echo "== memcheck cilksort spread"
 GTAP_SPREAD=16 GTAP_STATS=1 timeout 300 compute-sanitizer --tool memcheck build/apps/cilksort/cilksort --n 200000 --warmup 0 --repeat 1 2>&1 | grep -E "ERROR SUMMARY|check:|spread to" | sed 's/.*per iteration;//' | head -5
} > $L/sanitizer.log 2>&1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
run() { local n=$1; shift
 for v in v0:4 v3:0 v3:4; do d=${v%:*}; e=${v#*:}
  echo "== ${d}s$e $n $*" >> $L/ab.log; GTAP_SPREAD=$e $S/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; done; }
for r in 1 2 3; do
 for n in 30 35; do run fib --n $n; done
 run nqueens --n 14
 for n in 100000 200000 1000000; do run cilksort --n $n; done
 run mergesort --n 1000000
 for c in 256 4096 8192 16384 32768; do run binary_tree --n 20 --compute $c --mem 256; done
 run binary_tree --n 18 --compute 256 --mem 256
 run bary_tree --n 32
 run bary_tree --n 32 --compute 8192
 echo "round $r $(date +%T)" >> $L/progress.txt
done
kill $CLK
python3 bench/results/2026-12-01-apps-h200x2-s8/explore/ab.py $L/ab.log > $L/summary.txt 2>&1
cd $OUT && tar czf all.tgz log && cp log/summary.txt log/sanitizer.log . && tail -5 log/checks/ctest_gpu.log > ctest_tail.txt && rm -rf log
