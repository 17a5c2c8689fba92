/* gtap/node_iface.h - the contract between a rank's proxy thread (src/inter_gpu/proxy.c) and
 * its node runtime (a GPU's persistent kernel, or the CPU reference executor): one memory
 * region holding two single-producer/single-consumer rings of fixed-size slots plus a status
 * and a control block. Nothing in it is a pointer or a callback: a GPU reaches the region
 * through mapped pinned host memory (cudaHostAllocMapped) and system-scope atomics, the CPU
 * reference executor through ordinary memory and C11-style atomics. docs/dist.md, section
 * "Node interface", is the prose version; rules are cited as "node_iface N1..N8".
 *
 *   region:  [identity 128 B][status 128 B][control 128 B][inbox ring ctl 256 B]
 *            [outbox ring ctl 256 B][direct 128 B][inbox slots: ring_slots x 256 B]
 *            [outbox slots: ...]
 *
 * N1 Rings. The inbox is written by the proxy and read by the node; the outbox the other way.
 *    `tail` counts slots produced (only the producer writes it, store-release after the slots
 *    are written); `head` counts slots consumed (only the consumer writes it, store-release
 *    after it has finished reading the slots). Each side reads the other's counter with
 *    load-acquire. Counters are 64-bit and never wrap; slot index = counter % ring_slots.
 * N2 Messages. A message is a gtap_node_msg_header followed by `bytes` payload bytes, stored
 *    contiguously in `nslots` consecutive slots (the header occupies the first 16 bytes of
 *    the first slot). A message never wraps around the end of the ring: when it would, the
 *    producer first fills the rest of the ring with one PAD message, which consumers skip.
 *    A message spans at most GTAP_NODE_MAX_MESSAGE_SLOTS slots, so its payload is at most
 *    GTAP_NODE_MAX_MESSAGE_BYTES (65,520 bytes). Larger content is split by the producer.
 * N3 A consumer must finish reading a message before it publishes a head past it; the
 *    producer may overwrite the slots at once afterwards.
 * N4 Idleness. status.idle is written by the node only: 1 when it holds no runnable task,
 *    every message it consumed has been acted upon and every message it produced has been
 *    published (no local overflow); 0 otherwise. Before the node publishes a head past an
 *    IMPORT or RESULTS message it stores idle = 0 (relaxed is enough: the head's release
 *    orders it). The node that starts the root (is_master of RUN_BEGIN) stores idle = 0
 *    before it posts RUN_BEGIN (the post's release orders it): the root is its task from the
 *    run's first moment. The proxy decides "the node is passive" by reading inbox.head
 *    (acquire), seeing it equal to the inbox tail it produced, and then reading idle == 1
 *    (acquire).
 * N5 Runs. A run (one `#pragma gtap entry`, i.e. one gtap_launch) is an epoch numbered 1, 2,
 *    ... by the node. The node posts RUN_BEGIN{epoch} when it enters the run and RUN_END
 *    {epoch} when it leaves; it leaves only after it consumed STOP{epoch}. Between RUN_END
 *    and the next RUN_BEGIN the node holds no task and the proxy sends it nothing but
 *    (possibly early) STOPs for the next epoch, which the node must keep.
 * N6 Migration. EXPORT_REQUEST{id, max_tasks, max_bytes} is answered by exactly one
 *    EXPORTED{id} (count 0 if nothing migratable is runnable), in request order. Exported
 *    tasks are the node's oldest runnable tasks (the steal end of its deques) whose function
 *    has GTAP_FN_MIGRATABLE. A task that was exported with GTAP_WIRE_TASK_COMPLETION leaves a
 *    stub on this node (parent link, result destination) until a RESULTS entry for it
 *    arrives; the node then writes the result bytes to the stub's destination and completes
 *    the stub exactly like a local child (docs/join.md J1-J3).
 * N7 Imported tasks run as fresh local records without a local parent. When one with
 *    GTAP_WIRE_TASK_COMPLETION finishes (at the moment it would notify a local parent,
 *    gtap_gen.h R4 included) the node posts a COMPLETION for its origin rank.
 * N8 Errors. A node that fails stores status.error = 1 and posts ERROR{text}; the proxy
 *    ends the whole job. control.abort = 1 asks the node to stop at once (job teardown).
 * N9 Hunger. A node with many workers (a GPU) may store status.hungry = 1 while it runs
 *    tasks but fewer than it could (e.g. under half of its warps hold work): the proxy then
 *    steals for it as for an idle node, once the node consumed everything in its inbox.
 *    A hungry node answers EXPORT_REQUEST with no tasks unless the request carries
 *    GTAP_NODE_EXPORT_THIEF_IDLE, so work flows only from full nodes to hungry ones, and
 *    from any node with queued tasks to idle ones. Termination uses idle alone (N4). A node that never
 *    writes it (the CPU reference node) is never hungry.
 * N10 Direct steals. A node may also exchange EXPORT_REQUEST, EXPORTED and RESULTS with
 *    nodes of its host over rings of its own, with no proxy on the way (the GPU node:
 *    docs/dist.md "Direct steals within a host"). It counts what travelled that way in the
 *    `direct` block, per run: the proxy adds basic_sent - basic_received to its Safra count
 *    and turns black when basic_received grew (docs/dist.md T3), reading the block after
 *    idle == 1 (acquire); the node stores idle = 0 before it counts a received basic
 *    message, and counts a sent one before the message can be read. A node that never
 *    steals directly leaves the block zero.
 */
#ifndef GTAP_NODE_IFACE_H
#define GTAP_NODE_IFACE_H

#include <stddef.h>
#include <stdint.h>

#define GTAP_NODE_IFACE_VERSION 2
#define GTAP_NODE_MAGIC 0x494e5447u /* "GTNI" in memory order */

#define GTAP_NODE_SLOT_BYTES 256u
#define GTAP_NODE_MSG_HEADER_BYTES 16u
#define GTAP_NODE_DEFAULT_RING_SLOTS 2048u /* 512 KiB per ring */
#define GTAP_NODE_MAX_MESSAGE_SLOTS 256u  /* 64 KiB: a steal batch of 512 small tasks fits */
#define GTAP_NODE_MAX_MESSAGE_BYTES \
    (GTAP_NODE_MAX_MESSAGE_SLOTS * GTAP_NODE_SLOT_BYTES - GTAP_NODE_MSG_HEADER_BYTES)

/* Message kinds (gtap_node_msg_header.kind). Payload layouts are in brackets; wire batches
 * are defined in gtap/wire.h. */
/* EXPORT_REQUEST flags. THIEF_IDLE: the thief's node has no task at all, so N9's "a node
 * short of work gives none" does not apply (at a run's start the victim is still ramping up,
 * and its oldest tasks are the largest subtrees of the whole run). */
#define GTAP_NODE_EXPORT_THIEF_IDLE 0x1u

enum gtap_node_msg_kind {
    GTAP_NODE_MSG_PAD = 1,            /* both rings: skip nslots slots */
    /* inbox: proxy -> node */
    GTAP_NODE_MSG_STOP = 2,           /* arg = epoch; no payload: the run is over (N5) */
    GTAP_NODE_MSG_EXPORT_REQUEST = 3, /* arg = request id; [u32 max_tasks, u32 max_bytes, u32 flags] */
    GTAP_NODE_MSG_IMPORT = 4,         /* arg = source rank; [wire task batch] */
    GTAP_NODE_MSG_RESULTS = 5,        /* arg = source rank; [wire result batch] */
    /* outbox: node -> proxy */
    GTAP_NODE_MSG_RUN_BEGIN = 16,     /* arg = epoch; [u64 is_master, u64 segments, u64 idle_ns]
                                         (the status counters at the start of the run) */
    GTAP_NODE_MSG_RUN_END = 17,       /* arg = epoch; [u64 run_ns]: the node's time in the run */
    GTAP_NODE_MSG_EXPORTED = 18,      /* arg = request id; [wire task batch], count may be 0 */
    GTAP_NODE_MSG_COMPLETION = 19,    /* arg = origin rank; [wire result batch], >= 1 entry */
    GTAP_NODE_MSG_ROOT_DONE = 20,     /* arg = GTAP_NODE_ROOT_* flags; no payload */
    GTAP_NODE_MSG_ERROR = 21          /* arg = 0; [text, not NUL-terminated] */
};

/* ROOT_DONE flags */
#define GTAP_NODE_ROOT_DETACHED 0x1u /* some task of this run detached children (R4) */

/* The first 16 bytes of a message (N2). */
typedef struct gtap_node_msg_header {
    uint16_t kind;   /* gtap_node_msg_kind */
    uint16_t nslots; /* slots the message occupies, header included: 1..MAX_MESSAGE_SLOTS */
    uint32_t bytes;  /* payload bytes after the header */
    uint32_t arg;    /* kind-specific (see the enum) */
    uint32_t seq;    /* per-ring message sequence number, for diagnostics */
} gtap_node_msg_header;

/* One ring's counters (N1): head and tail on separate 128-byte lines. */
typedef struct gtap_node_ring {
    uint64_t head;      /* written by the consumer */
    uint8_t pad0[120];
    uint64_t tail;      /* written by the producer */
    uint8_t pad1[120];
} gtap_node_ring;

/* Written by the node, read by the proxy. idle/error as N4/N8; the counters are statistics
 * and watchdog progress, stored relaxed and only approximately current. */
typedef struct gtap_node_status {
    uint32_t idle;           /* N4 */
    uint32_t error;          /* N8 */
    uint32_t epoch;          /* last RUN_BEGIN epoch */
    uint32_t in_run;         /* 1 between RUN_BEGIN and RUN_END */
    uint64_t segments;       /* task segments executed (all runs): the progress counter */
    uint64_t tasks_created;  /* spawns on this node */
    uint64_t tasks_imported; /* records imported (IMPORT) */
    uint64_t tasks_exported; /* records exported (EXPORTED) */
    uint64_t results_applied;/* RESULTS entries applied to stubs */
    uint64_t runnable;       /* runnable tasks queued (snapshot) */
    uint64_t live;           /* live task records incl. stubs (snapshot) */
    uint64_t idle_ns;        /* time spent idle inside runs (all runs) */
    uint64_t first_work_ns;  /* this run: RUN_BEGIN to the first segment; 0 = none yet */
    uint64_t detached;       /* tasks that finished with detached children (R4) */
    uint64_t hungry;         /* N9: 1 = busy but short of work; the proxy may steal for it */
    uint64_t export_ns;      /* time spent answering EXPORT_REQUESTs (this run) */
    uint64_t exports_refused;/* EXPORT_REQUESTs answered empty by N9's rule (this run) */
    uint64_t exports_empty;  /* EXPORT_REQUESTs that found nothing to give (this run) */
} gtap_node_status;

/* Written by the proxy, read by the node. */
typedef struct gtap_node_control {
    uint32_t abort;          /* N8: nonzero = stop at once, the job is ending */
    uint32_t reserved0;
    uint64_t reserved[15];
} gtap_node_control;

/* Written by the node, read by the proxy: this run's traffic over direct rings (N10). The
 * counters restart at 0 before RUN_BEGIN. */
typedef struct gtap_node_direct {
    uint64_t basic_sent;        /* task batches with >= 1 task and result batches sent (T3) */
    uint64_t basic_received;    /* ... received; stored after idle = 0 */
    uint64_t steals_attempted;  /* export requests sent to direct peers */
    uint64_t steals_succeeded;  /* ... answered with >= 1 task */
    uint64_t tasks_in, tasks_out;     /* records received / sent */
    uint64_t results_in, results_out; /* result entries received / sent */
    uint64_t requests_received; /* export requests of direct peers */
    uint64_t rtt_n;             /* round trips of steals that brought tasks (request posted to reply read) */
    uint64_t rtt_p50_ns, rtt_p99_ns; /* their median and 99th percentile (gtap/rtt_hist.h) */
    uint64_t reserved[4];
} gtap_node_direct;

/* The region. Slots start at inbox_offset / outbox_offset bytes from the region start. */
typedef struct gtap_node_region {
    /* identity: written once by gtap_node_region_init, before the node starts */
    uint32_t magic;            /* GTAP_NODE_MAGIC */
    uint32_t version;          /* GTAP_NODE_IFACE_VERSION */
    uint32_t slot_bytes;       /* GTAP_NODE_SLOT_BYTES */
    uint32_t ring_slots;       /* slots per ring, a power of two >= 2 * MAX_MESSAGE_SLOTS */
    uint32_t max_message_slots;/* GTAP_NODE_MAX_MESSAGE_SLOTS */
    uint32_t rank;             /* this rank */
    uint32_t nranks;           /* ranks in the job */
    uint32_t flags;            /* GTAP_NODE_REGION_* */
    uint64_t program_hash;     /* gtapgen_program.program_hash (as used on the wire) */
    uint64_t inbox_offset;
    uint64_t outbox_offset;
    uint64_t total_bytes;      /* gtap_node_region_bytes(ring_slots) */
    uint8_t pad[64];
    gtap_node_status status;   /* offset 128 */
    gtap_node_control control; /* offset 256 */
    gtap_node_ring inbox;      /* offset 384 */
    gtap_node_ring outbox;     /* offset 640 */
    gtap_node_direct direct;   /* offset 896 (N10) */
} gtap_node_region;          /* 1024 bytes; slots follow */

/* region flags */
#define GTAP_NODE_REGION_NO_TASKWAIT 0x1u /* node built with GTAP_ASSUME_NO_TASKWAIT */

#define GTAP_NODE_REGION_HEADER_BYTES 1024u

/* Bytes of a region with ring_slots slots per ring. */
static inline uint64_t gtap_node_region_bytes(uint32_t ring_slots)
{
    return GTAP_NODE_REGION_HEADER_BYTES + 2ull * ring_slots * GTAP_NODE_SLOT_BYTES;
}

#ifdef __cplusplus
#define GTAP_NODE_STATIC_ASSERT static_assert
#else
#define GTAP_NODE_STATIC_ASSERT _Static_assert
#endif
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_msg_header) == GTAP_NODE_MSG_HEADER_BYTES, "msg header");
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_ring) == 256, "ring counters");
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_status) == 128, "status block");
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_control) == 128, "control block");
GTAP_NODE_STATIC_ASSERT(offsetof(gtap_node_region, status) == 128, "status offset");
GTAP_NODE_STATIC_ASSERT(offsetof(gtap_node_region, control) == 256, "control offset");
GTAP_NODE_STATIC_ASSERT(offsetof(gtap_node_region, inbox) == 384, "inbox offset");
GTAP_NODE_STATIC_ASSERT(offsetof(gtap_node_region, outbox) == 640, "outbox offset");
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_direct) == 128, "direct block");
GTAP_NODE_STATIC_ASSERT(offsetof(gtap_node_region, direct) == 896, "direct offset");
GTAP_NODE_STATIC_ASSERT(sizeof(gtap_node_region) <= GTAP_NODE_REGION_HEADER_BYTES, "region header");

#endif /* GTAP_NODE_IFACE_H */
