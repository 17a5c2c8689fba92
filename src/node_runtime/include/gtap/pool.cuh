/* gtap/pool.cuh - task-record allocation: one global pool of record ids shared by all
 * workers, with a per-worker cache ("magazine") in shared memory so that the common case
 * costs a shared-memory atomic, not a global one (docs/pool.md).
 *
 * Levels, fastest first:
 *   magazine   per worker, shared memory: refilled to GTAP_MAG_LOW and drained to
 *              GTAP_MAG_HIGH between scheduler iterations, one 32-id chunk at a time;
 *   overflow   per worker, shared memory, behind a lock: serves allocations that find the
 *              magazine empty in the middle of an iteration (e.g. a loop spawning hundreds);
 *   chunk ring global MPMC ring of 32-id chunks (Vyukov-style sequence numbers, stored
 *              relative to the slot index so that all-zero memory is an empty ring);
 *   bump       global counter handing out never-used ids, 32 at a time.
 * At termination every record is free, so the pool is reset wholesale (exit protocol in
 * worker_thread.cuh / worker_block.cuh) instead of collecting the cached ids.
 */
#ifndef GTAP_POOL_CUH
#define GTAP_POOL_CUH

#include "gtap/device.cuh"

#define GTAP_MAG_CAPACITY 128
#define GTAP_MAG_LOW 48   /* refill below this before an iteration */
#define GTAP_MAG_HIGH 64  /* flush above this after an iteration; leaves room for 64 frees */

typedef struct gtap_magazine {
    int32_t n;                       /* ids in ids[0..n); may go negative during an iteration */
    int32_t ovf_lock;                /* guards ovf_* */
    int32_t ovf_n;
    int32_t pad;
    uint32_t ids[GTAP_MAG_CAPACITY];
    uint32_t ovf_ids[GTAP_CHUNK_IDS];
} gtap_magazine;

/* Takes one chunk of free ids into dst (up to 32); returns how many, 0 if the pool is
 * exhausted. One thread. */
static __device__ __noinline__ uint32_t gtap_pool_take_chunk(uint32_t *dst)
{
    gtap_pool_ctl *pc = gtap_dev.pool;
    const uint64_t cap = gtap_dev.chunk_capacity;
    for (;;) {
        uint64_t h = gtap_ld_relaxed_u64(&pc->head);
        uint64_t t = gtap_ld_relaxed_u64(&pc->tail);
        if (h >= t)
            break;
        if (gtap_atomic_cas_relaxed_u64((uint64_t *)&pc->head, h, h + 1) != h)
            continue;
        uint64_t slot = h % cap;
        /* Acquire: pairs with the producer's release of this slot; its ids are then visible.
         * The producer reserved position h before we could claim it, so it will finish. */
        while (gtap_ld_acquire_u64(&gtap_dev.chunk_seq[slot]) != h + 1 - slot)
            __nanosleep(32);
        uint32_t n = gtap_dev.chunk_count[slot];
        const uint32_t *src = gtap_dev.chunk_ids + slot * GTAP_CHUNK_IDS;
        for (uint32_t i = 0; i < n; i++)
            dst[i] = src[i];
        /* Release: our reads of the slot happen before the next lap's producer overwrites it. */
        gtap_st_release_u64(&gtap_dev.chunk_seq[slot], h + cap - slot);
        return n;
    }
    if (gtap_ld_relaxed_u64(&pc->bump) < gtap_dev.num_records) {
        uint64_t b = atomicAdd(&pc->bump, (unsigned long long)GTAP_CHUNK_IDS);
        if (b < gtap_dev.num_records) {
            uint64_t n = gtap_dev.num_records - b;
            if (n > GTAP_CHUNK_IDS)
                n = GTAP_CHUNK_IDS;
            for (uint32_t i = 0; i < (uint32_t)n; i++)
                dst[i] = (uint32_t)(b + i);
            return (uint32_t)n;
        }
    }
    return 0;
}

/* Gives n (1..32) free ids back to the global ring. One thread. */
static __device__ __noinline__ void gtap_pool_put_chunk(const uint32_t *src, uint32_t n)
{
    gtap_pool_ctl *pc = gtap_dev.pool;
    const uint64_t cap = gtap_dev.chunk_capacity;
    uint64_t pos = atomicAdd(&pc->tail, 1ull);
    uint64_t slot = pos % cap;
    uint32_t spins = 0;
    /* Acquire: the previous lap's consumer finished reading this slot. The ring holds more
     * slots than the pool has chunks of ids, so this wait is short; a long one is a bug. */
    while (gtap_ld_acquire_u64(&gtap_dev.chunk_seq[slot]) != pos - slot) {
        if (++spins == (1u << 24)) {
            gtap_raise(GTAP_ERR_CHUNK_RING, (long long)pos, (long long)cap, -1, -1, -1, __LINE__);
            return;
        }
        __nanosleep(32);
    }
    uint32_t *dst = gtap_dev.chunk_ids + slot * GTAP_CHUNK_IDS;
    for (uint32_t i = 0; i < n; i++)
        dst[i] = src[i];
    gtap_dev.chunk_count[slot] = n;
    /* Release: the ids and count are visible to whoever acquires this sequence value. */
    gtap_st_release_u64(&gtap_dev.chunk_seq[slot], pos + 1 - slot);
}

/* Allocates one record id. Any thread of the worker, concurrently with other allocations
 * of the same worker but never with frees (the scheduler separates the two phases).
 * Returns GTAP_NO_TASK when the pool is exhausted; the caller raises the error. */
GTAP_DEV uint32_t gtap_mag_alloc(gtap_magazine *m, unsigned long long *slow_count)
{
    int32_t i = atomicSub(&m->n, 1);
    if (i > 0)
        return m->ids[i - 1];
    /* Slow path, serialized by the overflow lock; independent thread scheduling lets a
     * lane that spins here make progress against the holder in the same warp. */
    while (atomicCAS(&m->ovf_lock, 0, 1) != 0)
        ;
    __threadfence_block(); /* acquire the previous holder's writes to ovf_* */
    uint32_t id = GTAP_NO_TASK;
    if (m->ovf_n == 0)
        m->ovf_n = (int32_t)gtap_pool_take_chunk(m->ovf_ids);
    if (m->ovf_n > 0)
        id = m->ovf_ids[--m->ovf_n];
    (*slow_count)++;
    __threadfence_block(); /* release ovf_* to the next holder */
    atomicExch(&m->ovf_lock, 0);
    return id;
}

/* Between iterations (one thread, no concurrent use): moves leftover overflow ids into the
 * magazine, then refills it to GTAP_MAG_LOW and drains it to GTAP_MAG_HIGH. Returns 0 if the
 * pool could not supply GTAP_MAG_LOW ids (not an error by itself: allocation fails later
 * only if a task actually needs more). */
GTAP_DEV void gtap_mag_balance(gtap_magazine *m, int low, int high)
{
    if (m->n < 0)
        m->n = 0; /* failed fast-path decrements of the last iteration */
    while (m->ovf_n > 0 && m->n < GTAP_MAG_CAPACITY)
        m->ids[m->n++] = m->ovf_ids[--m->ovf_n];
    while (m->n < low) {
        uint32_t got = gtap_pool_take_chunk(&m->ids[m->n]);
        if (got == 0)
            break;
        m->n += (int32_t)got;
    }
    while (m->n > high || (m->ovf_n > 0)) {
        if (m->ovf_n > 0) { /* magazine full: return the overflow leftovers as one chunk */
            gtap_pool_put_chunk(m->ovf_ids, (uint32_t)m->ovf_n);
            m->ovf_n = 0;
            continue;
        }
        m->n -= GTAP_CHUNK_IDS;
        gtap_pool_put_chunk(&m->ids[m->n], GTAP_CHUNK_IDS);
    }
}

#endif /* GTAP_POOL_CUH */
