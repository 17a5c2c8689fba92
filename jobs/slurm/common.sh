#!/bin/bash
# common.sh - sourced by the gtap_*.sbatch scripts: sets the environment every distributed
# GTaP job wants, prints the job layout, and runs "$@" with srun (one task per GPU).
#   GTAP_SRUN_MPI    srun --mpi plugin (default pmix; pmi2 for MPICH or older Slurm)
#   GTAP_SRUN_EXTRA  extra srun options
#   GTAP_*           passed through to every rank (srun exports the environment)
set -u
if [ $# -eq 0 ]; then
    echo "usage: sbatch $0 PROGRAM [ARGS...]" >&2
    exit 2
fi
export GTAP_WATCHDOG_S=${GTAP_WATCHDOG_S:-600}   # a hung job dumps its state instead of burning the allocation
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
GTAP_SRUN_MPI=${GTAP_SRUN_MPI:-pmix}
echo "gtap job ${SLURM_JOB_ID:-?}: ${SLURM_JOB_NUM_NODES:-?} node(s) [${SLURM_JOB_NODELIST:-?}], ${SLURM_NTASKS:-?} task(s), $(date -Is)"
echo "gtap job: program: $*"
env | grep '^GTAP_' | sort | sed 's/^/gtap job: /'
# one line per task: host, local rank, the GPU(s) Slurm gave it
srun --mpi="$GTAP_SRUN_MPI" --kill-on-bad-exit=1 ${GTAP_SRUN_EXTRA:-} bash -c \
    'echo "gtap job: task $SLURM_PROCID on $(hostname), local rank $SLURM_LOCALID, CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}"' \
    | sort -n -k4
srun --mpi="$GTAP_SRUN_MPI" --kill-on-bad-exit=1 ${GTAP_SRUN_EXTRA:-} "$@"
status=$?
echo "gtap job: exit status $status"
exit $status
