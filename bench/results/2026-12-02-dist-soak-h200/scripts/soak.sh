#!/bin/bash
cd /work/main; [ -x /tmp/mainbuild/apps/dist/dist_bfs_gpu ] || tar xzf .devpack/new.tgz -C /
mkdir -p $OUT/r; R=$OUT/r
nvidia-cuda-mps-control -d; sleep 1
python3 bench/soak.py --build /tmp/mainbuild --target gpu --mpi --minutes 5.2 --jobs 5 --seed 4402 --hang-s 75 --out $R/soak_dist_4402 > $R/soak_stdout.log 2>&1
echo "soak rc=$?" >> $R/summary.txt
echo quit | nvidia-cuda-mps-control
cat $R/soak_dist_4402/summary.txt >> $R/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
