#!/bin/bash
# task_layout.sh - run by common.sh as one task per rank: prints where the task runs and which
# GPU the runtime will give its rank (local rank % the GPUs it sees: docs/dist.md "Which GPU a
# rank uses"). Informative only; the runtime makes its own choice.
set -eu
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    n=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c . || true)
else
    # unset (e.g. --gpu-bind=none): the task sees what its device cgroup lets it open
    n=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)
fi
if [ "${n:-0}" -gt 0 ]; then
    uses="device $((SLURM_LOCALID % n)) of the $n it sees"
else
    uses="no GPU (it sees none)"
fi
echo "gtap job: task $SLURM_PROCID on $(hostname -s), local rank $SLURM_LOCALID," \
     "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}, GPUs of the job on this node: ${SLURM_GPUS_ON_NODE:-0}," \
     "rank uses $uses"
