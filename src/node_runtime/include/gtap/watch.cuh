/* gtap/watch.cuh - the words the single-GPU watchdog and progress report read while a run
 * goes on (GTAP_WATCHDOG_S, GTAP_PROGRESS: host/watchdog.c, docs/debug.md WD1-WD3).
 *
 * One 64-bit word per lane (thread mode: gtap_dev.watch[warp * 32 + lane]) or per block
 * (block mode, written by thread 0), always allocated and always written, so that no test
 * and no second scheduler instance sits in the task loop: two coalesced stores per segment
 * (WD1). High half: the worker's scheduler iteration; low half: the segment's function id + 1
 * while it runs, 0 once it has returned; GTAP_WATCH_LEFT outside the scheduler loop. The host reads the words with copies on a stream of
 * its own while the kernel runs: they order nothing and publish nothing to other workers
 * (WD3), hence plain volatile stores.
 */
#ifndef GTAP_WATCH_CUH
#define GTAP_WATCH_CUH

#include "gtap/device.cuh"

/* Before a segment of function fn_state & 0xffff starts, in iteration `iteration`. */
GTAP_DEV void gtap_watch_begin(uint32_t slot, unsigned long long iteration, uint32_t fn_state)
{
    *(volatile unsigned long long *)&gtap_dev.watch[slot] = iteration << 32 | ((fn_state & 0xffffu) + 1u);
}

/* The segment of iteration `iteration` has returned. */
GTAP_DEV void gtap_watch_end(uint32_t slot, unsigned long long iteration)
{
    *(volatile unsigned long long *)&gtap_dev.watch[slot] = iteration << 32;
}

/* The worker enters the scheduler loop (iteration 0, no segment) and leaves it: the host
 * watches a launch while any word is not GTAP_WATCH_LEFT (WD4). */
GTAP_DEV void gtap_watch_enter(uint32_t slot)
{
    *(volatile unsigned long long *)&gtap_dev.watch[slot] = 0ull;
}

GTAP_DEV void gtap_watch_leave(uint32_t slot)
{
    *(volatile unsigned long long *)&gtap_dev.watch[slot] = GTAP_WATCH_LEFT;
}

/* Every 16th iteration and at the start of a launch (0), the worker's segments so far, for
 * the progress report's rate (WD2). The distributed layer's agent sums the same counters. */
GTAP_DEV void gtap_watch_progress(uint32_t worker, unsigned long long segments)
{
    *(volatile unsigned long long *)&gtap_dev.stats[worker].tasks = segments;
}

#endif /* GTAP_WATCH_CUH */
