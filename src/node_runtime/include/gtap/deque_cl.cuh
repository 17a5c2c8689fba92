/* gtap/deque_cl.cuh - a fixed-capacity Chase-Lev work-stealing deque operated one task at a
 * time (Le, Pop, Cohen, Zappa Nardelli, PPoPP'13, mapped to PTX): the block-level workers'
 * deque, and the thread-level "sequential Chase-Lev" ablation of the paper's section 6.1.
 *
 * top is gtap_deque.head (thieves CAS it), bottom is gtap_deque.bottom (owner only). Both are
 * absolute uint32 positions compared through their signed difference. The owner keeps a
 * private copy of bottom and writes entries at [bottom, bottom + n) before publishing them
 * with gtap_cl_publish. Single-thread functions.
 *
 * GTAP_DEBUG (debug.cuh, D5): bottom - top lies in [0, capacity] where the caller knows both
 * exactly: the owner's publish (top only grows, and the owner checked its positions against an
 * older top) and pop (top just read), and a thief's successful claim (top was t from its read
 * to its CAS, so the bottom it read was within capacity of it).
 */
#ifndef GTAP_DEQUE_CL_CUH
#define GTAP_DEQUE_CL_CUH

#include "gtap/debug.cuh"
#include "gtap/device.cuh"

/* Makes the entries written at [b, b + n) visible to thieves. The caller has executed a
 * release fence after writing them (and the task records they name). */
GTAP_DEV void gtap_cl_publish(gtap_deque *d, uint32_t b, uint32_t n)
{
    GTAP_DEBUG_CHECK_QUEUE_SPAN(b + n - gtap_ld_relaxed_u32(&d->head), gtap_dev.ring_capacity);
    gtap_st_relaxed_u32(&d->bottom, b + n);
}

/* Owner: takes the newest entry. *bottom is the owner's copy of bottom, updated. */
GTAP_DEV int gtap_cl_pop1(gtap_deque *d, const uint32_t *ring, uint32_t mask, uint32_t *bottom,
                          uint32_t *id)
{
    uint32_t b = *bottom - 1;
    gtap_st_relaxed_u32(&d->bottom, b);
    /* Store-load order: our claim of slot b is visible before we read top, so a thief that
     * reads the old bottom and we cannot both take the last entry without the CAS below. */
    gtap_fence_sc();
    uint32_t t = gtap_ld_relaxed_u32(&d->head);
    int32_t size = (int32_t)(b - t);
    GTAP_DEBUG_CHECK_QUEUE_SPAN(size + 1, mask + 1); /* the span before this pop */
    if (size < 0) {
        gtap_st_relaxed_u32(&d->bottom, b + 1);
        return 0;
    }
    uint32_t x = ring[b & mask];
    if (size > 0) {
        *bottom = b;
        *id = x;
        return 1;
    }
    /* Last entry: race the thieves for it through top. */
    int won = gtap_atomic_cas_relaxed_u32(&d->head, t, t + 1) == t;
    gtap_st_relaxed_u32(&d->bottom, b + 1);
    *bottom = b + 1;
    if (won)
        *id = x;
    return won;
}

/* Thief: takes the oldest entry. On success the caller must execute an acquire fence before
 * reading the task record (the ld.acquire of bottom covers only this thread). */
GTAP_DEV int gtap_cl_steal1(gtap_deque *d, const uint32_t *ring, uint32_t mask, uint32_t *id)
{
    uint32_t t = gtap_ld_acquire_u32(&d->head);
    gtap_fence_sc(); /* read top before bottom, as the owner's pop writes bottom before top */
    uint32_t b = gtap_ld_acquire_u32(&d->bottom); /* pairs with the owner's publishing fence */
    if ((int32_t)(b - t) <= 0)
        return 0;
    uint32_t x = gtap_ld_relaxed_u32(&ring[t & mask]);
    if (gtap_atomic_cas_relaxed_u32(&d->head, t, t + 1) != t)
        return 0; /* another thief or the owner took it; x may be stale */
    GTAP_DEBUG_CHECK_QUEUE_SPAN(b - t, mask + 1);
    *id = x;
    return 1;
}

/* Entries a thief could take now (racy hint). */
GTAP_DEV uint32_t gtap_cl_size(gtap_deque *d)
{
    uint32_t t = gtap_ld_relaxed_u32(&d->head);
    uint32_t b = gtap_ld_relaxed_u32(&d->bottom);
    int32_t s = (int32_t)(b - t);
    return s > 0 ? (uint32_t)s : 0u;
}

#endif /* GTAP_DEQUE_CL_CUH */
