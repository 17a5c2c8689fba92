/* gtap/node_hooks.cuh - where the schedulers (thread- and block-level) meet the distributed
 * layer: the few words a worker touches when the node is one rank of a distributed job. Compiled only
 * into GTAP_DISTRIBUTED builds (CMake target gtap_dist_gpu); the agent warp that serves the
 * node interface on the other side of these hooks is src/inter_gpu/gpu/gpu_node.cuh.
 *
 * When a node is attached (docs/dist.md, "The GPU node"; a "warp" below is a worker, a whole
 * block with block-level workers, whose agent is warp 0 of block 1):
 *   - warp 1 is the agent (GTAP_AGENT_WORKER): it runs no tasks, it moves task records and
 *     results between the deques and the proxy's mailboxes. Warp 1 sits in block 0, which
 *     is resident from the start even when a grid has more blocks than fit at once (the
 *     last warp was the agent once, and such a grid never let it start: no run could end);
 *     and it is warp 0's child in the workers' probing tree, so imported tasks spread from
 *     it as the root's children do. In a job of several ranks the other worker warps on the
 *     agent's SM but warp 0 sit out each run (gtap_nh_passive), so that the agent answers
 *     fast; the tree neighbours among them then probe nothing, and the workers' random
 *     probes (5 of the 8 probing lanes each round) find the agent's and warp 0's tasks;
 *   - on rank 0, with GTAP_DIST_OPENING_RESERVE, the local thieves leave warp 0 alone at a
 *     run's start until the agent has taken the first tasks it publishes for the other
 *     ranks (gtap_nh_reserved);
 *   - only rank 0 runs the entry task; the run ends when the agent receives STOP, never
 *     when the local active count reaches zero (a later import may bring work);
 *   - an imported task has parent GTAP_PARENT_REMOTE; when it finishes, the worker hands its
 *     id to the agent through the done ring instead of notifying a parent, and the agent
 *     sends its result home and frees the record;
 *   - a task exported with a pending completion stays behind as a stub (resumption state
 *     GTAP_STATE_MIGRATED) that keeps its parent link and result destination.
 * Without an attached node (gtap_nh.attached == 0) a launch runs the scheduler's other
 * instantiation (gtap_thread_scheduler<false>, worker_thread.cuh), which calls no hook: the
 * same code as a build without GTAP_DISTRIBUTED. The hooks below are called only with a
 * node attached.
 */
#ifndef GTAP_NODE_HOOKS_CUH
#define GTAP_NODE_HOOKS_CUH

#include "gtap/device.cuh"

#define GTAP_PARENT_REMOTE 0xfffffffeu /* parent of an imported task: its join is elsewhere */
#define GTAP_STATE_MIGRATED 0xfffeu    /* resumption state of a stub (task runs elsewhere) */
#define GTAP_AGENT_WORKER 1u            /* the worker (warp) index of the agent */

/* Words shared by the workers and the agent, each on its own 128-byte line. */
typedef struct gtap_node_words {
    uint32_t done_reserve;   /* done-ring positions handed out (workers, atomicAdd) */
    uint32_t pad0[31];
    uint32_t done_consumed;  /* done-ring positions the agent has emptied */
    uint32_t pad1[31];
    uint32_t launch;         /* launches this node finished; the agent advances it on exit */
    uint32_t root_done;      /* launch + 1 once the root task finished in the current launch */
    uint32_t detached;       /* launch + 1 once a task detached children in the current launch */
    uint32_t stub_seq;       /* last stub sequence number handed out (agent only) */
    uint32_t out_seq;        /* next outbox message sequence number (agent only) */
    uint32_t agent_sm;       /* the SM the agent runs on in this launch (gtap_nh_passive) */
    uint32_t agent_sm_tag;   /* launch tag once agent_sm is written (release) */
    uint32_t reserve_closed; /* launch tag once the opening reserve stops taking (gtap_nh_reserved) */
    uint32_t pad2[24];
} gtap_node_words;

typedef struct gtap_node_hooks_dev {
    uint32_t attached;       /* a distributed node is attached to this runtime */
    uint32_t holds_root;     /* this node runs the entry task (rank 0, or not attached) */
    uint32_t done_mask;      /* done-ring capacity - 1 (a power of two) */
    uint32_t quiet_agent_sm; /* the agent's SM runs no other worker but warp 0 (gtap_nh_passive) */
    uint32_t opening_reserve; /* the agent takes warp 0's first tasks for other ranks (gtap_nh_reserved) */
    uint32_t *done_ring;     /* finished imported tasks, as id + 1; 0 = empty slot */
    gtap_node_words *words;
} gtap_node_hooks_dev;

/* Installed by the GPU node's host code (gpu_node_host.cuh); all-zero = not attached. */
static __constant__ gtap_node_hooks_dev gtap_nh;

GTAP_DEV int gtap_nh_attached(void)
{
    return gtap_nh.attached != 0;
}

/* Does this node start the entry task? */
GTAP_DEV int gtap_nh_holds_root(void)
{
    return !gtap_nh.attached || gtap_nh.holds_root;
}

GTAP_DEV uint32_t gtap_nh_launch_tag(void)
{
    return gtap_ld_relaxed_u32(&gtap_nh.words->launch) + 1u;
}

GTAP_DEV uint32_t gtap_nh_smid(void)
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

/* Does worker warp w sit out this launch, leaving the agent's SM to the agent? With other
 * ranks to serve, every memory step of the agent waited behind the load and store traffic
 * of the 15 worker warps beside it: 2-5 us each, so that an export of 512 tasks took
 * ~250 us and a batch of results ~450 us. The warps on that SM
 * (at most 16 of thousands) then only wait for the run's end; warp 0, which starts the
 * root, always works. Warp-collective; the agent publishes its SM at its start. */
GTAP_DEV int gtap_nh_passive(uint32_t w, uint32_t lane)
{
    if (!gtap_nh.quiet_agent_sm || w == 0)
        return 0;
    uint32_t passive = 0;
    if (lane == 0) {
        const uint32_t tag = gtap_nh_launch_tag();
        /* Acquire: agent_sm of this launch. Block 0, the agent's, is resident first; a block
         * that starts after the run ended (a grid larger than fits) finds terminate set. */
        uint32_t seen = 0;
        while ((seen = gtap_ld_acquire_u32(&gtap_nh.words->agent_sm_tag)) != tag &&
               gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate) == GTAP_RUN)
            __nanosleep(200);
        passive = seen == tag && gtap_ld_relaxed_u32(&gtap_nh.words->agent_sm) == gtap_nh_smid();
    }
    return (int)__shfl_sync(0xffffffffu, passive, 0);
}

/* A warp that sits out a node's run (gtap_nh_passive) waits for its end. Warp-collective;
 * polled relaxed: the warp holds nothing and reads nothing the run wrote. */
GTAP_DEV void gtap_nh_sit_out(uint32_t lane)
{
    if (lane == 0)
        while (gtap_ld_relaxed_u32(&gtap_dev.ctl->terminate) == GTAP_RUN)
            __nanosleep(2000);
    __syncwarp();
}

/* Is warp `victim`'s deque the opening reserve's alone? On the rank that starts the root,
 * when GTAP_DIST_OPENING_RESERVE is set, the first tasks warp 0 publishes (the root's
 * oldest descendants, the largest tasks of the run) are for the other ranks' first steals:
 * until the agent has taken them (gtap_gn_reserve_step) the local thieves leave warp 0
 * alone, or they would have split them over the GPU within microseconds. Called by a
 * probing lane that found tasks; only victim 0 costs two loads. */
GTAP_DEV int gtap_nh_reserved(uint32_t victim)
{
    if (victim != 0 || !gtap_nh.opening_reserve)
        return 0;
    /* relaxed: a stale "open" only delays a steal by one probing round */
    return gtap_ld_relaxed_u32(&gtap_nh.words->reserve_closed) != gtap_nh_launch_tag();
}

/* A task of this launch finished with detached children (R4): docs/dist.md T2. Relaxed:
 * the completion that follows on this worker (a parent's join counter, acq_rel, or the
 * done ring, release) carries it to whoever reports the root's or this task's end. */
GTAP_DEV void gtap_nh_note_detached(void)
{
    gtap_st_relaxed_u32(&gtap_nh.words->detached, gtap_nh_launch_tag());
}

/* The root task's last segment returned (its result is stored). */
GTAP_DEV void gtap_nh_root_finished(void)
{
    /* Release: the root's result and every completion it acquired happen before the agent
     * reads root_done (acquire) and reports ROOT_DONE. */
    gtap_st_release_u32(&gtap_nh.words->root_done, gtap_nh_launch_tag());
}

/* An imported task finished: hand its record to the agent, which sends the result home
 * and frees the record (or, for a zombie, drops the extra join count it holds). Waits
 * while the ring is full; the agent drains it without waiting on any worker. */
GTAP_DEV void gtap_nh_imported_finished(uint32_t id)
{
    gtap_node_words *wd = gtap_nh.words;
    uint32_t pos = atomicAdd(&wd->done_reserve, 1u);
    while (pos - gtap_ld_acquire_u32(&wd->done_consumed) > gtap_nh.done_mask)
        __nanosleep(256);
    /* Release: the result in the import buffer and the header (zombie marker, join count)
     * are visible to the agent once it reads the slot with acquire. */
    gtap_fence_acq_rel();
    gtap_st_relaxed_u32(&gtap_nh.done_ring[pos & gtap_nh.done_mask], id + 1u);
}

/* A task of this launch finished with `children` detached children (J4) and parent `parent`:
 * the join count its record keeps, one more for an imported task (the agent's reference,
 * dropped once it has sent the result home). */
GTAP_DEV uint32_t gtap_nh_detach_holds(uint32_t parent, uint32_t children)
{
    gtap_nh_note_detached();
    return parent == GTAP_PARENT_REMOTE ? children + 1u : children;
}

/* Task `id`, whose parent is `parent`, completed on a node's worker (the thread or the block
 * scheduler): an imported task goes to the agent, which frees its record (returns 1: the
 * worker does nothing else with it); the root's end is reported. */
GTAP_DEV int gtap_nh_task_completed(uint32_t id, uint32_t parent)
{
    if (parent == GTAP_PARENT_REMOTE) {
        gtap_nh_imported_finished(id);
        return 1;
    }
    if (parent == GTAP_NO_TASK && id == gtap_root_id())
        gtap_nh_root_finished();
    return 0;
}

#endif /* GTAP_NODE_HOOKS_CUH */
