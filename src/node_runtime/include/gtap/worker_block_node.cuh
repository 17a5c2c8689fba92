/* gtap/worker_block_node.cuh - the worker-node interface (gtap_node_sh, gtap_worker_node_*)
 * of block-level workers: what a block's scheduler state offers the GPU node's agent
 * (src/inter_gpu/gpu/gpu_node*.cuh). worker_thread_node.cuh is the thread-level version,
 * with the same functions and contracts; this file states only where blocks differ.
 *
 * The agent is warp 0 of block GTAP_AGENT_WORKER (worker_block.cuh, gtap_block_node_block):
 * it owns that block's Chase-Lev deque (deque_cl.cuh) and magazine and runs no tasks; the
 * block's other warps leave at the start of the run. Lane 0 is the block's thread 0, the
 * deque's owner. The agent only pushes to its deque (workers steal from it) and never pops.
 *
 * Included by gpu_node_state.cuh in GTAP_DISTRIBUTED builds of block-level programs, after
 * worker_block.cuh (gtap_block_sh, gtap_bq_*, the pool).
 */
#ifndef GTAP_WORKER_BLOCK_NODE_CUH
#define GTAP_WORKER_BLOCK_NODE_CUH

#include "gtap/worker_block.cuh"

/* The agent's scheduler state: its block's, and the 32 words through which lane 0 hands
 * values to the other lanes. In the agent block's shared memory. */
typedef struct gtap_node_sh {
    gtap_block_sh q;
    uint32_t xfer[32];
} gtap_node_sh;

/* ---- the block's own deque ------------------------------------------------------------------ */

/* Has the deque room for one more entry, at the position the next push takes? Lane 0. On a
 * stale cached top it reloads it with acquire (a thief's CAS made room). q: one deque. */
GTAP_DEV int gtap_worker_node_room(gtap_node_sh *sh, uint32_t w, uint32_t q)
{
    (void)q;
    const uint32_t pos = sh->q.bottom + (uint32_t)sh->q.spawned;
    if (pos - sh->q.top_cache < gtap_dev.ring_capacity)
        return 1;
    sh->q.top_cache = gtap_ld_acquire_u32(&gtap_block_deque(w)->head);
    return pos - sh->q.top_cache < gtap_dev.ring_capacity;
}

/* Appends record id as a new, unpublished entry. Lane 0. Cannot fail after
 * gtap_worker_node_room said yes; else returns 0 after raising GTAP_ERR_DEQUE_FULL, and
 * gtap_worker_node_publish then drops the entries (the run aborts). */
GTAP_DEV int gtap_worker_node_push(gtap_node_sh *sh, uint32_t w, uint32_t q, uint32_t id)
{
    if (!gtap_worker_node_room(sh, w, q)) {
        gtap_raise(GTAP_ERR_DEQUE_FULL, (long long)(sh->q.bottom + (uint32_t)sh->q.spawned - sh->q.top_cache) + 1,
                   gtap_dev.ring_capacity, (int)w, 0, -1, __LINE__);
        sh->q.failed_push = 1;
        return 0;
    }
    gtap_block_ring(w)[(sh->q.bottom + (uint32_t)sh->q.spawned) & gtap_dev.ring_mask] = id;
    sh->q.spawned++;
    return 1;
}

/* Publishes to thieves every entry pushed since the last publish, or drops them all when a
 * push failed. Warp-collective; the records behind the entries are written (by any lane,
 * before this call). */
GTAP_DEV void gtap_worker_node_publish(gtap_node_sh *sh, uint32_t w, uint32_t lane)
{
    __syncwarp(); /* lane 0's pushes and every lane's record stores are done */
    const uint32_t n = (uint32_t)sh->q.spawned;
    if (n == 0)
        return;
    /* Release, by every lane: the records (written by any lane) and the ring entries before
     * the bottom that makes them stealable (gtap_cl_steal1 acquires it). */
    gtap_fence_acq_rel();
    __syncwarp(); /* every lane read n and fenced before lane 0 resets it */
    if (lane == 0) {
        if (!sh->q.failed_push)
            gtap_bq_publish(&sh->q, w, n);
        sh->q.spawned = 0;
    }
    __syncwarp();
}

/* Published, unclaimed entries: a hint (relaxed loads), never more than the deque holds
 * (top only grows and bottom is the agent's own). Lane 0. */
GTAP_DEV uint32_t gtap_worker_node_queued(uint32_t w)
{
    return gtap_cl_size(gtap_block_deque(w));
}

/* Before the agent gives back its last active-count increment, lane 0, having seen the deque
 * empty: a Chase-Lev claim is one CAS of top, made after the thief counted itself active
 * (gtap_sched_announce_claim), so no thief is ever "between claim and unlock". The acquire
 * load of top orders every claim that emptied the deque, and with it the claimer's
 * increment, before the agent's decrement (docs/termination.md). */
GTAP_DEV void gtap_worker_node_quiesce(uint32_t w)
{
    (void)gtap_ld_acquire_u32(&gtap_block_deque(w)->head);
}

/* Between agent steps, lane 0: refreshes the cached top if a push found it stale. */
GTAP_DEV void gtap_worker_node_refresh(gtap_node_sh *sh, uint32_t w)
{
    gtap_bq_refresh(&sh->q, w);
}

/* ---- stealing from other blocks --------------------------------------------------------------- */

/* Entries a thief could take from block victim's deque now: a racy hint. One lane. */
GTAP_DEV uint32_t gtap_worker_node_probe(uint32_t victim, uint32_t q)
{
    (void)q;
    return gtap_bq_probe(victim);
}

/* Takes up to want (<= 32) of the oldest entries of victim's deque, one Chase-Lev steal
 * each (lane 0), stopping at the first that fails; lanes [0, k) receive them in *id_p.
 * Returns k. Warp-collective. On success the agent was counted active once for the claim
 * (ctl->active += 1, before the first CAS), and the records are visible (acquire fence). */
GTAP_DEV uint32_t gtap_worker_node_steal(gtap_node_sh *sh, uint32_t victim, uint32_t q, uint32_t want, uint32_t lane,
                                         uint32_t *id_p)
{
    (void)q;
    uint32_t k = 0;
    if (lane == 0) {
        gtap_sched_announce_claim();
        while (k < want && gtap_bq_steal1(victim, &sh->xfer[k]))
            k++;
        if (k == 0)
            gtap_sched_claim_failed<true>(); /* a node's run ends on STOP, never here */
        else
            gtap_fence_acq_rel(); /* acquire: the records the victim published */
    }
    __syncwarp(); /* lane 0's xfer stores before the other lanes read them */
    k = __shfl_sync(0xffffffffu, k, 0);
    if (lane < k)
        *id_p = sh->xfer[lane];
    __syncwarp(); /* xfer is read before lane 0 reuses it */
    return k;
}

/* ---- lane hand-over and record ids ----------------------------------------------------------- */

GTAP_DEV uint32_t *gtap_worker_node_xfer(gtap_node_sh *sh)
{
    return sh->xfer;
}

GTAP_DEV void gtap_worker_node_alloc_expect(gtap_node_sh *sh)
{
    gtap_mag_expect_unknown(&sh->q.mag);
}

/* A block's magazine is balanced by one thread (gtap_mag_balance_one). Warp-collective. */
GTAP_DEV void gtap_worker_node_alloc_refill(gtap_node_sh *sh, uint32_t w, uint32_t lane)
{
    __syncwarp(); /* no lane is still allocating */
    if (lane == 0)
        gtap_mag_balance_one(&sh->q.mag, w);
    __syncwarp();
}

GTAP_DEV uint32_t gtap_worker_node_alloc(gtap_node_sh *sh, uint32_t w)
{
    return gtap_mag_alloc(&sh->q.mag, w, &sh->q.pool_slow);
}

#endif /* GTAP_WORKER_BLOCK_NODE_CUH */
