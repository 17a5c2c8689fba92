#!/bin/bash
# The block BFS crash, isolated: single-process runs (no MPS), one small case under memcheck,
# then distributed runs one at a time under MPS.
cd /work/main; tar xzf .devpack/new.tgz -C /
mkdir -p $OUT/r; R=$OUT/r
B=/tmp/mainbuild/apps/dist
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for a in "4 90467 2 1" "4 161173 2 1" "8 42141 6 1" "4 20000 3 1" "2 20000 3 1" "8 38637 3 3"; do set -- $a; g=$1; shift
  t0=$(date +%s%N); GTAP_GRID_SIZE=$g timeout 30 $B/dist_bfs_block_alone_gpu "$@" > $R/alone_${g}_$1_$2.log 2>&1; echo "alone g=$g $* rc=$? ms=$(ms $t0)" >> $R/summary.txt
done
t0=$(date +%s%N); GTAP_GRID_SIZE=4 timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $B/dist_bfs_block_alone_gpu 20000 3 1 > $R/memcheck_alone.log 2>&1; echo "memcheck alone rc=$? ms=$(ms $t0)" >> $R/summary.txt
t0=$(date +%s%N); GTAP_GRID_SIZE=4 timeout 60 compute-sanitizer --tool memcheck --print-limit 20 $B/dist_bfs_gpu 20000 3 1 > $R/memcheck_thread1rank.log 2>&1; echo "memcheck dist thread 1 rank rc=$? ms=$(ms $t0)" >> $R/summary.txt
t0=$(date +%s%N); GTAP_GRID_SIZE=4 timeout 90 compute-sanitizer --tool memcheck --print-limit 20 $B/dist_bfs_block_gpu 20000 3 1 > $R/memcheck_block1rank.log 2>&1; echo "memcheck dist block 1 rank rc=$? ms=$(ms $t0)" >> $R/summary.txt
nvidia-cuda-mps-control -d; sleep 1
MPI="mpirun --bind-to none --oversubscribe --allow-run-as-root -x GTAP_DIST_SHARE_GPU -x GTAP_DIST_DIRECT -x GTAP_GRID_SIZE"
for c in "0 8 4 243927 3 1" "0 4 3 90467 2 3" "0 8 2 60000 3 1" "0 4 2 30000 3 2" "1 8 2 30000 3 2"; do set -- $c; d=$1 g=$2 np=$3; shift 3
  t0=$(date +%s%N); GTAP_DIST_DIRECT=$d GTAP_DIST_SHARE_GPU=1 GTAP_GRID_SIZE=$g timeout -s KILL 45 $MPI -np $np $B/dist_bfs_block_gpu "$@" > $R/dist_${d}_${g}_${np}_$1.log 2>&1
  echo "dist d=$d g=$g np=$np $* rc=$? ms=$(ms $t0)" >> $R/summary.txt
  pkill -9 -f dist_bfs_block_gpu; sleep 1
done
echo quit | nvidia-cuda-mps-control
cd $OUT && tar czf r.tgz r && rm -rf r
