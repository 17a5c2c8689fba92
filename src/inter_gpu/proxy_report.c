/* proxy_report.c - what the proxy reports: per-run statistics gathered to rank 0 and
 * printed (GTAP_STATS=1), and the watchdog (GTAP_WATCHDOG_S) with its state dump. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "proxy_internal.h"

static void print_stats(const gtap_dist_stats *all, uint32_t epoch)
{
    uint64_t maxstop = 0, att = 0, ok = 0, msgs = 0;
    for (int r = 0; r < P.size; r++) {
        if (all[r].stop_latency_ns > maxstop)
            maxstop = all[r].stop_latency_ns;
        att += all[r].steals_attempted;
        ok += all[r].steals_succeeded;
        msgs += all[r].msgs_sent;
    }
    fprintf(stderr, "gtap: stats: run %u, %d ranks, termination by %s, stop latency max %.3f ms, "
                    "steals %llu/%llu, messages %llu (%.1f per successful steal)\n",
            epoch, P.size, all[0].termination_mode == 2 ? "Safra token" : "root completion",
            maxstop / 1e6, (unsigned long long)ok, (unsigned long long)att, (unsigned long long)msgs,
            ok ? (double)msgs / (double)ok : 0.0);
    fprintf(stderr, "gtap: stats: rank steals_att steals_ok served tasks_in tasks_out kib_in kib_out "
                    "results_in results_out msgs_sent msgs_recv segments idle_ms first_work_ms run_ms stop_ms\n");
    for (int r = 0; r < P.size; r++) {
        const gtap_dist_stats *s = &all[r];
        fprintf(stderr, "gtap: stats: %4d %10llu %9llu %6llu %8llu %9llu %6.1f %7.1f %10llu %11llu %9llu "
                        "%9llu %8llu %7.2f %13.3f %6.1f %7.3f\n",
                r, (unsigned long long)s->steals_attempted, (unsigned long long)s->steals_succeeded,
                (unsigned long long)s->requests_served, (unsigned long long)s->tasks_in,
                (unsigned long long)s->tasks_out, s->bytes_in / 1024.0, s->bytes_out / 1024.0,
                (unsigned long long)s->results_in, (unsigned long long)s->results_out,
                (unsigned long long)s->msgs_sent, (unsigned long long)s->msgs_received,
                (unsigned long long)s->segments, s->idle_ns / 1e6, s->first_work_ns / 1e6, s->run_ns / 1e6,
                s->stop_latency_ns / 1e6);
    }
    /* the victim side: why requests were answered with nothing, and how fast */
    fprintf(stderr, "gtap: stats: rank requests_recv declined_not_running declined_owed_full declined_passive "
                    "node_short node_found_none node_export_ms export_wait_avg_us export_wait_max_us\n");
    for (int r = 0; r < P.size; r++) {
        const gtap_dist_stats *s = &all[r];
        uint64_t asked = s->requests_received - s->declined_not_running - s->declined_owed_full - s->declined_passive;
        fprintf(stderr, "gtap: stats: %4d %13llu %20llu %18llu %16llu %10llu %15llu %14.3f %18.1f %18.1f\n", r,
                (unsigned long long)s->requests_received, (unsigned long long)s->declined_not_running,
                (unsigned long long)s->declined_owed_full, (unsigned long long)s->declined_passive,
                (unsigned long long)s->node_exports_refused, (unsigned long long)s->node_exports_empty,
                s->node_export_ns / 1e6, asked ? s->export_wait_ns / 1e3 / (double)asked : 0.0,
                s->export_wait_max_ns / 1e3);
    }
    /* steals by path: through the proxies (MPI) and direct within a host (N10), with the
     * median and 99th percentile of the round trips of those that brought tasks */
    fprintf(stderr, "gtap: stats: rank proxy_steals_ok proxy_rtt_p50_us proxy_rtt_p99_us direct_steals_att "
                    "direct_steals_ok direct_requests_recv direct_tasks_in direct_tasks_out direct_results_in "
                    "direct_results_out direct_rtt_p50_us direct_rtt_p99_us\n");
    for (int r = 0; r < P.size; r++) {
        const gtap_dist_stats *s = &all[r];
        fprintf(stderr, "gtap: stats: %4d %15llu %16.2f %16.2f %17llu %16llu %20llu %15llu %16llu %17llu %18llu "
                        "%17.2f %17.2f\n",
                r, (unsigned long long)s->steal_rtt_n, s->steal_rtt_p50_ns / 1e3, s->steal_rtt_p99_ns / 1e3,
                (unsigned long long)s->direct_steals_attempted, (unsigned long long)s->direct_steals_succeeded,
                (unsigned long long)s->direct_requests_received, (unsigned long long)s->direct_tasks_in,
                (unsigned long long)s->direct_tasks_out, (unsigned long long)s->direct_results_in,
                (unsigned long long)s->direct_results_out, s->direct_rtt_p50_ns / 1e3, s->direct_rtt_p99_ns / 1e3);
    }
}

/* Completes the per-run statistics gathers in order; rank 0 prints and checks them. */
int gtap_proxy_gather_step(void)
{
    int flag = 0;
    gather *g;
    if (P.gathers.n == 0)
        return 0;
    g = P.gathers.v[0];
    GTAP_MPI_CHECK(MPI_Test(&g->req, &flag, MPI_STATUS_IGNORE));
    if (!flag)
        return 0;
    if (P.rank == 0 && P.g->cfg.stats)
        print_stats(g->all, g->epoch);
    if (P.rank == 0 && P.size > 1) {
        uint64_t moved = 0, direct = 0;
        for (int r = 0; r < P.size; r++) {
            moved += g->all[r].tasks_in + g->all[r].direct_tasks_in;
            direct += g->all[r].direct_tasks_in;
        }
        P.moved_in_job += moved;
        P.direct_in_job += direct;
        if (P.g->cfg.require_migration == 1 && moved == 0)
            gtap_dist_fatal("test: no task migrated in run %u of %d ranks "
                            "(GTAP_DIST_TEST_REQUIRE_MIGRATION=1)", g->epoch, P.size);
        if (P.g->cfg.require_direct == 1 && direct == 0)
            gtap_dist_fatal("test: no task moved over a direct ring in run %u of %d ranks "
                            "(GTAP_DIST_TEST_REQUIRE_DIRECT=1)", g->epoch, P.size);
    }
    free(g->all);
    free(g);
    memmove(&P.gathers.v[0], &P.gathers.v[1], (size_t)(P.gathers.n - 1) * sizeof *P.gathers.v);
    P.gathers.n--;
    return 1;
}

/* GTAP_DIST_TEST_REQUIRE_{MIGRATION,DIRECT}=2, at the end of the job (rank 0, every run's
 * statistics gathered): some task moved (over a direct ring) in one of its runs. */
void gtap_proxy_check_job_migration(void)
{
    if (P.rank != 0 || P.size == 1)
        return;
    if (P.g->cfg.require_migration == 2 && P.moved_in_job == 0)
        gtap_dist_fatal("test: no task migrated in any run of this job of %d ranks "
                        "(GTAP_DIST_TEST_REQUIRE_MIGRATION=2)", P.size);
    if (P.g->cfg.require_direct == 2 && P.direct_in_job == 0)
        gtap_dist_fatal("test: no task moved over a direct ring in any run of this job of %d ranks "
                        "(GTAP_DIST_TEST_REQUIRE_DIRECT=2)", P.size);
}

/* ---- watchdog (GTAP_WATCHDOG_S) --------------------------------------------------------- */

/* This rank's state on stderr: its own watchdog fired (requested_by < 0), or rank
 * requested_by's did (GTAP_PROTO_DUMP). */
void gtap_proxy_dump_state(int requested_by)
{
    char buf[4096];
    int n = 0;
    gtap_node_region *r = P.region;
#define OUT(...) n += snprintf(buf + n, sizeof buf - (size_t)(n < (int)sizeof buf ? n : (int)sizeof buf), __VA_ARGS__)
    static const char *cmds[] = {"", "attaching the node (gtap_initialize)", "detaching the node",
                                 "gtap_replicate", "gtap_dist_allreduce_u64/_f64", "gtap_dist_barrier",
                                 "gtap_dist_stats_gather", "gtap_dist_finalize"};
    char asked[48] = "";
    if (requested_by >= 0)
        snprintf(asked, sizeof asked, ", at rank %d's request", requested_by);
    OUT("gtap: watchdog dump of rank %d (host %s, %s%s): proxy %s, run %u, stop known for run %u, "
        "termination %s%s%s\n", P.rank, P.g->host, P.g->device, asked, rs_str(P.rs), P.epoch, P.stop_epoch,
        P.safra_on ? "by Safra token" : "by root completion",
        P.cmd ? ", waiting for every rank in the collective of " : "",
        P.cmd && P.cmd->kind > 0 && P.cmd->kind <= GTAP_CMD_FINALIZE ? cmds[P.cmd->kind] : "");
    if (r) {
        gtap_node_status *s = &r->status;
        OUT("gtap:   node: idle %u, in_run %u, error %u, segments %llu, runnable %llu, live records %llu, "
            "imported %llu, exported %llu, results applied %llu\n", s->idle, s->in_run, s->error,
            (unsigned long long)s->segments, (unsigned long long)s->runnable, (unsigned long long)s->live,
            (unsigned long long)s->tasks_imported, (unsigned long long)s->tasks_exported,
            (unsigned long long)s->results_applied);
        if (s->in_run && !s->idle && s->segments == P.last_segments)
            OUT("gtap:   the node holds work but finished no task segment for the whole period: "
                "a task that does not return, or one far longer than GTAP_WATCHDOG_S?\n");
        if (P.rs == RS_OUTSIDE && !P.cmd)
            OUT("gtap:   between runs: the node of rank %d has not begun run %u (the program has not "
                "launched it, or the launched kernel has not started)\n", P.rank, P.epoch + 1);
        OUT("gtap:   inbox: head %llu tail %llu (+%d queued in the proxy); outbox: head %llu tail %llu\n",
            (unsigned long long)r->inbox.head, (unsigned long long)r->inbox.tail, P.inq.n - P.inq_head,
            (unsigned long long)r->outbox.head, (unsigned long long)r->outbox.tail);
    } else {
        OUT("gtap:   no node attached\n");
    }
    OUT("gtap:   steal requests in flight: %d", P.thief.n);
    for (int i = 0; i < P.thief.n && i < 8; i++)
        OUT(" [to rank %d, id %u, %.1f ms ago]", P.thief.req[i].victim, P.thief.req[i].id,
            (gtap_dist_now_ns() - P.thief.req[i].sent_ns) / 1e6);
    OUT("; export requests owed by the node: %u\n", P.owed.count);
    OUT("gtap:   Safra: count %lld, %s, token %s (wave %u), waves started %u; delayed messages %d, "
        "deferred %d, sends pending %d\n", (long long)P.safra.count, P.safra.black ? "black" : "white",
        P.safra.has_token ? "held" : "not held", P.safra.wave, P.safra.waves, P.delayed.n, P.deferred.n,
        P.sends.n);
#undef OUT
    fputs(buf, stderr);
    fflush(stderr);
}

void gtap_proxy_watchdog_step(void)
{
    uint64_t now, seg;
    if (P.g->cfg.watchdog_s <= 0)
        return;
    now = gtap_dist_now_ns();
    seg = P.region ? __atomic_load_n(&P.region->status.segments, __ATOMIC_RELAXED) : 0;
    if (seg != P.last_segments) {
        P.last_segments = seg;
        P.progressed = 1;
    }
    if (P.progressed || (P.rs == RS_OUTSIDE && !P.cmd)) {
        P.last_progress_ns = now;
        P.progressed = 0;
        return;
    }
    if ((double)(now - P.last_progress_ns) > P.g->cfg.watchdog_s * 1e9) {
        gtap_proxy_dump_state(-1);
        gtap_proxy_request_dumps(1.0);
        gtap_dist_fatal("watchdog: no progress for %.1f s (GTAP_WATCHDOG_S=%g)",
                        (now - P.last_progress_ns) / 1e9, P.g->cfg.watchdog_s);
    }
}

