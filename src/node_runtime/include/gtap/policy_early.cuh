/* gtap/policy_early.cuh - SP2, early publishing (docs/performance.md, docs/deque.md D1'): while
 * some warps are idle, lanes that finish while others of their warp still run publish their
 * new entries and resumed parents at once instead of at the iteration's end. Thread mode, one
 * queue, the work-stealing deque (GTAP_Q_EARLY_PUBLISH).
 *
 * Hooks: step 3 decides per iteration (gtap_early_on) and each lane's group publishes as its
 * segments end (gtap_early_finish); step 5 accounts for what was published
 * (gtap_early_published) and resets the counters (gtap_early_reset); the load look of
 * policies.cuh sets `ok`.
 */
#ifndef GTAP_POLICY_EARLY_CUH
#define GTAP_POLICY_EARLY_CUH

#include "gtap/device.cuh"
#include "gtap/worker_shared.cuh"

#if GTAP_WITH_EARLY_PUBLISH && !GTAP_Q_EARLY_PUBLISH
#error "GTAP_WITH_EARLY_PUBLISH needs the work-stealing deque (deque_ws.cuh)"
#endif

typedef struct gtap_early_sh {
    int32_t settled;     /* of this iteration's new entries, those of finished lanes */
    uint32_t published;  /* of those, entries published early */
    uint32_t lanes_done; /* lanes whose segment has ended */
    uint32_t ok;         /* SP2 is on and some warps are idle */
    uint32_t publishes;  /* entries published early (GTAP_STATS) */
} gtap_early_sh;

/* Lane 0, at the start of a launch: on (if configured) until the first load look. */
GTAP_DEV void gtap_early_init(gtap_early_sh *e)
{
    e->settled = 0;
    e->published = 0;
    e->lanes_done = 0;
    e->ok = gtap_dev.early_publish;
    e->publishes = 0;
}

/* Step 3, every lane after the iteration's first __syncwarp: does this iteration publish
 * early? Only with more than one task, while some warps idle to take the entries.
 * Warp-uniform. */
GTAP_DEV uint32_t gtap_early_on(const gtap_early_sh *e, uint32_t ntask)
{
#if GTAP_WITH_EARLY_PUBLISH
    return e->ok && ntask > 1;
#else
    (void)e;
    (void)ntask;
    return 0;
#endif
}

/* Step 3, called by the lanes that run tasks as their segments end (after their completion,
 * step 4's work for them): `pushed` is what the lane added to the deque. A lane's entries
 * otherwise wait for the warp's slowest lane; the lanes (a converged group) that finish while
 * others still run publish at once every entry reserved so far whose lane has finished too.
 * Entries are reserved in any order by any lane, and only a prefix can be published, so a
 * group publishes only when every reserved entry belongs to a finished lane (settled ==
 * spawned); an entry reserved later belongs to a lane still running and waits for it.
 * e->published, raised by atomicMax, hands each entry to exactly one publisher. The last group
 * to finish publishes nothing: step 5 is next, and it keeps up to 32 entries for the warp's
 * next batch. Shared counters are read by atomics: the groups of a warp interleave in any
 * order. */
GTAP_DEV void gtap_early_finish(gtap_early_sh *e, gtap_warp_sh *sh, uint32_t w, uint32_t lane, uint32_t ntask,
                                uint32_t pushed)
{
#if GTAP_WITH_EARLY_PUBLISH
    const uint32_t group = __activemask();
    const uint32_t leader = __ffs(group) - 1;
    const uint32_t sum = __reduce_add_sync(group, pushed);
    uint32_t last = 0;
    if (lane == leader)
        last = atomicAdd(&e->lanes_done, (uint32_t)__popc(group)) + (uint32_t)__popc(group) == ntask;
    if (__shfl_sync(group, last, leader) || sum == 0)
        return;
#if (GTAP_EARLY_PUBLISH_WAIT_CYCLES) > 0
    /* The other lanes may end soon (fib, N-Queens: every lane's segment is short); then step
     * 5 keeps our entries for the warp's next batch, without the fences and pops of a
     * publish. The leader waits a while for them; the group's lanes wait at the shuffle. */
    uint32_t all_done = 0;
    if (lane == leader) {
        const long long t0 = clock64();
        while (!(all_done = atomicOr(&e->lanes_done, 0u) >= ntask) &&
               clock64() - t0 < (long long)(GTAP_EARLY_PUBLISH_WAIT_CYCLES))
            __nanosleep(64);
    }
    if (__shfl_sync(group, all_done, leader))
        return;
#endif
    /* Release: this group's records, join counters and ring entries, before the count below
     * that lets another group (or this one) publish them. */
    gtap_fence_acq_rel();
    __syncwarp(group);
    if (lane != leader)
        return;
    const uint32_t settled = (uint32_t)atomicAdd(&e->settled, (int32_t)sum) + sum;
    if (settled != (uint32_t)atomicOr(&sh->spawned[0], 0))
        return; /* a lane still running reserved an entry: the prefix ends before it */
    const uint32_t before = atomicMax(&e->published, settled);
    if (before >= settled)
        return; /* another group published them */
    /* Acquire: the other groups' entries counted in settled; release them to thieves (D1'). */
    gtap_fence_acq_rel();
    gtap_q_publish_early(w, 0, settled - before);
    atomicAdd(&e->publishes, settled - before); /* groups may interleave */
#else
    (void)e; (void)sh; (void)w; (void)lane; (void)ntask; (void)pushed;
#endif
}

/* Step 5, every lane after step 4's __syncwarp: the oldest entries of queue 0 that step 3
 * published; they cannot be kept. */
GTAP_DEV uint32_t gtap_early_published(const gtap_early_sh *e, uint32_t early)
{
    return early ? e->published : 0;
}

/* Step 5, warp-collective, after every lane has read gtap_early_published. */
GTAP_DEV void gtap_early_reset(gtap_early_sh *e, uint32_t lane, uint32_t early)
{
    if (!early)
        return;
    __syncwarp(); /* every lane has read e->published */
    if (lane == 0) {
        e->settled = 0;
        e->published = 0;
        e->lanes_done = 0;
    }
}

#endif /* GTAP_POLICY_EARLY_CUH */
