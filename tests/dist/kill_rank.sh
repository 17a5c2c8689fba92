#!/bin/sh
# kill_rank.sh RANK SECONDS PROGRAM [ARGS...] - runs PROGRAM as one rank of an MPI job; the
# rank numbered RANK (OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID) is killed with SIGKILL
# SECONDS after it started, as a crashed node or an OOM kill would end it: it cannot report
# anything itself, so the test checks that the launcher ends the job, naming the rank, and
# that no surviving rank hangs (tests/dist: dist.fail.dead_peer, dist.gpu.fail.dead_peer_*).
set -u
victim=$1 after=$2
shift 2
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}}
if [ "$rank" = "$victim" ]; then
    # exec below keeps this shell's PID, so the timer kills the program itself
    (sleep "$after"; kill -KILL $$ 2> /dev/null) &
fi
exec "$@"
