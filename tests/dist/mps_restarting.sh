# mps_restarting.sh - sourced by the GPU job scripts (tests/dist/run_mpi.sh,
# tests/nqueens_tuned/mpi_run.sh). After a rank is killed or faults under MPS, the server ends
# every client and a new one starts; for a second or two a new process cannot open the GPU.
# mps_restarting LOG: true when LOG (a job's output) shows a rank that failed that way, so the
# job may run again.
mps_restarting() {
    grep -Eq "(sees no GPU|cannot use GPU [0-9]+|no CUDA device).*(MPS server is not ready|busy or unavailable)" "$1"
}
