#!/bin/bash
# Session 12, device call c: the fixed top-up test on the GPU (most of any launch, D=14), and
# EPAQ fib with 3 queues against the paper at cutoffs 2-14 (fib(40)): the drain bound of
# another queue at 4 (the build), 6, 7 and 8 (never) eighths of its capacity, beside the
# 1-queue cutoff build, with GTAP_STATS at cutoffs 2 / 8 / 12.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
cfg_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt)
[ "$cfg_root" != "$PWD" ] && [ ! -e "$cfg_root" ] && mkdir -p "$(dirname "$cfg_root")" && ln -s "$PWD" "$cfg_root"
(cd build && for i in 1 2 3; do ctest -R "topup|resumed_off|spread_off|early_off" --output-on-failure; done) > $L/ctest_topup.log 2>&1
A=build/apps; V=build-stage/s12/var; T="timeout 60"
{
 for c in 2 8 12; do for v in d4 d8; do
  echo "== $v cutoff $c"; GTAP_STATS=1 $T $V/fib_epaq_$v --n 40 --cutoff $c --warmup 0 --repeat 1 2>&1 | grep -E "stats|Execution|check|rror"
 done; done
} > $L/stats.log 2>&1
for r in 1 2; do
 for c in 2 5 8 11 14; do
  echo "== 1q cutoff $c" >> $L/ab.log; $T $A/fib/fib_cutoff --n 40 --cutoff $c --warmup 1 --repeat 5 --csv >> $L/ab.log 2>&1
  for v in d4 d6 d7 d8; do echo "== $v cutoff $c" >> $L/ab.log; $T $V/fib_epaq_$v --n 40 --cutoff $c --warmup 1 --repeat 5 --csv >> $L/ab.log 2>&1; done
 done
done
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log && rm -rf log
