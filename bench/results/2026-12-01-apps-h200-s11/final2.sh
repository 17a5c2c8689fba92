#!/bin/bash
# Session 11, second measurement on a fresh lease (the first lease ran even the previous build
# 4-5% slower on the binary tree's compute sweep): the tree A/B (v0 = 1d72a12, e1 = this build),
# then 6.2's GPU rows and 6.3's thread rows again, as final.sh.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv -lms 1000 > $L/clock.csv &
CLK=$!
tar xzf build-stage/s11/final.tgz -C $W
rm -rf build; ln -s $W/build build
A=build/apps; V0=build-stage/s11/v0
run() { local d=$1 n=$2; shift 2
 echo "== v0 $n $*" >> $L/ab.log; $V0/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1
 echo "== e1 $n $*" >> $L/ab.log; $A/$d/$n "$@" --warmup 2 --repeat 11 --csv >> $L/ab.log 2>&1; }
for c in 16384 32768; do run tree binary_tree --n 20 --compute $c --mem 256; done
for n in 100000 200000; do run cilksort cilksort --n $n; done
echo "6.2 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --resume-from build-stage/seed --only 6.2 --budget 70 > $L/run62.console.log 2>&1
echo "6.3 $(date +%T)" >> $L/progress.txt
bench/apps/run_all.sh build /tmp/apps --only 6.3 --budget 170 > $L/run63.console.log 2>&1
echo "end $(date +%T)" >> $L/progress.txt
kill $CLK
cd $OUT && cp log/progress.txt . && tar czf all.tgz log -C /tmp apps && rm -rf log
