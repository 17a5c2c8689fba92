#!/bin/bash
# Session 12, third call: 6.1a and 6.1c's series with 32-thread blocks again, now run by builds
# whose scheduler state is sized for 32-thread blocks (GTAP_BLOCK_SIZE=32, *_bs32; the
# programs built for 256 kept 8 warps' state, 23 KB, per 32-thread block). The 256-thread
# series are carried from final2.sh.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
echo "6.1c $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --resume-from build-stage/seed3 --only 6.1c --budget 60 > $L/run61c.console.log 2>&1
echo "6.1a $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.1a --budget 120 > $L/run61a.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
