#!/bin/bash
# The distributed GPU tests, a few block-BFS timings on few blocks, then the distributed soak under MPS.
cd /work/main; tar xzf .devpack/new.tgz -C /
mkdir -p $OUT/r; R=$OUT/r
cd /tmp/mainbuild
timeout 290 ctest -R "^dist\.gpu" --output-on-failure > $R/ctest_dist_gpu.log 2>&1; echo "ctest rc=$?" >> $R/summary.txt
tail -5 $R/ctest_dist_gpu.log >> $R/summary.txt
B=/tmp/mainbuild/apps/dist
for a in "4 90467 2 1" "4 161173 2 1" "8 263699 2 1" "1 50000 3 1"; do set -- $a; g=$1; shift
  t0=$(date +%s%N); GTAP_GRID_SIZE=$g timeout 30 $B/dist_bfs_block_alone_gpu "$@" >> $R/alone.log 2>&1; echo "alone g=$g $* rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))" >> $R/summary.txt
done
cd /work/main
nvidia-cuda-mps-control -d; sleep 1
python3 bench/soak.py --build /tmp/mainbuild --target gpu --mpi --minutes 3.6 --jobs 5 --seed 4401 --hang-s 75 --out $R/soak_dist_4401 > $R/soak_stdout.log 2>&1
echo "soak rc=$?" >> $R/summary.txt
echo quit | nvidia-cuda-mps-control
cat $R/soak_dist_4401/summary.txt >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
