/* gtap/worker_thread_node.cuh - the worker-node interface (gtap_node_sh, gtap_worker_node_*)
 * of thread-level workers: what a warp's scheduler state offers the GPU node's agent warp
 * (src/inter_gpu/gpu/gpu_node*.cuh), which owns a deque and a record magazine like any
 * worker but runs no tasks. The agent reaches the workers' state only through these
 * functions; worker_block_node.cuh implements the same interface for block-level workers.
 *
 * Included by worker_thread.cuh in GTAP_DISTRIBUTED builds, after the warp's queue header
 * (gtap_q_*), the pool (gtap_mag_*) and the publish step (gtap_thread_push_local,
 * gtap_thread_drop_spawned, gtap_thread_publish_spawned). Every function is called by the
 * agent warp on its own state: `sh` is its gtap_node_sh and `w` its worker index.
 */
#ifndef GTAP_WORKER_THREAD_NODE_CUH
#define GTAP_WORKER_THREAD_NODE_CUH

#include "gtap/worker_shared.cuh"

/* The agent's scheduler state: a warp's. */
typedef gtap_warp_sh gtap_node_sh;

/* ---- the warp's own deque ------------------------------------------------------------------ */

/* Has queue q room for one more entry this iteration, at the position the next
 * gtap_worker_node_push takes? Lane 0 (the only lane that pushes). Conservative like
 * gtap_q_room: on a stale cached steal end it reloads it with acquire. */
GTAP_DEV int gtap_worker_node_room(gtap_node_sh *sh, uint32_t w, uint32_t q)
{
    return gtap_q_room(sh, w, q, gtap_q_slot_pos(sh, q, (uint32_t)sh->spawned[q]));
}

/* Appends record id to queue q as a new, unpublished entry (gtap_thread_push_local). Lane 0.
 * Cannot fail after gtap_worker_node_room said yes; else returns 0 after raising
 * GTAP_ERR_DEQUE_FULL, and gtap_worker_node_publish then drops the entries. */
GTAP_DEV int gtap_worker_node_push(gtap_node_sh *sh, uint32_t w, uint32_t q, uint32_t id)
{
    return gtap_thread_push_local(sh, w, q, id);
}

/* Publishes to thieves every entry pushed since the last publish, or drops them all when a
 * push failed (the run is aborting). Warp-collective; the records behind the entries are
 * written (by any lane, before this call). */
GTAP_DEV void gtap_worker_node_publish(gtap_node_sh *sh, uint32_t w, uint32_t lane)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    __syncwarp(); /* lane 0's pushes (spawned, failed_push) are visible to every lane */
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

/* Published, unclaimed entries in the warp's queues: a hint (relaxed loads; thieves may
 * claim meanwhile), exact only after gtap_worker_node_quiesce. Lane 0. */
GTAP_DEV uint32_t gtap_worker_node_queued(uint32_t w)
{
    uint32_t queued = 0;
    for (int q = 0; q < gtap_dev.num_queues; q++)
        queued += (uint32_t)gtap_ld_relaxed_u64(&gtap_deque_of(w, q)->meta); /* low word: the count */
    return queued;
}

/* Before the agent gives back its last active-count increment, lane 0: waits until no thief
 * is between its claim and its unlock on the warp's queues (gtap_q_quiesce; acquire, so such
 * a thief's increment of the active count is ordered before the agent's decrement). */
GTAP_DEV void gtap_worker_node_quiesce(uint32_t w)
{
    gtap_q_quiesce(w);
}

/* Between agent steps, lane 0: refreshes the cached steal ends if a push found them stale. */
GTAP_DEV void gtap_worker_node_refresh(gtap_node_sh *sh, uint32_t w)
{
    gtap_q_refresh(sh, w);
}

/* ---- stealing from other warps ---------------------------------------------------------------- */

/* Entries a thief could claim from (victim, q) now: a racy hint. One lane. */
GTAP_DEV uint32_t gtap_worker_node_probe(uint32_t victim, uint32_t q)
{
    return gtap_q_probe(victim, q);
}

/* Claims up to want (<= 32) of the oldest entries of (victim, q) as a thief warp does;
 * lanes [0, k) receive them in *id_p. Returns k. Warp-collective. On success the claim has
 * counted the agent active (ctl->active += 1), and the entries' records are visible (acquire,
 * pairing with the victim's publishing fence). */
GTAP_DEV uint32_t gtap_worker_node_steal(gtap_node_sh *sh, uint32_t victim, uint32_t q, uint32_t want, uint32_t lane,
                                         uint32_t *id_p)
{
    return gtap_q_steal_warp(sh, victim, q, want, 0, lane, id_p);
}

/* ---- lane hand-over and record ids ----------------------------------------------------------- */

/* The warp's 32-entry shared-memory array through which lane 0 hands values to the other
 * lanes; the caller orders its writes and reads with __syncwarp. */
GTAP_DEV uint32_t *gtap_worker_node_xfer(gtap_node_sh *sh)
{
    return sh->xfer;
}

/* Lane 0, before a batch of allocations of unknown size: the next refill fills the magazine
 * fully (gtap_mag_expect_unknown). */
GTAP_DEV void gtap_worker_node_alloc_expect(gtap_node_sh *sh)
{
    gtap_mag_expect_unknown(&sh->mag);
}

/* Between rounds of allocations, the whole warp, nothing else using the magazine: tops it up
 * (or drains it) as a worker does between iterations (gtap_mag_balance_warp). */
GTAP_DEV void gtap_worker_node_alloc_refill(gtap_node_sh *sh, uint32_t w, uint32_t lane)
{
    gtap_mag_balance_warp(&sh->mag, w, lane);
}

/* One record id from the warp's magazine, counting slow-path allocations as the workers do;
 * GTAP_NO_TASK when the pool is exhausted (the caller raises the error). Any lane, never
 * concurrently with a free to the magazine. */
GTAP_DEV uint32_t gtap_worker_node_alloc(gtap_node_sh *sh, uint32_t w)
{
    return gtap_mag_alloc(&sh->mag, w, &sh->pool_slow);
}

#endif /* GTAP_WORKER_THREAD_NODE_CUH */
