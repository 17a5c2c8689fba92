/* gtap/deque_ws.cuh - the default thread-mode deque: one ring per warp and EPAQ queue with
 * warp-cooperative batched pop, steal and push of up to 32 tasks (paper Algorithm 1).
 *
 * Layout (docs/deque.md): ring positions are absolute uint32 counters (the ring index is
 * pos & ring_mask). The published entries are [head, tail). The owner end `tail` lives in
 * the warp's shared memory; `meta` holds the number of published, unclaimed entries (low 32
 * bits) and a thief lock (bit 32) in one word, so that a thief claims tasks and takes the
 * lock with one CAS. Thieves read from `head` and advance it under the lock; the owner pushes
 * at tail and pops from tail. Every claim is a CAS on meta, so the owner's and the thieves'
 * claims never exceed what was published and never overlap (owner takes the newest, thief
 * the oldest).
 *
 * All functions named *_warp are called by all 32 lanes of the warp with identical
 * arguments; lane 0 performs the atomics.
 *
 * GTAP_DEBUG (debug.cuh): lane 0 checks the queue index (D6) of every operation, the span
 * tail - head (D5) where the owner knows both ends exactly (after a pop or a publish: step 1
 * and step 5, when tail covers every early-published entry too), and a thief's claimed count.
 */
#ifndef GTAP_DEQUE_WS_CUH
#define GTAP_DEQUE_WS_CUH

#include "gtap/debug.cuh"
#include "gtap/worker_shared.cuh"

/* A successful steal makes the thief active before it releases the victim's lock, and a
 * victim waits for that lock before it goes idle (gtap_q_quiesce), so claims need no
 * announcement on the global active counter (docs/termination.md). */
#define GTAP_Q_CLAIM_COVERED 1

/* Kernel start, lane 0: the deques are empty between launches (tail == head). */
GTAP_DEV void gtap_q_init(gtap_warp_sh *sh, uint32_t w)
{
    for (int q = 0; q < gtap_dev.num_queues; q++) {
        uint32_t h = gtap_ld_relaxed_u32(&gtap_deque_of(w, q)->head);
        sh->tail[q] = h;
        sh->head_cache[q] = h;
        sh->spawned[q] = 0;
    }
    sh->refresh = 0;
    sh->maybe_published = ~0u; /* unknown until the first pop looks */
}

/* Capacity check and cache refresh (steal end in head): worker_shared.cuh. */
GTAP_DEV int gtap_q_room(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t pos)
{
    return gtap_q_room_by_head(sh, w, q, pos);
}

GTAP_DEV void gtap_q_refresh(gtap_warp_sh *sh, uint32_t w)
{
    gtap_q_refresh_by_head(sh, w);
}

/* Before the owner goes idle, lane 0: waits until no thief is between its claim and its
 * unlock on any of the warp's queues. Acquire: such a thief's increment of the active
 * counter is then ordered before our decrement. */
GTAP_DEV void gtap_q_quiesce(uint32_t w)
{
    for (int q = 0; q < gtap_dev.num_queues; q++)
        while (gtap_ld_acquire_u64(&gtap_deque_of(w, q)->meta) & GTAP_DEQUE_LOCK)
            ;
}

/* Claims up to want (<= 32 - base) of the newest published entries of the warp's own queue
 * q; lanes [base, base + k) receive them in *id. Returns k.
 * Only the owner raises a queue's count (gtap_q_publish_warp); thieves only lower it. So once
 * the owner has seen it at 0, it stays 0 until the owner publishes again, and the pop skips
 * its L2 round trip meanwhile - one per iteration of a warp working alone on a chain of
 * tasks. */
GTAP_DEV uint32_t gtap_q_pop_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t want,
                                  uint32_t base, uint32_t lane, uint32_t *id)
{
    uint32_t k = 0;
    if (lane == 0)
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
    if (lane == 0 && (sh->maybe_published >> q & 1u)) {
        gtap_deque *d = gtap_deque_of(w, q);
        uint64_t m = gtap_ld_relaxed_u64(&d->meta);
        while ((uint32_t)m != 0) {
            uint32_t c = (uint32_t)m;
            k = want < c ? want : c;
            uint64_t old = gtap_atomic_cas_relaxed_u64(&d->meta, m, m - k);
            if (old == m)
                break;
            m = old;
            k = 0;
        }
        if ((uint32_t)m == k) /* empty now (or was) */
            sh->maybe_published &= ~(1u << q);
        if (k)
            sh->tail[q] -= k;
        GTAP_DEBUG_CHECK_QUEUE_SPAN(sh->tail[q] - gtap_ld_relaxed_u32(&d->head), gtap_dev.ring_capacity);
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k) {
        __syncwarp(); /* orders lane 0's tail update before the lanes read it */
        uint32_t t = sh->tail[q];
        if (lane >= base && lane < base + k)
            *id = gtap_ring_of(w, q)[(t + (lane - base)) & gtap_dev.ring_mask];
        /* The entries are the warp's own writes: no acquire needed. */
    }
    return k;
}

/* Number of entries a thief could claim from (victim, q) now: 0 when empty or locked. */
GTAP_DEV uint32_t gtap_q_probe(uint32_t victim, uint32_t q)
{
    uint64_t m = gtap_ld_relaxed_u64(&gtap_deque_of(victim, q)->meta);
    return (m & GTAP_DEQUE_LOCK) ? 0u : (uint32_t)m;
}

/* Steals up to want (<= 32 - base) of the oldest entries of (victim, q), at most half of
 * them (rounded up); lanes [base, base + k) receive them. Returns k; 0 if the victim was
 * empty, locked or changed under us (the caller picks another victim). */
GTAP_DEV uint32_t gtap_q_steal_warp(gtap_warp_sh *sh, uint32_t victim, uint32_t q, uint32_t want,
                                    uint32_t base, uint32_t lane, uint32_t *id)
{
    (void)sh;
    gtap_deque *d = gtap_deque_of(victim, q);
    uint32_t k = 0, h = 0;
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        uint64_t m = gtap_ld_relaxed_u64(&d->meta);
        uint32_t c = (uint32_t)m;
        if (c != 0 && !(m & GTAP_DEQUE_LOCK)) {
            k = (c + 1) / 2;
            if (k > want)
                k = want;
            /* Claim k entries and take the thief lock in one step. */
            if (gtap_atomic_cas_relaxed_u64(&d->meta, m, (m - k) | GTAP_DEQUE_LOCK) == m) {
                h = gtap_ld_relaxed_u32(&d->head);
                GTAP_DEBUG_CHECK_QUEUE_SPAN(c, gtap_dev.ring_capacity); /* c was the count at the claim */
            } else {
                k = 0;
            }
        }
    }
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k == 0)
        return 0;
    h = __shfl_sync(0xffffffffu, h, 0);
    /* Acquire: pairs with the victim's release fence before it published these entries, so
     * the ring slots and the task records they name are visible to every lane. */
    gtap_fence_acq_rel();
    if (lane >= base && lane < base + k)
        *id = gtap_ld_relaxed_u32(&gtap_ring_of(victim, q)[(h + (lane - base)) & gtap_dev.ring_mask]);
    __syncwarp(); /* every lane has read its slot before head moves past it */
    if (lane == 0) {
        /* We hold tasks now: count ourselves active before the victim can see its deque
         * unlocked and go idle (the release below orders this increment first). */
        gtap_atomic_add_relaxed_i32(&gtap_dev.ctl->active, 1);
        gtap_st_relaxed_u32(&d->head, h + k);
        /* Release: the head update and our slot reads happen before the next thief or the
         * owner's capacity check (acquire) sees the lock free / the new head. */
        gtap_atomic_and_release_u64(&d->meta, ~GTAP_DEQUE_LOCK);
    }
    return k;
}

/* Publishes the n entries written at [tail, tail + n) of queue q. Warp-collective; the
 * caller has executed gtap_fence_acq_rel() on every lane after writing the records and
 * ring entries (release: a thief that claims them sees them). */
GTAP_DEV void gtap_q_publish_warp(gtap_warp_sh *sh, uint32_t w, uint32_t q, uint32_t n, uint32_t lane)
{
    if (lane == 0) {
        GTAP_DEBUG_CHECK_QUEUE_INDEX(q);
        atomicAdd((unsigned long long *)&gtap_deque_of(w, q)->meta, (unsigned long long)n);
        sh->tail[q] += n;
        sh->maybe_published |= 1u << q;
        /* head only grows, and the owner checked every position against an older value */
        GTAP_DEBUG_CHECK_QUEUE_SPAN(sh->tail[q] - gtap_ld_relaxed_u32(&gtap_deque_of(w, q)->head),
                                    gtap_dev.ring_capacity);
    }
}

/* Early publishing (GTAP_EARLY_PUBLISH, worker_thread.cuh). During step 3, one lane makes
 * the n entries after those published so far claimable, after fencing (release) once every
 * lane that wrote them had finished; tail stays where it is (step 3's spawns compute their
 * positions from it). */
#define GTAP_Q_EARLY_PUBLISH 1
GTAP_DEV void gtap_q_publish_early(uint32_t w, uint32_t q, uint32_t n)
{
    atomicAdd((unsigned long long *)&gtap_deque_of(w, q)->meta, (unsigned long long)n);
}

/* Step 5, lane 0: moves tail past the n entries of this iteration published early. */
GTAP_DEV void gtap_q_adopt_early(gtap_warp_sh *sh, uint32_t q, uint32_t n)
{
    sh->tail[q] += n;
    sh->maybe_published |= 1u << q;
}

/* Ring position where an entry reserved at offset off (this iteration) goes. */
GTAP_DEV uint32_t gtap_q_slot_pos(gtap_warp_sh *sh, uint32_t q, uint32_t off)
{
    GTAP_DEBUG_CHECK_QUEUE_INDEX(q); /* a spawn's queue, or a resumed parent's cont_queue */
    return sh->tail[q] + off;
}

#endif /* GTAP_DEQUE_WS_CUH */
