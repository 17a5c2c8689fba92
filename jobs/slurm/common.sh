#!/bin/bash
# common.sh - sourced by the gtap_*.sbatch scripts: sets the environment every distributed
# GTaP job wants, prints the job layout, and runs "$@" with srun (one task per GPU).
#   GTAP_SRUN_MPI       srun --mpi plugin (default pmix: Open MPI 4.1, Debian's included,
#                       which is built without PMI-2; pmi2 for MPICH)
#   GTAP_SRUN_GPU_BIND  srun --gpu-bind (default none: a rank sees the GPUs its device cgroup
#                       allows, the job's GPUs of the node where devices are constrained, and
#                       takes local rank % count, so peer access between the ranks' GPUs stays
#                       possible; docs/dist.md "With srun (Slurm)")
#   GTAP_SRUN_EXTRA     further srun options of both steps
#   GTAP_*              passed through to every rank (srun exports the environment)
# Without GPUs (a CPU partition, host-target builds): sbatch --gpus-per-task=0 SCRIPT ...
set -eu
if [ $# -eq 0 ]; then
    echo "usage: sbatch [--gpus-per-task=0] $0 PROGRAM [ARGS...]" >&2
    exit 2
fi
gtap_slurm_dir=$(dirname "${BASH_SOURCE[0]}")
export GTAP_WATCHDOG_S=${GTAP_WATCHDOG_S:-600}   # a hung job dumps its state instead of burning the allocation
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
GTAP_SRUN_MPI=${GTAP_SRUN_MPI:-pmix}
GTAP_SRUN_GPU_BIND=${GTAP_SRUN_GPU_BIND:-none}
# from Slurm 22.05 on, srun does not inherit sbatch's --cpus-per-task (sbatch's manual): pass
# it on, or a rank could get one core for its two busy threads (docs/dist.md)
srun_opts="--kill-on-bad-exit=1 --gpu-bind=$GTAP_SRUN_GPU_BIND"
srun_opts="$srun_opts${SLURM_CPUS_PER_TASK:+ --cpus-per-task=$SLURM_CPUS_PER_TASK}${GTAP_SRUN_EXTRA:+ $GTAP_SRUN_EXTRA}"
echo "gtap job ${SLURM_JOB_ID:-?}: ${SLURM_JOB_NUM_NODES:-?} node(s) [${SLURM_JOB_NODELIST:-?}], ${SLURM_NTASKS:-?} task(s), $(date -Is)"
echo "gtap job: program: $*"
echo "gtap job: srun --mpi=$GTAP_SRUN_MPI $srun_opts"
env | grep '^GTAP_' | sort | sed 's/^/gtap job: /'
# one line per task, with the same binding as the program: host, local rank, its GPU
# (a step of its own without MPI, so that a launch problem shows before the program runs)
# shellcheck disable=SC2086
srun --mpi=none $srun_opts bash "$gtap_slurm_dir/task_layout.sh" | sort -n -k4
status=0
# shellcheck disable=SC2086
srun --mpi="$GTAP_SRUN_MPI" $srun_opts "$@" || status=$?
echo "gtap job: exit status $status"
exit $status
