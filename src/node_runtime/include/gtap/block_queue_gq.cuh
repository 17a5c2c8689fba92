/* gtap/block_queue_gq.cuh - block mode's queue for the global-queue ablation (paper section
 * 6.1, GTAP_SCHED_GLOBAL_QUEUE): every block pops from and publishes to one queue. The
 * interface (gtap_bq_*) is block_queue_cl.cuh's; thread 0 only. New entries are staged at the
 * block's ring positions [0, spawned) and copied into the global queue at publish.
 * Included by worker_block.cuh after gtap_block_sh and the ring accessors.
 */
#ifndef GTAP_BLOCK_QUEUE_GQ_CUH
#define GTAP_BLOCK_QUEUE_GQ_CUH

#include "gtap/debug.cuh"
#include "gtap/device.cuh"

#define GTAP_BQ_POP_ACQUIRES 1 /* pops take other blocks' tasks */

GTAP_DEV void gtap_bq_init(gtap_block_sh *sh, uint32_t b)
{
    (void)b;
    sh->bottom = 0; /* the block's ring is only a staging area */
    sh->top_cache = 0;
}

GTAP_DEV void gtap_bq_refresh(gtap_block_sh *sh, uint32_t b)
{
    (void)sh;
    (void)b;
}

GTAP_DEV int gtap_bq_pop(gtap_block_sh *sh, uint32_t b, uint32_t *id)
{
    (void)sh; (void)b;
    gtap_gq *g = &gtap_dev.gq[0];
    for (;;) {
        unsigned long long h = gtap_ld_relaxed_u64(&g->head);
        unsigned long long c = gtap_ld_acquire_u64(&g->commit);
        if (c <= h)
            return 0;
        if (gtap_atomic_cas_relaxed_u64((uint64_t *)&g->head, h, h + 1) == h) {
            GTAP_DEBUG_CHECK_QUEUE_SPAN(c - h, gtap_dev.gq_mask + 1); /* D5 */
            *id = gtap_ld_relaxed_u32(&gtap_dev.gq_ring[h & gtap_dev.gq_mask]);
            return 1;
        }
    }
}

GTAP_DEV uint32_t gtap_bq_probe(uint32_t victim)
{
    (void)victim;
    gtap_gq *g = &gtap_dev.gq[0];
    unsigned long long h = gtap_ld_relaxed_u64(&g->head), c = gtap_ld_relaxed_u64(&g->commit);
    return c > h ? (uint32_t)(c - h) : 0u;
}

GTAP_DEV int gtap_bq_steal1(uint32_t victim, uint32_t *id)
{
    (void)victim;
    gtap_block_sh dummy;
    return gtap_bq_pop(&dummy, 0, id);
}

/* Copies the entries at [0, n) of the block's staging ring into the global queue. The
 * caller's fence released them; the in-order commit releases the copies. */
GTAP_DEV void gtap_bq_publish(gtap_block_sh *sh, uint32_t b, uint32_t n)
{
    (void)sh;
    gtap_gq *g = &gtap_dev.gq[0];
    const uint32_t *staging = gtap_block_ring(b);
    unsigned long long r = atomicAdd(&g->reserve, (unsigned long long)n);
    if (r + n - gtap_ld_relaxed_u64(&g->head) > (unsigned long long)gtap_dev.gq_mask + 1) {
        gtap_raise(GTAP_ERR_DEQUE_FULL, (long long)(r + n - gtap_ld_relaxed_u64(&g->head)),
                   (long long)gtap_dev.gq_mask + 1, (int)b, 0, -1, __LINE__);
        return;
    }
    for (uint32_t j = 0; j < n; j++)
        gtap_dev.gq_ring[(r + j) & gtap_dev.gq_mask] = staging[j];
    gtap_fence_acq_rel();
    while (gtap_ld_acquire_u64(&g->commit) != r)
        if (gtap_aborting())
            return;
    gtap_st_release_u64(&g->commit, r + n);
}
#endif /* GTAP_BLOCK_QUEUE_GQ_CUH */
