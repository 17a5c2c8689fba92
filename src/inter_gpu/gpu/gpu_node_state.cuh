/* inter_gpu/gpu/gpu_node_state.cuh - the GPU node's device tables (installed by
 * gpu_node_host.cuh), the agent's per-run state, its profile and the record of where it
 * found an inconsistency. Every other part of the node (gpu_node.cuh) builds on these.
 */
#ifndef GTAP_GPU_NODE_STATE_CUH
#define GTAP_GPU_NODE_STATE_CUH

#include "gtap/join.cuh"
#include "gtap/node_hooks.cuh"
#include "gtap/node_iface.h"
#include "gtap/rtt_hist.h"
#include "gtap/wire.h"
#if defined(GTAP_WORKER_IS_BLOCK)
#include "gtap/worker_block_node.cuh"
/* block_threads of this node's task entries (docs/wire.md): the block that runs a task */
#define GTAP_GN_BLOCK_THREADS ((uint32_t)(GTAP_BLOCK_SIZE))
#else
#include "gtap/worker_thread_node.cuh"
#define GTAP_GN_BLOCK_THREADS GTAP_WIRE_THREAD_LEVEL /* one thread runs a task */
#endif

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

/* A producer's view of a ring (node_iface.h N1-N3): the slots and counters, and how far it
 * got. The agent produces into the outbox and into its direct peers' rings. */
typedef struct gtap_gn_tx {
    unsigned char *slots;
    uint64_t *head, *tail;       /* the consumer's and our counter */
    uint32_t n;                  /* slots, a power of two */
    uint32_t seq;                /* next message sequence number */
    uint64_t pos, head_seen;     /* slots produced (our tail); the consumer's head as last read */
} gtap_gn_tx;

/* A consumer's view of a ring: the inbox, and the rings its direct peers produce into. */
typedef struct gtap_gn_rx {
    const unsigned char *slots;
    uint64_t *head, *tail;
    uint32_t n;
    uint32_t pad;
    uint64_t pos, tail_seen;     /* slots consumed (our head); the producer's tail as last read */
} gtap_gn_rx;

/* ---- direct steals within a host (node_iface.h N10, docs/dist.md) --------------------------- */

/* A direct ring: its counters (the consumer's head at 0, the producer's tail at 128, each on a
 * line of its own), then its slots. It lives in the consumer's GPU memory; the producer
 * writes it through a CUDA IPC mapping (over NVLink, or the same GPU's memory). */
#define GTAP_GN_DIRECT_SLOTS 1024u
#define GTAP_GN_DIRECT_CTL_BYTES 256u
#define GTAP_GN_DIRECT_RING_BYTES (GTAP_GN_DIRECT_CTL_BYTES + GTAP_GN_DIRECT_SLOTS * GTAP_NODE_SLOT_BYTES)
/* Slots every message but a reply leaves free: a reply (EXPORTED) is never more than a
 * message plus the PAD before it, at most one is outstanding per ring (a thief asks a peer
 * again only after it read the reply), so it always finds room and never waits on a peer
 * that may itself be waiting to post to us. */
#define GTAP_GN_DIRECT_REPLY_SLOTS (2u * GTAP_NODE_MAX_MESSAGE_SLOTS)
/* The thief's back-off after a reply without tasks: from the first, doubling, to the longest
 * (ns); as the proxy's for a GPU node (docs/dist.md, "A wide node's proxy"). */
#define GTAP_GN_DIRECT_BACKOFF_NS 20000ull
#define GTAP_GN_DIRECT_BACKOFF_MAX_NS 100000ull

/* One direct peer: its rank, the two rings, and the state of both across runs. Device
 * memory; the agent (lane 0 writes, after a __syncwarp every lane reads) owns it. */
typedef struct gtap_gn_direct_peer {
    uint32_t rank;
    uint32_t req_id;             /* the last export request sent to this peer */
    uint32_t req_open;           /* 1 while it is unanswered (it may be of an earlier run) */
    uint32_t pad;
    uint64_t req_sent_ns;
    gtap_gn_rx in;               /* ring from the peer, in our memory */
    gtap_gn_tx out;              /* ring to the peer, in its memory */
} gtap_gn_direct_peer;

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
    gtap_gn_direct_peer *direct;  /* [ndirect]: peers of this host reached directly (N10) */
    uint32_t ndirect;
    uint32_t stats;               /* GTAP_STATS: the agent computes round-trip percentiles */
    uint32_t *rtt_hist;           /* [GTAP_RTT_BUCKETS]: this run's direct steal round trips */
} gtap_gnode_dev;

static __constant__ gtap_gnode_dev gtap_gn;

#define GTAP_GN_FULL 0xffffffffu

/* block_threads of fn's task entries (docs/wire.md): the node's, or 32 for a warp task of a
 * thread-level program. */
static __device__ __forceinline__ uint32_t gtap_gn_task_threads(uint32_t fn)
{
    return gtap_wire_task_threads(GTAP_GN_BLOCK_THREADS, (gtap_gn.fns[fn].flags & GTAP_FN_WARP) != 0);
}

/* The agent's larger steps are calls: inlined into one loop, their state stayed live in
 * registers and raised the whole kernel's register count (every entry kernel contains the
 * agent; src/inter_gpu/CMakeLists.txt caps it at 128 registers). */
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
    gtap_gn_rx in;               /* the inbox */
    gtap_gn_tx out;              /* the outbox */
    gtap_node_direct direct;     /* this run's direct traffic (published to region->direct) */
    uint64_t direct_next_ns;     /* no direct request before this time (back-off) */
    uint64_t direct_backoff_ns;  /* the next back-off after an empty reply */
    uint32_t epoch;              /* this run (N5) */
    uint32_t launch_tag;         /* gtap_nh_launch_tag() of this launch */
    uint32_t holds;              /* increments of ctl->active the agent owns */
    uint32_t done_pos;           /* done ring: next position to read */
    uint32_t idle;               /* our copy of status.idle */
    uint32_t hungry;             /* our copy of status.hungry (N9) */
    uint32_t stop, root_posted;
    uint32_t failed;             /* nonzero: where the agent found an inconsistency (GTAP_GN_FAILED_AT) */
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

/* The agent's steps as GTAP_DIST_AGENT_PROFILE reports them (a diagnostic: where the agent's
 * time goes). GTAP_GN_T0() starts a stopwatch in the current scope, GTAP_GN_T(a, step) adds
 * the time since the last mark to the step; both warp-uniform. */
#define GTAP_GN_T0() uint64_t gtap_gn_mark = gtap_gn.profile ? gtap_gn_now(lane) : 0
#define GTAP_GN_T(a_, step)                                                                                    \
    do {                                                                                                       \
        if (gtap_gn.profile) {                                                                                 \
            const uint64_t t_ = gtap_gn_now(lane);                                                             \
            (a_)->prof[step] += t_ - gtap_gn_mark;                                                             \
            gtap_gn_mark = t_;                                                                                 \
        }                                                                                                      \
    } while (0)

/* ---- where an inconsistency was found (N8) ---------------------------------------------------- */

/* The parts of the node that detect inconsistencies; the ERROR message names the file. */
enum gtap_gn_part {
    GTAP_GN_PART_IMPORT = 1,  /* gpu_node_import.cuh */
    GTAP_GN_PART_RESULTS = 2, /* gpu_node_results.cuh */
    GTAP_GN_PART_AGENT = 3,   /* gpu_node_agent.cuh */
    GTAP_GN_PART_DIRECT = 4   /* gpu_node_direct.cuh */
};

/* gtap_gn_agent.failed for the current line of `part`: nonzero, part << 16 | line. */
#define GTAP_GN_FAILED_AT(part) (((uint32_t)(part) << 16) | (uint32_t)__LINE__)

GTAP_DEV const char *gtap_gn_part_file(uint32_t part)
{
    switch (part) {
    case GTAP_GN_PART_IMPORT: return "gpu_node_import.cuh";
    case GTAP_GN_PART_RESULTS: return "gpu_node_results.cuh";
    case GTAP_GN_PART_AGENT: return "gpu_node_agent.cuh";
    case GTAP_GN_PART_DIRECT: return "gpu_node_direct.cuh";
    default: return "gpu_node";
    }
}

#endif /* GTAP_GPU_NODE_STATE_CUH */
