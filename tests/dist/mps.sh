#!/bin/sh
# mps.sh start|stop STATE_DIR - the CUDA MPS daemon for the GPU tests of distributed apps
# whose ranks share a GPU (CTest fixture gtap_mps). Under MPS the persistent kernels of the
# ranks on one GPU run side by side; without it they time-slice the GPU. `start` starts the
# daemon only on a machine with a GPU, `nvidia-cuda-mps-control` and no daemon of this user
# already running, and records that it did in STATE_DIR; `stop` stops only a daemon that
# `start` started. Neither fails the suite when MPS is unavailable (the tests then run
# time-sliced, slower but exact).
set -u
action=$1
state=$2/mps_started_by_tests
case "$action" in
start)
    mkdir -p "$2"
    rm -f "$state"
    if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
        echo "mps: no GPU here; nothing to start"
        exit 0
    fi
    if ! command -v nvidia-cuda-mps-control > /dev/null 2>&1; then
        echo "mps: nvidia-cuda-mps-control not found; ranks sharing a GPU will time-slice it"
        exit 0
    fi
    # a running daemon answers on its pipe; `get_server_list` then succeeds
    if echo get_server_list | nvidia-cuda-mps-control > /dev/null 2>&1; then
        echo "mps: a daemon is already running; using it"
        exit 0
    fi
    if nvidia-cuda-mps-control -d; then
        touch "$state"
        echo "mps: daemon started"
    else
        echo "mps: the daemon did not start; ranks sharing a GPU will time-slice it"
    fi
    exit 0 ;;
stop)
    if [ -f "$state" ]; then
        echo quit | nvidia-cuda-mps-control
        rm -f "$state"
        echo "mps: daemon stopped"
    fi
    exit 0 ;;
*)
    echo "usage: mps.sh start|stop STATE_DIR" >&2
    exit 2 ;;
esac
