#!/bin/bash
# The deque-full cases of the second soak, then random distributed BFS jobs on few blocks, 5 at a time under MPS.
cd /work/main; tar xzf .devpack/bfs.tgz -C /
mkdir -p $OUT/r; R=$OUT/r
B=/tmp/mainbuild/apps/dist
MPI="mpirun --bind-to none --oversubscribe --allow-run-as-root -x GTAP_WATCHDOG_S -x GTAP_DIST_SHARE_GPU -x GTAP_DIST_DIRECT -x GTAP_GRID_SIZE"
nvidia-cuda-mps-control -d; sleep 1
job() { # id direct grid np app args...
  local id=$1 d=$2 g=$3 np=$4 app=$5; shift 5
  local t0=$(date +%s%N)
  GTAP_DIST_DIRECT=$d GTAP_DIST_SHARE_GPU=1 GTAP_GRID_SIZE=$g GTAP_WATCHDOG_S=60 timeout -s KILL 75 $MPI -np $np $B/$app "$@" > $R/$id.log 2>&1
  local rc=$?
  echo "$id rc=$rc ms=$(( ($(date +%s%N) - t0) / 1000000 )) d=$d g=$g np=$np $app $* :: $(grep -c '^PASS' $R/$id.log) PASS $(grep -c 'FAIL\|error' $R/$id.log) err" >> $R/summary.txt
}
export -f job; export B MPI R
{
echo "s172 1 4 4 dist_bfs_gpu 368918 7 3 -1"
echo "s314 1 4 2 dist_bfs_gpu 470047 5 3 -1"
echo "s330 1 4 3 dist_bfs_gpu 330394 8 1 -1"
python3 - <<'P'
import random
r = random.Random(4501)
for i in range(60):
    app = r.choice(["dist_bfs_gpu", "dist_bfs_block_gpu"])
    print("r%d %d %d %d %s %d %d %d %d" % (i, r.randint(0, 1), r.choice([4, 8, 12]), r.randint(2, 4), app,
          r.randint(2, 500000), r.randint(1, 8), r.randint(1, 3), r.choice([-1, -1, 1, 4, 16])))
P
} > /tmp/jobs
timeout 330 xargs -P 5 -L 1 bash -c 'job "$@"' _ < /tmp/jobs
echo quit | nvidia-cuda-mps-control
cd $OUT && tar czf r.tgz r && rm -rf r
