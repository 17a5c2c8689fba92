/* gtap/watch.cuh - what the single-GPU watchdog and progress report read while a run goes on
 * (GTAP_WATCHDOG_S, GTAP_PROGRESS: host/watchdog.c, docs/debug.md WD1-WD5).
 *
 * Written in every build, only off the task loop's path, so that they cost it nothing: each
 * worker's state word, gtap_dev.watch_worker[w] (WD1: busy or idle, set on entering the loop
 * and on going idle and back; GTAP_WATCH_LEFT outside the loop), and its progress counter,
 * gtap_dev.stats[w].tasks (WD2: every 16th iteration, in the branch that polls the abort flag).
 * Builds with -DGTAP_WATCH_TASKS=1 also write segment words, gtap_dev.watch[w * 32 + lane]
 * (thread mode) or [b] (block mode, thread 0), around every segment (WD3): high half the
 * iterations the worker has finished, low half the running segment's function id + 1, 0
 * between segments. Those cost fine-grained programs about 2%, hence opt-in.
 */
#ifndef GTAP_WATCH_CUH
#define GTAP_WATCH_CUH

#include "gtap/device.cuh"

/* Plain (weak) stores: a word orders and publishes nothing (WD4), and a volatile store is a
 * system-scope one. asm volatile keeps each where it is written: the compiler may not drop the
 * store before a segment as dead. */
GTAP_DEV void gtap_watch_store64(void *p, unsigned long long v)
{
    asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v));
}

/* Each store computes its address from an index the compiler cannot see through, so that it
 * keeps no address of a word in registers across the task loop (a worker's words are written
 * before, in and after the loop, and an address held across it took the block-level entry
 * kernel from 40 to 47 registers). */
GTAP_DEV uint32_t gtap_watch_opaque(uint32_t x)
{
    asm volatile("mov.b32 %0, %0;" : "+r"(x));
    return x;
}

#ifndef GTAP_WATCH_TASKS
#define GTAP_WATCH_TASKS 0
#endif

/* The worker's state word (WD1): GTAP_WATCH_BUSY, GTAP_WATCH_IDLE or GTAP_WATCH_LEFT. */
GTAP_DEV void gtap_watch_worker(uint32_t worker, unsigned long long state)
{
    gtap_watch_store64(&gtap_dev.watch_worker[gtap_watch_opaque(worker)], state);
}

#if GTAP_WATCH_TASKS
GTAP_DEV void gtap_watch_store32(void *p, uint32_t v)
{
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v));
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

/* On entering the loop: no iteration finished, no segment. */
GTAP_DEV void gtap_watch_enter(uint32_t slot)
{
    gtap_watch_store64(&gtap_dev.watch[gtap_watch_opaque(slot)], 0ull);
}
#else
#define gtap_watch_begin(slot, fn_state) ((void)0)
#define gtap_watch_end(slot, iterations) ((void)0)
#define gtap_watch_enter(slot) ((void)0)
#endif

/* Every 16th iteration and at the start of a launch (0), the worker's segments so far, for
 * the progress report's rate (WD2). The distributed layer's agent sums the same counters. */
GTAP_DEV void gtap_watch_progress(uint32_t worker, unsigned long long segments)
{
    gtap_watch_store64(&gtap_dev.stats[gtap_watch_opaque(worker)].tasks, segments);
}

#endif /* GTAP_WATCH_CUH */
