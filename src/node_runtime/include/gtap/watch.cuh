/* gtap/watch.cuh - the words the single-GPU watchdog and progress report read while a run
 * goes on (GTAP_WATCHDOG_S, GTAP_PROGRESS: host/watchdog.c, docs/debug.md WD1-WD4).
 *
 * One 64-bit word per lane (thread mode: gtap_dev.watch[warp * 32 + lane]) or per block
 * (block mode, written by thread 0), always allocated and always written, so that no test
 * and no second scheduler instance sits in the task loop (WD1). High half: the scheduler
 * iterations the worker has finished; low half: the running segment's function id + 1, 0
 * between segments; GTAP_WATCH_LEFT outside the scheduler loop. The host reads the words with
 * copies on a stream of its own while the kernel runs.
 */
#ifndef GTAP_WATCH_CUH
#define GTAP_WATCH_CUH

#include "gtap/device.cuh"

/* Plain (weak) stores: a word orders and publishes nothing (WD3), and a strong or volatile
 * store (st.volatile is a system-scope store) costs the task loop more. asm volatile keeps each
 * one where it is written: the compiler may not drop the store before a segment as dead. */
GTAP_DEV void gtap_watch_store32(void *p, uint32_t v)
{
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v));
}

GTAP_DEV void gtap_watch_store64(void *p, unsigned long long v)
{
    asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v));
}

/* Each store computes its address from an index the compiler cannot see through, so that it
 * keeps no address of a word in registers across the task loop (the words of a worker are
 * written before, in and after the loop, and a shared address held across it took the
 * block-level entry kernel from 40 to 47 registers). */
GTAP_DEV uint32_t gtap_watch_opaque(uint32_t x)
{
    asm volatile("mov.b32 %0, %0;" : "+r"(x));
    return x;
}

/* Before a segment of function fn_state & 0xffff starts: the low half (little-endian) only,
 * so that the worker's iteration count from its last gtap_watch_end stays in the high half. */
GTAP_DEV void gtap_watch_begin(uint32_t slot, uint32_t fn_state)
{
    gtap_watch_store32(&gtap_dev.watch[gtap_watch_opaque(slot)], (fn_state & 0xffffu) + 1u);
}

/* The segment has returned; the worker has finished `iterations` scheduler iterations,
 * counting this one. */
GTAP_DEV void gtap_watch_end(uint32_t slot, unsigned long long iterations)
{
    gtap_watch_store64(&gtap_dev.watch[gtap_watch_opaque(slot)], iterations << 32);
}

/* The worker enters the scheduler loop (no iteration finished, no segment) and leaves it: the
 * host watches a launch while any word is not GTAP_WATCH_LEFT (WD4). */
GTAP_DEV void gtap_watch_enter(uint32_t slot)
{
    gtap_watch_store64(&gtap_dev.watch[gtap_watch_opaque(slot)], 0ull);
}

GTAP_DEV void gtap_watch_leave(uint32_t slot)
{
    gtap_watch_store64(&gtap_dev.watch[gtap_watch_opaque(slot)], GTAP_WATCH_LEFT);
}

/* Every 16th iteration and at the start of a launch (0), the worker's segments so far, for
 * the progress report's rate (WD2). The distributed layer's agent sums the same counters. */
GTAP_DEV void gtap_watch_progress(uint32_t worker, unsigned long long segments)
{
    gtap_watch_store64(&gtap_dev.stats[gtap_watch_opaque(worker)].tasks, segments);
}

#endif /* GTAP_WATCH_CUH */
