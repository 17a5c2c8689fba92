/* node_refexec.h - the node interface (gtap/node_iface.h) over the CPU reference executor:
 * makes one gtap_rx one rank of a distributed job. The host target includes it when the
 * program is linked with the distributed layer (GTAP_DISTRIBUTED, CMake target
 * gtap_dist_host); gtap_rxd_attach() then installs the executor's hooks.
 *
 * Header-only because it runs inside the program's translation unit (it needs the
 * executor's records and, through it, the program's dispatcher). Everything here runs on
 * the executor's thread; the proxy is reached only through the region (N1-N8).
 *
 * Records and rules (docs/dist.md, "Migration"):
 *  - export (N6): the oldest runnable tasks of migratable functions, at most half of them
 *    (the executor runs one task at a time, so keeping one avoids ping-pong); a task whose
 *    origin needs its completion leaves a stub (state GTAP_RX_STATE_MIGRATED) that keeps
 *    its parent link and result destination; others (no parent, no result, not the root)
 *    are freed. A task that was itself imported passes its origin tag on (no stub here).
 *  - import (N7): a fresh record with parent GTAP_RX_PARENT_REMOTE whose result destination
 *    is a per-record buffer; when it finishes, the executor calls remote_finish and a
 *    COMPLETION goes to the origin.
 *  - results: written to the stub's result destination, then the stub completes like a
 *    local child (docs/join.md J1-J3).
 *  - granularity: every exported record states this program's threads per task
 *    (GTAP_RX_BLOCK_THREADS: 0 thread-level, else the block size; docs/wire.md
 *    block_threads); an imported record of another granularity fails the run, naming both
 *    (docs/dist.md F1). Block-level tasks migrate like thread-level ones: the executor runs
 *    one task at a time either way, and a record holds every thread's spilled locals.
 */
#ifndef GTAP_NODE_REFEXEC_H
#define GTAP_NODE_REFEXEC_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtap/dist_node.h"
#include "gtap/wire.h"
#include "gtap_dist.h"
#include "inter_gpu/mailbox.h"
#include "refexec/gtap_refexec.h"

/* An imported task's origin and its result buffer (max_result_size bytes). */
typedef struct gtap_rxd_import {
    uint32_t origin_rank;
    uint32_t hops;
    uint64_t origin_task;
    unsigned char result[1];
} gtap_rxd_import;

/* A message that did not fit in the outbox yet. */
typedef struct gtap_rxd_pending {
    unsigned kind;
    uint32_t arg, bytes;
    unsigned char *data;
} gtap_rxd_pending;

typedef struct gtap_rxd {
    gtap_rx *rx;
    gtap_node_region *region;
    gtap_mbox inbox, outbox;   /* consumer / producer */
    gtap_rx_hooks hooks;
    uint32_t rank, nranks;
    uint64_t hash;
    uint32_t num_queues;
    /* run state */
    uint32_t epoch;
    int in_run, stop, root_done_posted, error_posted, remote_detached;
    uint64_t detached_at_begin;
    uint64_t run_begin_ns, idle_since_ns, polls;
    uint32_t idle_polls;
    int idle_flag;             /* our copy of region->status.idle */
    int first_work_seen;
    /* per-record side tables */
    gtap_rxd_import **imp;     /* [record id] for imported tasks that owe a completion */
    uint32_t *stub_seq;        /* [record id] sequence number of a stub */
    uint32_t side_cap, next_seq;
    /* outbox overflow, FIFO */
    gtap_rxd_pending *pend;
    uint32_t pend_head, pend_count, pend_cap;
    unsigned char *scratch;    /* GTAP_NODE_MAX_MESSAGE_BYTES, for building batches */
    unsigned char *self_buf;   /* results of tasks that came home (origin = this rank) */
    gtap_wire_writer self_w;
    uint32_t *keep;            /* runnable compaction buffer */
    uint32_t keep_cap;
    uint64_t imported, exported, results;
    uint64_t test_begin_delay_ns; /* GTAP_DIST_TEST_BEGIN_DELAY_US (gtap_rxd_begin_run) */
} gtap_rxd;

static gtap_rxd *gtap_rxd_current;

static inline uint64_t gtap_rxd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Grows the side tables to cover every record id handed out so far. */
static int gtap_rxd_side_grow(gtap_rxd *d)
{
    uint32_t need = d->rx->next_fresh, ncap;
    if (need <= d->side_cap)
        return 0;
    ncap = d->side_cap ? d->side_cap : 4096;
    while (ncap < need)
        ncap *= 2;
    gtap_rxd_import **ni = (gtap_rxd_import **)realloc(d->imp, ncap * sizeof *ni);
    if (!ni)
        return -1;
    d->imp = ni;
    uint32_t *ns = (uint32_t *)realloc(d->stub_seq, ncap * sizeof *ns);
    if (!ns)
        return -1;
    d->stub_seq = ns;
    memset(d->imp + d->side_cap, 0, (ncap - d->side_cap) * sizeof *ni);
    memset(d->stub_seq + d->side_cap, 0, (ncap - d->side_cap) * sizeof *ns);
    d->side_cap = ncap;
    return 0;
}

/* Posts a message to the outbox, or queues it behind earlier ones that did not fit. */
static void gtap_rxd_post(gtap_rxd *d, unsigned kind, uint32_t arg, const void *data, uint32_t bytes)
{
    gtap_rxd_pending *p;
    if (d->pend_count == 0 && gtap_mbox_post(&d->outbox, kind, arg, data, bytes) == 0)
        return;
    if (d->pend_count == d->pend_cap) {
        uint32_t ncap = d->pend_cap ? d->pend_cap * 2 : 64, i;
        gtap_rxd_pending *n = (gtap_rxd_pending *)malloc(ncap * sizeof *n);
        if (!n) {
            gtap_rx_fail(d->rx, "out of host memory for the outbox queue");
            return;
        }
        for (i = 0; i < d->pend_count; i++)
            n[i] = d->pend[(d->pend_head + i) % d->pend_cap];
        free(d->pend);
        d->pend = n;
        d->pend_cap = ncap;
        d->pend_head = 0;
    }
    p = &d->pend[(d->pend_head + d->pend_count) % d->pend_cap];
    p->kind = kind;
    p->arg = arg;
    p->bytes = bytes;
    p->data = (unsigned char *)malloc(bytes ? bytes : 1);
    if (!p->data) {
        gtap_rx_fail(d->rx, "out of host memory for the outbox queue");
        return;
    }
    if (bytes)
        memcpy(p->data, data, bytes);
    d->pend_count++;
}

static void gtap_rxd_flush(gtap_rxd *d)
{
    while (d->pend_count) {
        gtap_rxd_pending *p = &d->pend[d->pend_head];
        if (gtap_mbox_post(&d->outbox, p->kind, p->arg, p->data, p->bytes) != 0)
            return;
        free(p->data);
        d->pend_head = (d->pend_head + 1) % d->pend_cap;
        d->pend_count--;
    }
}

static inline void gtap_rxd_set_idle(gtap_rxd *d, int idle)
{
    if (d->idle_flag == idle)
        return;
    d->idle_flag = idle;
    if (idle) {
        d->idle_since_ns = gtap_rxd_now();
        /* release: our outbox messages and consumed inbox are published before idle (N4) */
        __atomic_store_n(&d->region->status.idle, 1u, __ATOMIC_RELEASE);
    } else {
        d->idle_polls = 0; /* the next idle period starts with short waits again */
        if (d->in_run)
            d->region->status.idle_ns += gtap_rxd_now() - d->idle_since_ns;
        /* relaxed: the next inbox head release orders it (N4) */
        __atomic_store_n(&d->region->status.idle, 0u, __ATOMIC_RELAXED);
    }
}

static void gtap_rxd_publish_counters(gtap_rxd *d)
{
    gtap_node_status *s = &d->region->status;
    __atomic_store_n(&s->segments, d->rx->segments_run, __ATOMIC_RELAXED);
    __atomic_store_n(&s->tasks_created, d->rx->tasks_created, __ATOMIC_RELAXED);
    __atomic_store_n(&s->tasks_imported, d->imported, __ATOMIC_RELAXED);
    __atomic_store_n(&s->tasks_exported, d->exported, __ATOMIC_RELAXED);
    __atomic_store_n(&s->results_applied, d->results, __ATOMIC_RELAXED);
    __atomic_store_n(&s->runnable, (uint64_t)d->rx->runnable_count, __ATOMIC_RELAXED);
    __atomic_store_n(&s->live, d->rx->live, __ATOMIC_RELAXED);
    __atomic_store_n(&s->detached, d->rx->detached, __ATOMIC_RELAXED);
}

/* Does the origin need to hear when task id (not imported) finishes? */
static inline int gtap_rxd_needs_completion(gtap_rx *rx, uint32_t id)
{
    gtap_rx_header *h = gtap_rx_hdr(rx, id);
    return h->parent != GTAP_RX_NO_TASK || h->result_dst != NULL || id == rx->root;
}

/* EXPORT_REQUEST (N6): the oldest runnable migratable tasks, at most half of them. */
static void gtap_rxd_export(gtap_rxd *d, uint32_t req, uint32_t max_tasks, uint32_t max_bytes)
{
    gtap_rx *rx = d->rx;
    gtap_wire_writer w;
    uint32_t cand = 0, take, taken = 0, i, nkeep = 0;
    if (max_bytes > GTAP_NODE_MAX_MESSAGE_BYTES)
        max_bytes = GTAP_NODE_MAX_MESSAGE_BYTES;
    gtap_wire_batch_begin(&w, d->scratch, max_bytes, GTAP_WIRE_TASKS, d->hash);
    for (i = 0; i < rx->runnable_count; i++) {
        gtap_rx_header *h = gtap_rx_hdr(rx, rx->runnable[i]);
        if (gtapgen_program.functions[h->fn].flags & GTAP_FN_MIGRATABLE)
            cand++;
    }
    take = cand / 2 < max_tasks ? cand / 2 : max_tasks;
    if (take && rx->runnable_count > d->keep_cap) {
        uint32_t *n = (uint32_t *)realloc(d->keep, rx->runnable_count * sizeof *n);
        if (!n) {
            gtap_rx_fail(rx, "out of host memory exporting tasks");
            take = 0;
        } else {
            d->keep = n;
            d->keep_cap = rx->runnable_count;
        }
    }
    /* oldest first: index 0 is the bottom of the executor's LIFO stack (the steal end) */
    for (i = 0; i < rx->runnable_count && take; i++) {
        uint32_t id = rx->runnable[i];
        gtap_rx_header *h = gtap_rx_hdr(rx, id);
        const gtap_function_desc *f = &gtapgen_program.functions[h->fn];
        gtap_wire_task t;
        gtap_rxd_import *imp = id < d->side_cap ? d->imp[id] : NULL;
        if (taken == take || !(f->flags & GTAP_FN_MIGRATABLE)) {
            d->keep[nkeep++] = id;
            continue;
        }
        memset(&t, 0, sizeof t);
        t.fn = h->fn;
        t.state = h->state;
        t.queue = (uint16_t)h->cont_queue;
        t.payload_bytes = f->data_size;
        t.result_bytes = f->result_size;
        t.block_threads = gtap_wire_task_threads(GTAP_RX_BLOCK_THREADS, (f->flags & GTAP_FN_WARP) != 0);
        t.payload = gtap_rx_data(rx, id);
        if (h->parent == GTAP_RX_PARENT_REMOTE) {
            /* imported here: pass the origin tag on, the completion goes straight back */
            t.flags = GTAP_WIRE_TASK_COMPLETION;
            t.origin_rank = imp->origin_rank;
            t.origin_task = imp->origin_task;
            t.hops = imp->hops + 1;
        } else if (gtap_rxd_needs_completion(rx, id)) {
            if (gtap_rxd_side_grow(d) != 0) {
                gtap_rx_fail(rx, "out of host memory for stub records");
                d->keep[nkeep++] = id;
                continue;
            }
            t.flags = GTAP_WIRE_TASK_COMPLETION;
            t.origin_rank = d->rank;
            t.origin_task = (uint64_t)id | ((uint64_t)(++d->next_seq) << 32);
            t.hops = 1;
        } else {
            t.origin_rank = d->rank;
            t.hops = 1;
        }
        if (gtap_wire_put_task(&w, &t) != GTAP_WIRE_OK) {
            d->keep[nkeep++] = id; /* the batch is full: keep the rest */
            take = taken;
            continue;
        }
        taken++;
        if (h->parent == GTAP_RX_PARENT_REMOTE) {
            free(imp);
            d->imp[id] = NULL;
            gtap_rx_free(rx, id);
        } else if (t.flags & GTAP_WIRE_TASK_COMPLETION) {
            h->state = GTAP_RX_STATE_MIGRATED; /* the stub keeps parent and result_dst */
            d->stub_seq[id] = (uint32_t)(t.origin_task >> 32);
        } else {
            gtap_rx_free(rx, id);
        }
    }
    if (taken) {
        for (; i < rx->runnable_count; i++)
            d->keep[nkeep++] = rx->runnable[i];
        memcpy(rx->runnable, d->keep, nkeep * sizeof *d->keep);
        rx->runnable_count = nkeep;
        d->exported += taken;
    }
    gtap_rxd_post(d, GTAP_NODE_MSG_EXPORTED, req, d->scratch, w.used);
}

/* "thread-level workers", "a warp (32 threads)" or "block-level workers (N threads per task)". */
static void gtap_rxd_granularity_str(uint32_t block_threads, char *buf, size_t n)
{
    if (block_threads == GTAP_WIRE_THREAD_LEVEL)
        snprintf(buf, n, "thread-level workers");
    else if (block_threads == GTAP_WIRE_WARP_TASK && GTAP_RX_BLOCK_THREADS == GTAP_WIRE_THREAD_LEVEL)
        snprintf(buf, n, "a warp (32 threads, a warp task function)");
    else
        snprintf(buf, n, "block-level workers (%u threads per task)", block_threads);
}

/* IMPORT (N7): new local records, runnable, without a local parent. */
static void gtap_rxd_import_batch(gtap_rxd *d, const void *p, uint32_t bytes)
{
    gtap_rx *rx = d->rx;
    gtap_wire_reader r;
    gtap_wire_task t;
    int st = gtap_wire_batch_open(&r, p, bytes, GTAP_WIRE_TASKS, d->hash);
    if (st != GTAP_WIRE_OK) {
        gtap_rx_fail(rx, "imported task batch refused: %s", gtap_wire_status_str(st));
        return;
    }
    while (gtap_wire_next_task(&r, &t)) {
        const gtap_function_desc *f;
        gtap_rx_header *h;
        uint32_t id;
        const uint32_t mine = t.fn < gtapgen_program.num_functions
                                  ? gtap_wire_task_threads(GTAP_RX_BLOCK_THREADS,
                                                           (gtapgen_program.functions[t.fn].flags & GTAP_FN_WARP) != 0)
                                  : GTAP_RX_BLOCK_THREADS;
        if (gtap_wire_task_check_granularity(&t, mine) != GTAP_WIRE_OK) {
            char theirs[64], ours[64];
            gtap_rxd_granularity_str(t.block_threads, theirs, sizeof theirs);
            gtap_rxd_granularity_str(mine, ours, sizeof ours);
            gtap_rx_fail(rx, "imported task record refused: a task of %s, but this rank runs it on %s "
                         "(docs/wire.md, block_threads)", theirs, ours);
            return;
        }
        if (t.fn >= gtapgen_program.num_functions ||
            !((f = &gtapgen_program.functions[t.fn])->flags & GTAP_FN_MIGRATABLE) ||
            t.payload_bytes != f->data_size || t.state >= GTAP_MAX_RESUME_STATES ||
            (int)t.queue >= rx->num_queues) {
            gtap_rx_fail(rx, "imported task record refused: function %u, state %u, queue %u, "
                         "%u bytes", t.fn, t.state, t.queue, t.payload_bytes);
            return;
        }
        id = gtap_rx_alloc(rx);
        if (id == GTAP_RX_NO_TASK)
            return;
        h = gtap_rx_hdr(rx, id);
        h->pending = 0;
        h->fn = t.fn;
        h->state = t.state;
        h->cont_queue = t.queue;
        h->parent = GTAP_RX_NO_TASK;
        h->result_dst = NULL;
        if (t.flags & GTAP_WIRE_TASK_COMPLETION) {
            gtap_rxd_import *imp = (gtap_rxd_import *)malloc(sizeof *imp + gtapgen_program.max_result_size);
            if (!imp || gtap_rxd_side_grow(d) != 0) {
                free(imp);
                gtap_rx_fail(rx, "out of host memory importing tasks");
                return;
            }
            imp->origin_rank = t.origin_rank;
            imp->origin_task = t.origin_task;
            imp->hops = t.hops;
            d->imp[id] = imp;
            h->parent = GTAP_RX_PARENT_REMOTE;
            h->result_dst = imp->result;
        }
        memcpy(gtap_rx_data(rx, id), t.payload, t.payload_bytes);
        gtap_rx_make_runnable(rx, id);
        d->imported++;
    }
}

/* RESULTS: complete the stubs (docs/join.md J1-J3). */
static void gtap_rxd_apply_results(gtap_rxd *d, const void *p, uint32_t bytes)
{
    gtap_rx *rx = d->rx;
    gtap_wire_reader r;
    gtap_wire_result res;
    int st = gtap_wire_batch_open(&r, p, bytes, GTAP_WIRE_RESULTS, d->hash);
    if (st != GTAP_WIRE_OK) {
        gtap_rx_fail(rx, "result batch refused: %s", gtap_wire_status_str(st));
        return;
    }
    while (gtap_wire_next_result(&r, &res)) {
        uint32_t id = (uint32_t)res.origin_task, seq = (uint32_t)(res.origin_task >> 32);
        gtap_rx_header *h;
        if (id >= rx->next_fresh || id >= d->side_cap ||
            (h = gtap_rx_hdr(rx, id))->state != GTAP_RX_STATE_MIGRATED || d->stub_seq[id] != seq ||
            res.result_bytes > gtapgen_program.functions[h->fn].result_size) {
            gtap_rx_fail(rx, "result for unknown migrated task %u (sequence %u) from rank %u",
                         id, seq, res.runner_rank);
            return;
        }
        if (h->result_dst && res.result_bytes)
            memcpy(h->result_dst, res.result, res.result_bytes);
        if (res.flags & GTAP_WIRE_RESULT_DETACHED)
            d->remote_detached = 1;
        d->stub_seq[id] = 0;
        rx->seg_spawned = 0; /* the stub finishes with no children of its own */
        gtap_rx_finish(rx, id);
        d->results++;
    }
}

/* Applies the results of tasks that came home (see gtap_rxd_remote_finish). Not called
 * from inside the executor's finish of a task. */
static void gtap_rxd_apply_self(gtap_rxd *d)
{
    uint32_t used;
    if (!d->self_buf || d->self_w.count == 0)
        return;
    used = d->self_w.used;
    /* apply from a copy: applying may finish more home-coming tasks, which append here */
    memcpy(d->scratch, d->self_buf, used);
    gtap_wire_batch_begin(&d->self_w, d->self_buf, GTAP_NODE_MAX_MESSAGE_BYTES, GTAP_WIRE_RESULTS, d->hash);
    gtap_rxd_apply_results(d, d->scratch, used);
}

/* Hook: an imported task finished (N7). */
static void gtap_rxd_remote_finish(void *ctx, gtap_rx *rx, uint32_t id)
{
    gtap_rxd *d = (gtap_rxd *)ctx;
    gtap_rxd_import *imp = id < d->side_cap ? d->imp[id] : NULL;
    gtap_wire_writer w;
    gtap_wire_result res;
    unsigned char buf[GTAP_WIRE_BATCH_HEADER_BYTES + GTAP_WIRE_RESULT_HEADER_BYTES + 512];
    unsigned char *out = buf;
    uint32_t rb = gtapgen_program.functions[gtap_rx_hdr(rx, id)->fn].result_size;
    uint32_t need = GTAP_WIRE_BATCH_HEADER_BYTES + gtap_wire_result_bytes(rb);
    if (!imp) {
        gtap_rx_fail(rx, "internal error: imported task %u has no origin", id);
        return;
    }
    res.origin_task = imp->origin_task;
    res.result_bytes = rb;
    res.flags = (rx->detached != d->detached_at_begin || d->remote_detached) ? GTAP_WIRE_RESULT_DETACHED : 0;
    res.runner_rank = d->rank;
    res.result = imp->result;
    if (imp->origin_rank == d->rank) {
        /* a migrated task came back here: its stub is local; apply at the next poll (not
         * now: we are inside the executor's finish of this task) */
        if (!d->self_buf) {
            d->self_buf = (unsigned char *)malloc(GTAP_NODE_MAX_MESSAGE_BYTES);
            if (!d->self_buf) {
                gtap_rx_fail(rx, "out of host memory for results");
                return;
            }
            gtap_wire_batch_begin(&d->self_w, d->self_buf, GTAP_NODE_MAX_MESSAGE_BYTES,
                                  GTAP_WIRE_RESULTS, d->hash);
        }
        if (gtap_wire_put_result(&d->self_w, &res) != GTAP_WIRE_OK) /* one per segment */
            gtap_rx_fail(rx, "internal error: too many results of home-coming tasks");
    } else {
        if (need > sizeof buf)
            out = d->scratch;
        gtap_wire_batch_begin(&w, out, need, GTAP_WIRE_RESULTS, d->hash);
        gtap_wire_put_result(&w, &res);
        gtap_rxd_post(d, GTAP_NODE_MSG_COMPLETION, imp->origin_rank, out, w.used);
    }
    free(imp);
    d->imp[id] = NULL;
}

static void gtap_rxd_begin_run(gtap_rxd *d)
{
    uint64_t payload[3];
    d->epoch++;
    d->in_run = 1;
    d->stop = 0;
    d->root_done_posted = 0;
    d->remote_detached = 0;
    d->detached_at_begin = d->rx->detached;
    d->first_work_seen = 0;
    d->run_begin_ns = gtap_rxd_now();
    d->region->status.first_work_ns = 0;
    d->region->status.epoch = d->epoch;
    d->region->status.in_run = 1;
    if (d->rank == 0 && d->idle_flag) {
        /* N4: this node starts the root, so it is not idle once it is in the run; RUN_BEGIN's
         * release publishes the store (the GPU agent's gtap_gn_begin_run says why) */
        d->idle_flag = 0;
        __atomic_store_n(&d->region->status.idle, 0u, __ATOMIC_RELAXED);
    }
    payload[0] = d->rank == 0;
    payload[1] = d->rx->segments_run;         /* counters at the start of the run */
    payload[2] = d->region->status.idle_ns;
    gtap_rxd_post(d, GTAP_NODE_MSG_RUN_BEGIN, d->epoch, payload, sizeof payload);
    if (d->idle_flag)
        d->idle_since_ns = d->run_begin_ns;
    if (d->test_begin_delay_ns) {
        /* test-only: a node slow to its first status update (as a GPU agent that starts late) */
        struct timespec ts = {(time_t)(d->test_begin_delay_ns / 1000000000u), (long)(d->test_begin_delay_ns % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

/* The job is being torn down (control.abort) or this node failed: wait to be killed. */
static void gtap_rxd_wait_for_teardown(gtap_rxd *d, double seconds)
{
    uint64_t until = gtap_rxd_now() + (uint64_t)(seconds * 1e9);
    (void)d;
    while (gtap_rxd_now() < until) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static void gtap_rxd_idle_wait(gtap_rxd *d)
{
    d->idle_polls++;
    if (d->idle_polls < 32)
        return;
    if (d->idle_polls < 128) {
        sched_yield();
        return;
    }
    /* back off from 20 us to 320 us: idle ranks must not starve busy ones of the CPU */
    uint32_t k = (d->idle_polls - 128) / 256;
    struct timespec ts = {0, (long)(20 * 1000) << (k < 4 ? k : 4)};
    nanosleep(&ts, NULL);
}

/* Hook: between segments and while idle. Returns 1 when the run is over. */
static int gtap_rxd_poll(void *ctx, gtap_rx *rx, int idle)
{
    gtap_rxd *d = (gtap_rxd *)ctx;
    const gtap_node_msg_header *h;
    if (!d->in_run)
        gtap_rxd_begin_run(d);
    d->polls++;
    if (!idle) {
        if (!d->first_work_seen) {
            d->first_work_seen = 1;
            d->region->status.first_work_ns = gtap_rxd_now() - d->run_begin_ns + 1;
        }
        /* fast path: nothing to read, nothing owed, not every 64th segment */
        if ((d->polls & 63) && !d->idle_flag && !d->pend_count && !(d->self_buf && d->self_w.count) &&
            !gtap_mbox_maybe_nonempty(&d->inbox) && !(rx->root_finished && !d->root_done_posted))
            return 0;
        d->idle_polls = 0;
    }
    if (__atomic_load_n(&d->region->control.abort, __ATOMIC_ACQUIRE))
        gtap_rxd_wait_for_teardown(d, 60.0);
    if (rx->error) {
        if (!d->error_posted) {
            d->error_posted = 1;
            gtap_rxd_flush(d);
            gtap_rxd_post(d, GTAP_NODE_MSG_ERROR, 0, rx->message, (uint32_t)strlen(rx->message));
            for (int i = 0; i < 1000 && d->pend_count; i++) {
                struct timespec ts = {0, 1000 * 1000};
                nanosleep(&ts, NULL);
                gtap_rxd_flush(d);
            }
            /* release: the ERROR message is published before the flag (N8) */
            __atomic_store_n(&d->region->status.error, 1u, __ATOMIC_RELEASE);
            gtap_rxd_wait_for_teardown(d, 10.0); /* the proxy ends the job */
        }
        d->in_run = 0;
        return 1;
    }
    gtap_rxd_apply_self(d);
    while ((h = gtap_mbox_peek(&d->inbox)) != NULL && !rx->error) {
        const void *payload = h + 1;
        switch (h->kind) {
        case GTAP_NODE_MSG_STOP:
            if (h->arg != d->epoch)
                gtap_rx_fail(rx, "internal error: STOP for run %u during run %u", h->arg, d->epoch);
            d->stop = 1;
            break;
        case GTAP_NODE_MSG_EXPORT_REQUEST: {
            uint32_t lim[2];
            memcpy(lim, payload, sizeof lim);
            gtap_rxd_export(d, h->arg, lim[0], lim[1]);
            break;
        }
        case GTAP_NODE_MSG_IMPORT:
            gtap_rxd_set_idle(d, 0);
            gtap_rxd_import_batch(d, payload, h->bytes);
            break;
        case GTAP_NODE_MSG_RESULTS:
            gtap_rxd_set_idle(d, 0);
            gtap_rxd_apply_results(d, payload, h->bytes);
            break;
        default:
            gtap_rx_fail(rx, "internal error: unexpected inbox message %s",
                         gtap_node_msg_kind_str(h->kind));
        }
        gtap_mbox_pop(&d->inbox, h);
        d->idle_polls = 0;
    }
    if (d->inbox.corrupt)
        gtap_rx_fail(rx, "internal error: malformed inbox message");
    gtap_rxd_flush(d);
    if (rx->root_finished && !d->root_done_posted) {
        d->root_done_posted = 1;
        gtap_rxd_post(d, GTAP_NODE_MSG_ROOT_DONE,
                      (rx->detached != d->detached_at_begin || d->remote_detached) ? GTAP_NODE_ROOT_DETACHED : 0,
                      NULL, 0);
    }
    if ((d->polls & 63) == 0 || idle)
        gtap_rxd_publish_counters(d);
    if (rx->error)
        return 0; /* reported at the next poll */
    if (d->stop) {
        if (rx->runnable_count) {
            gtap_rx_fail(rx, "internal error: the run was stopped with %u runnable tasks",
                         rx->runnable_count);
            return 0;
        }
        while (d->pend_count) {
            struct timespec ts = {0, 20 * 1000};
            nanosleep(&ts, NULL);
            gtap_rxd_flush(d);
        }
        gtap_rxd_set_idle(d, 1);
        d->region->status.idle_ns += gtap_rxd_now() - d->idle_since_ns;
        gtap_rxd_publish_counters(d);
        d->region->status.in_run = 0;
        d->in_run = 0;
        uint64_t run_ns = gtap_rxd_now() - d->run_begin_ns;
        while (gtap_mbox_post(&d->outbox, GTAP_NODE_MSG_RUN_END, d->epoch, &run_ns, sizeof run_ns) != 0) {
            struct timespec ts = {0, 20 * 1000};
            nanosleep(&ts, NULL);
        }
        return 1;
    }
    if (rx->runnable_count == 0 && d->pend_count == 0) {
        gtap_rxd_set_idle(d, 1);
        gtap_rxd_idle_wait(d);
    } else {
        gtap_rxd_set_idle(d, 0);
    }
    return 0;
}

/* Makes rx a rank of the distributed job, if the program called gtap_init_distributed.
 * Returns 0 (also when not distributed), -1 on failure (message printed). */
static int gtap_rxd_attach(gtap_rx *rx)
{
    gtap_dist_node_desc desc;
    gtap_rxd *d;
    if (!gtap_dist_active())
        return gtap_dist_init_failed() ? -1 : 0;
    d = (gtap_rxd *)calloc(1, sizeof *d);
    if (!d)
        return -1;
    d->rx = rx;
    d->region = gtap_dist_region_alloc_host(rx->no_taskwait);
    d->scratch = (unsigned char *)malloc(GTAP_NODE_MAX_MESSAGE_BYTES);
    if (!d->region || !d->scratch) {
        fprintf(stderr, "gtap: error: out of host memory for the node interface\n");
        goto fail;
    }
    d->rank = d->region->rank;
    d->nranks = d->region->nranks;
    d->hash = d->region->program_hash;
    gtap_mbox_bind_consumer(&d->inbox, d->region, GTAP_MBOX_INBOX);
    gtap_mbox_bind_producer(&d->outbox, d->region, GTAP_MBOX_OUTBOX);
    d->idle_flag = 1;
    d->region->status.idle = 1; /* not in a run: nothing to give (N4) */
    d->hooks.ctx = d;
    d->hooks.worker_only = d->rank != 0;
    d->hooks.poll = gtap_rxd_poll;
    d->hooks.remote_finish = gtap_rxd_remote_finish;
    desc.device = "CPU (host target reference executor)";
    /* test-only: claim a device id, to exercise the one-GPU-per-rank check on a CPU */
    desc.device_id = getenv("GTAP_DIST_TEST_DEVICE_ID") ? getenv("GTAP_DIST_TEST_DEVICE_ID") : "";
    desc.no_taskwait = (uint32_t)rx->no_taskwait;
    desc.wide = 0; /* one executor thread */
    if (getenv("GTAP_DIST_TEST_BEGIN_DELAY_US")) /* test-only, as above */
        d->test_begin_delay_ns = strtoull(getenv("GTAP_DIST_TEST_BEGIN_DELAY_US"), NULL, 10) * 1000u;
    if (gtap_dist_attach_node(d->region, &desc) != 0)
        goto fail;
    d->epoch = d->region->status.epoch; /* the proxy's last run number (N5) */
    rx->hooks = &d->hooks;
    gtap_rxd_current = d;
    return 0;
fail:
    gtap_dist_region_free_host(d->region);
    free(d->scratch);
    free(d);
    return -1;
}

/* Gives the region back (gtap_finalize / gtap_reset). */
static void gtap_rxd_detach(gtap_rx *rx)
{
    gtap_rxd *d = gtap_rxd_current;
    if (!d || d->rx != rx)
        return;
    gtap_dist_detach_node();
    rx->hooks = NULL;
    for (uint32_t i = 0; i < d->side_cap; i++)
        free(d->imp[i]);
    for (uint32_t i = 0; i < d->pend_count; i++)
        free(d->pend[(d->pend_head + i) % d->pend_cap].data);
    free(d->imp);
    free(d->stub_seq);
    free(d->pend);
    free(d->keep);
    free(d->scratch);
    free(d->self_buf);
    gtap_dist_region_free_host(d->region);
    free(d);
    gtap_rxd_current = NULL;
}

#endif /* GTAP_NODE_REFEXEC_H */
