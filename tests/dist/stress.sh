#!/bin/sh
# stress.sh BUILD [ROUNDS=20]: runs every distributed app on 2-6 ranks with random delay
# seeds, random executor order and random steal settings, and reports any wrong answer,
# failure or hang (a 120 s timeout per job). Not part of CI (label slow runs a short form).
set -u
build=$1
rounds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
d=$build/apps
fails=0
i=0
while [ $i -lt "$rounds" ]; do
    for cmd in "dist/dist_fib_host 25" "dist/dist_nqueens_host 12 8" "dist/dist_bintree_host 17" \
               "dist/dist_bary_host 4 11 300" "uts/uts_dist_host T1S" "uts/uts_dist_host T3M" \
               "dist/dist_detached_host 15" "dist/dist_nqueens_ntw_host 11"; do
        seed=$(( (i * 7919 + $(date +%N | sed 's/^0*//') ) % 100000 + 1 ))
        np=$(( seed % 5 + 2 ))
        envs="--env GTAP_DIST_DELAY_SEED=$seed --env GTAP_WATCHDOG_S=60"
        [ $((seed % 3)) -eq 0 ] && envs="$envs --env GTAP_REFEXEC_SEED=$seed"
        [ $((seed % 4)) -eq 0 ] && envs="$envs --env GTAP_DIST_MAX_INFLIGHT=1 --env GTAP_DIST_STEAL_BATCH=1"
        [ $((seed % 5)) -eq 0 ] && envs="$envs --env GTAP_DIST_FAKE_NODE_SIZE=2"
        [ $((seed % 7)) -eq 0 ] && envs="$envs --env GTAP_DIST_RING_SLOTS=512"
        # shellcheck disable=SC2086
        if ! out=$("$here/run_mpi.sh" $envs "$np" $d/$cmd 2 2>&1); then
            echo "FAIL: np=$np $envs $cmd"
            echo "$out" | tail -20
            fails=$((fails + 1))
        fi
    done
    i=$((i + 1))
    echo "round $i: $fails failures so far"
done
[ $fails -eq 0 ] && echo "PASS: $rounds rounds" || echo "FAIL: $fails failed jobs"
[ $fails -eq 0 ]
