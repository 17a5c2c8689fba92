/* gtap/policy_resume.cuh - SP1, resume batching (docs/performance.md): while nearly every warp
 * has work, a task whose last child finished waits in its warp's resume buffer, and the warp
 * runs resumed tasks as batches of their own. Thread mode, one queue, work stealing.
 *
 * Hooks: step 1 takes a batch (gtap_resume_first, gtap_resume_take); step 4 parks a resumed
 * parent (gtap_resume_park); the load look of policies.cuh sets `hold`.
 */
#ifndef GTAP_POLICY_RESUME_CUH
#define GTAP_POLICY_RESUME_CUH

#include "gtap/device.cuh"

/* At most 31 tasks wait after the fill step, and one iteration adds at most one per lane, so
 * 64 entries never overflow. */
#define GTAP_RESUMED_CAPACITY 64

typedef struct gtap_resume_sh {
    uint32_t hold;                          /* resumed tasks wait for a full batch now */
    int32_t n;                              /* tasks waiting in ids[0..n) */
    uint32_t batches;                       /* batches taken from ids (GTAP_STATS) */
    uint32_t ids[GTAP_WITH_RESUME_BATCHING ? GTAP_RESUMED_CAPACITY : 1]; /* private, never stolen */
} gtap_resume_sh;

/* Lane 0, at the start of a launch. `hold` stays 0 until the first load look. */
GTAP_DEV void gtap_resume_init(gtap_resume_sh *r)
{
    r->hold = 0;
    r->n = 0;
    r->batches = 0;
}

/* Step 4 (with SP2, step 3), any lane: parks resumed task id while the warp holds resumed
 * tasks back. Returns 0 when it did not (the caller pushes id to its deque then). */
GTAP_DEV int gtap_resume_park(gtap_resume_sh *r, uint32_t id)
{
#if GTAP_WITH_RESUME_BATCHING
    if (r->hold) {
        /* Claims a slot among this warp's lanes; the __syncwarp ending step 4 makes the entry
         * visible to the lanes that take it in step 1. */
        int32_t pos = atomicAdd(&r->n, 1);
        if (pos < GTAP_RESUMED_CAPACITY) {
            r->ids[pos] = id;
            return 1;
        }
        atomicSub(&r->n, 1); /* every lane past the end undoes its own increment */
    }
#else
    (void)r;
    (void)id;
#endif
    return 0;
}

/* Does the next batch come from the resume buffer, before the deque? When 32 are ready, or
 * when the warp no longer holds resumed tasks back (then the buffer empties first). Any lane,
 * after a __syncwarp that follows the last change of r. */
GTAP_DEV int gtap_resume_first(const gtap_resume_sh *r)
{
#if GTAP_WITH_RESUME_BATCHING
    return r->n >= 32 || (r->n > 0 && !r->hold);
#else
    (void)r;
    return 0;
#endif
}

/* Step 1, warp-collective: lanes [0, k) take the oldest k <= 32 resumed tasks, and the rest
 * (at most 32) move to the front. Oldest first: a task that waits is not passed over by
 * newer ones again and again (its parent waits for it; near the end of a run that is the
 * critical path). Returns k. */
GTAP_DEV uint32_t gtap_resume_take(gtap_resume_sh *r, uint32_t lane, uint32_t *my_task)
{
#if GTAP_WITH_RESUME_BATCHING
    const uint32_t n = (uint32_t)r->n;
    const uint32_t k = n < 32 ? n : 32;
    if (lane < k)
        *my_task = r->ids[lane];
    const uint32_t rest = r->ids[k + lane < n ? k + lane : 0];
    __syncwarp(); /* every lane has read its entries before any moves */
    if (k + lane < n)
        r->ids[lane] = rest;
    if (lane == 0) {
        r->n = (int32_t)(n - k);
        r->batches += k != 0;
    }
    __syncwarp();
    return k;
#else
    (void)r;
    (void)lane;
    (void)my_task;
    return 0;
#endif
}

#endif /* GTAP_POLICY_RESUME_CUH */
