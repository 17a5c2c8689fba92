#!/bin/bash
# go.sh PHASE...: device-side driver. Results under /tmp/r, snapped to $OUT after each phase.
set -u
root=$(pwd)
export NCCL_NVLS_ENABLE=0
R=/tmp/r; mkdir -p $R
B=/tmp/mainbuild
snap() { cp $R/summary.txt $OUT/ 2>/dev/null; tar czf $OUT/r.tgz -C /tmp r 2>/dev/null; }
say() { echo "$*" | tee -a $R/summary.txt; }
setup() {
  if [ ! -x $B/tests/handcomp/hc_fib ]; then tar xzf .devpack/new.tgz -C / || { say "untar failed"; exit 1; }; fi
  [ -e /usr/bin/cmake ] || ln -s "$(command -v cmake)" /usr/bin/cmake
  [ -e /work/main ] || { mkdir -p /work && ln -s "$root" /work/main; }
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a $R/summary.txt
  timeout 60 $B/tests/handcomp/hc_fib 20 > $R/smoke.log 2>&1 || { say "SMOKE FAILED"; cat $R/smoke.log; snap; exit 1; }
  say "smoke ok"
}
ctest_phase() { # name regex timeout_total
  local t0=$SECONDS
  (cd $B && timeout $3 ctest -R "$2" -j ${J:-1} --timeout ${CT:-150} --output-on-failure) > $R/ctest_$1.log 2>&1
  say "ctest $1 rc=$? $((SECONDS-t0))s: $(grep -E 'tests passed|tests failed' $R/ctest_$1.log)"
  grep -E '\(Failed|\(Timeout|\*\*\*' $R/ctest_$1.log | head -20 | tee -a $R/summary.txt
}
phase_new() { ctest_phase new1 '^dist\.gpu\.(mps|hetero|fmm|nqueens_tuned)' ${T1:-330}; ctest_phase new2 '^dist\.gpu\.mps|^taskbench\.gpu\.taskbench_dist|^nqueens_tuned\.gpu' ${T2:-150}; }
phase_distall() { ctest_phase distall '^dist\.gpu' ${T:-500}; }
phase_ab() {
  local t0=$SECONDS
  timeout 300 bench/ab.sh -n 5 -r 2 -o $R/ab_nqt $B/apps/nqueens_tuned/nqueens_tuned $B/apps/nqueens_tuned/nqueens_tuned_step '--n 18' '--n 19' > $R/ab_nqt.out 2>&1
  say "ab nqt rc=$? $((SECONDS-t0))s"; cat $R/ab_nqt/summary.txt >> $R/summary.txt 2>/dev/null
}
phase_headline() {
  local t0=$SECONDS
  GTAP_COMMIT=${GC:-eebbdc8} timeout ${T:-400} bench/headline.sh $B $R/headline --only ${ONLY:-fmm,hetero-tree-queues,uts,nqueens-tuned} > $R/headline.out 2>&1
  say "headline rc=$? $((SECONDS-t0))s"; cat $R/headline/headline.csv >> $R/summary.txt 2>/dev/null
}
phase_step2021() {
  local t0=$SECONDS
  timeout 300 $B/apps/nqueens_tuned/nqueens_tuned_step --n 20 --warmup 1 --repeat 3 > $R/step20.log 2>&1
  say "step n=20 rc=$? $((SECONDS-t0))s"; tail -4 $R/step20.log >> $R/summary.txt
}
phase_metg() {
  nvidia-cuda-mps-control -d; sleep 1
  for np in ${NPS:-1 2 4}; do
    local t0=$SECONDS
    export GTAP_DIST_SHARE_GPU=1 GTAP_GRID_SIZE=$((264/np))
    timeout ${T:-150} python3 bench/taskbench/metg.py sweep --out $R/metg_np$np --iter-start 65536 --iter-min 256 -- mpirun --bind-to none --oversubscribe --allow-run-as-root -x GTAP_DIST_SHARE_GPU -x GTAP_GRID_SIZE -np $np $B/apps/taskbench/taskbench_dist_gpu -steps 10 -width 67584 -type stencil_1d -kernel compute_bound --repeat 3 --warmup 1 > $R/metg_np$np.out 2>&1
    say "metg np=$np rc=$? $((SECONDS-t0))s: $(tail -3 $R/metg_np$np.out | tr '\n' ' ')"
    pkill -f mpirun; sleep 1
  done
  echo quit | nvidia-cuda-mps-control
}
phase_soak() {
  nvidia-cuda-mps-control -d; sleep 1
  timeout $(( ${MIN:-4}*60+90 )) python3 bench/soak.py --build $B --target gpu --mpi --minutes ${MIN:-4} --jobs 5 --seed ${SEED:-501} --hang-s 75 --out $R/soak > $R/soak.out 2>&1
  say "soak rc=$?: $(tail -5 $R/soak.out | tr '\n' ' ')"
  echo quit | nvidia-cuda-mps-control
}
fmm_try() { # tag extra-mpirun-args: a 2-rank job, rank 1's watchdog first; at 20 s the ranks' stacks
  local d=${DIRECT:-1}
  timeout 50 mpirun --allow-run-as-root --oversubscribe --bind-to none -np 1 -x NCCL_NVLS_ENABLE=0 $2 -x GTAP_DIST_DIRECT=$d -x GTAP_DIST_SHARE_GPU=1 -x GTAP_WATCHDOG_S=30 -x GTAP_STATS=1 $B/apps/fmm/fmm_dist_gpu --n 1000000 --repeat 6 --warmup 1 : -np 1 -x NCCL_NVLS_ENABLE=0 $2 -x GTAP_DIST_DIRECT=$d -x GTAP_DIST_SHARE_GPU=1 -x GTAP_WATCHDOG_S=12 -x GTAP_STATS=1 $B/apps/fmm/fmm_dist_gpu --n 1000000 --repeat 6 --warmup 1 > $R/fmm_$1.log 2>&1 &
  local job=$! k=0
  while kill -0 $job 2>/dev/null && [ $k -lt 20 ]; do sleep 1; k=$((k+1)); done
  if kill -0 $job 2>/dev/null; then
    { echo "== still running at 20 s"; nvidia-smi --query-compute-apps=pid,used_memory --format=csv
      for pid in $(pgrep -f "fmm_dist_gpu --n"); do
        echo "== pid $pid"; for t in /proc/$pid/task/*; do echo "$(cat $t/comm) $(cat $t/wchan 2>/dev/null) $(cut -d' ' -f3 $t/stat)"; done
        command -v gdb >/dev/null && timeout 20 gdb -p $pid -batch -ex "thread apply all bt 12" 2>&1 | grep -E "^#|^Thread" | head -60
      done; } > $R/fmm_$1.stacks 2>&1
  fi
  wait $job
}
phase_fmmhang() {
  nvidia-cuda-mps-control -d; sleep 1
  local t0=$SECONDS
  for i in 1 2 3 4 5 6; do
    fmm_try d$i ""; local rc=$?
    say "fmm default grid attempt $i rc=$rc $((SECONDS-t0))s"
    [ $rc -ne 0 ] && { grep -E "watchdog|gtap:|check|grid=" $R/fmm_d$i.log | head -40 >> $R/summary.txt; break; }
  done
  for i in 1 2 3 4 5 6; do
    [ $((SECONDS-t0)) -gt ${T:-150} ] && break
    fmm_try g$i "-x GTAP_GRID_SIZE=120"; local rc=$?
    say "fmm grid 120 attempt $i rc=$rc $((SECONDS-t0))s"
    [ $rc -ne 0 ] && { grep -E "watchdog|gtap:|check|grid=" $R/fmm_g$i.log | head -30 >> $R/summary.txt; break; }
  done
  echo quit | nvidia-cuda-mps-control
}
phase_kr() { ctest_phase kr '^dist\.gpu\.(mps|nqueens_tuned\.kill_resume)' 60; }
for p in "$@"; do
  case $p in setup) setup;; *) phase_$p;; esac
  snap
done
