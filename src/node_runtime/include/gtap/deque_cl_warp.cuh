/* gtap/deque_cl_warp.cuh - thread-mode queue operations over per-warp Chase-Lev deques that
 * move one task per operation (the paper's "sequential Chase-Lev" ablation, section 6.1.2):
 * lane 0 repeats single-task pops or steals up to 32 times and hands the ids to the lanes.
 * Same interface as deque_ws.cuh. GTAP_DEBUG: queue indexes (D6) here, spans (D5) in
 * deque_cl.cuh.
 */
#ifndef GTAP_DEQUE_CL_WARP_CUH
#define GTAP_DEQUE_CL_WARP_CUH

#include "gtap/deque_cl.cuh"
#include "gtap/worker_shared.cuh"

/* Thieves announce themselves on the active counter before claiming (sched.cuh). */
#define GTAP_Q_CLAIM_COVERED 0

GTAP_DEV void gtap_q_init(gtap_warp_sh *sh, uint32_t w)
{
    for (int q = 0; q < gtap_dev.num_queues; q++) {
        gtap_deque *d = gtap_deque_of(w, q);
        sh->tail[q] = gtap_ld_relaxed_u32(&d->bottom);
        sh->head_cache[q] = gtap_ld_relaxed_u32(&d->head);
        sh->spawned[q] = 0;
    }
    sh->refresh = 0;
}

#define GTAP_Q_EARLY_PUBLISH 0 /* early publishing needs the work-stealing deque */

/* Capacity check and cache refresh (steal end in head): worker_shared.cuh. */
GTAP_DEV int gtap_q_room(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t pos)
{
    return gtap_q_room_by_head(sh, w, q, pos);
}

GTAP_DEV void gtap_q_refresh(gtap_warp_sh *sh, uint32_t w)
{
    gtap_q_refresh_by_head(sh, w);
}

GTAP_DEV void gtap_q_quiesce(uint32_t w)
{
    (void)w;
}

GTAP_DEV uint32_t gtap_q_pop_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t want,
                                  uint32_t base, uint32_t lane, uint32_t *id)
{
    uint32_t k = 0;
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        gtap_deque *d = gtap_deque_of(w, q);
        const uint32_t *ring = gtap_ring_of(w, q);
        uint32_t b = sh->tail[q], x;
        while (k < want && gtap_cl_pop1(d, ring, gtap_dev.ring_mask, &b, &x))
            sh->xfer[k++] = x;
        sh->tail[q] = b;
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    __syncwarp(); /* xfer written by lane 0 */
    if (lane >= base && lane < base + k)
        *id = sh->xfer[lane - base];
    __syncwarp(); /* xfer read before it is reused */
    return k;
}

GTAP_DEV uint32_t gtap_q_probe(uint32_t victim, uint32_t q)
{
    return gtap_cl_size(gtap_deque_of(victim, q));
}

GTAP_DEV uint32_t gtap_q_steal_warp(gtap_warp_sh *sh, uint32_t victim, uint32_t q, uint32_t want,
                                    uint32_t base, uint32_t lane, uint32_t *id)
{
    uint32_t k = 0;
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        gtap_deque *d = gtap_deque_of(victim, q);
        const uint32_t *ring = gtap_ring_of(victim, q);
        uint32_t x;
        while (k < want && gtap_cl_steal1(d, ring, gtap_dev.ring_mask, &x))
            sh->xfer[k++] = x;
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k == 0)
        return 0;
    gtap_fence_acq_rel(); /* acquire the stolen records for every lane */
    __syncwarp();
    if (lane >= base && lane < base + k)
        *id = sh->xfer[lane - base];
    __syncwarp();
    return k;
}

GTAP_DEV void gtap_q_publish_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t n, uint32_t lane)
{
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        gtap_cl_publish(gtap_deque_of(w, q), sh->tail[q], n);
        sh->tail[q] += n;
    }
}

GTAP_DEV uint32_t gtap_q_slot_pos(gtap_warp_sh *sh, uint32_t q, uint32_t off)
{
    GTAP_DEBUG_CHECK_QUEUE_INDEX(q); /* a spawn's queue, or a resumed parent's cont_queue */
    return sh->tail[q] + off;
}

#endif /* GTAP_DEQUE_CL_WARP_CUH */
