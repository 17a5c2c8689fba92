/* gtap/pool.cuh - task-record allocation with per-worker ownership (docs/pool.md).
 *
 * Every worker (warp or block) owns a contiguous range of P = records_per_worker record ids
 * and allocates only from it, so allocation and the common free never touch a global
 * counter (measured: one shared free-id ring turned thread mode into a CAS storm across
 * thousands of warps). Levels, fastest first:
 *   magazine  shared memory; allocations take from it with a shared atomic;
 *   overflow  shared memory: serves allocations that find the magazine empty in the middle
 *             of an iteration (e.g. a loop spawning hundreds of children). Claims are
 *             lock-free; one thread refills it under a lock once no claimer is reading;
 *   stack     the owner's private free stack in global memory (no atomics: owner only);
 *   fresh     ids of the range not yet handed out in this launch (a per-worker counter,
 *             advanced 32 ids at a time);
 *   remote    ids of this worker freed by other workers (a stolen task, a parent resumed
 *             elsewhere): they push them on the owner's lock-free list (CAS, low contention:
 *             only cross-worker frees), the owner takes the whole list with one exchange;
 *   borrowed  fresh ids of other workers, when all of the above are empty (a worker whose
 *             task fans out wider than its range); they return to their owner when freed.
 * A free by the owner goes to its magazine. At termination every record is free: each
 * worker resets its own fresh counter and remote list on the way out (not at start, since
 * another worker may borrow from it before it starts), and begins the next launch with an
 * empty private stack.
 * GTAP_DEBUG (debug.cuh, P6): fresh ids are marked free as they are reserved, every id handed
 * out must be marked free and every id freed (here, or by a worker into its own magazine)
 * must not be; the mark is a word of the record's header that a free record does not use.
 */
#ifndef GTAP_POOL_CUH
#define GTAP_POOL_CUH

#include "gtap/device.cuh"
#include "gtap/debug.cuh"

#if defined(GTAP_WORKER_IS_BLOCK)
#define GTAP_MAG_CAPACITY 128 /* a block frees at most two ids and spawns a few per iteration */
#else
#define GTAP_MAG_CAPACITY 512 /* a warp may spawn hundreds of children per iteration */
#endif
#define GTAP_MAG_FREE_ROOM 64 /* ids one completion step may free (two per lane) */
#if defined(GTAP_STRESS)
#define GTAP_MAG_MIN 1        /* tiny targets: spawns take the slow path */
#define GTAP_MAG_MAX_TARGET 8
#else
#define GTAP_MAG_MIN 32       /* the refill target never drops below this */
#define GTAP_MAG_MAX_TARGET (GTAP_MAG_CAPACITY - GTAP_MAG_FREE_ROOM)
#endif
#define GTAP_OVF_IDS 64

typedef struct gtap_magazine {
    int32_t n;               /* ids in ids[0..n); may go negative during an iteration */
    int32_t ovf_lock;        /* held by the thread refilling ovf_ids */
    int32_t ovf_n;           /* ids in ovf_ids[0..ovf_n); may go negative */
    int32_t ovf_readers;     /* threads between claiming an overflow slot and reading it */
    uint32_t stack_n;        /* ids on the owner's private stack in global memory */
    uint32_t remote;         /* list of remotely freed ids taken but not yet used (id + 1) */
    uint32_t borrow_from;    /* the next worker to try to borrow fresh ids from */
    uint32_t demand;         /* allocations of the last iteration: sets the refill target */
    uint32_t ids[GTAP_MAG_CAPACITY];
    uint32_t ovf_ids[GTAP_OVF_IDS];
} gtap_magazine;

/* The free-list link stored in a free record (its memory is otherwise unused); links and
 * list heads hold id + 1, so that 0 (all-zero memory) is the empty list. */
GTAP_DEV uint32_t *gtap_free_link(uint32_t id)
{
    return (uint32_t *)gtap_record(id);
}

GTAP_DEV uint32_t gtap_pool_owner(uint32_t id)
{
    return id / gtap_dev.records_per_worker;
}

GTAP_DEV gtap_pool_worker *gtap_pool_worker_of(uint32_t worker)
{
    return &gtap_dev.pool_workers[worker];
}

/* The next iteration's demand is unknown (start, or stolen work): fill the magazine fully,
 * which costs a few coalesced copies, rather than risk hundreds of slow-path allocations. */
GTAP_DEV void gtap_mag_expect_unknown(gtap_magazine *m)
{
    m->demand = GTAP_MAG_CAPACITY;
}

/* Kernel start, one thread: the worker's private stack starts empty (every record is free). */
GTAP_DEV void gtap_pool_init(gtap_magazine *m, uint32_t worker)
{
    m->n = 0;
    m->ovf_lock = 0;
    m->ovf_n = 0;
    m->ovf_readers = 0;
    m->stack_n = 0;
    m->remote = 0;
    m->borrow_from = worker + 1;
    m->demand = 0; /* (not gtap_mag_expect_unknown: measured to cost the block kernel 8 registers;
                    * a worker's first work comes from a steal, which sets it, or is the root) */
}

/* Reserves up to max fresh ids of `owner` (one atomic on its counter): they are
 * owner * per + *base + [0, n). Returns n. */
GTAP_DEV uint32_t gtap_pool_reserve_fresh(uint32_t owner, uint32_t max, uint32_t *base)
{
    const uint32_t per = gtap_dev.records_per_worker;
    gtap_pool_worker *pw = gtap_pool_worker_of(owner);
    if (max == 0 || gtap_ld_relaxed_u32(&pw->fresh) >= per)
        return 0;
    uint32_t b = atomicAdd(&pw->fresh, max);
    if (b >= per)
        return 0;
    *base = b;
    return per - b < max ? per - b : max;
}

/* Up to max fresh ids of `owner` into dst. One thread. */
GTAP_DEV uint32_t gtap_pool_take_fresh(uint32_t owner, uint32_t *dst, uint32_t max)
{
    uint32_t b = 0, n = gtap_pool_reserve_fresh(owner, max, &b);
    for (uint32_t i = 0; i < n; i++) {
        dst[i] = owner * gtap_dev.records_per_worker + b + i;
        GTAP_DEBUG_POOL_FRESH(dst[i]);
    }
    return n;
}

/* Moves up to max free ids into dst; returns how many (0: the whole pool is in use). One
 * thread of the owner. */
GTAP_DEV uint32_t gtap_pool_take(gtap_magazine *m, uint32_t worker, uint32_t *dst, uint32_t max)
{
    const uint32_t per = gtap_dev.records_per_worker;
    uint32_t got = 0;
    const uint32_t *stack = gtap_dev.pool_stack + (size_t)worker * per;
    while (got < max && m->stack_n > 0)
        dst[got++] = stack[--m->stack_n];
    if (got < max && m->remote == 0) {
        gtap_pool_worker *pw = gtap_pool_worker_of(worker);
        if (gtap_ld_relaxed_u32(&pw->remote_head) != 0) {
            m->remote = atomicExch(&pw->remote_head, 0u);
            gtap_fence_acq_rel(); /* acquire: the links the pushers wrote before their CAS */
        }
    }
    while (got < max && m->remote != 0) {
        uint32_t id = m->remote - 1;
        m->remote = *gtap_free_link(id);
        dst[got++] = id;
    }
    if (got < max)
        got += gtap_pool_take_fresh(worker, dst + got, max - got);
    /* Last resort: borrow never-used ids from other workers, round-robin. */
    const uint32_t nworkers = gtap_dev.max_workers;
    for (uint32_t k = 0; got < max && k + 1 < nworkers; k++) {
        uint32_t v = m->borrow_from % nworkers;
        if (v == worker)
            v = (v + 1) % nworkers;
        got += gtap_pool_take_fresh(v, dst + got, max - got);
        if (got < max)
            m->borrow_from = v + 1;
    }
    return got;
}

/* Returns n ids of the worker to its private stack. One thread of the owner. */
GTAP_DEV void gtap_pool_put(gtap_magazine *m, uint32_t worker, const uint32_t *src, uint32_t n)
{
    uint32_t *stack = gtap_dev.pool_stack + (size_t)worker * gtap_dev.records_per_worker;
    for (uint32_t i = 0; i < n; i++)
        stack[m->stack_n++] = src[i];
}

/* Gives a chain of ids of `owner` back with one push on the owner's list: first .. last,
 * linked through gtap_free_link by the caller (last's link is set here), the caller's links
 * ordered before this call (a fence). Any thread. */
GTAP_DEV void gtap_pool_free_chain(uint32_t owner, uint32_t first, uint32_t last)
{
    uint32_t *head = &gtap_pool_worker_of(owner)->remote_head;
    uint32_t old = gtap_ld_relaxed_u32(head);
    for (;;) {
        *gtap_free_link(last) = old;
        gtap_fence_acq_rel(); /* release: the links before the chain becomes reachable */
        uint32_t cur = atomicCAS(head, old, first + 1);
        if (cur == old)
            return;
        old = cur;
    }
}

/* Gives id back to its owner, another worker: push on the owner's list. Any thread. */
GTAP_DEV void gtap_pool_free_remote(uint32_t id)
{
    GTAP_DEBUG_POOL_FREE(id);
    gtap_pool_free_chain(gtap_pool_owner(id), id, id);
}

/* Gives the ids the lanes name (GTAP_NO_TASK: none) back to their owners' lists, one chain
 * and one push per owner. A thief frees the 32 tasks it stole to one owner, the victim: 32
 * lanes pushing one id each took turns on that list's head, a round trip a turn, and the
 * warps that had stolen from the same victim queued behind each other - the completion
 * step took 3x the warp time of the tasks in N-Queens(14).
 * Warp-collective (all 32 lanes of a warp). */
GTAP_DEV void gtap_pool_free_remote_warp(uint32_t lane, uint32_t id)
{
    const int has = id != GTAP_NO_TASK;
    if (__ballot_sync(0xffffffffu, has) == 0)
        return;
    if (has)
        GTAP_DEBUG_POOL_FREE(id);
    const uint32_t owner = has ? gtap_pool_owner(id) : 0xffffffffu;
    const uint32_t peers = __match_any_sync(0xffffffffu, owner); /* the lanes of this owner */
    const uint32_t above = lane < 31 ? peers & (0xfffffffeu << lane) : 0u;
    const uint32_t next = __shfl_sync(0xffffffffu, id, above ? (uint32_t)__ffs(above) - 1u : lane);
    if (has && above)
        *gtap_free_link(id) = next + 1u; /* each owner's chain runs up its lanes */
    const uint32_t first = __shfl_sync(0xffffffffu, id, (uint32_t)__ffs(peers) - 1u);
    gtap_fence_acq_rel(); /* release: every lane's link before its chain becomes reachable */
    __syncwarp();
    if (has && lane == 31u - (uint32_t)__clz(peers)) /* the chain's last lane pushes it */
        gtap_pool_free_chain(owner, first, id);
}

/* Normal end of a launch, the owner's lane 0: every record is free again. */
GTAP_DEV void gtap_pool_exit(uint32_t worker)
{
    gtap_pool_worker *pw = gtap_pool_worker_of(worker);
    pw->fresh = 0;
    pw->remote_head = 0;
}

/* Records of the worker's range handed out during this launch (statistics). */
GTAP_DEV uint32_t gtap_pool_used(uint32_t worker)
{
    uint32_t f = gtap_ld_relaxed_u32(&gtap_pool_worker_of(worker)->fresh);
    return f < gtap_dev.records_per_worker ? f : gtap_dev.records_per_worker;
}

/* Allocates one record id. Any thread of the worker, concurrently with other allocations
 * of the same worker but never with frees (the scheduler separates the two phases).
 * Returns GTAP_NO_TASK when no record is free; the caller raises the error. */
GTAP_DEV uint32_t gtap_mag_alloc(gtap_magazine *m, uint32_t worker, unsigned long long *slow_count)
{
    int32_t i = atomicSub(&m->n, 1);
    if (i > 0) {
        const uint32_t id = m->ids[i - 1];
        GTAP_DEBUG_POOL_ALLOC(id);
        return id;
    }
    /* Slow path: the magazine stays untouched (lanes of the fast path may still be reading
     * slots they claimed); the overflow buffer is refilled only when nobody is between
     * claiming one of its slots and reading it. Independent thread scheduling lets a lane
     * that spins here make progress against the refilling lane of the same warp. */
    atomicAdd(slow_count, 1ull);
    for (;;) {
        atomicAdd(&m->ovf_readers, 1);
        __threadfence_block(); /* counted in before the claim (the refill below relies on it) */
        int32_t j = atomicSub(&m->ovf_n, 1);
        uint32_t id = j > 0 ? m->ovf_ids[j - 1] : GTAP_NO_TASK;
        __threadfence_block(); /* our read of the slot is done before we count ourselves out */
        atomicSub(&m->ovf_readers, 1);
        if (j > 0) {
            GTAP_DEBUG_POOL_ALLOC(id);
            return id;
        }
        if (atomicCAS(&m->ovf_lock, 0, 1) != 0) {
            /* Another thread refills: wait without claiming, so that the readers drain. The
             * sleep yields issue slots to the refilling lane, which may share our warp
             * (without it the refill was starved for hundreds of microseconds). */
            while (*(volatile int32_t *)&m->ovf_lock != 0)
                __nanosleep(32);
            continue;
        }
        /* Refill an empty buffer once no claimer of its old contents is still reading. Check
         * first, then wait: under the lock nothing raises ovf_n, so once it reads <= 0 no
         * later claim succeeds, and every claim that did succeed counted itself in before it
         * claimed. Waiting first let a claim slip in between the wait and the check when
         * another lane had refilled after our claim failed; its slot was then overwritten
         * while it read it, and one id went to two tasks. */
        uint32_t got = 1; /* someone refilled between our claim and the lock: claim again */
        if (*(volatile int32_t *)&m->ovf_n <= 0) {
            __threadfence_block(); /* the check before the readers' count */
            while (*(volatile int32_t *)&m->ovf_readers != 0)
                __nanosleep(32);
            __threadfence_block();
            got = gtap_pool_take(m, worker, m->ovf_ids, GTAP_OVF_IDS);
            __threadfence_block(); /* the ids before the count that makes them claimable */
            if (got)
                atomicExch(&m->ovf_n, (int32_t)got);
        }
        atomicExch(&m->ovf_lock, 0);
        if (got == 0)
            return GTAP_NO_TASK; /* the whole pool is in use */
    }
}

/* Between iterations, one thread: clears the negative counts failed fast-path claims left,
 * and moves what is left of the overflow buffer into the magazine (the rest to the stack). */
GTAP_DEV void gtap_mag_normalize(gtap_magazine *m, uint32_t worker)
{
    if (m->n < 0)
        m->n = 0;
    if (m->ovf_n < 0)
        m->ovf_n = 0;
    while (m->ovf_n > 0 && m->n < GTAP_MAG_CAPACITY)
        m->ids[m->n++] = m->ovf_ids[--m->ovf_n];
    if (m->ovf_n > 0) {
        gtap_pool_put(m, worker, m->ovf_ids, (uint32_t)m->ovf_n);
        m->ovf_n = 0;
    }
}

/* Between iterations, all 32 lanes of one warp (the worker's warp in thread mode, warp 0 in
 * block mode), nothing else using the magazine: normalizes the counters, then tops the
 * magazine up to the last iteration's demand plus a batch (GTAP_MAG_MIN at least, at most
 * what leaves room for the frees of the next completion step), or drains it to the private
 * stack when it holds more than that. The lanes copy between magazine and stack together, so
 * a fan-out of hundreds of spawns costs a few coalesced copies instead of hundreds of
 * slow-path allocations. */
GTAP_DEV void gtap_mag_balance_warp(gtap_magazine *m, uint32_t worker, uint32_t lane)
{
    const uint32_t per = gtap_dev.records_per_worker;
    uint32_t *stack = gtap_dev.pool_stack + (size_t)worker * per;
    if (lane == 0)
        gtap_mag_normalize(m, worker);
    __syncwarp();
    uint32_t n = (uint32_t)m->n;
    uint32_t target = m->demand + 32;
    target = target < GTAP_MAG_MIN ? GTAP_MAG_MIN : target;
    target = target > GTAP_MAG_MAX_TARGET ? GTAP_MAG_MAX_TARGET : target;
    if (n < target) {
        uint32_t need = target - n, sn = m->stack_n;
        uint32_t k = need < sn ? need : sn;
        for (uint32_t j = lane; j < k; j += 32)
            m->ids[n + j] = stack[sn - 1 - j];
        n += k;
        need -= k;
        __syncwarp();
        if (lane == 0)
            m->stack_n = sn - k;
        if (need > 0) {
            uint32_t b = 0, got = 0;
            if (lane == 0)
                got = gtap_pool_reserve_fresh(worker, need, &b);
            got = __shfl_sync(0xffffffffu, got, 0);
            b = __shfl_sync(0xffffffffu, b, 0);
            for (uint32_t j = lane; j < got; j += 32) {
                m->ids[n + j] = worker * per + b + j;
                GTAP_DEBUG_POOL_FRESH(worker * per + b + j);
            }
            n += got;
            need -= got;
        }
        __syncwarp();
        if (lane == 0) {
            if (need > 0) /* remote frees, then borrowing: rare, one lane */
                n += gtap_pool_take(m, worker, &m->ids[n], need);
            m->n = (int32_t)n;
        }
    } else if (n > GTAP_MAG_MAX_TARGET) {
        uint32_t k = n - target, sn = m->stack_n;
        for (uint32_t j = lane; j < k; j += 32)
            stack[sn + j] = m->ids[target + j];
        __syncwarp();
        if (lane == 0) {
            m->stack_n = sn + k;
            m->n = (int32_t)target;
        }
    }
    __syncwarp();
}

/* The same for block mode, by one thread: a block allocates only a few ids per iteration
 * (its magazine is small), so the lanes of a warp are not needed. */
GTAP_DEV void gtap_mag_balance_one(gtap_magazine *m, uint32_t worker)
{
    gtap_mag_normalize(m, worker);
    uint32_t target = m->demand + 32;
    target = target < GTAP_MAG_MIN ? GTAP_MAG_MIN : target;
    target = target > GTAP_MAG_MAX_TARGET ? GTAP_MAG_MAX_TARGET : target;
    if ((uint32_t)m->n < target)
        m->n += (int32_t)gtap_pool_take(m, worker, &m->ids[m->n], target - (uint32_t)m->n);
    else if ((uint32_t)m->n > GTAP_MAG_MAX_TARGET) {
        uint32_t k = (uint32_t)m->n - target;
        m->n = (int32_t)target;
        gtap_pool_put(m, worker, &m->ids[target], k);
    }
}

/* After an iteration's segments ran (before the completion step), one thread: the number of
 * allocations they made, remembered as next iteration's demand. n_before is the magazine's
 * count after balancing; failed fast-path attempts made it negative, so it counts the
 * slow-path allocations too. */
GTAP_DEV void gtap_mag_note_demand(gtap_magazine *m, int32_t n_before)
{
    int32_t d = n_before - m->n;
    m->demand = d > 0 ? (uint32_t)d : 0u;
}

/* Frees id from the completion step: to the magazine when we own it (the caller guarantees
 * room, see GTAP_MAG_HIGH), else to its owner. One thread at a time per magazine. */
GTAP_DEV void gtap_mag_free_one(gtap_magazine *m, uint32_t worker, uint32_t id)
{
    if (gtap_pool_owner(id) == worker) {
        GTAP_DEBUG_POOL_FREE(id);
        m->ids[m->n++] = id;
    } else
        gtap_pool_free_remote(id);
}

#endif /* GTAP_POOL_CUH */
