/* gtap/worker_shared.cuh - the per-warp scheduler state kept in shared memory (thread mode).
 * Only the owning warp touches it.
 */
#ifndef GTAP_WORKER_SHARED_CUH
#define GTAP_WORKER_SHARED_CUH

#include "gtap/pool.cuh"

/* The queue side of a warp's scheduler state: its deque's owner end, this iteration's new
 * entries, the free-id magazine. The policies' state (policies.cuh) sits beside it. */
typedef struct gtap_warp_sh {
    uint32_t tail[GTAP_MAX_NUM_QUEUES];       /* owner end of each queue (absolute position) */
    uint32_t head_cache[GTAP_MAX_NUM_QUEUES]; /* a recent value of each queue's steal end */
    int32_t spawned[GTAP_MAX_NUM_QUEUES];     /* entries written past tail this iteration */
    uint32_t xfer[32];                        /* lane-0-to-lanes hand-over (CL, GQ ablations; the GPU node) */
    uint32_t refresh;                         /* a spawn found head_cache stale */
    uint32_t maybe_published;                 /* bit q: queue q's count may be nonzero */
    uint32_t failed_push;                     /* a push raised an error: publish nothing more */
    gtap_magazine mag;                        /* free record ids */
    unsigned long long pool_slow;             /* allocations that took the slow path */
} gtap_warp_sh;

/* The deque of (worker, EPAQ queue) and its ring of task ids. */
GTAP_DEV gtap_deque *gtap_deque_of(uint32_t worker, uint32_t q)
{
    return &gtap_dev.deques[worker * (uint32_t)gtap_dev.num_queues + q];
}

GTAP_DEV uint32_t *gtap_ring_of(uint32_t worker, uint32_t q)
{
    return gtap_dev.rings + (size_t)(worker * (uint32_t)gtap_dev.num_queues + q) * gtap_dev.ring_capacity;
}

/* Owner-side capacity check shared by the per-warp deques (deque_ws.cuh, deque_cl_warp.cuh),
 * whose steal end is gtap_deque.head. May the owner write ring position pos of queue q? Any
 * lane. head_cache (refreshed by lane 0 between iterations) is a lower bound of head, so the
 * check is conservative; on failure the lane reloads head with acquire, which pairs with the
 * releasing update of the last thief: its reads of the slots are done. */
GTAP_DEV int gtap_q_room_by_head(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t pos)
{
    if (pos - sh->head_cache[q] < gtap_dev.ring_capacity)
        return 1;
    atomicOr(&sh->refresh, 1u); /* ask lane 0 to refresh the cache between iterations */
    return pos - gtap_ld_acquire_u32(&gtap_deque_of(w, q)->head) < gtap_dev.ring_capacity;
}

/* Between iterations, lane 0: refreshes the cached steal ends if a spawn found them stale. */
GTAP_DEV void gtap_q_refresh_by_head(gtap_warp_sh *sh, uint32_t w)
{
    if (!sh->refresh)
        return;
    sh->refresh = 0;
    for (int q = 0; q < gtap_dev.num_queues; q++)
        sh->head_cache[q] = gtap_ld_relaxed_u32(&gtap_deque_of(w, q)->head);
}

#endif /* GTAP_WORKER_SHARED_CUH */
