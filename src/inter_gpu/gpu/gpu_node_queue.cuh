/* inter_gpu/gpu/gpu_node_queue.cuh - the agent's own deque and its backlog: queuing the
 * runnable records the agent makes or keeps (imports, resumed parents, tasks it may not
 * ship), publishing them to the workers, and the active-count increments it holds meanwhile
 * (docs/termination.md). The deque is reached through gtap/worker_thread_node.cuh.
 */
#ifndef GTAP_GPU_NODE_QUEUE_CUH
#define GTAP_GPU_NODE_QUEUE_CUH

#include "inter_gpu/gpu/gpu_node_state.cuh"

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

/* Gives back the active-count increments the agent no longer needs: all of them once its
 * deque is empty (after waiting out thieves that are between claim and unlock, exactly as
 * an idle worker does), else all but one. Lane 0. */
GTAP_DEV void gtap_gn_settle(gtap_gn_agent *a)
{
    if (a->holds == 0)
        return;
    const uint32_t queued = gtap_worker_node_queued(a->w); /* a hint; quiesce orders */
    uint32_t keep = queued || a->backlog_n || a->reserve_n != a->reserve_pos ? 1u : 0u; /* the reserve holds tasks too */
    if (a->holds == keep)
        return;
    if (!keep)
        gtap_worker_node_quiesce(a->w);
    gtap_fence_acq_rel(); /* as gtap_sched_go_idle_one: observed claims precede the decrement */
    gtap_atomic_add_acq_rel_i32(&gtap_dev.ctl->active, -(int32_t)(a->holds - keep));
    a->holds = keep;
}

/* Queues runnable record `id` on the agent's deque q, or, when that is full, on the backlog.
 * Only idle workers steal from the agent, so on a busy node the deque can fill with parents
 * resumed by remote results and with imported tasks; the backlog moves into the deque as
 * room appears (gtap_gn_refill). Lane 0; the caller publishes (gtap_worker_node_publish). */
GTAP_DEV void gtap_gn_push(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t q, uint32_t id)
{
    gtap_gn_hold(a);
    if (a->backlog_n == 0 && gtap_worker_node_room(sh, a->w, q)) {
        gtap_worker_node_push(sh, a->w, q, id); /* has room: cannot fail */
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
GTAP_DEV int gtap_gn_refill(gtap_gn_agent *a, gtap_node_sh *sh)
{
    const uint32_t cap = gtap_dev.num_records + 1u;
    int moved = 0;
    while (a->backlog_n) {
        uint32_t e = gtap_gn.backlog[a->backlog_head], q = e >> 28;
        if (!gtap_worker_node_room(sh, a->w, q))
            break;
        gtap_worker_node_push(sh, a->w, q, e & 0x0fffffffu);
        a->backlog_head = a->backlog_head + 1 == cap ? 0 : a->backlog_head + 1;
        a->backlog_n--;
        moved = 1;
    }
    return moved;
}

/* Lane 0 queues every lane's record id (GTAP_NO_TASK: none) on the agent's deque q of that
 * lane (gtap_gn_push), in lane order. Warp-collective; the caller publishes. */
GTAP_DEV void gtap_gn_push_lanes(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, uint32_t id, uint32_t q)
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

#endif /* GTAP_GPU_NODE_QUEUE_CUH */
