# cluster.sh - a private one-node Slurm cluster (munged, slurmctld, slurmd) under a work
# directory, run by the current user on free ports; sourced by run_jobs.sh (bash).
#   cluster_start WORK CONF_TEMPLATE   exports SLURM_CONF; returns non-zero after a FAIL line
#                                      when a daemon does not come up (cluster_logs says why)
#   cluster_stop                       cancels every job, stops the daemons (each wait bounded);
#                                      safe to call twice, and after a failed start
# Every wait is a bounded poll: a daemon that does not come up is a failure with its log,
# never a hang.

cluster_work=""
cluster_daemons=""   # "name:pid" of each daemon started, newest first

# poll_until SECONDS COMMAND...: runs COMMAND every 0.5 s until it succeeds (0) or time is up (1)
poll_until() {
    local limit=$(( $1 * 2 )) i=0
    shift
    while [ $i -lt $limit ]; do
        "$@" > /dev/null 2>&1 && return 0
        sleep 0.5
        i=$((i + 1))
    done
    return 1
}

# wait_up NAME SECONDS COMMAND...: polls COMMAND until it succeeds (0); gives up (1) when time
# is up or as soon as the daemon NAME has exited
wait_up() {
    local name=$1 limit=$(( $2 * 2 )) i=0
    shift 2
    while [ $i -lt $limit ]; do
        "$@" > /dev/null 2>&1 && return 0
        daemon_alive "$name" || return 1
        sleep 0.5
        i=$((i + 1))
    done
    return 1
}

# Two ports nobody listens on now; the kernel picks them, so two runs at once get different ones.
free_ports() {
    python3 -c 'import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))'
}

# start_daemon NAME LOG COMMAND...: runs a daemon in the foreground of a background job, so
# that its pid is ours to stop
start_daemon() {
    local name=$1 log=$2
    shift 2
    "$@" > "$log" 2>&1 &
    cluster_daemons="$name:$! $cluster_daemons"
}

# the daemon named NAME is still running
daemon_alive() {
    local d
    for d in $cluster_daemons; do
        [ "${d%%:*}" = "$1" ] && kill -0 "${d#*:}" 2> /dev/null && return 0
    done
    return 1
}

# the daemons' logs; NAME.out holds what a daemon printed before its log file was open
cluster_logs() {
    local f
    for f in "$cluster_work"/log/*.log "$cluster_work"/log/*.out; do
        [ -s "$f" ] || continue
        echo "---- $f (last 30 lines)"
        tail -n 30 "$f"
    done
}

# node_idle: the node registered and takes jobs
node_idle() {
    [ "$(sinfo -h -N -o %T 2> /dev/null)" = idle ]
}

cluster_start() {
    local work=$1 template=$2 host ports gres="" first_job
    cluster_work=$work
    mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/tmp" "$work/log" "$work/etc"
    chmod 700 "$work/munge"   # munged refuses a key or socket that others could reach
    # 1. munged with its own key and socket: no system munge, no shared key
    head -c 128 /dev/urandom > "$work/munge/munge.key"
    chmod 600 "$work/munge/munge.key"
    # --force: munged otherwise refuses to run as root or with its socket under /tmp
    start_daemon munged "$work/log/munged.out" munged --foreground --force \
        --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
        --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" \
        --log-file="$work/log/munged.log"
    if ! wait_up munged 20 test -S "$work/munge/munge.socket"; then
        echo "FAIL: munged did not create its socket within 20 s$(daemon_alive munged || echo ' (it exited)')"
        return 1
    fi

    # 2. the configuration. The node's name must be the name slurmd finds for itself.
    host=$(hostname -s)
    ports=$(free_ports) || true
    if [ -z "$ports" ]; then
        echo "FAIL: found no free TCP ports on 127.0.0.1"
        return 1
    fi
    # job ids differ between two runs at once (pid-derived ranges of 1000 ids)
    first_job=$(( ($$ % 30000 + 1) * 1000 ))
    # stand-in GPUs: four character devices that every Linux has. Slurm only needs device
    # files to hand out and name in CUDA_VISIBLE_DEVICES; the host-target apps never open them.
    if [ -c /dev/zero ] && [ -c /dev/full ] && [ -c /dev/urandom ] && [ -c /dev/random ]; then
        gres="Gres=gpu:4"
        echo "NodeName=$host Name=gpu File=/dev/zero,/dev/full,/dev/urandom,/dev/random" > "$work/etc/gres.conf"
    else
        : > "$work/etc/gres.conf"
    fi
    sed -e "s|@WORK@|$work|g" -e "s|@HOST@|$host|g" -e "s|@USER@|$(id -un)|g" \
        -e "s|@CTLD_PORT@|${ports% *}|g" -e "s|@SLURMD_PORT@|${ports#* }|g" \
        -e "s|@FIRST_JOB_ID@|$first_job|g" -e "s|@NODE_GRES@|$gres|g" \
        "$template" > "$work/etc/slurm.conf"
    export SLURM_CONF="$work/etc/slurm.conf"
    echo "cluster: $work, node $host, ports ${ports% *}/${ports#* }, first job id $first_job, ${gres:-no stand-in GPUs}"

    # 3. slurmctld, up when it answers a ping
    start_daemon slurmctld "$work/log/slurmctld.out" slurmctld -D -f "$SLURM_CONF"
    if ! wait_up slurmctld 60 scontrol ping; then
        echo "FAIL: slurmctld did not answer within 60 s$(daemon_alive slurmctld || echo ' (it exited)')"
        return 1
    fi
    # 4. slurmd, up when the node is idle
    start_daemon slurmd "$work/log/slurmd.out" slurmd -D -f "$SLURM_CONF" -N "$host"
    if ! wait_up slurmd 60 node_idle; then
        echo "FAIL: the node did not become idle within 60 s$(daemon_alive slurmd || echo ' (slurmd exited)')"
        sinfo -N -l 2>&1 || true
        return 1
    fi
    return 0
}

# no_jobs: the controller lists no job that still holds resources
no_jobs() {
    [ -z "$(squeue -h -o %i 2> /dev/null)" ]
}

cluster_stop() {
    local d name pid i
    [ -n "$cluster_daemons" ] || return 0
    # jobs first, while slurmd can still kill their tasks
    if daemon_alive slurmctld; then
        timeout 20 scancel --user="$(id -un)" > /dev/null 2>&1 || true
        poll_until 20 no_jobs || echo "cluster: warning: jobs still listed 20 s after scancel"
    fi
    # newest first: slurmd, slurmctld, munged
    for d in $cluster_daemons; do
        name=${d%%:*}
        pid=${d#*:}
        kill -TERM "$pid" 2> /dev/null || continue
        i=0
        while kill -0 "$pid" 2> /dev/null && [ $i -lt 20 ]; do
            sleep 0.5
            i=$((i + 1))
        done
        if kill -0 "$pid" 2> /dev/null; then
            echo "cluster: $name (pid $pid) ignored SIGTERM for 10 s; killing it"
            kill -KILL "$pid" 2> /dev/null || true
        fi
        wait "$pid" 2> /dev/null || true
    done
    cluster_daemons=""
}
