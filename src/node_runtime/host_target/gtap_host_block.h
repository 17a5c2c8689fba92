/* gtap_host_block.h (host target) - a simulated thread block: the threads of a block-level
 * task run one segment on one OS thread, each on its own fiber (gtap_host_fiber.h), with
 * real block and warp barriers between them. Also defines threadIdx and blockDim, which the
 * simulation sets for the thread it runs.
 *
 * What a simulated block guarantees (the CUDA semantics a block-level task relies on):
 *  - every thread t = 0..n-1 runs the segment with threadIdx.x = t and blockDim.x = n;
 *    locals are per thread (each fiber has its own stack), `__shared__` variables (`static`
 *    on the host target) are shared by the block's threads;
 *  - __syncthreads() returns in a thread only after every thread of the block reached a
 *    __syncthreads(), and every store made before it is seen after it (one OS thread:
 *    program order is enough); a taskwait is a block barrier of its own kind (the two do not
 *    pair, as the GPU's join counts its own arrivals);
 *  - a warp collective (gtap_host_warp.h) of the lanes in its mask completes when each of
 *    them reached it, and returns each lane its result.
 * Threads switch only at those barriers (cooperative scheduling), so a segment without them
 * runs its threads one after another on one fiber: two context switches per segment. After a
 * barrier the threads resume in threadIdx order.
 *
 * A barrier that some thread of the block never reaches (it ended the segment, or waits at
 * another kind of barrier) would hang a GPU or corrupt the block's state; here the segment
 * stops and gtap_hb_run reports which threads wait where (the executor turns it into the
 * run's error). Outside a simulated block (thread-level programs, kernel code around the
 * entry: the kernel runs once, as thread 0 of a block of one thread) the barriers return at
 * once with the result of a block of one thread.
 *
 * One block at a time per process (the host target runs one task at a time); the state is
 * one object shared by every translation unit of the program (C++17 inline variables: the
 * host target compiles programs as C++20). Environment: GTAP_HOST_STACK_KB (16..1048576,
 * default 256) sets each simulated thread's stack.
 */
#ifndef GTAP_HOST_BLOCK_H
#define GTAP_HOST_BLOCK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtap_host_fiber.h"

#if !defined(__cplusplus)
#error "gtap_host_block.h is C++ (the host target compiles programs as C++20)"
#endif

struct gtap_host_uint3 { unsigned x, y, z; };
/* Variables, not constants: the simulated block sets them for the thread it runs. */
inline gtap_host_uint3 threadIdx = {0, 0, 0};
inline gtap_host_uint3 blockDim = {1, 1, 1};

#define GTAP_HB_MAX_THREADS 1024u
#define GTAP_HB_WARP 32u
#define GTAP_HB_WARP_GROUPS 4u /* collectives of disjoint lanes pending in one warp at a time */

/* A simulated thread's state in the current segment (non-zero first value: docs STYLE). */
enum gtap_hb_thread_state {
    GTAP_HB_UNSTARTED = 0x51, /* not yet run in this segment */
    GTAP_HB_RUNNING,          /* running now */
    GTAP_HB_WAITING,          /* at a barrier or warp collective that has not completed */
    GTAP_HB_READY,            /* its barrier completed; in the ready queue */
    GTAP_HB_DONE              /* ended the segment */
};

/* What a barrier computes from the values its threads bring. */
enum gtap_hb_op {
    GTAP_HB_SYNC = 1,  /* nothing: __syncthreads, __syncwarp */
    GTAP_HB_COUNT,     /* how many brought a nonzero value: __syncthreads_count / _and / _or */
    GTAP_HB_JOIN_MAX,  /* the largest value: a taskwait (block mode) reads the spawn count */
    GTAP_HB_SHFL,      /* each lane gets the value of the lane it names (its arg) */
    GTAP_HB_BALLOT,    /* the mask of lanes with a nonzero value */
    GTAP_HB_ADD,       /* __reduce_add_sync (values as int64, sum mod 2^64) */
    GTAP_HB_MIN,       /* __reduce_min_sync */
    GTAP_HB_MAX,       /* __reduce_max_sync */
    GTAP_HB_MATCH_ANY  /* each lane gets the mask of lanes with its value */
};

/* A pending barrier: the block's, or one warp's. */
typedef struct gtap_hb_group {
    uint32_t arrived;  /* block: threads arrived; warp: mask of lanes arrived */
    uint32_t mask;     /* warp: the lanes that take part */
    int op;            /* enum gtap_hb_op of the pending barrier (its first arrival's) */
    const char *what;  /* its name, for messages */
} gtap_hb_group;

typedef struct gtap_hb {
    uint32_t nthreads;      /* block size the arrays are sized for; 0 before the first run */
    int active;             /* a segment is running */
    uint32_t cur;           /* the thread running now */
    uint32_t next_start;    /* next thread to start in this segment */
    uint32_t finished;      /* threads that ended the segment */
    int failed;             /* the segment stopped (message says why) */
    char message[320];
    void (*job)(void *ctx, uint32_t thread);
    void *ctx;
    size_t stack_bytes;
    gtap_fiber sched;       /* the OS thread's context (gtap_hb_run) */
    gtap_fiber *fibers;     /* [nthreads]; a stack is mapped at a fiber's first use */
    uint32_t nfibers;       /* fibers with a stack */
    int fibers_dirty;       /* a failed segment left threads inside fibers: re-init them */
    uint32_t *idle;         /* fibers without a thread */
    uint32_t nidle;
    uint32_t *ready;        /* ring of threads to resume, in order */
    uint32_t ready_head, ready_count;
    uint16_t *thread_fiber; /* [thread] fiber it runs on */
    uint8_t *state;         /* [thread] enum gtap_hb_thread_state */
    const char **waits_at;  /* [thread] the barrier it waits at */
    uint64_t *val, *res;    /* [thread] value brought to / result of the last barrier */
    uint32_t *arg;          /* [thread] argument of the last barrier (GTAP_HB_SHFL: source lane) */
    gtap_hb_group block;
    gtap_hb_group warps[GTAP_HB_MAX_THREADS / GTAP_HB_WARP][GTAP_HB_WARP_GROUPS];
} gtap_hb;

inline gtap_hb gtap_hb_sim;

/* Stops the segment with a message (the first one wins). */
static inline void gtap_hb_fail(gtap_hb *hb, const char *fmt, ...)
{
    va_list ap;
    if (hb->failed)
        return;
    hb->failed = 1;
    va_start(ap, fmt);
    vsnprintf(hb->message, sizeof hb->message, fmt, ap);
    va_end(ap);
}

static void gtap_hb_fiber_main(void *arg);

/* Sizes the block for n threads (first run, or a new block size). Returns 0 or -1. */
static inline int gtap_hb_setup(gtap_hb *hb, uint32_t n)
{
    if (hb->nthreads == n)
        return 0;
    if (n == 0 || n > GTAP_HB_MAX_THREADS) {
        gtap_hb_fail(hb, "a block of %u threads cannot be simulated (1..%u)", n, GTAP_HB_MAX_THREADS);
        return -1;
    }
    for (uint32_t f = 0; f < hb->nfibers; f++)
        gtap_fiber_stack_free(&hb->fibers[f]);
    free(hb->fibers);
    free(hb->idle);
    free(hb->ready);
    free(hb->thread_fiber);
    free(hb->state);
    free(hb->waits_at);
    free(hb->val);
    free(hb->res);
    free(hb->arg);
    hb->nfibers = hb->nidle = 0;
    hb->fibers = (gtap_fiber *)calloc(n, sizeof *hb->fibers);
    hb->idle = (uint32_t *)calloc(n, sizeof *hb->idle);
    hb->ready = (uint32_t *)calloc(n, sizeof *hb->ready);
    hb->thread_fiber = (uint16_t *)calloc(n, sizeof *hb->thread_fiber);
    hb->state = (uint8_t *)calloc(n, sizeof *hb->state);
    hb->waits_at = (const char **)calloc(n, sizeof *hb->waits_at);
    hb->val = (uint64_t *)calloc(n, sizeof *hb->val);
    hb->res = (uint64_t *)calloc(n, sizeof *hb->res);
    hb->arg = (uint32_t *)calloc(n, sizeof *hb->arg);
    hb->nthreads = n;
    if (!hb->fibers || !hb->idle || !hb->ready || !hb->thread_fiber || !hb->state || !hb->waits_at ||
        !hb->val || !hb->res || !hb->arg) {
        hb->nthreads = 0; /* the next run tries again */
        gtap_hb_fail(hb, "out of host memory for a simulated block of %u threads", n);
        return -1;
    }
    if (!hb->stack_bytes) {
        const char *s = getenv("GTAP_HOST_STACK_KB");
        long long kb = 256;
        if (s && *s) {
            char *end;
            kb = strtoll(s, &end, 0);
            if (*end || kb < 16 || kb > 1048576) { /* a bad knob stops the run (docs/configuration.md) */
                gtap_hb_fail(hb, "GTAP_HOST_STACK_KB=%s is not an integer in [16, 1048576] (KiB of stack per "
                                 "simulated thread)", s);
                hb->nthreads = 0; /* the next run checks it again */
                return -1;
            }
        }
        hb->stack_bytes = (size_t)kb << 10;
    }
    return 0;
}

/* A fiber for the next thread to start: an idle one, or a new one. -1 when no stack. */
static inline int gtap_hb_take_fiber(gtap_hb *hb, uint32_t *f_p)
{
    if (hb->nidle) {
        *f_p = hb->idle[--hb->nidle];
        return 0;
    }
    if (hb->nfibers == hb->nthreads) { /* cannot happen: a fiber per unfinished thread at most */
        gtap_hb_fail(hb, "internal error: no fiber left for a new thread");
        return -1;
    }
    gtap_fiber *f = &hb->fibers[hb->nfibers];
    if (gtap_fiber_stack_alloc(f, hb->stack_bytes, hb->nfibers * 5u) != 0) {
        gtap_hb_fail(hb, "cannot map the stack of simulated thread %u (%zu KiB; GTAP_HOST_STACK_KB)",
                     hb->next_start, hb->stack_bytes >> 10);
        return -1;
    }
    gtap_fiber_init(f, gtap_hb_fiber_main, (void *)(uintptr_t)hb->nfibers);
    *f_p = hb->nfibers++;
    return 0;
}

/* Leaves `from` (a thread that waits, a fiber with nothing left to start, or the scheduler
 * at the start of a segment) for whatever can run next: the first thread in the ready queue,
 * else a fiber for the next thread to start, else the scheduler (nothing can run: the
 * segment is over, or stuck). Switching straight from thread to thread, not through the
 * scheduler, halves the switches of a barrier. */
static inline void gtap_hb_switch_next(gtap_hb *hb, gtap_fiber *from)
{
    gtap_fiber *to = &hb->sched;
    uint32_t f;
    if (hb->failed) {
        /* to the scheduler, which ends the segment */
    } else if (hb->ready_count) {
        const uint32_t t = hb->ready[hb->ready_head];
        hb->ready_head = (hb->ready_head + 1) % hb->nthreads;
        hb->ready_count--;
        hb->state[t] = GTAP_HB_RUNNING;
        hb->cur = t;
        threadIdx.x = t;
        to = &hb->fibers[hb->thread_fiber[t]];
    } else if (hb->next_start < hb->nthreads && gtap_hb_take_fiber(hb, &f) == 0) {
        to = &hb->fibers[f]; /* its loop (gtap_hb_fiber_main) takes the next thread */
    }
    if (to != from)
        gtap_fiber_switch(from, to);
}

/* Each fiber starts threads that have not run yet, one after another, until none is left or
 * the thread it runs waits at a barrier (then another fiber starts the next one). */
static void gtap_hb_fiber_main(void *arg)
{
    gtap_hb *hb = &gtap_hb_sim;
    const uint32_t f = (uint32_t)(uintptr_t)arg;
    for (;;) {
        while (hb->next_start < hb->nthreads && !hb->failed) {
            const uint32_t t = hb->next_start++;
            hb->thread_fiber[t] = (uint16_t)f;
            hb->state[t] = GTAP_HB_RUNNING;
            hb->cur = t;
            threadIdx.x = t;
            hb->job(hb->ctx, t);
            hb->state[t] = GTAP_HB_DONE;
            hb->finished++;
        }
        hb->idle[hb->nidle++] = f;
        gtap_hb_switch_next(hb, &hb->fibers[f]);
    }
}

/* Describes threads that wait at a barrier nobody else will reach (the segment cannot go on):
 * some threads ended the segment without it, or the rest wait at another barrier. */
static inline void gtap_hb_report_stuck(gtap_hb *hb)
{
    uint32_t n = hb->nthreads, waiting = 0, first = 0, done = 0, first_done = 0, other = n;
    for (uint32_t t = n; t-- > 0;) {
        if (hb->state[t] == GTAP_HB_WAITING) {
            waiting++;
            first = t;
        } else if (hb->state[t] == GTAP_HB_DONE) {
            done++;
            first_done = t;
        }
    }
    for (uint32_t t = first + 1; t < n && other == n; t++)
        if (hb->state[t] == GTAP_HB_WAITING && strcmp(hb->waits_at[t], hb->waits_at[first]) != 0)
            other = t;
    if (done)
        gtap_hb_fail(hb, "%u of %u threads wait at %s (thread %u first) while %u threads (thread %u first) "
                         "ended the segment without reaching it: in block mode every thread of the block "
                         "must reach each taskwait and __syncthreads(), and every lane in a warp "
                         "collective's mask must reach it",
                     waiting, n, hb->waits_at[first], first, done, first_done);
    else
        gtap_hb_fail(hb, "the threads of the block wait at barriers that cannot complete: thread %u at %s, "
                         "thread %u at %s", first, hb->waits_at[first], other < n ? other : first,
                     hb->waits_at[other < n ? other : first]);
}

/* Runs job(ctx, t) as threads t = 0..n-1 of one block until each has returned. Returns 0, or
 * -1 when the segment could not finish (gtap_hb_sim.message says why; the threads still
 * inside it are abandoned). Called by the executor, never from inside a segment. */
static inline int gtap_hb_run(uint32_t n, void (*job)(void *ctx, uint32_t thread), void *ctx)
{
    gtap_hb *hb = &gtap_hb_sim;
    hb->failed = 0;
    if (hb->active) {
        gtap_hb_fail(hb, "internal error: a block segment started inside another");
        return -1;
    }
    if (gtap_hb_setup(hb, n) != 0)
        return -1;
    if (hb->fibers_dirty) { /* threads of a failed segment still sit in these fibers */
        hb->nidle = 0;
        for (uint32_t f = 0; f < hb->nfibers; f++) {
            gtap_fiber_init(&hb->fibers[f], gtap_hb_fiber_main, (void *)(uintptr_t)f);
            hb->idle[hb->nidle++] = f;
        }
        hb->fibers_dirty = 0;
    }
    for (uint32_t t = 0; t < n; t++)
        hb->state[t] = GTAP_HB_UNSTARTED;
    memset(&hb->block, 0, sizeof hb->block);
    memset(hb->warps, 0, sizeof hb->warps);
    hb->job = job;
    hb->ctx = ctx;
    hb->next_start = hb->finished = 0;
    hb->ready_head = hb->ready_count = 0;
    hb->active = 1;
    blockDim.x = n;
    /* Back here when nothing can run: every thread ended the segment, or the rest wait at
     * barriers nobody else will reach, or the segment failed. */
    gtap_hb_switch_next(hb, &hb->sched);
    if (!hb->failed && hb->finished != n)
        gtap_hb_report_stuck(hb);
    hb->active = 0;
    threadIdx.x = 0;
    blockDim.x = 1;
    if (hb->failed)
        hb->fibers_dirty = 1;
    return hb->failed ? -1 : 0;
}

/* Barrier g completed: computes each taking part thread's result and queues them (thread
 * order). block: every thread takes part; else the lanes of `mask` in the warp at `base`. */
static inline void gtap_hb_complete(gtap_hb *hb, gtap_hb_group *g, int block, uint32_t base, uint32_t mask)
{
    const uint32_t first = block ? 0 : base, end = block ? hb->nthreads : base + GTAP_HB_WARP;
    uint64_t acc = 0, ballot = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t t = first; t < end; t++) {
        if (!block && !(mask >> (t - base) & 1u))
            continue;
        const uint64_t v = hb->val[t];
        acc = g->op == GTAP_HB_COUNT ? acc + (v != 0) : g->op == GTAP_HB_JOIN_MAX ? (v > acc ? v : acc) : acc + v;
        if (!block)
            ballot |= (uint64_t)(v != 0) << (t - base);
        lo = (int64_t)v < lo ? (int64_t)v : lo;
        hi = (int64_t)v > hi ? (int64_t)v : hi;
    }
    for (uint32_t t = first; t < end; t++) {
        uint64_t r = 0;
        if (!block && !(mask >> (t - base) & 1u))
            continue;
        switch (g->op) {
        case GTAP_HB_COUNT:
        case GTAP_HB_JOIN_MAX:
        case GTAP_HB_ADD: r = acc; break;
        case GTAP_HB_BALLOT: r = ballot; break;
        case GTAP_HB_MIN: r = (uint64_t)lo; break;
        case GTAP_HB_MAX: r = (uint64_t)hi; break;
        case GTAP_HB_SHFL: { /* a source lane outside the mask: undefined on a GPU; here the own value */
            const uint32_t src = hb->arg[t];
            r = (mask >> src & 1u) ? hb->val[base + src] : hb->val[t];
            break;
        }
        case GTAP_HB_MATCH_ANY:
            for (uint32_t u = 0; u < GTAP_HB_WARP; u++)
                if ((mask >> u & 1u) && hb->val[base + u] == hb->val[t])
                    r |= 1ull << u;
            break;
        default: break;
        }
        hb->res[t] = r;
        hb->state[t] = GTAP_HB_READY;
        hb->ready[(hb->ready_head + hb->ready_count++) % hb->nthreads] = t;
    }
    memset(g, 0, sizeof *g);
}

/* The calling thread t, which has arrived at barrier g with value v (and arg), waits until g
 * completes (completing it if it is the last to arrive) and returns its result. */
static inline uint64_t gtap_hb_wait(gtap_hb *hb, gtap_hb_group *g, int block, uint32_t base, uint32_t t,
                                    uint64_t v, uint32_t arg, const char *what)
{
    if (hb->failed) { /* the segment is over: leave this thread where it is */
        gtap_fiber_switch(&hb->fibers[hb->thread_fiber[t]], &hb->sched);
        return 0; /* not reached: the fiber is abandoned */
    }
    hb->val[t] = v;
    hb->arg[t] = arg;
    hb->waits_at[t] = what;
    hb->state[t] = GTAP_HB_WAITING;
    if (block ? ++g->arrived == hb->nthreads : (g->arrived |= 1u << (t - base)) == g->mask)
        gtap_hb_complete(hb, g, block, base, g->mask); /* queues this thread too */
    gtap_hb_switch_next(hb, &hb->fibers[hb->thread_fiber[t]]);
    return hb->res[t];
}

/* The block's barrier: every thread of the block must reach it (the same kind: a
 * __syncthreads() does not pair with a taskwait). Returns the op's result. */
static inline uint64_t gtap_hb_arrive_block(int op, uint64_t v, const char *what)
{
    gtap_hb *hb = &gtap_hb_sim;
    gtap_hb_group *g = &hb->block;
    const uint32_t t = hb->cur;
    if (g->arrived == 0) {
        g->op = op;
        g->what = what;
    } else if (g->op != op || (g->what != what && strcmp(g->what, what) != 0)) {
        gtap_hb_fail(hb, "the threads of the block reached different barriers: %s and %s (thread %u); in block "
                         "mode every thread must reach each taskwait and __syncthreads() of a segment in the "
                         "same order", g->what, what, t);
    }
    return gtap_hb_wait(hb, g, 1, 0, t, v, 0, what);
}

/* A collective of the lanes in `mask` of the caller's warp. Lanes of disjoint masks may have
 * collectives pending at the same time (half-warps, say), up to GTAP_HB_WARP_GROUPS; every
 * lane of a mask must name the same mask and reach the same collective. */
static inline uint64_t gtap_hb_arrive_warp(uint32_t mask, int op, uint64_t v, uint32_t arg, const char *what)
{
    gtap_hb *hb = &gtap_hb_sim;
    const uint32_t t = hb->cur, lane = t % GTAP_HB_WARP, base = t - lane;
    const uint32_t present =
        hb->nthreads - base >= GTAP_HB_WARP ? 0xffffffffu : (1u << (hb->nthreads - base)) - 1u;
    const uint32_t take_part = mask & present;
    gtap_hb_group *groups = hb->warps[base / GTAP_HB_WARP], *g = NULL, *fresh = NULL;
    if (!(mask >> lane & 1u))
        gtap_hb_fail(hb, "thread %u calls %s with mask 0x%08x, which leaves out its own lane %u", t, what, mask,
                     lane);
    for (uint32_t i = 0; i < GTAP_HB_WARP_GROUPS && !hb->failed; i++) {
        gtap_hb_group *p = &groups[i];
        if (p->mask == 0) {
            fresh = fresh ? fresh : p;
        } else if (p->mask & take_part) {
            if (p->mask != take_part || p->op != op || (p->what != what && strcmp(p->what, what) != 0))
                gtap_hb_fail(hb, "lanes of warp %u reached different warp collectives (%s, mask 0x%08x; %s, mask "
                                 "0x%08x at thread %u): the lanes a collective's mask names must all reach it, "
                                 "with that mask", base / GTAP_HB_WARP, p->what, p->mask, what, mask, t);
            g = p;
        }
    }
    if (!hb->failed && !g) {
        if (!fresh)
            gtap_hb_fail(hb, "more than %u warp collectives of disjoint lanes pending in warp %u",
                         GTAP_HB_WARP_GROUPS, base / GTAP_HB_WARP);
        else {
            g = fresh;
            g->op = op;
            g->what = what;
            g->mask = take_part;
        }
    }
    return gtap_hb_wait(hb, g, 0, base, t, v, arg, what);
}

/* ---- block barriers (CUDA's names; the host target's cuda_runtime.h includes this) ------- */

/* __syncthreads(): all threads of the block (see the file comment). */
static inline void __syncthreads(void)
{
    if (gtap_hb_sim.active)
        gtap_hb_arrive_block(GTAP_HB_SYNC, 0, "__syncthreads()");
}

static inline int __syncthreads_count(int pred)
{
    if (!gtap_hb_sim.active)
        return pred != 0;
    return (int)gtap_hb_arrive_block(GTAP_HB_COUNT, pred != 0, "__syncthreads_count()");
}

static inline int __syncthreads_and(int pred)
{
    if (!gtap_hb_sim.active)
        return pred != 0;
    return gtap_hb_arrive_block(GTAP_HB_COUNT, pred != 0, "__syncthreads_and()") ==
           gtap_hb_sim.nthreads;
}

static inline int __syncthreads_or(int pred)
{
    if (!gtap_hb_sim.active)
        return pred != 0;
    return gtap_hb_arrive_block(GTAP_HB_COUNT, pred != 0, "__syncthreads_or()") != 0;
}

/* __syncwarp(mask): the lanes of the caller's warp named in mask. */
static inline void __syncwarp(unsigned mask = 0xffffffffu)
{
    if (gtap_hb_sim.active)
        gtap_hb_arrive_warp(mask, GTAP_HB_SYNC, 0, 0, "__syncwarp()");
}

/* The executor's taskwait in block mode: a barrier of the whole block that returns the largest
 * value brought to it (each thread brings the spawn count it sees; the last one to arrive sees
 * every thread's spawns). */
static inline uint64_t gtap_hb_join_barrier(uint64_t spawned)
{
    if (!gtap_hb_sim.active)
        return spawned;
    return gtap_hb_arrive_block(GTAP_HB_JOIN_MAX, spawned, "a taskwait");
}

#endif /* GTAP_HOST_BLOCK_H */
