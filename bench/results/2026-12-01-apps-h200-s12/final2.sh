#!/bin/bash
# Session 12, second call on the landed build: the experiments last measured before steps
# 16-22 re-measured with it: 6.4 (EPAQ cutoff sweeps) and 6.1c (batched deque vs Chase-Lev
# worker sweeps) in full, 6.1a / 6.1b's work-stealing series (their global-queue series are
# carried from 2026-11-30-apps-h200x2-s5).
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
echo "6.4 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.4 --budget 80 > $L/run64.console.log 2>&1
echo "6.1c $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.1c --budget 110 > $L/run61c.console.log 2>&1
echo "6.1ab $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --resume-from build-stage/seed2 --only 6.1a,6.1b --budget 150 > $L/run61ab.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
