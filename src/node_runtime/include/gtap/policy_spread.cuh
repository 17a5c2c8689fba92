/* gtap/policy_spread.cuh - SP3, spreading (docs/performance.md): near the end of a run, a warp
 * that shares its SM scheduler with a busy warp hands the tasks of its long iterations to
 * idle warps. Thread mode, one queue, work stealing.
 *
 * Hooks: the loop marks the warp busy or idle (gtap_spread_mark); step 5 decides whether to
 * keep no task (gtap_spread_decide) and then waits for thieves (gtap_spread_wait_for_thieves);
 * SP4 reads `timing`.
 */
#ifndef GTAP_POLICY_SPREAD_CUH
#define GTAP_POLICY_SPREAD_CUH

#include "gtap/device.cuh"
#include "gtap/policy_resume.cuh"

typedef struct gtap_spread_sh {
    uint32_t slot;                 /* %warpid, the warp's slot on its SM */
    uint32_t slot_busy;            /* our bit of *slot_word is set */
    unsigned long long *slot_word; /* &gtap_dev.sm_busy[%smid]; NULL: not tracked */
    uint32_t timing;               /* iterations are long: look at every one */
    uint32_t poll_batch;           /* iteration count at poll_clock */
    long long poll_clock;          /* clock64() at the last look */
    uint32_t spreads;              /* iterations after which the warp spread (GTAP_STATS) */
} gtap_spread_sh;

/* Lane 0, at the start of a launch. The warp's bit lives in gtap_dev.sm_busy, the words of
 * busy warp slots per SM, kept by lane 0 in shared memory (in registers, it was live across
 * the tasks' code and cost 13-20 registers). An SM's four schedulers each issue for the warps
 * of one slot residue mod 4. The bits are a hint, read and written relaxed, and order
 * nothing. */
GTAP_DEV void gtap_spread_init(gtap_spread_sh *s)
{
    uint32_t sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    s->slot_word = GTAP_WITH_SPREAD && gtap_dev.spread && sm < GTAP_MAX_SMS && slot < 64 ? gtap_dev.sm_busy + sm
                                                                                         : NULL;
    s->slot = slot;
    s->slot_busy = 0;
    s->timing = 0;
    s->poll_batch = 0;
    s->poll_clock = clock64();
    s->spreads = 0;
}

/* Lane 0: the warp holds tasks (busy = 1) or none. */
GTAP_DEV void gtap_spread_mark(gtap_spread_sh *s, uint32_t busy)
{
    if (!GTAP_WITH_SPREAD || !s->slot_word || s->slot_busy == busy)
        return;
    s->slot_busy = busy;
    if (busy)
        gtap_red_or_relaxed_u64(s->slot_word, 1ull << s->slot);
    else
        gtap_red_and_relaxed_u64(s->slot_word, ~(1ull << s->slot));
}

/* Lane 0: should the warp hand its next tasks to idle warps? Only after iterations of
 * GTAP_SPREAD_MIN_CYCLES on average since the last look, and when few warps are busy (so some
 * schedulers sit idle) and a busy warp of a lower slot shares this warp's scheduler (the
 * lowest stays, the others spread): on an idle scheduler the tasks run up to 2-4x as fast.
 * The L2 loads happen only after long iterations. */
GTAP_DEV uint32_t gtap_spread_should(gtap_spread_sh *s, gtap_resume_sh *resume, uint32_t nworkers,
                                     uint32_t batches)
{
    const long long now = clock64();
    const uint32_t iterations = batches - s->poll_batch; /* 0 at the first look: no measure yet */
    s->timing = iterations > 0 && now - s->poll_clock >= (long long)(GTAP_SPREAD_MIN_CYCLES) * iterations;
    s->poll_clock = now;
    s->poll_batch = batches;
    if (!s->timing || !s->slot_word)
        return 0;
    const int32_t active = (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active);
    if (active >= (int32_t)(nworkers * (uint32_t)gtap_dev.spread / 16))
        return 0;
    const unsigned long long same_scheduler = 0x1111111111111111ull << (s->slot & 3);
    const unsigned long long lower = (1ull << s->slot) - 1;
    if ((gtap_ld_relaxed_u64(s->slot_word) & same_scheduler & lower) == 0)
        return 0;
    if (resume->n > 0) {
        /* Tasks still wait in SP1's buffer (the active count was read as high up to 8
         * iterations ago): run them first, and spread after the next long iteration. Moving
         * them to the deque here would keep 12 more registers live in the scheduler loop. */
        resume->hold = 0;
        return 0;
    }
    return 1;
}

/* Step 5, warp-collective: does the warp keep no task this iteration? Lane 0 looks every 8th
 * iteration, or every one while they are long (`timing`, read by every lane before step 3:
 * lane 0 rewrites it here). A clock read in every iteration costs short-task programs 3%. */
GTAP_DEV uint32_t gtap_spread_decide(gtap_spread_sh *s, gtap_resume_sh *resume, uint32_t nworkers, uint32_t lane,
                                     uint32_t timing, uint32_t batches)
{
    uint32_t spreading = 0;
    if (GTAP_WITH_SPREAD && gtap_dev.spread && (timing || (batches & 7) == 0)) {
        if (lane == 0)
            spreading = gtap_spread_should(s, resume, nworkers, batches);
        spreading = __shfl_sync(0xffffffffu, spreading, 0);
        __syncwarp(); /* lane 0 may have cleared resume->hold, which step 5 reads */
    }
    return spreading;
}

/* Lane 0, after step 5 published everything: the warp is not busy while lane 0 waits until
 * thieves have taken its published tasks or GTAP_SPREAD_WAIT_CYCLES pass; step 1 then takes
 * back what is left, and the warp is busy again. The warp stays active meanwhile: its deque
 * is not empty (docs/termination.md T2). `left` reads the queue's own count (gtap_q_probe). */
GTAP_DEV void gtap_spread_wait_for_thieves(gtap_spread_sh *s, uint32_t w)
{
    const long long t0 = clock64();
    uint32_t left = gtap_q_probe(w, 0); /* what thieves could still claim */
    if (!left)
        return;
    s->spreads++;
    gtap_spread_mark(s, 0);
    while (left && clock64() - t0 < (long long)(GTAP_SPREAD_WAIT_CYCLES)) {
        __nanosleep(256);
        left = gtap_q_probe(w, 0);
    }
    if (left)
        gtap_spread_mark(s, 1);
}

#endif /* GTAP_POLICY_SPREAD_CUH */
