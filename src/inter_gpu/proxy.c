/* proxy.c - the host progress thread of a rank: the only code that calls MPI while the
 * distributed layer is active. One loop (gtap_proxy_main) receives and answers proxy
 * messages, serves the node's outbox, feeds its inbox, steals when the node is idle,
 * detects termination, drains each run, runs the main thread's commands, and watches for
 * lack of progress (commands: proxy_cmd.c; statistics and the watchdog: proxy_report.c).
 * Protocol rules are cited from docs/steal.md (S1-S7), docs/dist.md
 * (T1-T6) and gtap/node_iface.h (N1-N8). */
#define _GNU_SOURCE
#include <sched.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_internal.h"

struct proxy gtap_proxy_state;

/* ---- sending -------------------------------------------------------------------------- */

void gtap_proxy_send(int dst, unsigned kind, uint32_t epoch, uint32_t arg0, uint32_t arg1,
                     const void *payload, uint32_t plen)
{
    gtap_proto_header h;
    sendbuf s;
    s.buf = (uint8_t *)malloc(GTAP_PROTO_HEADER_BYTES + plen);
    if (!s.buf)
        gtap_dist_fatal("out of host memory in the proxy");
    h.kind = (uint16_t)kind;
    h.epoch = epoch;
    h.arg0 = arg0;
    h.arg1 = arg1;
    h.progress = P.region ? __atomic_load_n(&P.region->status.segments, __ATOMIC_RELAXED) : 0;
    gtap_proto_encode(s.buf, &h);
    if (plen)
        memcpy(s.buf + GTAP_PROTO_HEADER_BYTES, payload, plen);
    GTAP_MPI_CHECK(MPI_Isend(s.buf, (int)(GTAP_PROTO_HEADER_BYTES + plen), MPI_BYTE, dst, GTAP_PROTO_TAG,
                             P.g->comm, &s.req));
    VEC_PUSH(P.sends, s);
    P.st.msgs_sent++;
}

static int complete_sends(void)
{
    int done = 0;
    for (int i = 0; i < P.sends.n;) {
        int flag = 0;
        GTAP_MPI_CHECK(MPI_Test(&P.sends.v[i].req, &flag, MPI_STATUS_IGNORE));
        if (!flag) {
            i++;
            continue;
        }
        free(P.sends.v[i].buf);
        P.sends.v[i] = P.sends.v[--P.sends.n];
        done++;
    }
    return done;
}

/* The watchdog fired here: every other rank prints its state (GTAP_PROTO_DUMP) before the
 * job ends, since a rank that waits outside a run is not watched and would end silent. Sends
 * the requests and waits wait_s for them to go out and be printed; nothing else is handled. */
void gtap_proxy_request_dumps(double wait_s)
{
    const struct timespec nap = {0, 10 * 1000 * 1000};
    const uint64_t end = gtap_dist_now_ns() + (uint64_t)(wait_s * 1e9);
    if (P.size < 2)
        return;
    fprintf(stderr, "gtap: rank %d asks the other %d rank(s) for their state before the job ends\n", P.rank,
            P.size - 1);
    fflush(stderr);
    for (int r = 0; r < P.size; r++)
        if (r != P.rank)
            gtap_proxy_send(r, GTAP_PROTO_DUMP, P.epoch, (uint32_t)P.rank, 0, NULL, 0);
    while (gtap_dist_now_ns() < end) {
        complete_sends();
        nanosleep(&nap, NULL);
    }
}

/* ---- the node's inbox (proxy produces) -------------------------------------------------- */

static void inbox_post(unsigned kind, uint32_t arg, const void *data, uint32_t bytes)
{
    inmsg m;
    if (P.inq.n == P.inq_head && gtap_mbox_post(&P.inbox, kind, arg, data, bytes) == 0)
        return;
    m.kind = kind;
    m.arg = arg;
    m.bytes = bytes;
    m.data = (uint8_t *)malloc(bytes ? bytes : 1);
    if (!m.data)
        gtap_dist_fatal("out of host memory in the proxy");
    if (bytes)
        memcpy(m.data, data, bytes);
    VEC_PUSH(P.inq, m);
}

static int inbox_flush(void)
{
    int n = 0;
    while (P.inq_head < P.inq.n) {
        inmsg *m = &P.inq.v[P.inq_head];
        if (gtap_mbox_post(&P.inbox, m->kind, m->arg, m->data, m->bytes) != 0)
            break;
        free(m->data);
        P.inq_head++;
        n++;
    }
    if (P.inq_head == P.inq.n)
        P.inq_head = P.inq.n = 0;
    return n;
}

/* A steal reply of this run that brought tasks: its round trip since the request went out,
 * for GTAP_STATS (replies without tasks are often the victim proxy's at once, S3, and would
 * not compare with the direct path's, whose victim is always the node). */
static void note_round_trip(int victim, uint32_t id)
{
    for (int i = 0; i < P.thief.n; i++) {
        if (P.thief.req[i].id == id && P.thief.req[i].victim == victim) {
            P.rtt_hist[gtap_rtt_bucket(gtap_dist_now_ns() - P.thief.req[i].sent_ns)]++;
            P.rtt_n++;
            return;
        }
    }
}

/* N10: the basic messages the node sent and received over direct rings since we last
 * looked go into Safra's count, and a receipt blackens this rank (T3). Called with the
 * node passive, after the acquire of its idle flag. */
static void safra_add_direct(void)
{
    const gtap_node_direct *d = &P.region->direct;
    const uint64_t sent = __atomic_load_n(&d->basic_sent, __ATOMIC_ACQUIRE);
    const uint64_t received = __atomic_load_n(&d->basic_received, __ATOMIC_ACQUIRE);
    gtap_safra_counted(&P.safra, sent - P.direct_sent_seen, received - P.direct_received_seen);
    P.direct_sent_seen = sent;
    P.direct_received_seen = received;
}

/* N4: the node consumed everything we gave it and then declared itself idle. */
static int node_passive(void)
{
    if (!P.region || P.inq_head != P.inq.n)
        return 0;
    if (!gtap_mbox_drained(&P.inbox)) /* head, acquire: read before idle */
        return 0;
    return __atomic_load_n(&P.region->status.idle, __ATOMIC_ACQUIRE) == 1;
}

/* N9: the node runs tasks but could use more, and has consumed what we gave it. */
static int node_hungry(void)
{
    if (!P.region || P.inq_head != P.inq.n)
        return 0;
    if (__atomic_load_n(&P.region->status.hungry, __ATOMIC_RELAXED) != 1)
        return 0;
    return gtap_mbox_drained(&P.inbox);
}

/* Safra's "passive" for this rank: node passive, nothing of ours unsent. */
static int rank_passive(void)
{
    if (!node_passive())
        return 0;
    if (gtap_mbox_peek(&P.outbox) != NULL)
        return 0;
    for (int r = 0; r < P.size; r++)
        if (P.aggs[r].buf && P.aggs[r].w.count)
            return 0;
    return 1;
}

/* ---- runs ----------------------------------------------------------------------------- */

static void deliver_stop(void)
{
    if (P.stop_delivered >= P.epoch)
        return;
    P.stop_delivered = P.epoch;
    inbox_post(GTAP_NODE_MSG_STOP, P.epoch, NULL, 0);
}

static void handle_net(int src, uint8_t *buf, int len);

static void begin_run(uint32_t epoch, const uint8_t *pl, uint32_t bytes)
{
    if (P.rs != RS_OUTSIDE || epoch != P.epoch + 1 || P.owed.count)
        gtap_dist_fatal("internal error: the node began run %u while the proxy is %s after run %u",
                        epoch, rs_str(P.rs), P.epoch);
    P.epoch = epoch;
    P.rs = RS_RUNNING;
    P.stop_delivered = P.stop_delivered < epoch - 1 ? epoch - 1 : P.stop_delivered;
    P.safra_on = P.no_taskwait; /* T3: no parent links, so only Safra can tell */
    gtap_safra_reset(&P.safra, P.rank, P.size);
    P.direct_sent_seen = P.direct_received_seen = 0; /* the node zeroed its counters (N10) */
    memset(P.rtt_hist, 0, sizeof P.rtt_hist);
    P.rtt_n = 0;
    P.next_wave_ns = 0;
    P.next_steal_ns = 0;
    P.victims.fails = 0;
    memset(&P.st, 0, sizeof P.st);
    P.st.rank = (uint64_t)P.rank;
    P.run_begin_ns = gtap_dist_now_ns();
    P.seg0 = bytes >= 24 ? gtap_wire_get64(pl + 8) : P.region->status.segments;
    P.idle0 = bytes >= 24 ? gtap_wire_get64(pl + 16) : P.region->status.idle_ns;
    if (P.stop_epoch >= epoch) { /* the run ended before this node began it (N5) */
        deliver_stop();
    } else {
        P.t_term_wall = 0;
        P.term_mode = 0;
    }
    /* messages of this run that came early */
    for (int i = 0; i < P.deferred.n;) {
        netmsg m = P.deferred.v[i];
        gtap_proto_header h;
        gtap_proto_decode(m.buf, (uint64_t)m.len, &h);
        if (h.epoch != epoch) {
            i++;
            continue;
        }
        P.deferred.v[i] = P.deferred.v[--P.deferred.n];
        handle_net(m.src, m.buf, m.len);
        free(m.buf);
    }
}

/* T1/T2: the run is over everywhere; tell every rank (binomial tree from rank 0). */
static void decide_termination(uint32_t mode)
{
    int kids[32], nk;
    uint8_t pl[8];
    P.t_term_wall = gtap_dist_wall_ns();
    P.term_mode = mode;
    gtap_wire_put64(pl, P.t_term_wall);
    nk = gtap_proto_tree_children(P.rank, P.size, kids);
    for (int i = 0; i < nk; i++)
        gtap_proxy_send(kids[i], GTAP_PROTO_STOP, P.epoch, mode, 0, pl, sizeof pl);
    P.stop_epoch = P.epoch;
    deliver_stop();
}

/* ---- proxy messages ------------------------------------------------------------------- */

static int in_run(uint32_t epoch) { return P.rs == RS_RUNNING && P.epoch == epoch; }

static void defer(int src, uint8_t *buf, int len)
{
    netmsg m = {0, src, NULL, len};
    m.buf = (uint8_t *)malloc((size_t)len);
    if (!m.buf)
        gtap_dist_fatal("out of host memory in the proxy");
    memcpy(m.buf, buf, (size_t)len);
    VEC_PUSH(P.deferred, m);
}

static void handle_net(int src, uint8_t *buf, int len)
{
    gtap_proto_header h;
    const uint8_t *pl = buf + GTAP_PROTO_HEADER_BYTES;
    uint32_t plen = (uint32_t)len - GTAP_PROTO_HEADER_BYTES;
    if (gtap_proto_decode(buf, (uint64_t)len, &h) != 0)
        gtap_dist_fatal("malformed runtime message (%d bytes) from rank %d", len, src);
    P.st.msgs_received++;
    if (h.progress != P.seen_progress[src]) { /* the sender's node is executing tasks */
        P.seen_progress[src] = h.progress;
        P.progressed = 1;
    }
    switch (h.kind) {
    case GTAP_PROTO_STEAL_REQ: {
        uint32_t node_req, lim[3];
        P.st.requests_received++;
        /* S3: a victim that cannot ask its node (not in this run, or 4 requests owed)
         * answers "busy" at once, one whose node is idle "nothing" */
        if (!in_run(h.epoch) || P.stop_epoch >= h.epoch) {
            gtap_proxy_send(src, GTAP_PROTO_STEAL_REPLY, h.epoch, h.arg0, GTAP_PROTO_REPLY_BUSY, NULL, 0);
            P.st.declined_not_running++;
            break;
        }
        if (P.owed.count >= GTAP_PROTO_MAX_OWED) {
            gtap_proxy_send(src, GTAP_PROTO_STEAL_REPLY, h.epoch, h.arg0, GTAP_PROTO_REPLY_BUSY, NULL, 0);
            P.st.declined_owed_full++;
            break;
        }
        if (node_passive()) {
            gtap_proxy_send(src, GTAP_PROTO_STEAL_REPLY, h.epoch, h.arg0, 0, NULL, 0);
            P.st.declined_passive++;
            break;
        }
        if (gtap_victim_push(&P.owed, src, h.arg0, h.epoch, &node_req) != 0)
            gtap_dist_fatal("out of host memory in the proxy");
        P.owed_since[node_req % GTAP_PROTO_MAX_OWED] = gtap_dist_now_ns();
        uint32_t want = h.arg1 & ~GTAP_PROTO_REQ_THIEF_IDLE;
        lim[0] = want < (uint32_t)P.g->cfg.steal_batch ? want : (uint32_t)P.g->cfg.steal_batch;
        lim[1] = GTAP_NODE_MAX_MESSAGE_BYTES;
        lim[2] = h.arg1 & GTAP_PROTO_REQ_THIEF_IDLE ? GTAP_NODE_EXPORT_THIEF_IDLE : 0u;
        inbox_post(GTAP_NODE_MSG_EXPORT_REQUEST, node_req, lim, sizeof lim);
        break;
    }
    case GTAP_PROTO_STEAL_REPLY:
        if (in_run(h.epoch) && h.arg1 != 0 && h.arg1 != GTAP_PROTO_REPLY_BUSY)
            note_round_trip(src, h.arg0);
        if (gtap_thief_remove(&P.thief, src, h.arg0) != 0)
            gtap_dist_fatal("protocol error: reply from rank %d to unknown steal request %u", src, h.arg0);
        if (h.arg1 == GTAP_PROTO_REPLY_BUSY) {
            P.next_steal_ns = gtap_dist_now_ns() + P.g->cfg.steal_backoff_ns;
            break;
        }
        gtap_victims_result(&P.victims, h.arg1 > 0);
        if (h.arg1 == 0) {
            uint32_t k = P.victims.fails / (uint32_t)P.size;
            uint64_t b = P.g->cfg.steal_backoff_ns << (k < 16 ? k : 16);
            P.next_steal_ns = gtap_dist_now_ns() + (b < P.g->cfg.steal_backoff_max_ns ? b : P.g->cfg.steal_backoff_max_ns);
            break;
        }
        if (!in_run(h.epoch))
            gtap_dist_fatal("protocol error: %u tasks from rank %d for run %u arrived during run %u (%s)",
                            h.arg1, src, h.epoch, P.epoch, rs_str(P.rs));
        gtap_safra_received(&P.safra);
        P.st.steals_succeeded++;
        P.st.tasks_in += h.arg1;
        P.st.bytes_in += plen;
        P.next_steal_ns = 0;
        P.progressed = 1;
        inbox_post(GTAP_NODE_MSG_IMPORT, (uint32_t)src, pl, plen);
        break;
    case GTAP_PROTO_RESULTS:
        if (!in_run(h.epoch))
            gtap_dist_fatal("protocol error: results from rank %d for run %u arrived during run %u (%s)",
                            src, h.epoch, P.epoch, rs_str(P.rs));
        gtap_safra_received(&P.safra);
        P.st.results_in += h.arg1;
        P.progressed = 1;
        inbox_post(GTAP_NODE_MSG_RESULTS, (uint32_t)src, pl, plen);
        break;
    case GTAP_PROTO_TOKEN:
        if (h.epoch > P.epoch) {
            defer(src, buf, len);
            break;
        }
        if (!in_run(h.epoch) || plen < 8 ||
            gtap_safra_token_arrived(&P.safra, (int64_t)gtap_wire_get64(pl), (int)h.arg1, h.arg0) != 0)
            gtap_dist_fatal("protocol error: unexpected termination token (run %u, wave %u) from rank %d",
                            h.epoch, h.arg0, src);
        P.progressed = 1;
        break;
    case GTAP_PROTO_DUMP: /* any run: the asking rank is about to end the job */
        gtap_proxy_dump_state((int)h.arg0);
        break;
    case GTAP_PROTO_STOP: {
        int kids[32], nk = gtap_proto_tree_children(P.rank, P.size, kids);
        if (plen < 8)
            gtap_dist_fatal("protocol error: short STOP from rank %d", src);
        /* forward even a late one (delays may reorder two STOPs): the children need it */
        for (int i = 0; i < nk; i++)
            gtap_proxy_send(kids[i], GTAP_PROTO_STOP, h.epoch, h.arg0, 0, pl, plen);
        P.progressed = 1;
        if (h.epoch <= P.stop_epoch)
            break; /* a later run's STOP came first: runs end in order, so this one is over */
        P.stop_epoch = h.epoch;
        P.t_term_wall = gtap_wire_get64(pl);
        P.term_mode = h.arg0;
        if (P.rs == RS_RUNNING && P.epoch <= P.stop_epoch)
            deliver_stop();
        break;
    }
    default:
        gtap_dist_fatal("protocol error: message kind %u from rank %d", h.kind, src);
    }
}

static int poll_network(void)
{
    int n = 0;
    for (; n < 32; n++) {
        MPI_Status st;
        int flag = 0, len = 0;
        uint8_t *buf;
        GTAP_MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, GTAP_PROTO_TAG, P.g->comm, &flag, &st));
        if (!flag)
            break;
        GTAP_MPI_CHECK(MPI_Get_count(&st, MPI_BYTE, &len));
        if (len < (int)GTAP_PROTO_HEADER_BYTES)
            gtap_dist_fatal("runtime message of %d bytes from rank %d", len, st.MPI_SOURCE);
        buf = (uint8_t *)malloc((size_t)len);
        if (!buf)
            gtap_dist_fatal("out of host memory in the proxy");
        GTAP_MPI_CHECK(MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, GTAP_PROTO_TAG, P.g->comm, MPI_STATUS_IGNORE));
        if (P.g->cfg.delay_seed && gtap_proto_rand(&P.rng) % 2 == 0) {
            /* delay injection: hold the message; due messages are handled in any order */
            netmsg m = {gtap_dist_now_ns() + 1000ull * (gtap_proto_rand(&P.rng) % P.g->cfg.delay_max_us),
                        st.MPI_SOURCE, buf, len};
            VEC_PUSH(P.delayed, m);
            continue;
        }
        handle_net(st.MPI_SOURCE, buf, len);
        free(buf);
    }
    return n;
}

static int poll_delayed(void)
{
    int n = 0;
    uint64_t now = gtap_dist_now_ns();
    for (int i = 0; i < P.delayed.n;) {
        netmsg m = P.delayed.v[i];
        if (m.due_ns > now) {
            i++;
            continue;
        }
        P.delayed.v[i] = P.delayed.v[--P.delayed.n];
        handle_net(m.src, m.buf, m.len);
        free(m.buf);
        n++;
    }
    return n;
}

/* ---- the node's outbox (proxy consumes) ------------------------------------------------- */

static void agg_flush(int dst)
{
    agg *a = &P.aggs[dst];
    if (!a->buf || a->w.count == 0)
        return;
    gtap_proxy_send(dst, GTAP_PROTO_RESULTS, P.epoch, 0, a->w.count, a->buf, a->w.used);
    gtap_safra_sent(&P.safra);
    P.st.results_out += a->w.count;
    gtap_wire_batch_begin(&a->w, a->buf, GTAP_NODE_MAX_MESSAGE_BYTES, GTAP_WIRE_RESULTS, P.g->program_hash);
}

static int flush_results(void)
{
    int n = 0;
    for (int r = 0; r < P.size; r++) {
        if (P.aggs[r].buf && P.aggs[r].w.count) {
            agg_flush(r);
            n++;
        }
    }
    return n;
}

/* COMPLETION (N7): queue the result entries for their origin; one message per origin per
 * proxy iteration (S6). */
static void on_completion(uint32_t origin, const void *p, uint32_t bytes)
{
    gtap_wire_reader r;
    gtap_wire_result res;
    agg *a;
    int st;
    if (origin >= (uint32_t)P.size || (int)origin == P.rank)
        gtap_dist_fatal("internal error: completion for origin rank %u", origin);
    st = gtap_wire_batch_open(&r, p, bytes, GTAP_WIRE_RESULTS, P.g->program_hash);
    if (st != GTAP_WIRE_OK)
        gtap_dist_fatal("internal error: the node produced a bad result batch: %s", gtap_wire_status_str(st));
    a = &P.aggs[origin];
    if (!a->buf) {
        a->buf = (uint8_t *)malloc(GTAP_NODE_MAX_MESSAGE_BYTES);
        if (!a->buf)
            gtap_dist_fatal("out of host memory in the proxy");
        gtap_wire_batch_begin(&a->w, a->buf, GTAP_NODE_MAX_MESSAGE_BYTES, GTAP_WIRE_RESULTS, P.g->program_hash);
    }
    while (gtap_wire_next_result(&r, &res)) {
        if (gtap_wire_put_result(&a->w, &res) == GTAP_WIRE_OK)
            continue;
        agg_flush((int)origin);
        if (gtap_wire_put_result(&a->w, &res) != GTAP_WIRE_OK)
            gtap_dist_fatal("internal error: a result of %u bytes does not fit a message", res.result_bytes);
    }
}

static void end_run(uint32_t epoch, const uint8_t *pl, uint32_t bytes)
{
    gtap_node_status *s = &P.region->status;
    uint64_t w = gtap_dist_wall_ns();
    if (!in_run(epoch) || P.stop_delivered != epoch || P.owed.count)
        gtap_dist_fatal("internal error: the node left run %u while the proxy is %s in run %u "
                        "(%u export requests unanswered)", epoch, rs_str(P.rs), P.epoch, P.owed.count);
    P.rs = RS_OUTSIDE;
    P.st.segments = s->segments - P.seg0;
    P.st.idle_ns = s->idle_ns - P.idle0;
    P.st.node_export_ns = s->export_ns; /* this run's, published before RUN_END */
    P.st.node_exports_refused = s->exports_refused;
    P.st.node_exports_empty = s->exports_empty;
    P.st.first_work_ns = s->first_work_ns ? s->first_work_ns - 1 : 0;
    P.st.run_ns = bytes >= 8 ? gtap_wire_get64(pl) : gtap_dist_now_ns() - P.run_begin_ns;
    P.st.stop_latency_ns = P.t_term_wall && w > P.t_term_wall ? w - P.t_term_wall : 0;
    P.st.termination_mode = P.term_mode;
    P.st.safra_waves = P.safra.waves;
    P.st.steal_rtt_n = P.rtt_n;
    P.st.steal_rtt_p50_ns = gtap_rtt_percentile(P.rtt_hist, P.rtt_n, 1, 2);
    P.st.steal_rtt_p99_ns = gtap_rtt_percentile(P.rtt_hist, P.rtt_n, 99, 100);
    {
        const gtap_node_direct *d = &P.region->direct; /* published before RUN_END */
        P.st.direct_steals_attempted = d->steals_attempted;
        P.st.direct_steals_succeeded = d->steals_succeeded;
        P.st.direct_requests_received = d->requests_received;
        P.st.direct_tasks_in = d->tasks_in;
        P.st.direct_tasks_out = d->tasks_out;
        P.st.direct_results_in = d->results_in;
        P.st.direct_results_out = d->results_out;
        P.st.direct_rtt_n = d->rtt_n;
        P.st.direct_rtt_p50_ns = d->rtt_p50_ns;
        P.st.direct_rtt_p99_ns = d->rtt_p99_ns;
    }
    P.g->last_stats = P.st;
    if (P.g->cfg.stats || P.g->cfg.require_migration || P.g->cfg.require_direct) {
        /* T5: statistics of this run travel to rank 0 while the next run goes on */
        gather *g = (gather *)calloc(1, sizeof *g);
        if (!g || (P.rank == 0 && !(g->all = (gtap_dist_stats *)calloc((size_t)P.size, sizeof *g->all))))
            gtap_dist_fatal("out of host memory in the proxy");
        g->mine = P.st;
        g->epoch = epoch;
        GTAP_MPI_CHECK(MPI_Igather(&g->mine, (int)sizeof g->mine, MPI_BYTE, g->all, (int)sizeof g->mine,
                                   MPI_BYTE, 0, P.g->comm, &g->req));
        VEC_PUSH(P.gathers, g);
    }
}

/* N8: the node failed; its ERROR message (posted before the flag) carries the cause. */
static void node_failed(void)
{
    gtap_mbox scan = P.outbox;
    const gtap_node_msg_header *h;
    while ((h = gtap_mbox_peek(&scan)) != NULL) {
        if (h->kind == GTAP_NODE_MSG_ERROR)
            gtap_dist_fatal("task runtime error: %.*s", (int)h->bytes, (const char *)(h + 1));
        scan.pos += h->nslots;
    }
    gtap_dist_fatal("task runtime error (the node's message is above)");
}

static int poll_outbox(void)
{
    const gtap_node_msg_header *h;
    int n = 0;
    if (!P.region)
        return 0;
    if (__atomic_load_n(&P.region->status.error, __ATOMIC_ACQUIRE))
        node_failed();
    if (P.g->cfg.delay_seed && gtap_proto_rand(&P.rng) % 4 == 0)
        return 0; /* delay injection: leave the outbox for a while */
    while (n < 64 && (h = gtap_mbox_peek(&P.outbox))) {
        const uint8_t *pl = (const uint8_t *)(h + 1);
        switch (h->kind) {
        case GTAP_NODE_MSG_RUN_BEGIN:
            begin_run(h->arg, pl, h->bytes);
            break;
        case GTAP_NODE_MSG_RUN_END:
            end_run(h->arg, pl, h->bytes);
            break;
        case GTAP_NODE_MSG_EXPORTED: {
            gtap_owed o;
            gtap_wire_reader r;
            int st = gtap_wire_batch_open(&r, pl, h->bytes, GTAP_WIRE_TASKS, P.g->program_hash);
            if (st != GTAP_WIRE_OK)
                gtap_dist_fatal("internal error: the node produced a bad task batch: %s", gtap_wire_status_str(st));
            if (gtap_victim_pop(&P.owed, h->arg, &o) != 0)
                gtap_dist_fatal("internal error: the node answered export request %u out of order", h->arg);
            uint64_t rtt = gtap_dist_now_ns() - P.owed_since[o.node_req % GTAP_PROTO_MAX_OWED];
            P.st.export_wait_ns += rtt;
            if (rtt > P.st.export_wait_max_ns)
                P.st.export_wait_max_ns = rtt;
            if (r.count > 0) {
                gtap_proxy_send(o.thief, GTAP_PROTO_STEAL_REPLY, o.epoch, o.thief_req, r.count, pl, h->bytes);
                gtap_safra_sent(&P.safra);
                P.st.requests_served++;
                P.st.tasks_out += r.count;
                P.st.bytes_out += h->bytes;
            } else {
                gtap_proxy_send(o.thief, GTAP_PROTO_STEAL_REPLY, o.epoch, o.thief_req, 0, NULL, 0);
            }
            break;
        }
        case GTAP_NODE_MSG_COMPLETION:
            on_completion(h->arg, pl, h->bytes);
            break;
        case GTAP_NODE_MSG_ROOT_DONE:
            if (P.rank != 0 || P.rs != RS_RUNNING)
                gtap_dist_fatal("internal error: ROOT_DONE on rank %d", P.rank);
            /* T1: root completion ends a fork-join run unless something detached (T2) */
            if (!P.no_taskwait && !(h->arg & GTAP_NODE_ROOT_DETACHED))
                decide_termination(1);
            else
                P.safra_on = 1;
            break;
        case GTAP_NODE_MSG_ERROR:
            gtap_dist_fatal("task runtime error: %.*s", (int)h->bytes, (const char *)pl);
        default:
            gtap_dist_fatal("internal error: unexpected outbox message %s", gtap_node_msg_kind_str(h->kind));
        }
        gtap_mbox_pop(&P.outbox, h);
        n++;
    }
    if (P.outbox.corrupt)
        gtap_dist_fatal("internal error: malformed outbox message");
    return n;
}

/* ---- stealing and termination ---------------------------------------------------------- */

/* Requests in flight that count against GTAP_DIST_MAX_INFLIGHT: a victim whose node is
 * inside a long task segment answers late, and must not stop us asking others (S4). */
static int inflight_young(uint64_t now)
{
    int n = 0;
    for (int i = 0; i < P.thief.n; i++)
        n += now - P.thief.req[i].sent_ns < P.g->cfg.slow_request_ns;
    return n;
}

static int steal_step(void)
{
    uint64_t now;
    int victim;
    uint32_t id;
    if (P.rs != RS_RUNNING || P.stop_epoch >= P.epoch || P.size == 1 ||
        P.thief.n >= GTAP_PROTO_MAX_INFLIGHT || !(node_passive() || node_hungry()))
        return 0;
    now = gtap_dist_now_ns();
    if (now < P.next_steal_ns || inflight_young(now) >= P.g->cfg.max_inflight)
        return 0;
    victim = gtap_victims_pick(&P.victims);
    if (victim < 0)
        return 0;
    id = gtap_thief_add(&P.thief, victim, now);
    gtap_proxy_send(victim, GTAP_PROTO_STEAL_REQ, P.epoch, id,
                    (uint32_t)P.g->cfg.steal_batch | (node_passive() ? GTAP_PROTO_REQ_THIEF_IDLE : 0u), NULL, 0);
    P.st.steals_attempted++;
    return 1;
}

static int term_step(void)
{
    int64_t q;
    int black, act;
    uint32_t wave;
    uint8_t pl[8];
    if (P.rs != RS_RUNNING || P.stop_epoch >= P.epoch)
        return 0;
    if (!P.safra.has_token && !(P.rank == 0 && P.safra_on))
        return 0;
    if (P.rank == 0 && !P.safra.has_token && (P.safra.wave_out || gtap_dist_now_ns() < P.next_wave_ns))
        return 0;
    if (!rank_passive())
        return 0;
    safra_add_direct();
    act = gtap_safra_passive_step(&P.safra, &q, &black, &wave);
    if (act == GTAP_SAFRA_TERMINATED) {
        decide_termination(2);
        return 1;
    }
    if (act == GTAP_SAFRA_SEND) {
        gtap_wire_put64(pl, (uint64_t)q);
        gtap_proxy_send((P.rank + 1) % P.size, GTAP_PROTO_TOKEN, P.epoch, wave, (uint32_t)black, pl, sizeof pl);
        if (P.rank == 0)
            P.next_wave_ns = gtap_dist_now_ns() + 20000; /* at most one wave per 20 us */
        return 1;
    }
    return 0;
}

/* ---- the end of a run: drain (T5) ------------------------------------------------------- */

/* ---- the loop --------------------------------------------------------------------------- */

static void backoff(int progress, uint32_t *idle)
{
    if (progress) {
        *idle = 0;
        return;
    }
    (*idle)++;
    if (*idle < 16)
        return;
    if (*idle < 64 || P.g->cfg.proxy_sleep_us == 0) {
        sched_yield();
        return;
    }
    {
        uint32_t us = (*idle - 64) / 8 + 1;
        struct timespec ts;
        if (us > P.g->cfg.proxy_sleep_us)
            us = P.g->cfg.proxy_sleep_us;
        ts.tv_sec = 0;
        ts.tv_nsec = (long)us * 1000;
        nanosleep(&ts, NULL);
    }
}

void *gtap_proxy_main(void *arg)
{
    uint32_t idle = 0;
    (void)arg;
#if defined(__linux__)
    /* The idle sleeps below are 1-50 us. Linux lengthens a thread's timed sleeps by its
     * timer slack, 50 us by default, which made a GPU node's proxy (2 us sleeps) answer
     * ROOT_DONE, steal replies and STOP ~50 us late; 1 ns of slack keeps a sleep as asked. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
    memset(&P, 0, sizeof P);
    P.g = &gtap_dist_g;
    P.rank = P.g->rank;
    P.size = P.g->size;
    P.rs = RS_OUTSIDE;
    P.aggs = (agg *)calloc((size_t)P.size, sizeof *P.aggs);
    P.seen_progress = (uint64_t *)calloc((size_t)P.size, sizeof *P.seen_progress);
    if (!P.aggs || !P.seen_progress)
        gtap_dist_fatal("out of host memory in the proxy");
    P.victims.local = P.g->local_peers;
    P.victims.nlocal = P.g->nlocal;
    P.victims.remote = P.g->remote_peers;
    P.victims.nremote = P.g->nremote;
    P.victims.rng = 0x243f6a8885a308d3ull ^ ((uint64_t)P.rank * 0x9e3779b97f4a7c15ull);
    P.victims.last = -1;
    P.rng = P.g->cfg.delay_seed ^ ((uint64_t)(P.rank + 1) * 0xbf58476d1ce4e5b9ull);
    P.last_progress_ns = gtap_dist_now_ns();
    while (!P.quit) {
        int progress = 0;
        progress += poll_network();
        progress += poll_delayed();
        progress += poll_outbox();
        progress += inbox_flush();
        progress += flush_results();
        progress += steal_step();
        progress += term_step();
        progress += complete_sends();
        progress += gtap_proxy_gather_step();
        progress += gtap_proxy_command_step();
        gtap_proxy_watchdog_step();
        if (P.g->cfg.delay_seed && gtap_proto_rand(&P.rng) % 16 == 0) {
            struct timespec ts = {0, (long)(1000ull * (gtap_proto_rand(&P.rng) % (P.g->cfg.delay_max_us / 4 + 1)))};
            nanosleep(&ts, NULL);
        }
        backoff(progress, &idle);
    }
    /* every run is drained, so only completed sends can remain */
    while (P.sends.n)
        complete_sends();
    for (int r = 0; r < P.size; r++)
        free(P.aggs[r].buf);
    free(P.aggs);
    free(P.direct);
    free(P.victims_local);
    free(P.seen_progress);
    free(P.gathers.v);
    free(P.sends.v);
    free(P.delayed.v);
    free(P.deferred.v);
    free(P.inq.v);
    gtap_victim_free(&P.owed);
    return NULL;
}
