/* inter_gpu/gpu/gpu_node_direct.cuh - direct steals within a host (gtap/node_iface.h N10,
 * docs/dist.md "Direct steals within a host"): the agent of an idle or hungry GPU asks a
 * peer GPU's agent for tasks over a ring in that GPU's memory, and the peer's agent answers
 * into a ring in ours, exactly as it answers the proxy (gtap_gn_export, gtap_gn_import);
 * results of imported tasks go home the same way (gtap_gn_send_results). No host thread is
 * on the path. The proxy keeps the ranks of other hosts, and termination (T1-T4).
 *
 * Messages on a direct ring: EXPORT_REQUEST {arg = request id; u32 max_tasks, u32 max_bytes,
 * u32 flags, u32 epoch}, EXPORTED {arg = request id; wire task batch} and RESULTS {arg = the
 * sender's rank; wire result batch}. A request of another run than the victim's is answered
 * with no tasks (its thief left that run, or the victim has not begun it); a thief takes a
 * reply only for its open request, and one with tasks only in the run that asked (T1 and T3
 * rule out anything else).
 */
#ifndef GTAP_GPU_NODE_DIRECT_CUH
#define GTAP_GPU_NODE_DIRECT_CUH

#include "inter_gpu/gpu/gpu_node_direct_send.cuh"
#include "inter_gpu/gpu/gpu_node_export.cuh"
#include "inter_gpu/gpu/gpu_node_import.cuh"
#include "inter_gpu/gpu/gpu_node_results.cuh"
#include "inter_gpu/gpu/gpu_node_status.cuh"

/* Messages taken from one peer's ring per pass. */
#define GTAP_GN_DIRECT_BATCH 4

/* ---- the thief's side ------------------------------------------------------------------------ */

/* Asks one direct peer for tasks when the node is idle or hungry (N9), no request of this
 * run is open and the back-off after an empty reply is over; a peer with an open request
 * (of an earlier run, whose reply is still on its way) is not asked again until it answers.
 * Returns 1 if it asked. Warp-collective. */
GTAP_GN_COLD uint32_t gtap_gn_direct_steal(gtap_gn_agent *a, uint32_t lane, gtap_sched_rng *rng, uint64_t now)
{
    if (a->stop || !(a->idle || a->hungry) || now < a->direct_next_ns)
        return 0;
    uint32_t young = 0, candidates = 0, pick = 0, base = 0;
    for (uint32_t b = 0; b < gtap_gn.ndirect; b += 32) {
        const uint32_t i = b + lane;
        uint32_t open = 0, open_young = 0;
        if (i < gtap_gn.ndirect) {
            open = gtap_gn.direct[i].req_open;
            open_young = open && gtap_gn.direct[i].req_sent_ns >= a->t_begin;
        }
        young |= __ballot_sync(GTAP_GN_FULL, open_young);
        const uint32_t free_here = __ballot_sync(GTAP_GN_FULL, i < gtap_gn.ndirect && !open);
        if (!candidates && free_here) { /* the first 32 peers with one free are enough to choose from */
            candidates = free_here;
            base = b;
        }
    }
    if (young || !candidates)
        return 0; /* one request of this run in flight at a time, as the proxy's for a GPU */
    uint32_t r = lane == 0 ? gtap_sched_rand(rng) % (uint32_t)__popc(candidates) : 0u;
    r = __shfl_sync(GTAP_GN_FULL, r, 0);
    for (uint32_t m = candidates; m; m &= m - 1, r--)
        if (r == 0) {
            pick = base + (uint32_t)__ffs(m) - 1u;
            break;
        }
    const uint32_t id = gtap_gn.direct[pick].req_id + 1u;
    if (lane == 0) {
        uint32_t *p = (uint32_t *)gtap_gn.out_buf;
        p[0] = 512u; /* the most tasks a message of 64 KiB holds for small records */
        p[1] = GTAP_NODE_MAX_MESSAGE_BYTES;
        p[2] = a->idle ? GTAP_NODE_EXPORT_THIEF_IDLE : 0u;
        p[3] = a->epoch;
    }
    if (!gtap_gn_direct_post(a, lane, pick, GTAP_NODE_MSG_EXPORT_REQUEST, id, gtap_gn.out_buf, 16,
                             GTAP_GN_DIRECT_REPLY_SLOTS, 0))
        return 0; /* the peer's ring is full of our results: ask later */
    if (lane == 0) {
        gtap_gn.direct[pick].req_id = id;
        gtap_gn.direct[pick].req_open = 1;
        gtap_gn.direct[pick].req_sent_ns = now;
    }
    __syncwarp();
    a->direct.steals_attempted++;
    return 1;
}

/* EXPORTED from peer i (the batch in in_buf): the reply to our open request, imported if it
 * carries tasks. Returns 0 on a protocol error. Warp-collective. */
GTAP_DEV int gtap_gn_direct_reply(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, uint32_t i, uint32_t id,
                                  uint32_t bytes)
{
    uint32_t count = 0, b = bytes;
    if (!gtap_gn_batch_open(GTAP_WIRE_TASKS, lane, &b, &count))
        return 0;
    const gtap_gn_direct_peer *p = &gtap_gn.direct[i];
    if (!p->req_open || p->req_id != id)
        return count == 0; /* a late empty reply of an earlier run's request is dropped */
    const uint64_t now = gtap_gn_now(lane);
    const int this_run = p->req_sent_ns >= a->t_begin;
    if (count && !this_run)
        return 0; /* tasks for a run that is over: impossible under T1 / T3 */
    if (this_run && count) { /* steals that brought tasks, as the proxy's (proxy.c) */
        if (lane == 0)
            gtap_gn.rtt_hist[gtap_rtt_bucket(now - p->req_sent_ns)]++;
        a->direct.rtt_n++;
    }
    __syncwarp(); /* every lane read the request before lane 0 closes it */
    if (lane == 0)
        gtap_gn.direct[i].req_open = 0;
    __syncwarp();
    if (count == 0) {
        a->direct_next_ns = now + a->direct_backoff_ns;
        a->direct_backoff_ns = a->direct_backoff_ns * 2 < GTAP_GN_DIRECT_BACKOFF_MAX_NS ? a->direct_backoff_ns * 2
                                                                                         : GTAP_GN_DIRECT_BACKOFF_MAX_NS;
        return 1;
    }
    gtap_gn_set_idle(a, lane, 0, now);
    gtap_gn_direct_count_received(a, lane); /* N10: after idle = 0 */
    gtap_gn_import(a, sh, lane, bytes);
    a->direct.steals_succeeded++;
    a->direct.tasks_in += count;
    a->direct_next_ns = 0;
    a->direct_backoff_ns = GTAP_GN_DIRECT_BACKOFF_NS;
    a->prof[GTAP_GN_P_N_IMPORTS]++;
    if (a->first_work_ns == 0)
        a->first_work_ns = now - a->t_begin + 1;
    return 1;
}

/* ---- the victim's side -------------------------------------------------------------------- */

/* EXPORT_REQUEST `id` from peer i (its payload in in_buf): answered at once, with tasks as
 * the proxy's requests are (gtap_gn_export, N9 included) when it is of this run and the node
 * holds work; an idle node answers with none without looking (as a victim's proxy does, S3). */
GTAP_DEV void gtap_gn_direct_request(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, gtap_sched_rng *rng,
                                     uint32_t i, uint32_t id, uint32_t bytes)
{
    const uint32_t *q = (const uint32_t *)gtap_gn.in_buf;
    const uint32_t max_tasks = q[0], max_bytes = q[1], flags = q[2], epoch = bytes >= 16 ? q[3] : 0u;
    a->direct.requests_received++;
    uint32_t count = 0, used = GTAP_WIRE_BATCH_HEADER_BYTES;
    __syncwarp(); /* every lane read the request before out_buf is written */
    if (epoch == a->epoch && !a->stop && !a->idle)
        used = gtap_gn_export(a, sh, lane, rng, max_tasks, max_bytes, flags, &count);
    else
        gtap_gn_batch_close(GTAP_WIRE_TASKS, lane, used, 0);
    gtap_gn_direct_post(a, lane, i, GTAP_NODE_MSG_EXPORTED, id, gtap_gn.out_buf, used, 0, count != 0);
    a->direct.tasks_out += count;
}

/* ---- both sides --------------------------------------------------------------------------- */

/* Handles up to GTAP_GN_DIRECT_BATCH messages from peer i. Returns 1 if there were any. */
GTAP_GN_COLD uint32_t gtap_gn_direct_serve(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, gtap_sched_rng *rng,
                                           uint32_t i)
{
    uint32_t work = 0;
    for (int m = 0; m < GTAP_GN_DIRECT_BATCH && !a->failed; m++) {
        __syncwarp();
        gtap_gn_rx r = gtap_gn.direct[i].in;
        uint32_t arg = 0, bytes = 0, ns = 0;
        const int kind = gtap_gn_rx_next(&r, lane, &arg, &bytes, &ns);
        if (kind == 0)
            break;
        work = 1;
        if (kind == GTAP_NODE_MSG_EXPORT_REQUEST) {
            gtap_gn_direct_request(a, sh, lane, rng, i, arg, bytes);
        } else if (kind == GTAP_NODE_MSG_EXPORTED) {
            if (!gtap_gn_direct_reply(a, sh, lane, i, arg, bytes))
                a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_DIRECT);
        } else if (kind == GTAP_NODE_MSG_RESULTS && arg == gtap_gn.direct[i].rank) {
            gtap_gn_set_idle(a, lane, 0, gtap_gn_now(lane));
            gtap_gn_direct_count_received(a, lane); /* N10: after idle = 0 */
            const uint64_t before = a->results;
            gtap_gn_results(a, sh, lane, bytes);
            a->direct.results_in += a->results - before;
            a->prof[GTAP_GN_P_N_RESULTS]++;
        } else {
            a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_DIRECT); /* malformed, or a kind peers never send */
            break;
        }
        gtap_gn_rx_pop(&r, lane, ns); /* the message was copied into in_buf before it was handled */
        if (lane == 0) {
            gtap_gn.direct[i].in.pos = r.pos;
            gtap_gn.direct[i].in.tail_seen = r.tail_seen;
        }
    }
    __syncwarp();
    return work;
}

/* Looks at every direct peer's ring (a lane per peer) and serves those with messages.
 * Returns 1 if there were any. Warp-collective. */
GTAP_DEV uint32_t gtap_gn_read_direct(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, gtap_sched_rng *rng)
{
    uint32_t work = 0;
    for (uint32_t base = 0; base < gtap_gn.ndirect && !a->failed; base += 32) {
        const uint32_t i = base + lane;
        uint32_t has = 0;
        if (i < gtap_gn.ndirect) {
            const gtap_gn_direct_peer *p = &gtap_gn.direct[i];
            has = gtap_ld_acquire_sys_u64(p->in.tail) != p->in.pos; /* N1 */
        }
        for (uint32_t m = __ballot_sync(GTAP_GN_FULL, has); m && !a->failed; m &= m - 1)
            work |= gtap_gn_direct_serve(a, sh, lane, rng, base + (uint32_t)__ffs(m) - 1u);
    }
    return work;
}

/* ---- statistics -------------------------------------------------------------------------- */

/* At a run's start: this run's counters and round trips start from zero (N10), before
 * RUN_BEGIN publishes them. Warp-collective. */
GTAP_DEV void gtap_gn_direct_begin(uint32_t lane)
{
    if (!gtap_gn.ndirect)
        return;
    for (uint32_t b = lane; b < GTAP_RTT_BUCKETS; b += 32)
        gtap_gn.rtt_hist[b] = 0;
    uint64_t *d = (uint64_t *)&gtap_gn.region->direct;
    if (lane < sizeof(gtap_node_direct) / 8)
        gtap_st_relaxed_sys_u64(&d[lane], 0ull);
    __syncwarp();
}

/* The percentile num/den of this run's round trips, lane-parallel over the histogram. */
GTAP_DEV uint64_t gtap_gn_rtt_percentile(uint32_t lane, uint64_t n, uint64_t num, uint64_t den)
{
    const uint32_t per = (GTAP_RTT_BUCKETS + 31) / 32, lo = lane * per;
    if (n == 0)
        return 0;
    uint64_t mine = 0;
    for (uint32_t b = lo; b < lo + per && b < GTAP_RTT_BUCKETS; b++)
        mine += gtap_gn.rtt_hist[b];
    uint64_t incl = mine;
    for (uint32_t d = 1; d < 32; d *= 2) {
        const uint64_t up = __shfl_up_sync(GTAP_GN_FULL, (unsigned long long)incl, d);
        if (lane >= d)
            incl += up;
    }
    uint64_t want = (n * num + den - 1) / den;
    if (want == 0)
        want = 1;
    const uint32_t holder = __ballot_sync(GTAP_GN_FULL, incl >= want && incl - mine < want);
    uint64_t at = 0;
    if (holder && lane == (uint32_t)__ffs(holder) - 1u) {
        uint64_t seen = incl - mine;
        for (uint32_t b = lo; b < lo + per && b < GTAP_RTT_BUCKETS; b++) {
            seen += gtap_gn.rtt_hist[b];
            if (seen >= want) {
                at = gtap_rtt_bucket_mid(b);
                break;
            }
        }
    }
    return holder ? __shfl_sync(GTAP_GN_FULL, (unsigned long long)at, __ffs(holder) - 1) : 0ull;
}

/* The direct block's statistics (relaxed; the proxy reads them after RUN_END, or while the
 * run goes on, as approximate counters). With GTAP_STATS and final, the round-trip
 * percentiles too. Warp-collective. */
GTAP_DEV void gtap_gn_direct_publish(gtap_gn_agent *a, uint32_t lane, int final)
{
    if (!gtap_gn.ndirect)
        return;
    if (final && gtap_gn.stats) {
        a->direct.rtt_p50_ns = gtap_gn_rtt_percentile(lane, a->direct.rtt_n, 1, 2);
        a->direct.rtt_p99_ns = gtap_gn_rtt_percentile(lane, a->direct.rtt_n, 99, 100);
    }
    if (lane == 0) {
        gtap_node_direct *d = &gtap_gn.region->direct;
        gtap_st_relaxed_sys_u64(&d->steals_attempted, a->direct.steals_attempted);
        gtap_st_relaxed_sys_u64(&d->steals_succeeded, a->direct.steals_succeeded);
        gtap_st_relaxed_sys_u64(&d->tasks_in, a->direct.tasks_in);
        gtap_st_relaxed_sys_u64(&d->tasks_out, a->direct.tasks_out);
        gtap_st_relaxed_sys_u64(&d->results_in, a->direct.results_in);
        gtap_st_relaxed_sys_u64(&d->results_out, a->direct.results_out);
        gtap_st_relaxed_sys_u64(&d->requests_received, a->direct.requests_received);
        gtap_st_relaxed_sys_u64(&d->rtt_n, a->direct.rtt_n);
        gtap_st_relaxed_sys_u64(&d->rtt_p50_ns, a->direct.rtt_p50_ns);
        gtap_st_relaxed_sys_u64(&d->rtt_p99_ns, a->direct.rtt_p99_ns);
    }
}

#endif /* GTAP_GPU_NODE_DIRECT_CUH */
