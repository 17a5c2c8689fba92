/* inter_gpu/gpu/gpu_node_agent.cuh - the agent warp's loop (gtap_gnode_agent): a run's
 * start and end, and each pass of the loop as a sequence of named steps.
 */
#ifndef GTAP_GPU_NODE_AGENT_CUH
#define GTAP_GPU_NODE_AGENT_CUH

#include "inter_gpu/gpu/gpu_node_direct.cuh"
#include "inter_gpu/gpu/gpu_node_export.cuh"
#include "inter_gpu/gpu/gpu_node_import.cuh"
#include "inter_gpu/gpu/gpu_node_mailbox.cuh"
#include "inter_gpu/gpu/gpu_node_queue.cuh"
#include "inter_gpu/gpu/gpu_node_reserve.cuh"
#include "inter_gpu/gpu/gpu_node_results.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"
#include "inter_gpu/gpu/gpu_node_status.cuh"

/* Messages handled per pass before the loop's other steps get a turn. */
#define GTAP_GN_INBOX_BATCH 16
/* After STOP a worker may still be on its way to idle; holding work this long after it is a
 * protocol error (ns). */
#define GTAP_GN_STOP_GRACE_NS 1000000000ull
/* Interval between two refreshes of the statistics counters (ns). */
#define GTAP_GN_COUNTERS_NS 1000000ull

/* ---- a run's start and end ------------------------------------------------------------------ */

/* Enters the run (N5): the agent's state from the region and the node words as the last run
 * (or the proxy, at attach) left them, then RUN_BEGIN. Warp-collective. */
GTAP_DEV void gtap_gn_begin_run(gtap_gn_agent *a, uint32_t w, uint32_t nworkers, uint32_t lane)
{
    gtap_node_region *r = gtap_gn.region;
    memset(a, 0, sizeof *a);
    a->w = w;
    a->nworkers = nworkers;
    a->launch_tag = gtap_nh_launch_tag();
    /* The opening reserve (gtap_gn_reserve_step): on the rank that starts the root. */
    a->reserving = gtap_nh.opening_reserve;
    {
        const uint32_t peers = r->nranks > 1 ? r->nranks - 1 : 1; /* identity: written before the node starts */
        a->reserve_share = (gtap_gn.reserve_max + peers - 1) / peers;
    }
    /* Our own counters as we (or the proxy, at attach) left them; the proxy's head with
     * acquire, so that the slots it has read are free (N1). */
    a->epoch = gtap_ld_relaxed_sys_u32(&r->status.epoch) + 1; /* N5 */
    a->in.slots = gtap_gn.inbox_slots;
    a->in.head = &r->inbox.head;
    a->in.tail = &r->inbox.tail;
    a->in.n = gtap_gn.ring_slots;
    a->in.pos = a->in.tail_seen = gtap_ld_acquire_sys_u64(&r->inbox.head);
    a->out.slots = gtap_gn.outbox_slots;
    a->out.head = &r->outbox.head;
    a->out.tail = &r->outbox.tail;
    a->out.n = gtap_gn.ring_slots;
    a->out.pos = gtap_ld_acquire_sys_u64(&r->outbox.tail);
    a->out.head_seen = gtap_ld_acquire_sys_u64(&r->outbox.head);
    a->out.seq = gtap_nh.words->out_seq;
    a->direct_backoff_ns = GTAP_GN_DIRECT_BACKOFF_NS;
    a->done_pos = gtap_ld_relaxed_u32(&gtap_nh.words->done_consumed);
    /* N4 from the run's first moment: the region says idle between runs, but the node that
     * starts the root holds a task as soon as it is in the run. Its idle = 0 is stored before
     * RUN_BEGIN, whose release publishes it; else the proxy, which may run Safra's first wave
     * from RUN_BEGIN on (T3), could read the node passive before the agent's first status
     * update and end the run with the root's work still here. */
    a->idle = !gtap_nh_holds_root();
    a->t_begin = gtap_gn_now(lane);
    a->idle_since = a->t_begin;
    uint64_t idle_ns_before = 0, seg_before = 0;
    if (lane == 0) {
        idle_ns_before = *(volatile uint64_t *)&r->status.idle_ns;
        seg_before = *(volatile uint64_t *)&r->status.segments;
        gtap_st_relaxed_sys_u32(&r->status.epoch, a->epoch);
        gtap_st_relaxed_sys_u32(&r->status.in_run, 1u);
        if (!a->idle)
            gtap_st_relaxed_sys_u32(&r->status.idle, 0u); /* ordered by RUN_BEGIN's release */
        gtap_st_relaxed_sys_u64(&r->status.first_work_ns, 0ull);
        gtap_nh.words->agent_sm = gtap_nh_smid();
        gtap_st_release_u32(&gtap_nh.words->agent_sm_tag, a->launch_tag); /* gtap_nh_passive */
        uint64_t *p = (uint64_t *)gtap_gn.out_buf;
        p[0] = gtap_nh_holds_root();
        p[1] = seg_before;
        p[2] = idle_ns_before;
    }
    a->idle_ns = __shfl_sync(GTAP_GN_FULL, (unsigned long long)idle_ns_before, 0);
    gtap_gn_direct_begin(lane); /* N10: zero before RUN_BEGIN */
    gtap_gn_post(a, lane, GTAP_NODE_MSG_RUN_BEGIN, a->epoch, gtap_gn.out_buf, 24);
    /* The workers' counters restart at 0 each launch; the node's total goes on. */
    a->segments_base = __shfl_sync(GTAP_GN_FULL, (unsigned long long)seg_before, 0);
}

/* GTAP_DIST_AGENT_PROFILE: the time per step of this run, one line. Lane 0 prints. */
GTAP_DEV void gtap_gn_print_profile(const gtap_gn_agent *a, uint32_t lane, uint64_t now)
{
    if (!gtap_gn.profile || lane != 0)
        return;
    const uint64_t *t = a->prof;
    printf("gtap-prof rank %u run_us %.0f inbox %.0f export %.0f [steal+serialize %.0f publish %.0f post %.0f] "
           "exports %llu (reserve %llu of %u) import %.0f imports %llu results %.0f batches %llu done_ring %.0f loop %.0f sleep %.0f\n",
           gtap_gn.rank, (now - a->t_begin) / 1e3, t[GTAP_GN_P_INBOX] / 1e3,
           (t[GTAP_GN_P_EXPORT] + t[GTAP_GN_P_EXPORT_POST]) / 1e3,
           t[GTAP_GN_P_EXPORT_STEAL] / 1e3, t[GTAP_GN_P_EXPORT_PUBLISH] / 1e3, t[GTAP_GN_P_EXPORT_POST] / 1e3,
           (unsigned long long)t[GTAP_GN_P_N_EXPORTS], (unsigned long long)a->reserve_exported, a->reserve_n,
           t[GTAP_GN_P_IMPORT] / 1e3,
           (unsigned long long)t[GTAP_GN_P_N_IMPORTS], t[GTAP_GN_P_RESULTS] / 1e3,
           (unsigned long long)t[GTAP_GN_P_N_RESULTS], t[GTAP_GN_P_DRAIN] / 1e3, t[GTAP_GN_P_LOOP] / 1e3,
           t[GTAP_GN_P_SLEEP] / 1e3);
}

/* Appends the NUL-terminated text s to dst[len...]; returns the new length. One lane. */
GTAP_DEV uint32_t gtap_gn_put_text(unsigned char *dst, uint32_t len, const char *s)
{
#pragma unroll 1
    while (*s)
        dst[len++] = (unsigned char)*s++;
    return len;
}

/* An internal or protocol error of the node: posts ERROR with the file and line that found
 * it (N8) and stops the run. Warp-collective; a call, since only a failing run takes it. */
GTAP_GN_COLD void gtap_gn_report_failure(gtap_gn_agent *a, uint32_t lane)
{
    uint32_t len = 0;
    if (lane == 0) {
        unsigned char *out = gtap_gn.out_buf;
        len = gtap_gn_put_text(out, len, "GPU node: malformed message, protocol error or internal inconsistency "
                                         "detected at src/inter_gpu/gpu/");
        len = gtap_gn_put_text(out, len, gtap_gn_part_file(a->failed >> 16));
        out[len++] = ':';
        char digits[10];
        uint32_t n = 0;
        for (uint32_t v = a->failed & 0xffffu; v && n < 10; v /= 10)
            digits[n++] = (char)('0' + v % 10);
        while (n)
            out[len++] = (unsigned char)digits[--n];
        gtap_st_relaxed_u32(&gtap_dev.ctl->terminate, GTAP_RUN_ABORT);
    }
    len = __shfl_sync(GTAP_GN_FULL, len, 0);
    gtap_gn_post(a, lane, GTAP_NODE_MSG_ERROR, (uint32_t)a->failed, gtap_gn.out_buf, len);
    if (lane == 0)
        gtap_st_release_sys_u32(&gtap_gn.region->status.error, 1u); /* N8: after the ERROR message */
}

/* Leaves the run after STOP (N5): idle, RUN_END, and the workers leave too. Warp-collective. */
GTAP_DEV void gtap_gn_end_run(gtap_gn_agent *a, uint32_t lane, uint64_t now)
{
    gtap_node_region *r = gtap_gn.region;
    gtap_gn_set_idle(a, lane, 1, now);
    if (lane == 0) {
        gtap_st_relaxed_sys_u64(&r->status.hungry, 0ull);
        gtap_st_relaxed_sys_u64(&r->status.idle_ns, a->idle_ns);
        gtap_st_relaxed_sys_u32(&r->status.in_run, 0u);
        *(uint64_t *)gtap_gn.out_buf = now - a->t_begin;
    }
    gtap_gn_post(a, lane, GTAP_NODE_MSG_RUN_END, a->epoch, gtap_gn.out_buf, 8);
    if (lane == 0) {
        /* Every worker is idle (the job's termination was detected): leave the run. */
        gtap_st_release_u32(&gtap_dev.ctl->terminate, GTAP_RUN_DONE);
    }
}

/* Whatever ended the run: what the next launch's agent continues from. Warp-collective. */
GTAP_DEV void gtap_gn_leave(const gtap_gn_agent *a, uint32_t lane)
{
    if (lane == 0) {
        gtap_nh.words->out_seq = a->out.seq;
        gtap_st_relaxed_u32(&gtap_nh.words->launch, a->launch_tag); /* launches finished */
    }
    __syncwarp();
}

/* ---- the steps of one pass ------------------------------------------------------------------ */

/* Must the agent leave at once? On a task error (terminate = ABORT: the host reports it and
 * ends the job), or when the proxy aborts the job (N8), which the agent passes on to the
 * workers. Polled relaxed: an abort publishes nothing the agent reads. Warp-uniform. */
GTAP_DEV int gtap_gn_aborting(uint32_t lane)
{
    gtap_ctl *ctl = gtap_dev.ctl;
    uint32_t st = lane == 0 ? gtap_ld_relaxed_u32(&ctl->terminate) : 0;
    uint32_t abort = lane == 0 ? gtap_ld_relaxed_sys_u32(&gtap_gn.region->control.abort) : 0;
    st = __shfl_sync(GTAP_GN_FULL, st, 0);
    abort = __shfl_sync(GTAP_GN_FULL, abort, 0);
    if (st == GTAP_RUN_ABORT)
        return 1;
    if (abort) {
        if (lane == 0)
            gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT); /* the job is ending */
        return 1;
    }
    return 0;
}

/* The opening reserve's step, while it takes or holds tasks. Returns 1 if it did work. */
GTAP_DEV uint32_t gtap_gn_tend_reserve(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane)
{
    if (a->reserve_n == a->reserve_pos && !a->reserving)
        return 0;
    return gtap_gn_reserve_step(a, sh, lane, gtap_gn_now(lane));
}

/* Handles up to GTAP_GN_INBOX_BATCH inbox messages (N6, N7, STOP). Before IMPORT and RESULTS
 * the node stops being idle; the pop's release orders that (N4). Returns 1 if there were
 * any. Warp-collective. */
GTAP_DEV uint32_t gtap_gn_read_inbox(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, gtap_sched_rng *rng)
{
    uint32_t work = 0;
    for (int m = 0; m < GTAP_GN_INBOX_BATCH && !a->stop && !a->failed; m++) {
        uint32_t arg = 0, bytes = 0, ns = 0;
        GTAP_GN_T0();
        int kind = gtap_gn_rx_next(&a->in, lane, &arg, &bytes, &ns);
        GTAP_GN_T(a, GTAP_GN_P_INBOX);
        if (kind == 0)
            break;
        if (kind < 0) {
            a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_AGENT);
            break;
        }
        work = 1;
        uint64_t now = gtap_gn_now(lane);
        switch (kind) {
        case GTAP_NODE_MSG_STOP:
            if (arg != a->epoch)
                a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_AGENT);
            a->stop = 1;
            break;
        case GTAP_NODE_MSG_EXPORT_REQUEST: {
            const uint32_t *lim = (const uint32_t *)gtap_gn.in_buf;
            uint32_t count;
            const uint32_t used = gtap_gn_export(a, sh, lane, rng, lim[0], lim[1], bytes >= 12 ? lim[2] : 0u, &count);
            GTAP_GN_T(a, GTAP_GN_P_EXPORT);
            gtap_gn_post(a, lane, GTAP_NODE_MSG_EXPORTED, arg, gtap_gn.out_buf, used);
            GTAP_GN_T(a, GTAP_GN_P_EXPORT_POST);
            break;
        }
        case GTAP_NODE_MSG_IMPORT:
            gtap_gn_set_idle(a, lane, 0, now);
            gtap_gn_import(a, sh, lane, bytes);
            GTAP_GN_T(a, GTAP_GN_P_IMPORT);
            a->prof[GTAP_GN_P_N_IMPORTS]++;
            if (a->first_work_ns == 0)
                a->first_work_ns = now - a->t_begin + 1;
            break;
        case GTAP_NODE_MSG_RESULTS:
            gtap_gn_set_idle(a, lane, 0, now);
            gtap_gn_results(a, sh, lane, bytes);
            GTAP_GN_T(a, GTAP_GN_P_RESULTS);
            a->prof[GTAP_GN_P_N_RESULTS]++;
            break;
        default:
            a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_AGENT);
        }
        gtap_gn_rx_pop(&a->in, lane, ns);
    }
    return work;
}

/* Moves backlog entries into the agent's deque as thieves make room, and publishes them.
 * Returns 1 if it moved any. Warp-collective. */
GTAP_DEV uint32_t gtap_gn_refill_deque(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane)
{
    uint32_t moved = lane == 0 ? (uint32_t)gtap_gn_refill(a, sh) : 0u;
    if (!__shfl_sync(GTAP_GN_FULL, moved, 0))
        return 0;
    gtap_worker_node_publish(sh, a->w, lane);
    return 1;
}

/* Posts ROOT_DONE once the root finished in this launch (docs/dist.md T1, with T2's flag).
 * Returns 1 if it posted. Warp-collective. */
GTAP_DEV uint32_t gtap_gn_post_root_done(gtap_gn_agent *a, uint32_t lane)
{
    if (a->root_posted || !gtap_nh_holds_root())
        return 0;
    uint32_t done = lane == 0 ? gtap_ld_acquire_u32(&gtap_nh.words->root_done) : 0;
    if (__shfl_sync(GTAP_GN_FULL, done, 0) != a->launch_tag)
        return 0;
    /* relaxed: root_done's acquire ordered every detaching task's flag (T2) */
    uint32_t det = lane == 0 ? gtap_ld_relaxed_u32(&gtap_nh.words->detached) : 0;
    det = __shfl_sync(GTAP_GN_FULL, det, 0) == a->launch_tag ? GTAP_NODE_ROOT_DETACHED : 0;
    gtap_gn_post(a, lane, GTAP_NODE_MSG_ROOT_DONE, det, gtap_gn.out_buf, 0);
    a->root_posted = 1;
    return 1;
}

/* Does the node hold any task (N4's "not idle")? Gives back the active-count increments
 * the agent no longer needs first. Warp-uniform (lane 0 decides). */
GTAP_DEV uint32_t gtap_gn_busy(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane)
{
    uint32_t busy = 0;
    if (lane == 0) {
        gtap_worker_node_refresh(sh, a->w); /* steal ends, if a push found them stale */
        gtap_gn_settle(a);
        busy = a->holds != 0 || gtap_ld_acquire_u32(&gtap_dev.ctl->active) != 0;
        /* Acquire above: a worker's done-ring entry precedes its going idle. */
        if (!busy && gtap_ld_acquire_u32(&gtap_nh.done_ring[a->done_pos & gtap_nh.done_mask]) != 0)
            busy = 1;
    }
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    return __shfl_sync(GTAP_GN_FULL, busy, 0);
}

/* Tells the proxy what the pass found: idleness (N4), hunger (N9), and now and then the
 * statistics counters. Warp-collective. */
GTAP_DEV void gtap_gn_update_status(gtap_gn_agent *a, uint32_t lane, uint32_t busy, uint64_t now)
{
    if (busy && a->first_work_ns == 0)
        a->first_work_ns = now - a->t_begin + 1;
    gtap_gn_set_idle(a, lane, busy ? 0u : 1u, now);
    gtap_gn_set_hungry(a, lane, busy && gtap_gn_is_hungry(a, lane));
    if (now - a->last_publish > GTAP_GN_COUNTERS_NS) {
        gtap_gn_publish_counters(a, lane, now);
        gtap_gn_direct_publish(a, lane, 0);
    }
}

/* What the node still holds when the grace after STOP ran out (the ERROR message names only
 * the check): the agent's own holdings, and every worker that is busy or has queued tasks
 * (WD1's state words). Lane 0; device printf, flushed when the kernel ends. */
GTAP_GN_COLD void gtap_gn_print_held_work(const gtap_gn_agent *a)
{
    printf("gtap: rank %u: the node holds work after STOP: agent holds %u, active count %d, backlog %u, "
           "reserve %u of %u, agent deque %u, done ring slot %u\n",
           gtap_gn.rank, a->holds, (int)gtap_ld_relaxed_u32(&gtap_dev.ctl->active), a->backlog_n,
           a->reserve_n - a->reserve_pos, a->reserve_n, gtap_worker_node_queued(a->w),
           gtap_ld_relaxed_u32(&gtap_nh.done_ring[a->done_pos & gtap_nh.done_mask]));
    uint32_t listed = 0, more = 0;
    for (uint32_t w = 0; w < a->nworkers; w++) {
        const unsigned long long st = gtap_ld_relaxed_u64(&gtap_dev.watch_worker[w]);
        const uint32_t q = gtap_worker_node_queued(w);
        if (st != GTAP_WATCH_BUSY && !q)
            continue;
        if (listed++ >= 32)
            more++;
        else
            printf("gtap: rank %u:   worker %u %s, %u queued\n", gtap_gn.rank, w,
                   w == a->w                ? "(the agent)"
                   : st == GTAP_WATCH_BUSY ? "busy"
                   : st == GTAP_WATCH_IDLE ? "idle"
                                           : "out of the loop",
                   q);
    }
    if (more)
        printf("gtap: rank %u:   and %u more workers busy or holding tasks\n", gtap_gn.rank, more);
}

/* After STOP, while the node still holds work: the job's termination was decided, so no
 * task exists here and a worker is only on its way to idle (e.g. the one that ran the
 * root). Still holding work GTAP_GN_STOP_GRACE_NS after STOP is a protocol error. */
GTAP_DEV void gtap_gn_wait_after_stop(gtap_gn_agent *a, uint32_t lane, uint64_t now, uint64_t *stop_seen)
{
    if (*stop_seen == 0) {
        *stop_seen = now;
    } else if (now - *stop_seen > GTAP_GN_STOP_GRACE_NS) {
        if (lane == 0)
            gtap_gn_print_held_work(a);
        a->failed = GTAP_GN_FAILED_AT(GTAP_GN_PART_AGENT);
    }
    __nanosleep(1000);
}

/* After a pass without work: polls the mapped inbox about every microsecond while work may
 * arrive. Returns 1 if it slept. */
GTAP_DEV uint32_t gtap_gn_pause(uint32_t *quiet, uint32_t work)
{
    if (work) {
        *quiet = 0;
        return 0;
    }
    __nanosleep(*quiet < 64 ? 200 : 1000);
    (*quiet)++;
    return 1;
}

/* ---- the loop ------------------------------------------------------------------------------- */

static __device__ __noinline__ void gtap_gnode_agent(gtap_node_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane,
                                                     gtap_sched_rng *rng)
{
    gtap_gn_agent a;
    gtap_gn_begin_run(&a, w, nworkers, lane);
    uint32_t quiet = 0;
    uint64_t stop_seen = 0;
    while (!a.failed) {
        if (gtap_gn_aborting(lane))
            break;
        uint32_t work = gtap_gn_tend_reserve(&a, sh, lane);
        work |= gtap_gn_read_inbox(&a, sh, lane, rng);
        work |= gtap_gn_read_direct(&a, sh, lane, rng);
        if (a.failed)
            break;
        GTAP_GN_T0();
        work |= gtap_gn_drain_done(&a, sh, lane) != 0; /* finished imported tasks */
        GTAP_GN_T(&a, GTAP_GN_P_DRAIN);
        work |= gtap_gn_refill_deque(&a, sh, lane);
        work |= gtap_gn_post_root_done(&a, lane);
        const uint32_t busy = gtap_gn_busy(&a, sh, lane);
        const uint64_t now = gtap_gn_now(lane);
        gtap_gn_update_status(&a, lane, busy, now);
        if (gtap_gn.ndirect)
            work |= gtap_gn_direct_steal(&a, lane, rng, now);
        if (a.stop) {
            if (!busy)
                break;
            gtap_gn_wait_after_stop(&a, lane, now, &stop_seen);
            continue;
        }
        GTAP_GN_T(&a, GTAP_GN_P_LOOP);
        if (gtap_gn_pause(&quiet, work))
            GTAP_GN_T(&a, GTAP_GN_P_SLEEP);
    }
    const uint64_t now = gtap_gn_now(lane);
    gtap_gn_publish_counters(&a, lane, now);
    gtap_gn_direct_publish(&a, lane, 1); /* before RUN_END, which the proxy reads them after */
    gtap_gn_print_profile(&a, lane, now);
    if (a.failed)
        gtap_gn_report_failure(&a, lane);
    else if (a.stop)
        gtap_gn_end_run(&a, lane, now);
    gtap_gn_leave(&a, lane);
}

#endif /* GTAP_GPU_NODE_AGENT_CUH */
