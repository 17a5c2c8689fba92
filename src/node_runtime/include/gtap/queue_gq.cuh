/* gtap/queue_gq.cuh - the global-queue scheduler of the paper's section 6.1.1 ablation: one
 * shared ring per EPAQ queue that every worker pushes to and pops from. Same interface as
 * deque_ws.cuh; "steal" and "pop" are the same operation and the victim is ignored.
 *
 * Push reserves positions with an atomic add, copies the entries, then waits until every
 * earlier reservation is committed and advances `commit` (in-order commit). Pop claims
 * positions below `commit` by CAS on `head`. The ring holds more slots than there are task
 * records plus in-flight claims, so a slot is not rewritten while a popper still reads it.
 * Spawned entries are staged in the warp's own ring region ([0, n) of each queue).
 * GTAP_DEBUG (debug.cuh): queue indexes (D6); commit - head within the ring (D5) at a
 * successful pop, whose CAS shows head unchanged since the read before its load of commit.
 */
#ifndef GTAP_QUEUE_GQ_CUH
#define GTAP_QUEUE_GQ_CUH

#include "gtap/worker_shared.cuh"

#define GTAP_Q_EARLY_PUBLISH 0 /* early publishing needs the work-stealing deque */

/* Thieves announce themselves on the active counter before claiming (sched.cuh). */
#define GTAP_Q_CLAIM_COVERED 0

GTAP_DEV void gtap_q_init(gtap_warp_sh *sh, uint32_t w)
{
    (void)w;
    for (int q = 0; q < gtap_dev.num_queues; q++) {
        sh->tail[q] = 0;
        sh->head_cache[q] = 0;
        sh->spawned[q] = 0;
    }
    sh->refresh = 0;
}

GTAP_DEV int gtap_q_room(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t pos)
{
    (void)sh; (void)w; (void)q;
    return pos < gtap_dev.ring_capacity; /* staging holds one iteration's spawns */
}

GTAP_DEV void gtap_q_refresh(gtap_warp_sh *sh, uint32_t w)
{
    (void)sh;
    (void)w;
}

GTAP_DEV void gtap_q_quiesce(uint32_t w)
{
    (void)w;
}

GTAP_DEV uint32_t gtap_q_pop_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t want,
                                  uint32_t base, uint32_t lane, uint32_t *id)
{
    (void)sh; (void)w;
    gtap_gq *g = &gtap_dev.gq[q];
    uint32_t k = 0;
    unsigned long long h = 0;
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        for (;;) {
            h = gtap_ld_relaxed_u64(&g->head);
            unsigned long long c = gtap_ld_acquire_u64(&g->commit);
            if (c <= h)
                break;
            unsigned long long avail = c - h;
            k = avail < want ? (uint32_t)avail : want;
            if (gtap_atomic_cas_relaxed_u64((uint64_t *)&g->head, h, h + k) == h) {
                GTAP_DEBUG_CHECK_QUEUE_SPAN(c - h, gtap_dev.gq_mask + 1);
                break;
            }
            k = 0;
        }
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k == 0)
        return 0;
    h = __shfl_sync(0xffffffffu, h, 0);
    gtap_fence_acq_rel(); /* acquire the pushers' records for every lane */
    if (lane >= base && lane < base + k)
        *id = gtap_ld_relaxed_u32(&gtap_dev.gq_ring[(size_t)q * (gtap_dev.gq_mask + 1) +
                                                    ((h + (lane - base)) & gtap_dev.gq_mask)]);
    return k;
}

GTAP_DEV uint32_t gtap_q_probe(uint32_t victim, uint32_t q)
{
    (void)victim;
    gtap_gq *g = &gtap_dev.gq[q];
    unsigned long long h = gtap_ld_relaxed_u64(&g->head), c = gtap_ld_relaxed_u64(&g->commit);
    return c > h ? (uint32_t)(c - h) : 0u;
}

GTAP_DEV uint32_t gtap_q_steal_warp(gtap_warp_sh *sh, uint32_t victim, uint32_t q, uint32_t want,
                                    uint32_t base, uint32_t lane, uint32_t *id)
{
    return gtap_q_pop_warp(sh, victim, q, want, base, lane, id);
}

GTAP_DEV void gtap_q_publish_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t n, uint32_t lane)
{
    gtap_gq *g = &gtap_dev.gq[q];
    const uint32_t *staging = gtap_ring_of(w, q) + sh->tail[q];
    uint32_t *ring = gtap_dev.gq_ring + (size_t)q * (gtap_dev.gq_mask + 1);
    unsigned long long r = 0;
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        r = atomicAdd(&g->reserve, (unsigned long long)n);
        if (r + n - gtap_ld_relaxed_u64(&g->head) > (unsigned long long)gtap_dev.gq_mask + 1)
            gtap_raise(GTAP_ERR_DEQUE_FULL, (long long)(r + n - gtap_ld_relaxed_u64(&g->head)),
                       (long long)gtap_dev.gq_mask + 1, (int)w, 0, -1, __LINE__);
    }
    r = __shfl_sync(0xffffffffu, r, 0);
    for (uint32_t j = lane; j < n; j += 32)
        ring[(r + j) & gtap_dev.gq_mask] = staging[j];
    gtap_fence_acq_rel(); /* release the copied entries before they are committed */
    __syncwarp();
    if (lane == 0) {
        /* In-order commit: wait for every earlier reservation. */
        while (gtap_ld_acquire_u64(&g->commit) != r) {
            if (gtap_aborting())
                break;
        }
        gtap_st_release_u64(&g->commit, r + n);
    }
    /* The staged region is reused from position 0 next iteration (tail stays 0). */
}

GTAP_DEV uint32_t gtap_q_slot_pos(gtap_warp_sh *sh, uint32_t q, uint32_t off)
{
    GTAP_DEBUG_CHECK_QUEUE_INDEX(q); /* a spawn's queue, or a resumed parent's cont_queue */
    return sh->tail[q] + off;
}

#endif /* GTAP_QUEUE_GQ_CUH */
