/* gtap/block_queue_cl.cuh - block mode's queue: one Chase-Lev deque per block (deque_cl.cuh),
 * operated one task at a time by thread 0 (gtap_bq_*). New entries are written at ring
 * positions [bottom, bottom + spawned). block_queue_gq.cuh implements the same interface for
 * the global-queue ablation. Included by worker_block.cuh after gtap_block_sh and the ring
 * accessors.
 */
#ifndef GTAP_BLOCK_QUEUE_CL_CUH
#define GTAP_BLOCK_QUEUE_CL_CUH

#include "gtap/deque_cl.cuh"

#define GTAP_BQ_POP_ACQUIRES 0 /* pops take the block's own entries */

GTAP_DEV void gtap_bq_init(gtap_block_sh *sh, uint32_t b)
{
    gtap_deque *d = gtap_block_deque(b);
    sh->bottom = gtap_ld_relaxed_u32(&d->bottom);
    sh->top_cache = gtap_ld_relaxed_u32(&d->head);
}

GTAP_DEV void gtap_bq_refresh(gtap_block_sh *sh, uint32_t b)
{
    if (!sh->refresh)
        return;
    sh->refresh = 0;
    sh->top_cache = gtap_ld_relaxed_u32(&gtap_block_deque(b)->head);
}

GTAP_DEV int gtap_bq_pop(gtap_block_sh *sh, uint32_t b, uint32_t *id)
{
    return gtap_cl_pop1(gtap_block_deque(b), gtap_block_ring(b), gtap_dev.ring_mask, &sh->bottom, id);
}

GTAP_DEV uint32_t gtap_bq_probe(uint32_t victim)
{
    return gtap_cl_size(gtap_block_deque(victim));
}

GTAP_DEV int gtap_bq_steal1(uint32_t victim, uint32_t *id)
{
    return gtap_cl_steal1(gtap_block_deque(victim), gtap_block_ring(victim), gtap_dev.ring_mask, id);
}

/* The caller's fence released the entries and their records. */
GTAP_DEV void gtap_bq_publish(gtap_block_sh *sh, uint32_t b, uint32_t n)
{
    gtap_cl_publish(gtap_block_deque(b), sh->bottom, n);
    sh->bottom += n;
}
#endif /* GTAP_BLOCK_QUEUE_CL_CUH */
