/* inter_gpu/gpu/gpu_node.cuh - the GPU implementation of the node interface
 * (gtap/node_iface.h N1-N9): the agent warp of the thread-level persistent kernel.
 *
 * Included by gtap_thread.cuh in GTAP_DISTRIBUTED builds, after the scheduler (it uses the
 * deques, the record pool and the hooks of gtap/node_hooks.cuh). The host half (region
 * allocation, attach, device selection) is gpu_node_host.cuh. docs/dist.md, "The GPU node",
 * is the prose version.
 *
 * The agent is warp GTAP_AGENT_WORKER (1) of the grid. It runs no tasks; in a loop it
 *   - reads the inbox (mapped pinned host memory, system-scope acquire of tail) and copies
 *     each message into device memory with wide loads before parsing it (a PCIe round trip
 *     per byte would cost microseconds);
 *   - EXPORT_REQUEST: steals from the workers' deques like a thief warp (the steal end holds
 *     the oldest tasks), serializes migratable records into a wire batch, turns records
 *     that owe a completion into stubs, frees the others, and posts EXPORTED. Records it may
 *     not ship (non-migratable function, the root) go to its own deque, where workers
 *     steal them back;
 *   - IMPORT: allocates records from its own pool range, fills them, pushes them to its own
 *     deque (workers steal them);
 *   - RESULTS (and results of tasks that came home): writes the result to the stub's
 *     destination and completes the stub like a local child (docs/join.md J1-J3);
 *   - drains the done ring (imported tasks that finished) into COMPLETION batches;
 *   - posts ROOT_DONE (rank 0) when the root finished, keeps status.idle (N4) and
 *     status.hungry (N9), and ends the run on STOP by setting ctl->terminate.
 * Work per record is spread over the lanes, 32 records a round (each lane serializes,
 * fills, completes or frees its own; bench/NOTES.md step 11), and every lane takes part in
 * copies. Lane 0 makes the decisions, owns the agent's deque and backlog, and shares what
 * the other lanes need through shuffles, so the loop is warp-uniform (every decision, the
 * clock included, comes from lane 0 or from a warp vote: lanes that disagree meet in
 * different collective calls, which once corrupted an outbox message).
 *
 * Active-count accounting: the agent owns `holds` increments of ctl->active: one while its
 * own deque has published entries or its backlog is not empty (as any worker holding
 * tasks), plus one per successful steal until the
 * stolen tasks are shipped or re-queued. With holds == 0 and ctl->active == 0 the node holds
 * no task anywhere (docs/termination.md), which is N4's "idle".
 */
#ifndef GTAP_GPU_NODE_CUH
#define GTAP_GPU_NODE_CUH

#include "gtap/node_hooks.cuh"
#include "gtap/node_iface.h"
#include "gtap/wire.h"

/* What the agent needs to know about each task function. */
typedef struct gtap_gnode_fn {
    uint32_t data_size;
    uint32_t result_size;
    uint32_t flags;          /* GTAP_FN_* */
    uint32_t pad;
} gtap_gnode_fn;

/* Origin of an imported record that owes a completion. */
typedef struct gtap_gnode_origin {
    uint32_t origin_rank;
    uint32_t hops;
    uint64_t origin_task;
} gtap_gnode_origin;

/* Scratch buffers: one message payload plus room for 16-byte copies past its end. */
#define GTAP_GNODE_BUF_BYTES (GTAP_NODE_MAX_MESSAGE_SLOTS * GTAP_NODE_SLOT_BYTES + 64u)

typedef struct gtap_gnode_dev {
    gtap_node_region *region;     /* device address of the mapped region */
    unsigned char *inbox_slots;   /* device addresses of the slot arrays */
    unsigned char *outbox_slots;
    uint32_t ring_slots;
    uint32_t rank;
    uint64_t hash;                /* program hash, as on the wire */
    const gtap_gnode_fn *fns;     /* [num_functions] */
    uint32_t num_functions;
    uint32_t result_stride;       /* bytes per import result buffer (8-aligned) */
    uint32_t profile;             /* GTAP_DIST_AGENT_PROFILE: print the time per step at a run's end */
    uint32_t reserve_max;         /* GTAP_DIST_OPENING_RESERVE: most tasks of the opening reserve (0: off) */
    uint32_t reserve_alone;       /* GTAP_DIST_RESERVE_ALONE: an export with reserved tasks ships only those */
    uint32_t *reserve;            /* [GTAP_GN_RESERVE_CAP]: the opening reserve, id | queue << 28 */
    gtap_gnode_origin *origins;   /* [num_records + 1]: imported records */
    unsigned char *results;       /* [num_records + 1][result_stride]: their results */
    uint32_t *stub_seq;           /* [num_records + 1]: sequence number of a live stub, 0 = none */
    uint32_t *backlog;            /* [num_records + 1]: runnable records waiting for room in the
                                     agent's deque, id | queue << 28 (gtap_gn_push) */
    unsigned char *in_buf;        /* the inbox message being handled */
    unsigned char *out_buf;       /* the outbox message being built */
} gtap_gnode_dev;

static __constant__ gtap_gnode_dev gtap_gn;

#define GTAP_GN_FULL 0xffffffffu

/* The agent's larger steps are calls: inlined into one loop, their state stayed live in
 * registers and raised the whole kernel's register count (bench/NOTES.md, step 11). */
#define GTAP_GN_COLD static __device__ __noinline__

/* The time in ns, the same in every lane (lane 0's clock): every decision the agent makes
 * from it must be warp-uniform, since the lanes meet again in warp-collective calls. */
GTAP_DEV uint64_t gtap_gn_now(uint32_t lane)
{
    unsigned long long t = lane == 0 ? gtap_globaltimer() : 0ull;
    return __shfl_sync(0xffffffffu, t, 0);
}

/* ---- the agent's state (identical in every lane) -------------------------------------- */

/* The agent's profile entries (GTAP_GN_T): ns per step, then counts. */
enum {
    GTAP_GN_P_INBOX, GTAP_GN_P_EXPORT, GTAP_GN_P_EXPORT_STEAL, GTAP_GN_P_EXPORT_PUBLISH, GTAP_GN_P_EXPORT_POST,
    GTAP_GN_P_IMPORT, GTAP_GN_P_RESULTS, GTAP_GN_P_DRAIN, GTAP_GN_P_LOOP, GTAP_GN_P_SLEEP,
    GTAP_GN_P_N_EXPORTS, GTAP_GN_P_N_IMPORTS, GTAP_GN_P_N_RESULTS, GTAP_GN_P_COUNT
};

typedef struct gtap_gn_agent {
    uint64_t in_pos, in_tail;    /* inbox: slots consumed (our head), last tail seen */
    uint64_t out_pos, out_head;  /* outbox: slots produced (our tail), last head seen */
    uint32_t out_seq;
    uint32_t epoch;              /* this run (N5) */
    uint32_t launch_tag;         /* gtap_nh_launch_tag() of this launch */
    uint32_t holds;              /* increments of ctl->active the agent owns */
    uint32_t done_pos;           /* done ring: next position to read */
    uint32_t idle;               /* our copy of status.idle */
    uint32_t hungry;             /* our copy of status.hungry (N9) */
    uint32_t stop, root_posted, failed;
    uint64_t t_begin, idle_since, idle_ns, first_work_ns, last_publish;
    uint64_t imported, exported, results;
    uint64_t export_ns, exports_refused, exports_empty; /* status.export_* */
    uint32_t backlog_head, backlog_n; /* lane 0's: gtap_gn.backlog ring (a record is in it once) */
    uint64_t segments_base;      /* status.segments at the start of the run */
    uint32_t w, nworkers;
    uint64_t prof[GTAP_GN_P_COUNT]; /* GTAP_DIST_AGENT_PROFILE: ns per step (GTAP_GN_P_*) and counts */
    uint32_t reserving;          /* the opening reserve is still taking tasks */
    uint32_t reserve_n, reserve_pos; /* tasks in gtap_gn.reserve; the first not exported yet */
    uint32_t reserve_share;      /* most reserved tasks one export takes */
    uint64_t reserve_exported;
} gtap_gn_agent;

/* Capacity of the opening reserve (gtap_gn_reserve_step). */
#define GTAP_GN_RESERVE_CAP 512u
/* How long the reserve takes tasks, and when what no thief asked for goes back (ns). */
#define GTAP_GN_RESERVE_TAKE_NS 200000ull
#define GTAP_GN_RESERVE_KEEP_NS 3000000ull

/* The agent's steps as GTAP_DIST_AGENT_PROFILE reports them (bench/NOTES.md step 12 found
 * where its time went with them). GTAP_GN_T0() starts a stopwatch in the current scope,
 * GTAP_GN_T(a, step) adds the time since the last mark to the step; both warp-uniform. */
#define GTAP_GN_T0() uint64_t gtap_gn_mark = gtap_gn.profile ? gtap_gn_now(lane) : 0
#define GTAP_GN_T(a_, step)                                                                                    \
    do {                                                                                                       \
        if (gtap_gn.profile) {                                                                                 \
            const uint64_t t_ = gtap_gn_now(lane);                                                             \
            (a_)->prof[step] += t_ - gtap_gn_mark;                                                             \
            gtap_gn_mark = t_;                                                                                 \
        }                                                                                                      \
    } while (0)

/* ---- copies between device memory and the mapped rings ------------------------------------- */

/* Loads each lane keeps in flight before it stores them. A loop of load-then-store waits a
 * full round trip per 16-byte word (1-2 us over PCIe, about 1 us from L2 on a GPU whose
 * workers saturate the memory system): ~130 round trips per lane for a 64 KiB message,
 * most of an export's or an import's time (bench/NOTES.md, step 12). */
#define GTAP_GN_COPY_DEPTH 8u

/* dst[0, chunks) = the 16-byte words at sys_src (mapped host memory). Warp-collective. */
GTAP_DEV void gtap_gn_copy_in(uint4 *dst, const unsigned char *sys_src, uint32_t chunks, uint32_t lane)
{
    for (uint32_t base = lane; base < chunks; base += 32 * GTAP_GN_COPY_DEPTH) {
        uint4 v[GTAP_GN_COPY_DEPTH];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                v[k] = gtap_ld_relaxed_sys_v4(sys_src + 16 * (base + 32 * k));
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                dst[base + 32 * k] = v[k];
    }
}

/* The 16-byte words src[0, chunks) to sys_dst (mapped host memory). Warp-collective. */
GTAP_DEV void gtap_gn_copy_out(unsigned char *sys_dst, const uint4 *src, uint32_t chunks, uint32_t lane)
{
    for (uint32_t base = lane; base < chunks; base += 32 * GTAP_GN_COPY_DEPTH) {
        uint4 v[GTAP_GN_COPY_DEPTH];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                v[k] = src[base + 32 * k];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                gtap_st_relaxed_sys_v4(sys_dst + 16 * (base + 32 * k), v[k]);
    }
}

/* ---- outbox (N1, N2): warp-collective ---------------------------------------------------- */

/* Posts one message whose payload (bytes, in device memory at payload) is copied into the
 * outbox slots by all lanes. Waits for room; the proxy drains the outbox independently. */
GTAP_GN_COLD void gtap_gn_post(gtap_gn_agent *a, uint32_t lane, unsigned kind, uint32_t arg,
                           const unsigned char *payload, uint32_t bytes)
{
    gtap_node_region *r = gtap_gn.region;
    const uint32_t n = gtap_gn.ring_slots;
    const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + bytes + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
    const uint32_t at = (uint32_t)(a->out_pos & (n - 1));
    const uint32_t pad = at + need > n ? n - at : 0;
    uint32_t sleep_ns = 100;
    __syncwarp(); /* lane 0's writes of the payload are visible to every lane */
    while (a->out_pos + pad + need - a->out_head > n) {
        uint64_t h = 0;
        if (lane == 0)
            h = gtap_ld_acquire_sys_u64(&r->outbox.head); /* the proxy finished reading */
        a->out_head = __shfl_sync(GTAP_GN_FULL, (unsigned long long)h, 0);
        if (a->out_pos + pad + need - a->out_head > n) {
            __nanosleep(sleep_ns);
            sleep_ns = sleep_ns < 20000 ? sleep_ns * 2 : sleep_ns;
        }
    }
    if (pad && lane == 0) {
        unsigned char *ps = gtap_gn.outbox_slots + (size_t)at * GTAP_NODE_SLOT_BYTES;
        gtap_st_relaxed_sys_v4(ps, make_uint4(GTAP_NODE_MSG_PAD | (pad << 16), 0u, 0u, a->out_seq));
    }
    if (pad)
        a->out_seq++;
    unsigned char *slot = gtap_gn.outbox_slots + (size_t)((a->out_pos + pad) & (n - 1)) * GTAP_NODE_SLOT_BYTES;
    if (lane == 0)
        gtap_st_relaxed_sys_v4(slot, make_uint4(kind | (need << 16), bytes, arg, a->out_seq));
    a->out_seq++;
    const uint32_t chunks = (bytes + 15) / 16;
    gtap_gn_copy_out(slot + GTAP_NODE_MSG_HEADER_BYTES, (const uint4 *)payload, chunks, lane);
    __threadfence_system(); /* every lane: its slot stores before the tail below */
    __syncwarp();
    a->out_pos += pad + need;
    if (lane == 0) {
        __threadfence_system(); /* the other lanes' stores, observed through the barrier */
        gtap_st_release_sys_u64(&r->outbox.tail, a->out_pos); /* N1: the slots are written */
    }
}

/* ---- inbox (N1-N3): warp-collective ------------------------------------------------------- */

/* The next message, copied into gtap_gn.in_buf; returns its kind (0: none, -1: malformed).
 * The message stays owned until gtap_gn_inbox_pop. */
GTAP_GN_COLD int gtap_gn_inbox_next(gtap_gn_agent *a, uint32_t lane, uint32_t *arg, uint32_t *bytes,
                                uint32_t *nslots)
{
    gtap_node_region *r = gtap_gn.region;
    const uint32_t n = gtap_gn.ring_slots;
    for (;;) {
        if (a->in_pos == a->in_tail) {
            uint64_t t = 0;
            if (lane == 0)
                t = gtap_ld_acquire_sys_u64(&r->inbox.tail); /* N1: slots up to t are written */
            a->in_tail = __shfl_sync(GTAP_GN_FULL, (unsigned long long)t, 0);
            if (a->in_pos == a->in_tail)
                return 0;
        }
        const unsigned char *slot = gtap_gn.inbox_slots + (size_t)(a->in_pos & (n - 1)) * GTAP_NODE_SLOT_BYTES;
        uint4 h = make_uint4(0, 0, 0, 0);
        if (lane == 0)
            h = gtap_ld_relaxed_sys_v4(slot);
        h.x = __shfl_sync(GTAP_GN_FULL, h.x, 0);
        h.y = __shfl_sync(GTAP_GN_FULL, h.y, 0);
        h.z = __shfl_sync(GTAP_GN_FULL, h.z, 0);
        const uint32_t kind = h.x & 0xffffu, ns = h.x >> 16;
        const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + h.y + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
        if (ns == 0 || ns > GTAP_NODE_MAX_MESSAGE_SLOTS || a->in_pos + ns > a->in_tail ||
            (a->in_pos & (n - 1)) + ns > n || (kind != GTAP_NODE_MSG_PAD && need != ns))
            return -1;
        if (kind == GTAP_NODE_MSG_PAD) {
            a->in_pos += ns; /* published with the next pop */
            continue;
        }
        /* Every lane reads payload: each orders its reads after lane 0's acquire of tail,
         * which it learned through a shuffle (not a memory operation). */
        __threadfence_system();
        const uint32_t chunks = (h.y + 15) / 16;
        gtap_gn_copy_in((uint4 *)gtap_gn.in_buf, slot + GTAP_NODE_MSG_HEADER_BYTES, chunks, lane);
        __syncwarp(); /* in_buf is complete for lane 0, which parses it */
        *arg = h.z;
        *bytes = h.y;
        *nslots = ns;
        return (int)kind;
    }
}

/* Releases the message (N3: it was copied out). Before a head past IMPORT or RESULTS, the
 * caller has stored idle = 0 (N4); the release orders it. */
GTAP_DEV void gtap_gn_inbox_pop(gtap_gn_agent *a, uint32_t lane, uint32_t nslots)
{
    a->in_pos += nslots;
    if (lane == 0)
        gtap_st_release_sys_u64(&gtap_gn.region->inbox.head, a->in_pos);
}

/* ---- records ------------------------------------------------------------------------------ */

GTAP_DEV void gtap_gn_free(uint32_t id)
{
    gtap_pool_free_remote(id); /* to its owner's list (the agent's own ids too) */
}

/* Makes sure the agent is counted active before it publishes tasks. Lane 0. */
GTAP_DEV void gtap_gn_hold(gtap_gn_agent *a)
{
    if (a->holds == 0) {
        gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, 1);
        gtap_fence_acq_rel(); /* the increment is ordered before the tasks become stealable */
        a->holds = 1;
    }
}

/* Publishes what lane 0 pushed to the agent's own deque (gtap_thread_push_local). */
GTAP_DEV void gtap_gn_publish(gtap_warp_sh *sh, uint32_t w, uint32_t lane)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    __syncwarp();
    uint32_t any = 0;
    for (uint32_t q = 0; q < nq; q++)
        any |= (uint32_t)sh->spawned[q];
    if (!any)
        return;
    if (sh->failed_push) { /* a push raised DEQUE_FULL: the run aborts */
        gtap_thread_drop_spawned(sh, lane);
        return;
    }
    gtap_fence_acq_rel(); /* release: records and ring entries before the thieves' claims */
    gtap_thread_publish_spawned(sh, w, lane, 0, 0, 0);
}

/* Gives back the active-count increments the agent no longer needs: all of them once its
 * deque is empty (after waiting out thieves that are between claim and unlock, exactly as
 * an idle worker does), else all but one. Lane 0. */
GTAP_DEV void gtap_gn_settle(gtap_gn_agent *a)
{
    if (a->holds == 0)
        return;
    uint32_t queued = 0;
    for (int q = 0; q < gtap_dev.num_queues; q++)
        queued += (uint32_t)gtap_ld_relaxed_u64(&gtap_deque_of(a->w, q)->meta); /* a hint; quiesce orders */
    uint32_t keep = queued || a->backlog_n || a->reserve_n != a->reserve_pos ? 1u : 0u; /* the reserve holds tasks too */
    if (a->holds == keep)
        return;
    if (!keep)
        gtap_q_quiesce(a->w);
    gtap_fence_acq_rel(); /* as gtap_sched_go_idle_one: observed claims precede the decrement */
    gtap_atomic_add_acq_rel_i32(&gtap_dev.ctl->active, -(int32_t)(a->holds - keep));
    a->holds = keep;
}

/* Queues runnable record `id` on the agent's deque q, or, when that is full, on the backlog.
 * Only idle workers steal from the agent, so on a busy node the deque can fill with parents
 * resumed by remote results and with imported tasks; the backlog moves into the deque as
 * room appears (gtap_gn_refill). Lane 0; the caller publishes. */
GTAP_DEV void gtap_gn_push(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t q, uint32_t id)
{
    gtap_gn_hold(a);
    if (a->backlog_n == 0 && gtap_q_room(sh, a->w, q, gtap_q_slot_pos(sh, q, (uint32_t)sh->spawned[q]))) {
        gtap_thread_push_local(sh, a->w, q, id); /* has room: cannot fail */
        return;
    }
    /* Every record is in the backlog at most once, and it has num_records + 1 entries. */
    const uint32_t cap = gtap_dev.num_records + 1u;
    uint32_t at = a->backlog_head + a->backlog_n;
    gtap_gn.backlog[at >= cap ? at - cap : at] = id | (q << 28);
    a->backlog_n++;
}

/* Moves backlog entries into the agent's deque while it has room. Lane 0; the caller
 * publishes. Returns 1 if it moved any. */
GTAP_DEV int gtap_gn_refill(gtap_gn_agent *a, gtap_warp_sh *sh)
{
    const uint32_t cap = gtap_dev.num_records + 1u;
    int moved = 0;
    while (a->backlog_n) {
        uint32_t e = gtap_gn.backlog[a->backlog_head], q = e >> 28;
        if (!gtap_q_room(sh, a->w, q, gtap_q_slot_pos(sh, q, (uint32_t)sh->spawned[q])))
            break;
        gtap_thread_push_local(sh, a->w, q, e & 0x0fffffffu);
        a->backlog_head = a->backlog_head + 1 == cap ? 0 : a->backlog_head + 1;
        a->backlog_n--;
        moved = 1;
    }
    return moved;
}

/* Completes the stub named by origin_task with a result (docs/join.md J1-J3). Any lane:
 * lanes complete different stubs at once. Returns 0 if the entry does not name a live stub;
 * else 1, with *ready = the parent when this was its last outstanding child (the caller
 * queues it on lane 0), or GTAP_NO_TASK. */
GTAP_DEV int gtap_gn_apply_result(gtap_gn_agent *a, uint64_t origin_task, const unsigned char *result,
                                  uint32_t result_bytes, uint32_t flags, uint32_t *ready)
{
    *ready = GTAP_NO_TASK;
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)origin_task; (void)result; (void)result_bytes; (void)flags;
    return 0; /* nothing is exported with a completion in these builds */
#else
    const uint32_t id = (uint32_t)origin_task, seq = (uint32_t)(origin_task >> 32);
    if (id >= gtap_dev.num_records + 1u || seq == 0)
        return 0;
    /* The stub's header is read together with the claim below, not after it (a round trip
     * less): a live stub's header was written before its task was exported, so before this
     * result existed, and it does not change until the claim. */
    gtap_task_header *h = gtap_header(id);
    const uint32_t fs = h->fn_state, fn = fs & 0xffffu, parent = h->parent;
    void *dst = (void *)(uintptr_t)h->result_dst;
    /* check and clear at once: two entries naming one stub (a protocol error) cannot both
     * complete it when lanes apply a batch in parallel */
    if (atomicCAS(&gtap_gn.stub_seq[id], seq, 0u) != seq)
        return 0;
    if ((fs >> 16) != GTAP_STATE_MIGRATED || fn >= gtap_gn.num_functions ||
        result_bytes > gtap_gn.fns[fn].result_size)
        return 0;
    if (dst && result_bytes)
        gtap_copy_result(dst, result, result_bytes);
    if (flags & GTAP_WIRE_RESULT_DETACHED) /* T2; read by this agent only (ROOT_DONE, COMPLETION) */
        gtap_st_relaxed_u32(&gtap_nh.words->detached, a->launch_tag);
    if (parent >= gtap_dev.num_records + 1u)
        return 0; /* stubs are made only of tasks with a local parent */
    gtap_task_header *ph = gtap_header(parent);
    /* Release: the result store before the parent can resume; acquire: its siblings'. */
    if (gtap_atomic_add_acq_rel_i32(&ph->pending, -1) == 1) {
        if ((ph->fn_state >> 16) == GTAP_STATE_ZOMBIE) {
            if (parent != gtap_root_id())
                gtap_gn_free(parent);
        } else {
            *ready = parent;
        }
    }
    gtap_gn_free(id);
    return 1;
#endif
}

/* Lane 0 queues every lane's record id (GTAP_NO_TASK: none) on the agent's deque q of that
 * lane (gtap_gn_push), in lane order. Warp-collective; the caller publishes. */
GTAP_DEV void gtap_gn_push_lanes(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t id, uint32_t q)
{
    uint32_t pending = __ballot_sync(GTAP_GN_FULL, id != GTAP_NO_TASK);
    while (pending) {
        const uint32_t l = (uint32_t)__ffs(pending) - 1u;
        const uint32_t lid = __shfl_sync(GTAP_GN_FULL, id, l), lq = __shfl_sync(GTAP_GN_FULL, q, l);
        if (lane == 0)
            gtap_gn_push(a, sh, lq, lid);
        pending &= pending - 1u;
    }
}

/* Queues the parents that lanes found ready (gtap_gn_apply_result). Each lane reads its
 * parent's continuation queue: lane 0 reading them one after another cost a round trip per
 * parent, most of a RESULTS batch's time (bench/NOTES.md, step 12). */
GTAP_DEV void gtap_gn_push_ready(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t ready)
{
    const uint32_t cq = ready != GTAP_NO_TASK ? gtap_header(ready)->cont_queue : 0u;
    gtap_gn_push_lanes(a, sh, lane, ready, cq);
}

/* ---- hunger (N9) -------------------------------------------------------------------------------- */

/* Workers (other than the agent) that hold tasks. Warp-uniform (lane 0 reads). */
GTAP_DEV int32_t gtap_gn_active_workers(gtap_gn_agent *a, uint32_t lane)
{
    int32_t act = lane == 0 ? (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active) : 0;
    return __shfl_sync(GTAP_GN_FULL, act, 0) - (int32_t)a->holds;
}

/* As a thief: fewer than 3/4 of the workers hold tasks. As a victim the node gives nothing
 * below 1/2 (gtap_gn_export), so a node between the two both steals and gives, and work
 * does not bounce between two nodes that are both short of it. */
GTAP_DEV uint32_t gtap_gn_is_hungry(gtap_gn_agent *a, uint32_t lane)
{
    return gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 4 * 3);
}

/* ---- EXPORT_REQUEST (N6) -------------------------------------------------------------------- */

/* Checks the header of the wire batch of `kind` that fills in_buf (as gtap_wire_batch_open,
 * with aligned loads: the GPU is little-endian like the format). Warp-collective; returns 1
 * with the entry count and the batch's byte count in every lane, or 0. */
GTAP_DEV int gtap_gn_batch_open(uint32_t kind, uint32_t lane, uint32_t *bytes, uint32_t *count)
{
    const unsigned char *buf = gtap_gn.in_buf;
    uint32_t good = 0, n = 0, b = *bytes;
    if (lane == 0 && b >= GTAP_WIRE_BATCH_HEADER_BYTES) {
        const uint32_t *w = (const uint32_t *)buf;
        good = w[0] == GTAP_WIRE_MAGIC && (w[1] & 0xffffu) == GTAP_WIRE_VERSION && (w[1] >> 16) == kind &&
               w[3] >= GTAP_WIRE_BATCH_HEADER_BYTES && w[3] <= b && *(const uint64_t *)(buf + 16) == gtap_gn.hash;
        n = w[2];
        b = w[3];
    }
    *count = __shfl_sync(GTAP_GN_FULL, n, 0);
    *bytes = __shfl_sync(GTAP_GN_FULL, b, 0);
    return (int)__shfl_sync(GTAP_GN_FULL, good, 0);
}

/* Writes the header of the batch of `kind` built in out_buf: count entries, used bytes. */
GTAP_DEV void gtap_gn_batch_close(uint32_t kind, uint32_t lane, uint32_t used, uint32_t count)
{
    if (lane == 0) {
        gtap_wire_writer wr;
        gtap_wire_batch_begin(&wr, gtap_gn.out_buf, used, kind, gtap_gn.hash);
        wr.used = used;
        wr.count = count;
        gtap_wire_batch_update(&wr);
    }
}

/* Copies bytes from 8-aligned src to dst as 8-byte words, the last one zero-padded (wire
 * entries pad payloads and results to 8 bytes with zeros). */
GTAP_DEV void gtap_gn_copy_padded(uint64_t *dst, const unsigned char *src, uint32_t bytes)
{
    const uint64_t *s = (const uint64_t *)src;
    for (uint32_t i = 0; i < bytes / 8; i++)
        dst[i] = s[i];
    if (bytes & 7u)
        dst[bytes / 8] = s[bytes / 8] & ((1ull << (8 * (bytes & 7u))) - 1ull);
}

/* Serializes stolen record `id` (this lane's) as a wire task entry at out_buf + offset, in
 * the format of gtap_wire_put_task (little-endian, as the GPU is): 8-byte stores of the
 * header and of the payload, whose padding is zero. */
GTAP_DEV void gtap_gn_put_task(uint32_t offset, uint32_t id, uint32_t fn, uint32_t state, uint32_t q,
                               uint32_t flags, uint32_t origin_rank, uint32_t hops, uint64_t origin_task)
{
    const uint32_t pb = gtap_gn.fns[fn].data_size;
    uint64_t *p = (uint64_t *)(gtap_gn.out_buf + offset);
    p[0] = (uint64_t)fn | ((uint64_t)state << 16) | ((uint64_t)q << 32) | ((uint64_t)flags << 48);
    p[1] = (uint64_t)pb | ((uint64_t)gtap_gn.fns[fn].result_size << 32);
    p[2] = (uint64_t)origin_rank | ((uint64_t)hops << 32);
    p[3] = origin_task;
    gtap_gn_copy_padded(p + 4, (const unsigned char *)gtap_record_data(id), pb); /* records are 8-aligned */
}

/* Steals up to max_tasks of the workers' oldest tasks and answers request `req` with them.
 * Each steal round claims up to 32 tasks, one per lane, and the lanes serialize their own
 * records at offsets from a prefix sum of the entry sizes (serializing 512 tasks on one
 * lane took ~0.6 ms on a busy SM, bench/NOTES.md step 11). Records that owe a completion
 * become stubs; records that may not migrate, or do not fit the message, go back to the
 * agent's deque. */
GTAP_GN_COLD void gtap_gn_export(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, gtap_sched_rng *rng,
                                 uint32_t req, uint32_t max_tasks, uint32_t max_bytes, uint32_t req_flags)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    if (max_bytes > GTAP_NODE_MAX_MESSAGE_BYTES)
        max_bytes = GTAP_NODE_MAX_MESSAGE_BYTES;
    uint32_t taken = 0, full = 0, used = GTAP_WIRE_BATCH_HEADER_BYTES;
    const uint64_t t0 = gtap_gn_now(lane);
    if (!(req_flags & GTAP_NODE_EXPORT_THIEF_IDLE) && gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 2)) {
        max_tasks = 0; /* N9: a node short of work gives none to a thief that has some */
        a->exports_refused++;
    }
    GTAP_GN_T0();
    /* The opening reserve goes first: the largest tasks of the run (gtap_gn_reserve_step). */
    uint32_t from_reserve = a->reserve_n - a->reserve_pos;
    if (from_reserve > a->reserve_share)
        from_reserve = a->reserve_share;
    if (max_tasks == 0)
        from_reserve = 0;
    /* The reserve's share is the thief's fair part of the run's start (half a binary tree on
     * two ranks); topping it up with the oldest tasks of up to 480 local warps while they
     * ramp up cost both ranks: on 2 GPUs the binary tree D=24 took 4.49 ms topped up and
     * 4.13 alone, fib(34) 3.70 and 3.18 (bench/NOTES.md step 14). */
    if (from_reserve && gtap_gn.reserve_alone)
        max_tasks = from_reserve;
    for (uint32_t round = 0; round < 8 && taken < max_tasks && !full;) {
        uint32_t victim = 0, q = 0;
        if (!from_reserve) {
            victim = gtap_sched_rand(rng) % a->nworkers;
            q = nq > 1 ? gtap_sched_rand(rng) % nq : 0;
            uint32_t c = gtap_q_probe(victim, q);
            uint32_t best = __reduce_max_sync(GTAP_GN_FULL, c);
            if (best == 0) {
                round++;
                continue;
            }
            uint32_t leader = gtap_sched_pick_victim_lane(c, best, rng);
            victim = __shfl_sync(GTAP_GN_FULL, victim, leader);
            q = __shfl_sync(GTAP_GN_FULL, q, leader);
        }
        uint32_t want = max_tasks - taken < 32 ? max_tasks - taken : 32;
        uint32_t my = GTAP_NO_TASK, k = 0;
        if (from_reserve) {
            /* the reserve's tasks were counted active when the agent took them */
            k = from_reserve < want ? from_reserve : want;
            if (lane < k) {
                const uint32_t e = gtap_gn.reserve[a->reserve_pos + lane];
                my = e & 0x0fffffffu;
                q = e >> 28;
            }
            a->reserve_pos += k;
            a->reserve_exported += k;
            from_reserve -= k;
        } else {
            k = gtap_q_steal_warp(sh, victim, q, want, 0, lane, &my); /* active += 1 */
            if (k == 0) {
                round++;
                continue;
            }
            a->holds++;
        }
        /* This lane's task: may it migrate, and how many bytes is its entry? */
        uint32_t fn = 0, state = 0, bytes = 0;
        int ship = 0;
        if (lane < k) {
            const uint32_t fs = *(volatile uint32_t *)gtap_record(my);
            fn = fs & 0xffffu;
            state = fs >> 16;
            ship = my != gtap_root_id() && fn < gtap_gn.num_functions &&
                   (gtap_gn.fns[fn].flags & GTAP_FN_MIGRATABLE) &&
                   gtap_gn.fns[fn].data_size <= GTAP_WIRE_MAX_PAYLOAD;
            if (ship)
                bytes = gtap_wire_task_bytes(gtap_gn.fns[fn].data_size);
        }
        uint32_t end = bytes; /* inclusive prefix sum of the entry sizes */
        for (uint32_t d = 1; d < 32; d *= 2) {
            uint32_t v = __shfl_up_sync(GTAP_GN_FULL, end, d);
            if (lane >= d)
                end += v;
        }
        if (ship && used + end > max_bytes) { /* sizes only grow with the lane: a suffix */
            ship = 0;
            full = 1;
        }
        full = __any_sync(GTAP_GN_FULL, full);
        const uint32_t offset = used + end - bytes;
        uint32_t flags = 0, origin_rank = gtap_gn.rank, hops = 1;
        uint64_t origin_task = 0;
        int make_stub = 0; /* else a shipped record is freed */
#if !defined(GTAP_ASSUME_NO_TASKWAIT)
        if (ship) {
            gtap_task_header *h = gtap_header(my);
            if (h->parent == GTAP_PARENT_REMOTE) {
                /* imported here: the completion goes straight to its origin */
                gtap_gnode_origin o = gtap_gn.origins[my];
                flags = GTAP_WIRE_TASK_COMPLETION;
                origin_rank = o.origin_rank;
                origin_task = o.origin_task;
                hops = o.hops + 1;
            } else if (h->parent != GTAP_NO_TASK || h->result_dst != 0) {
                flags = GTAP_WIRE_TASK_COMPLETION;
                make_stub = 1;
            }
        }
        /* stub sequence numbers: one block of them per round, lane 0 reserves it */
        const uint32_t stubs = __ballot_sync(GTAP_GN_FULL, make_stub);
        uint32_t seq_base = 0;
        if (lane == 0 && stubs) {
            seq_base = gtap_nh.words->stub_seq;
            gtap_nh.words->stub_seq = seq_base + (uint32_t)__popc(stubs);
        }
        seq_base = __shfl_sync(GTAP_GN_FULL, seq_base, 0);
        if (make_stub) {
            uint32_t seq = seq_base + 1u + (uint32_t)__popc(stubs & ((1u << lane) - 1u));
            if (seq == 0)
                seq = 1; /* 0 means "no stub"; a wrap after 2^32 stubs */
            origin_task = (uint64_t)my | ((uint64_t)seq << 32);
        }
#endif
        if (ship)
            gtap_gn_put_task(offset, my, fn, state, q, flags, origin_rank, hops, origin_task);
        if (make_stub) {
            gtap_header(my)->fn_state = fn | ((uint32_t)GTAP_STATE_MIGRATED << 16);
            gtap_gn.stub_seq[my] = (uint32_t)(origin_task >> 32);
        } else if (ship) {
            gtap_gn_free(my);
        }
        /* what stays here goes to the agent's deque (lane 0 owns the backlog) */
        gtap_gn_push_lanes(a, sh, lane, lane < k && !ship ? my : GTAP_NO_TASK, q);
        const uint32_t shipped = __ballot_sync(GTAP_GN_FULL, ship);
        taken += (uint32_t)__popc(shipped);
        if (shipped) /* the last shipping lane's end is the new fill */
            used += __shfl_sync(GTAP_GN_FULL, end, 31 - __clz(shipped));
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    }
    GTAP_GN_T(a, GTAP_GN_P_EXPORT_STEAL);
    gtap_gn_batch_close(GTAP_WIRE_TASKS, lane, used, taken);
    gtap_gn_publish(sh, a->w, lane);
    if (lane == 0)
        gtap_gn_settle(a);
    GTAP_GN_T(a, GTAP_GN_P_EXPORT_PUBLISH);
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    a->failed = __shfl_sync(GTAP_GN_FULL, a->failed, 0);
    a->exported += taken;
    if (taken == 0 && max_tasks)
        a->exports_empty++;
    gtap_gn_post(a, lane, GTAP_NODE_MSG_EXPORTED, req, gtap_gn.out_buf, used);
    GTAP_GN_T(a, GTAP_GN_P_EXPORT_POST);
    a->prof[GTAP_GN_P_N_EXPORTS]++;
    a->export_ns += gtap_gn_now(lane) - t0;
}

/* ---- IMPORT (N7) ----------------------------------------------------------------------------- */

/* Finds the offsets of the next n entries of a wire batch in buf[0, bytes), starting at
 * *pos, into xfer[0, n) (lane 0 writes them). Every entry is 8-aligned and states its
 * variable size as a u32 at +8 (payload or result bytes). The lanes load a 256-byte window
 * at once and the walk reads sizes from it by shuffles: one parallel load per few entries
 * instead of a dependent load per entry, which on an SM saturated by the workers' loads cost
 * microseconds each (bench/NOTES.md, step 11). Returns 0 on an entry that overruns the batch. */
GTAP_DEV int gtap_gn_walk(const unsigned char *buf, uint32_t bytes, uint32_t *pos, uint32_t n, uint32_t header,
                          uint32_t lane, uint32_t *xfer)
{
    uint32_t p = *pos, win = p;
    uint64_t word = win + 8 * lane + 8 <= bytes ? *(const uint64_t *)(buf + win + 8 * lane) : 0ull;
    for (uint32_t j = 0; j < n; j++) {
        if (p > bytes || bytes - p < header)
            return 0;
        if (p + 8 - win >= 8 * 32) { /* the size field is past the window: the next one */
            win = p;
            word = win + 8 * lane + 8 <= bytes ? *(const uint64_t *)(buf + win + 8 * lane) : 0ull;
        }
        const uint32_t size = (uint32_t)__shfl_sync(GTAP_GN_FULL, word, (p + 8 - win) / 8);
        if (size > GTAP_WIRE_MAX_PAYLOAD || bytes - p - header < gtap_wire_pad8(size))
            return 0;
        if (lane == 0)
            xfer[j] = p;
        p += header + gtap_wire_pad8(size);
    }
    *pos = p;
    return 1;
}

GTAP_GN_COLD void gtap_gn_import(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t bytes)
{
    /* As gtap_gn_results: 32 entries a round; each lane checks, allocates and fills one
     * record; lane 0 queues them. */
    const unsigned char *buf = gtap_gn.in_buf;
    uint32_t count;
    uint32_t good = (uint32_t)gtap_gn_batch_open(GTAP_WIRE_TASKS, lane, &bytes, &count);
    if (lane == 0)
        gtap_mag_expect_unknown(&sh->mag); /* enough free ids for the batch */
    uint32_t pos = GTAP_WIRE_BATCH_HEADER_BYTES, done = 0, exhausted = 0;
    while (good && !exhausted && done < count) {
        const uint32_t n = count - done < 32 ? count - done : 32;
        __syncwarp();
        gtap_mag_balance_warp(&sh->mag, a->w, lane);
        good = (uint32_t)gtap_gn_walk(buf, bytes, &pos, n, GTAP_WIRE_TASK_HEADER_BYTES, lane, sh->xfer);
        __syncwarp(); /* the offsets in xfer */
        uint32_t id = GTAP_NO_TASK, q = 0, valid = 1;
        if (good && lane < n) {
            const unsigned char *e = buf + sh->xfer[lane];
            const uint64_t h0 = *(const uint64_t *)e;
            const uint32_t fn = (uint32_t)h0 & 0xffffu, state = (uint32_t)(h0 >> 16) & 0xffffu;
            const uint32_t flags = (uint32_t)(h0 >> 48);
            q = (uint32_t)(h0 >> 32) & 0xffffu;
            valid = !(flags & ~GTAP_WIRE_TASK_KNOWN_FLAGS) && fn < gtap_gn.num_functions &&
                    (gtap_gn.fns[fn].flags & GTAP_FN_MIGRATABLE) &&
                    *(const uint32_t *)(e + 8) == gtap_gn.fns[fn].data_size && state < GTAP_MAX_RESUME_STATES &&
                    q < (uint32_t)gtap_dev.num_queues;
            if (valid)
                id = gtap_mag_alloc(&sh->mag, a->w, &sh->pool_slow);
            if (id != GTAP_NO_TASK) {
                unsigned char *rec = gtap_record(id);
#if defined(GTAP_ASSUME_NO_TASKWAIT)
                (void)flags;
                ((gtap_task_header_nt *)rec)->fn_state = fn | (state << 16);
#else
                gtap_task_header *h = (gtap_task_header *)rec;
                h->fn_state = fn | (state << 16);
                h->pending = 0;
                h->cont_queue = q;
                h->parent = GTAP_NO_TASK;
                h->result_dst = 0;
                if (flags & GTAP_WIRE_TASK_COMPLETION) {
                    gtap_gnode_origin o;
                    o.origin_rank = *(const uint32_t *)(e + 16);
                    o.hops = *(const uint32_t *)(e + 20);
                    o.origin_task = *(const uint64_t *)(e + 24);
                    gtap_gn.origins[id] = o;
                    h->parent = GTAP_PARENT_REMOTE;
                    if (gtap_gn.fns[fn].result_size)
                        h->result_dst = (uint64_t)(uintptr_t)(gtap_gn.results + (size_t)id * gtap_gn.result_stride);
                }
#endif
                gtap_copy_result(rec + gtap_dev.data_offset, e + GTAP_WIRE_TASK_HEADER_BYTES,
                                 gtap_gn.fns[fn].data_size);
            }
        }
        __syncwarp(); /* xfer is read before lane 0 overwrites it */
        if (!__all_sync(GTAP_GN_FULL, valid))
            good = 0; /* the records made of the valid entries are queued below; the run aborts */
        const uint32_t missing = __ballot_sync(GTAP_GN_FULL, lane < n && valid && good && id == GTAP_NO_TASK);
        if (missing) {
            if (lane == __ffs(missing) - 1)
                gtap_raise(GTAP_ERR_POOL_EXHAUSTED, gtap_dev.num_records, gtap_dev.num_records, (int)a->w, 0, -1,
                           __LINE__);
            exhausted = 1;
        }
        gtap_gn_push_lanes(a, sh, lane, id, q);
        a->imported += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, id != GTAP_NO_TASK));
        done += n;
    }
    if (!good || exhausted)
        a->failed = __LINE__;
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_gn_publish(sh, a->w, lane);
}

/* ---- RESULTS, and results of imported tasks (the done ring) ------------------------------------ */

GTAP_GN_COLD void gtap_gn_results(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint32_t bytes)
{
    /* 32 entries a round: gtap_gn_walk finds their offsets (handed over in shared memory),
     * then each lane checks and completes one stub (bench/NOTES.md, step 11). */
    const unsigned char *buf = gtap_gn.in_buf;
    uint32_t count;
    uint32_t good = (uint32_t)gtap_gn_batch_open(GTAP_WIRE_RESULTS, lane, &bytes, &count);
    uint32_t pos = GTAP_WIRE_BATCH_HEADER_BYTES, done = 0;
    while (good && done < count) {
        const uint32_t n = count - done < 32 ? count - done : 32;
        good = (uint32_t)gtap_gn_walk(buf, bytes, &pos, n, GTAP_WIRE_RESULT_HEADER_BYTES, lane, sh->xfer);
        __syncwarp(); /* the offsets in xfer */
        uint32_t ready = GTAP_NO_TASK, ok = 1;
        if (good && lane < n) {
            const unsigned char *e = buf + sh->xfer[lane];
            const uint32_t fl = *(const uint32_t *)(e + 12);
            ok = !(fl & ~GTAP_WIRE_RESULT_KNOWN_FLAGS) &&
                 gtap_gn_apply_result(a, *(const uint64_t *)e, e + GTAP_WIRE_RESULT_HEADER_BYTES,
                                      *(const uint32_t *)(e + 8), fl, &ready);
        }
        __syncwarp(); /* xfer is read before lane 0 overwrites it */
        if (!__all_sync(GTAP_GN_FULL, ok))
            good = 0;
        gtap_gn_push_ready(a, sh, lane, ready);
        a->results += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, ok && lane < n));
        done += n;
    }
    if (!good)
        a->failed = __LINE__;
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_gn_publish(sh, a->w, lane);
}

/* Sends the results of finished imported tasks home: one COMPLETION per run of entries with
 * the same origin (a batch of at most one message); entries whose origin is this rank (the
 * task came home) complete their stub here. Returns the number of entries handled. */
GTAP_GN_COLD uint32_t gtap_gn_drain_done(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane)
{
#if defined(GTAP_ASSUME_NO_TASKWAIT)
    (void)a; (void)sh; (void)lane;
    return 0;
#else
    /* 32 ring slots a round, one per lane. A COMPLETION message goes to one origin rank:
     * entries for this rank are applied at once (tasks that came home), the others are
     * written into the message being built in out_buf at offsets from a prefix sum; a
     * round stops at the first entry for another origin or the first that does not fit,
     * and the message is posted. */
    const uint32_t cap = GTAP_NODE_MAX_MESSAGE_BYTES;
    uint32_t handled = 0, used = GTAP_WIRE_BATCH_HEADER_BYTES, count = 0, origin = GTAP_NO_TASK;
    for (;;) {
        uint32_t *slot = &gtap_nh.done_ring[(a->done_pos + lane) & gtap_nh.done_mask];
        const uint32_t v = gtap_ld_acquire_u32(slot); /* pairs with the worker's release */
        const uint32_t have = __ballot_sync(GTAP_GN_FULL, v != 0);
        uint32_t n = have == GTAP_GN_FULL ? 32u : (uint32_t)__ffs(~have) - 1u; /* a prefix of the ring */
        if (n == 0)
            break;
        uint32_t id = 0, fs = 0, rb = 0, flags = 0, self = 1;
        gtap_gnode_origin o;
        o.origin_rank = gtap_gn.rank;
        o.origin_task = 0;
        if (lane < n) {
            id = v - 1u;
            o = gtap_gn.origins[id];
            fs = gtap_header(id)->fn_state;
            rb = gtap_gn.fns[fs & 0xffffu].result_size;
            /* relaxed: the slot's acquire above ordered the finishing worker's flag (T2) */
            flags = gtap_ld_relaxed_u32(&gtap_nh.words->detached) == a->launch_tag ? GTAP_WIRE_RESULT_DETACHED : 0u;
            self = o.origin_rank == gtap_gn.rank;
        }
        const uint32_t remote = __ballot_sync(GTAP_GN_FULL, !self);
        if (origin == GTAP_NO_TASK && remote)
            origin = __shfl_sync(GTAP_GN_FULL, o.origin_rank, __ffs(remote) - 1);
        const uint32_t other = __ballot_sync(GTAP_GN_FULL, !self && o.origin_rank != origin);
        if (other)
            n = (uint32_t)__ffs(other) - 1u;
        const uint32_t bytes = lane < n && !self ? gtap_wire_result_bytes(rb) : 0u;
        uint32_t end = bytes;
        for (uint32_t d = 1; d < 32; d *= 2) {
            const uint32_t up = __shfl_up_sync(GTAP_GN_FULL, end, d);
            if (lane >= d)
                end += up;
        }
        const uint32_t over = __ballot_sync(GTAP_GN_FULL, bytes && used + end > cap);
        if (over)
            n = (uint32_t)__ffs(over) - 1u;
        uint32_t ready = GTAP_NO_TASK, ok = 1, dead = GTAP_NO_TASK;
        if (lane < n) {
            const unsigned char *rp = gtap_gn.results + (size_t)id * gtap_gn.result_stride;
            if (self) {
                ok = (uint32_t)gtap_gn_apply_result(a, o.origin_task, rp, rb, flags, &ready);
            } else {
                uint64_t *e = (uint64_t *)(gtap_gn.out_buf + used + end - bytes);
                e[0] = o.origin_task;
                e[1] = (uint64_t)rb | ((uint64_t)flags << 32);
                e[2] = (uint64_t)gtap_gn.rank; /* runner_rank, then 4 zero bytes */
                gtap_gn_copy_padded(e + 3, rp, rb);
            }
            *slot = 0;
            /* The result was copied: the record may go (a zombie when its children and this
             * reference are all gone; node_hooks.cuh). */
            if ((fs >> 16) != GTAP_STATE_ZOMBIE || gtap_atomic_add_acq_rel_i32(&gtap_header(id)->pending, -1) == 1)
                dead = id;
        }
        gtap_pool_free_remote_warp(lane, dead); /* one chain per owner (bench/NOTES.md step 12) */
        if (!__all_sync(GTAP_GN_FULL, ok))
            a->failed = __LINE__;
        gtap_gn_push_ready(a, sh, lane, ready);
        a->results += (uint32_t)__popc(__ballot_sync(GTAP_GN_FULL, lane < n && self && ok));
        const uint32_t written = __ballot_sync(GTAP_GN_FULL, lane < n && !self);
        if (n) {
            count += (uint32_t)__popc(written);
            used += __shfl_sync(GTAP_GN_FULL, end, n - 1);
            a->done_pos += n;
            handled += n;
            __syncwarp(); /* every lane emptied its slot */
            if (lane == 0)
                gtap_st_release_u32(&gtap_nh.words->done_consumed, a->done_pos); /* slots emptied */
        }
        if ((other || over) && count) {
            /* another origin or a full message: post this one, go on with a new one */
            gtap_gn_batch_close(GTAP_WIRE_RESULTS, lane, used, count);
            gtap_gn_post(a, lane, GTAP_NODE_MSG_COMPLETION, origin, gtap_gn.out_buf, used);
            used = GTAP_WIRE_BATCH_HEADER_BYTES;
            count = 0;
            origin = GTAP_NO_TASK;
        } else if (n == 0) {
            a->failed = __LINE__; /* one result larger than a message: cannot happen (R5) */
            break;
        }
    }
    if (count) {
        gtap_gn_batch_close(GTAP_WIRE_RESULTS, lane, used, count);
        gtap_gn_post(a, lane, GTAP_NODE_MSG_COMPLETION, origin, gtap_gn.out_buf, used);
    }
    a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
    gtap_gn_publish(sh, a->w, lane);
    return handled;
#endif
}

/* ---- status (N4) --------------------------------------------------------------------------- */

GTAP_DEV void gtap_gn_set_idle(gtap_gn_agent *a, uint32_t lane, uint32_t idle, uint64_t now)
{
    if (a->idle == idle)
        return;
    a->idle = idle;
    if (idle) {
        a->idle_since = now;
        if (lane == 0) /* release: consumed inbox and published outbox before idle (N4) */
            gtap_st_release_sys_u32(&gtap_gn.region->status.idle, 1u);
    } else {
        a->idle_ns += now - a->idle_since;
        if (lane == 0) /* relaxed: the next inbox head release orders it (N4) */
            gtap_st_relaxed_sys_u32(&gtap_gn.region->status.idle, 0u);
    }
}

/* The statistics counters (relaxed, approximate). Sums the workers' task counters, which
 * they refresh every 16 iterations. */
GTAP_GN_COLD void gtap_gn_publish_counters(gtap_gn_agent *a, uint32_t lane, uint64_t now)
{
    unsigned long long seg = 0;
    /* 8 loads in flight per lane: one after another, the ~66 per lane took longer than the
     * interval between two calls on a busy GPU */
    for (uint32_t v0 = lane; v0 < a->nworkers; v0 += 32 * 8) {
        unsigned long long t[8];
#pragma unroll
        for (uint32_t k = 0; k < 8; k++)
            t[k] = v0 + 32 * k < a->nworkers ? gtap_ld_relaxed_u64(&gtap_dev.stats[v0 + 32 * k].tasks) : 0ull;
#pragma unroll
        for (uint32_t k = 0; k < 8; k++)
            seg += t[k];
    }
    for (int off = 16; off > 0; off /= 2)
        seg += __shfl_down_sync(GTAP_GN_FULL, seg, off);
    if (lane == 0) {
        gtap_node_status *s = &gtap_gn.region->status;
        /* statistics and watchdog progress: relaxed, approximate (node_iface.h) */
        gtap_st_relaxed_sys_u64(&s->segments, a->segments_base + seg);
        gtap_st_relaxed_sys_u64(&s->tasks_imported, a->imported);
        gtap_st_relaxed_sys_u64(&s->tasks_exported, a->exported);
        gtap_st_relaxed_sys_u64(&s->results_applied, a->results);
        gtap_st_relaxed_sys_u64(&s->export_ns, a->export_ns);
        gtap_st_relaxed_sys_u64(&s->exports_refused, a->exports_refused);
        gtap_st_relaxed_sys_u64(&s->exports_empty, a->exports_empty);
        gtap_st_relaxed_sys_u64(&s->first_work_ns, a->first_work_ns);
        gtap_st_relaxed_sys_u64(&s->idle_ns, a->idle_ns + (a->idle ? now - a->idle_since : 0));
    }
    a->last_publish = now;
}

/* ---- the opening reserve ----------------------------------------------------------------- */

/* At a run's start the rank that holds the root has all the work and every other rank none,
 * and the first steal request from another rank arrives after ~0.5 ms, when the GPU's own
 * warps have split the root's descendants over 67,584 lanes and every task left to steal
 * is a ~160-node subtree (bench/NOTES.md step 12). So on that rank the local thieves leave
 * warp 0 (the root's) alone at first (gtap_nh_reserved) and the agent takes the first tasks
 * warp 0 publishes - its oldest, the largest of the run: in a binary tree warp 0 keeps 32
 * of the 64 tasks of level 6 and publishes the other 32, half the tree - into a reserve of
 * at most reserve_max tasks. The reserve closes when full or after GTAP_GN_RESERVE_TAKE_NS;
 * the next exports ship it before anything else, a (size - 1)-th of it each and, with
 * GTAP_DIST_RESERVE_ALONE, nothing else (gtap_gn_export). What no thief
 * asked for within GTAP_GN_RESERVE_KEEP_NS, or once every local worker is idle, goes to the
 * agent's deque for the local workers. Warp-collective; returns 1 if it took or released
 * tasks. */
GTAP_GN_COLD uint32_t gtap_gn_reserve_step(gtap_gn_agent *a, gtap_warp_sh *sh, uint32_t lane, uint64_t now)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    uint32_t did = 0;
    if (a->reserving) {
        for (uint32_t tries = 0; tries < 8 && a->reserve_n < gtap_gn.reserve_max; tries++) {
            for (uint32_t q = 0; q < nq && a->reserve_n < gtap_gn.reserve_max; q++) {
                const uint32_t want = gtap_gn.reserve_max - a->reserve_n;
                uint32_t my = GTAP_NO_TASK;
                /* half of warp 0's published tasks, its oldest (the steal end) */
                const uint32_t k = gtap_q_steal_warp(sh, 0, q, want < 32 ? want : 32, 0, lane, &my);
                if (k == 0)
                    continue;
                a->holds++; /* active += 1 by the steal */
                if (lane < k)
                    gtap_gn.reserve[a->reserve_n + lane] = my | (q << 28);
                a->reserve_n += k;
                did = 1;
            }
        }
        if (a->reserve_n >= gtap_gn.reserve_max || now - a->t_begin > GTAP_GN_RESERVE_TAKE_NS) {
            a->reserving = 0;
            if (lane == 0) /* the local thieves may steal from warp 0 again (a hint, relaxed) */
                gtap_st_relaxed_u32(&gtap_nh.words->reserve_closed, a->launch_tag);
        }
    }
    const uint32_t left = a->reserve_n - a->reserve_pos;
    if (left && !a->reserving &&
        (now - a->t_begin > GTAP_GN_RESERVE_KEEP_NS || gtap_gn_active_workers(a, lane) <= 0)) {
        if (lane == 0)
            for (uint32_t i = a->reserve_pos; i < a->reserve_n; i++)
                gtap_gn_push(a, sh, gtap_gn.reserve[i] >> 28, gtap_gn.reserve[i] & 0x0fffffffu);
        a->reserve_pos = a->reserve_n;
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
        gtap_gn_publish(sh, a->w, lane);
        did = 1;
    }
    __syncwarp();
    return did;
}

/* ---- the agent loop ------------------------------------------------------------------------ */

static __device__ __noinline__ void gtap_gnode_agent(gtap_warp_sh *sh, uint32_t w, uint32_t nworkers, uint32_t lane,
                                                     gtap_sched_rng *rng)
{
    gtap_node_region *r = gtap_gn.region;
    gtap_ctl *ctl = gtap_dev.ctl;
    gtap_gn_agent a;
    memset(&a, 0, sizeof a);
    a.w = w;
    a.nworkers = nworkers;
    a.launch_tag = gtap_nh_launch_tag();
    /* The opening reserve (gtap_gn_reserve_step): on the rank that starts the root. */
    a.reserving = gtap_nh.opening_reserve;
    {
        const uint32_t peers = r->nranks > 1 ? r->nranks - 1 : 1; /* identity: written before the node starts */
        a.reserve_share = (gtap_gn.reserve_max + peers - 1) / peers;
    }
    /* Our own counters as we (or the proxy, at attach) left them; the proxy's head with
     * acquire, so that the slots it has read are free (N1). */
    a.epoch = gtap_ld_relaxed_sys_u32(&r->status.epoch) + 1; /* N5 */
    a.in_pos = a.in_tail = gtap_ld_acquire_sys_u64(&r->inbox.head);
    a.out_pos = gtap_ld_acquire_sys_u64(&r->outbox.tail);
    a.out_head = gtap_ld_acquire_sys_u64(&r->outbox.head);
    a.out_seq = gtap_nh.words->out_seq;
    a.done_pos = gtap_ld_relaxed_u32(&gtap_nh.words->done_consumed);
    a.idle = 1; /* the region says idle between runs */
    a.t_begin = gtap_gn_now(lane);
    a.idle_since = a.t_begin;
    uint64_t idle_ns_before = 0, seg_before = 0;
    if (lane == 0) {
        idle_ns_before = *(volatile uint64_t *)&r->status.idle_ns;
        seg_before = *(volatile uint64_t *)&r->status.segments;
        gtap_st_relaxed_sys_u32(&r->status.epoch, a.epoch);
        gtap_st_relaxed_sys_u32(&r->status.in_run, 1u);
        gtap_st_relaxed_sys_u64(&r->status.first_work_ns, 0ull);
        gtap_nh.words->agent_sm = gtap_nh_smid();
        gtap_st_release_u32(&gtap_nh.words->agent_sm_tag, a.launch_tag); /* gtap_nh_passive */
        uint64_t *p = (uint64_t *)gtap_gn.out_buf;
        p[0] = gtap_nh_holds_root();
        p[1] = seg_before;
        p[2] = idle_ns_before;
    }
    a.idle_ns = __shfl_sync(GTAP_GN_FULL, (unsigned long long)idle_ns_before, 0);
    gtap_gn_post(&a, lane, GTAP_NODE_MSG_RUN_BEGIN, a.epoch, gtap_gn.out_buf, 24);
    /* The workers' counters restart at 0 each launch; the node's total goes on. */
    a.segments_base = __shfl_sync(GTAP_GN_FULL, (unsigned long long)seg_before, 0);

    uint32_t quiet = 0;
    uint64_t stop_seen = 0;
    while (!a.failed) {
        /* polled: an abort publishes nothing the agent reads (relaxed) */
        uint32_t st = lane == 0 ? gtap_ld_relaxed_u32(&ctl->terminate) : 0;
        uint32_t abort = lane == 0 ? gtap_ld_relaxed_sys_u32(&r->control.abort) : 0;
        st = __shfl_sync(GTAP_GN_FULL, st, 0);
        abort = __shfl_sync(GTAP_GN_FULL, abort, 0);
        if (st == GTAP_RUN_ABORT)
            break; /* a task error: the host reports it and ends the job */
        if (abort) {
            if (lane == 0)
                gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT); /* the job is ending */
            break;
        }
        uint32_t work = 0;
        if (a.reserve_n != a.reserve_pos || a.reserving)
            work |= gtap_gn_reserve_step(&a, sh, lane, gtap_gn_now(lane));
        /* inbox */
        for (int m = 0; m < 16 && !a.stop && !a.failed; m++) {
            uint32_t arg = 0, bytes = 0, ns = 0;
            GTAP_GN_T0();
            int kind = gtap_gn_inbox_next(&a, lane, &arg, &bytes, &ns);
            GTAP_GN_T(&a, GTAP_GN_P_INBOX);
            if (kind == 0)
                break;
            if (kind < 0) {
                a.failed = __LINE__;
                break;
            }
            work = 1;
            uint64_t now = gtap_gn_now(lane);
            switch (kind) {
            case GTAP_NODE_MSG_STOP:
                if (arg != a.epoch)
                    a.failed = __LINE__;
                a.stop = 1;
                break;
            case GTAP_NODE_MSG_EXPORT_REQUEST: {
                const uint32_t *lim = (const uint32_t *)gtap_gn.in_buf;
                gtap_gn_export(&a, sh, lane, rng, arg, lim[0], lim[1], bytes >= 12 ? lim[2] : 0u);
                GTAP_GN_T(&a, GTAP_GN_P_EXPORT);
                break;
            }
            case GTAP_NODE_MSG_IMPORT:
                gtap_gn_set_idle(&a, lane, 0, now);
                gtap_gn_import(&a, sh, lane, bytes);
                GTAP_GN_T(&a, GTAP_GN_P_IMPORT);
                a.prof[GTAP_GN_P_N_IMPORTS]++;
                if (a.first_work_ns == 0)
                    a.first_work_ns = now - a.t_begin + 1;
                break;
            case GTAP_NODE_MSG_RESULTS:
                gtap_gn_set_idle(&a, lane, 0, now);
                gtap_gn_results(&a, sh, lane, bytes);
                GTAP_GN_T(&a, GTAP_GN_P_RESULTS);
                a.prof[GTAP_GN_P_N_RESULTS]++;
                break;
            default:
                a.failed = __LINE__;
            }
            gtap_gn_inbox_pop(&a, lane, ns);
        }
        if (a.failed)
            break;
        /* finished imported tasks */
        GTAP_GN_T0();
        if (gtap_gn_drain_done(&a, sh, lane))
            work = 1;
        GTAP_GN_T(&a, GTAP_GN_P_DRAIN);
        /* the backlog, as thieves make room in the agent's deque */
        uint32_t moved = lane == 0 ? (uint32_t)gtap_gn_refill(&a, sh) : 0u;
        if (__shfl_sync(GTAP_GN_FULL, moved, 0)) {
            gtap_gn_publish(sh, a.w, lane);
            work = 1;
        }
        /* the root (T1, T2) */
        if (!a.root_posted && gtap_nh_holds_root()) {
            uint32_t done = lane == 0 ? gtap_ld_acquire_u32(&gtap_nh.words->root_done) : 0;
            if (__shfl_sync(GTAP_GN_FULL, done, 0) == a.launch_tag) {
                /* relaxed: root_done's acquire ordered every detaching task's flag (T2) */
                uint32_t det = lane == 0 ? gtap_ld_relaxed_u32(&gtap_nh.words->detached) : 0;
                det = __shfl_sync(GTAP_GN_FULL, det, 0) == a.launch_tag ? GTAP_NODE_ROOT_DETACHED : 0;
                gtap_gn_post(&a, lane, GTAP_NODE_MSG_ROOT_DONE, det, gtap_gn.out_buf, 0);
                a.root_posted = 1;
                work = 1;
            }
        }
        /* active count and idleness (N4) */
        uint32_t busy = 0;
        if (lane == 0) {
            gtap_q_refresh(sh, w); /* steal ends, if a push found them stale */
            gtap_gn_settle(&a);
            busy = a.holds != 0 || gtap_ld_acquire_u32(&ctl->active) != 0;
            /* Acquire above: a worker's done-ring entry precedes its going idle. */
            if (!busy && gtap_ld_acquire_u32(&gtap_nh.done_ring[a.done_pos & gtap_nh.done_mask]) != 0)
                busy = 1;
        }
        a.holds = __shfl_sync(GTAP_GN_FULL, a.holds, 0);
        busy = __shfl_sync(GTAP_GN_FULL, busy, 0);
        uint64_t now = gtap_gn_now(lane);
        if (busy && a.first_work_ns == 0)
            a.first_work_ns = now - a.t_begin + 1;
        gtap_gn_set_idle(&a, lane, busy ? 0u : 1u, now);
        uint32_t hungry = busy && gtap_gn_is_hungry(&a, lane);
        if (hungry != a.hungry) {
            a.hungry = hungry;
            if (lane == 0) /* a hint: relaxed (N9) */
                gtap_st_relaxed_sys_u64(&r->status.hungry, hungry);
        }
        if (now - a.last_publish > 1000000)
            gtap_gn_publish_counters(&a, lane, now);
        if (a.stop) {
            /* The job's termination was decided, so no task exists here; a worker may still
             * be on its way to idle (e.g. the one that ran the root). Holding work a second
             * after STOP is a protocol error. */
            if (!busy)
                break;
            if (stop_seen == 0)
                stop_seen = now;
            else if (now - stop_seen > 1000000000ull)
                a.failed = __LINE__;
            __nanosleep(1000);
            continue;
        }
        GTAP_GN_T(&a, GTAP_GN_P_LOOP);
        if (work) {
            quiet = 0;
        } else {
            /* Poll the mapped inbox about every microsecond while work may arrive. */
            __nanosleep(quiet < 64 ? 200 : 1000);
            quiet++;
            GTAP_GN_T(&a, GTAP_GN_P_SLEEP);
        }
    }

    uint64_t now = gtap_gn_now(lane);
    gtap_gn_publish_counters(&a, lane, now);
    if (gtap_gn.profile && lane == 0) {
        const uint64_t *t = a.prof;
        printf("gtap-prof rank %u run_us %.0f inbox %.0f export %.0f [steal+serialize %.0f publish %.0f post %.0f] "
               "exports %llu (reserve %llu of %u) import %.0f imports %llu results %.0f batches %llu done_ring %.0f loop %.0f sleep %.0f\n",
               gtap_gn.rank, (now - a.t_begin) / 1e3, t[GTAP_GN_P_INBOX] / 1e3, t[GTAP_GN_P_EXPORT] / 1e3,
               t[GTAP_GN_P_EXPORT_STEAL] / 1e3, t[GTAP_GN_P_EXPORT_PUBLISH] / 1e3, t[GTAP_GN_P_EXPORT_POST] / 1e3,
               (unsigned long long)t[GTAP_GN_P_N_EXPORTS], (unsigned long long)a.reserve_exported, a.reserve_n,
               t[GTAP_GN_P_IMPORT] / 1e3,
               (unsigned long long)t[GTAP_GN_P_N_IMPORTS], t[GTAP_GN_P_RESULTS] / 1e3,
               (unsigned long long)t[GTAP_GN_P_N_RESULTS], t[GTAP_GN_P_DRAIN] / 1e3, t[GTAP_GN_P_LOOP] / 1e3,
               t[GTAP_GN_P_SLEEP] / 1e3);
    }
    if (a.failed) {
        /* An internal or protocol error of the node: report it (N8) and stop the run. */
        const char msg[] = "GPU node: malformed message, protocol error or internal inconsistency "
                           "detected at gpu_node.cuh:";
        uint32_t len = sizeof msg - 1;
        if (lane == 0) {
            memcpy(gtap_gn.out_buf, msg, len);
            char digits[10];
            uint32_t n = 0;
            for (uint32_t v = a.failed; v && n < 10; v /= 10)
                digits[n++] = (char)('0' + v % 10);
            while (n)
                gtap_gn.out_buf[len++] = (unsigned char)digits[--n];
            gtap_st_relaxed_u32(&ctl->terminate, GTAP_RUN_ABORT);
        }
        len = __shfl_sync(GTAP_GN_FULL, len, 0);
        gtap_gn_post(&a, lane, GTAP_NODE_MSG_ERROR, (uint32_t)a.failed, gtap_gn.out_buf, len);
        if (lane == 0)
            gtap_st_release_sys_u32(&r->status.error, 1u); /* N8: after the ERROR message */
    } else if (a.stop) {
        gtap_gn_set_idle(&a, lane, 1, now);
        if (lane == 0) {
            gtap_st_relaxed_sys_u64(&r->status.hungry, 0ull);
            gtap_st_relaxed_sys_u64(&r->status.idle_ns, a.idle_ns);
            gtap_st_relaxed_sys_u32(&r->status.in_run, 0u);
            *(uint64_t *)gtap_gn.out_buf = now - a.t_begin;
        }
        gtap_gn_post(&a, lane, GTAP_NODE_MSG_RUN_END, a.epoch, gtap_gn.out_buf, 8);
        if (lane == 0) {
            /* Every worker is idle (the job's termination was detected): leave the run. */
            gtap_st_release_u32(&ctl->terminate, GTAP_RUN_DONE);
        }
    }
    if (lane == 0) {
        gtap_nh.words->out_seq = a.out_seq;
        gtap_st_relaxed_u32(&gtap_nh.words->launch, a.launch_tag); /* launches finished */
    }
    __syncwarp();
}

#endif /* GTAP_GPU_NODE_CUH */
