#!/bin/bash
# Session 12, device call d: (1) fib 36-40 ran 4-16% slower in s9's table than in s7's: which
# knob? default vs GTAP_RESUME_BATCHING=0 / GTAP_EARLY_PUBLISH=0 / GTAP_SPREAD=0 / all three 0.
# (2) 6.1c's cilksort 2x10^7 with 32-thread blocks (1.3x the paper): the default binary keeps
# GTAP_BLOCK_SIZE (256) / 32 warps' scheduler state per block (23 KB of shared memory); the
# same program built with GTAP_BLOCK_SIZE=32 (2.9 KB) beside it.
set -u
W=/tmp/w; mkdir -p $W; L=$OUT/log; mkdir -p $L
tar xzf build-stage/s12/b.tgz -C $W
rm -rf build; ln -s $W/build build
A=build/apps; V=build-stage/s12/var; T="timeout 60"
f() { local tag=$1; shift; echo "== $tag $*" >> $L/ab.log; env "$@" >> $L/ab.log 2>&1; }
for r in 1 2; do
 for n in 36 38 40; do
  f def $T $A/fib/fib --n $n --warmup 1 --repeat 5
  f rb0 GTAP_RESUME_BATCHING=0 $T $A/fib/fib --n $n --warmup 1 --repeat 5
  f ep0 GTAP_EARLY_PUBLISH=0 $T $A/fib/fib --n $n --warmup 1 --repeat 5
  f sp0 GTAP_SPREAD=0 $T $A/fib/fib --n $n --warmup 1 --repeat 5
  f all0 GTAP_RESUME_BATCHING=0 GTAP_EARLY_PUBLISH=0 GTAP_SPREAD=0 $T $A/fib/fib --n $n --warmup 1 --repeat 5
 done
 for g in 512 2048; do
  f bs32_default GTAP_MAX_TASK_MEMORY=51539607552 $T $A/cilksort/cilksort --n 20000000 --grid $g --block 32 --max-tasks $(( (1<<25) / g )) --warmup 1 --repeat 5
  f bs32_built32 GTAP_MAX_TASK_MEMORY=51539607552 $T $V/cilksort_bs32 --n 20000000 --grid $g --block 32 --max-tasks $(( (1<<25) / g )) --warmup 1 --repeat 5
  f bs256_default GTAP_MAX_TASK_MEMORY=51539607552 $T $A/cilksort/cilksort --n 20000000 --grid $((g/8)) --block 256 --max-tasks $(( (1<<25) / g )) --warmup 1 --repeat 5
 done
done
GTAP_STATS=1 $T $A/fib/fib --n 40 --warmup 0 --repeat 1 > $L/stats.log 2>&1
GTAP_RESUME_BATCHING=0 GTAP_STATS=1 $T $A/fib/fib --n 40 --warmup 0 --repeat 1 >> $L/stats.log 2>&1
cd $OUT && tar czf all.tgz log && rm -rf log
