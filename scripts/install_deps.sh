#!/bin/sh
# install_deps.sh: installs the Debian packages the build and the tests need (as root, on
# Debian 12 or Ubuntu 24.04), skipping those already present. The CUDA toolkit is expected at
# /usr/local/cuda (or CUDA_HOME); it is not installed here.
set -eu
PKGS="cmake make gcc g++ python3 libclang-19-dev clang-19 libomp-dev libopenmpi-dev openmpi-bin"
# tests/slurm: a private Slurm cluster with its own munged; Slurm's mpi/pmix plugin (srun
# --mpi=pmix, which Debian's Open MPI needs) loads libpmix.so from libpmix-dev
PKGS="$PKGS slurmctld slurmd slurm-client munge libpmix-dev"
missing=""
for p in $PKGS; do
    dpkg -s "$p" > /dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "install_deps: installing:$missing"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$CUDA_HOME/bin/nvcc" ] && ! command -v nvcc > /dev/null 2>&1; then
    echo "install_deps: error: no CUDA toolkit: nvcc is neither in $CUDA_HOME/bin nor on PATH" >&2
    exit 1
fi
