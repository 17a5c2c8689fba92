/* gtap_refexec.h - the CPU reference executor: implements the generated-code interface
 * (gtap_gen.h) on one CPU thread with real task records, join counters, continuations and
 * detached children, so translated programs run and are checked without a GPU.
 *
 * Semantics are those of the GPU runtimes (docs/join.md): a child becomes runnable when its
 * parent's segment returns; a child writes its result to result_dst and then decrements its
 * parent's join counter; the child that takes the counter to zero makes the parent runnable
 * again; a task that finishes with children outstanding becomes a zombie whose record lives
 * until they finish. The order in which runnable tasks run is LIFO by default, or random
 * (GTAP_REFEXEC_SEED=<n>) to shake out programs that depend on an order.
 *
 * Block mode (GTAP_WORKER_IS_BLOCK, set by the host target's gtap_block.cuh): each segment
 * runs on a simulated block of GTAP_BLOCK_SIZE threads (host_target/gtap_host_block.h), with
 * the GPU block mode's semantics (gtap_gen.h): every thread that reaches a spawn spawns its
 * own child; taskwait is a barrier of the whole block that counts every thread's spawns;
 * the task's result is its result thread's return value (return_thread, default 0);
 * queue(...) is ignored (EPAQ is thread-level).
 * A barrier that not every thread reaches fails the run, naming the task.
 *
 * Warp task functions of thread-level programs (GTAPGEN_HAS_WARP_FUNCTIONS) run each segment
 * the same way on a simulated warp of 32 threads; their spawns keep their queue(...).
 *
 * Header-only, C and C++ (block mode: C++). Define GTAP_TARGET_HOST before including
 * gtap_gen.h.
 *
 * Distributed use (src/inter_gpu/node_refexec.h): an optional gtap_rx_hooks table lets one
 * executor be one rank of a multi-rank job - polled between segments, told when an imported
 * task (parent on another rank) finishes, and able to hold stubs of migrated tasks. Without
 * hooks (the default) the executor behaves exactly as described above.
 *
 * GTAP_DEBUG (docs/debug.md; GTAP_STRESS implies it): the executor checks the rules of the
 * GPU runtime's debug tier that apply to its own structures - join counters (J3), zombies
 * (J4), what runs (J6), a resumed task's queue index (D6) and record ownership (P6, a live
 * flag in each record's header) - and a failed check fails the run like any other error,
 * with the line the GPU runtime prints (gtap/debug_rules.h). Without it, none is compiled.
 */
#ifndef GTAP_REFEXEC_H
#define GTAP_REFEXEC_H

#ifndef GTAP_TARGET_HOST
#define GTAP_TARGET_HOST 1
#endif
#include "gtap_gen.h"
#include "gtap/debug_rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GTAP_WORKER_IS_BLOCK)
#include "gtap/config.h"
#include "../host_target/gtap_host_block.h"
/* Threads per task: what the distributed node writes into, and checks in, every task record
 * that migrates (docs/wire.md, block_threads; 0 = thread-level). */
#define GTAP_RX_BLOCK_THREADS ((uint32_t)(GTAP_BLOCK_SIZE))
/* Threads of the simulated block a block-level segment runs on: the configuration's block
 * size (gtap_block.cuh's gtap_initialize), GTAP_BLOCK_SIZE unless it says otherwise. */
static uint32_t gtap_rx_block_sim_threads = GTAP_RX_BLOCK_THREADS;
#else
#define GTAP_RX_BLOCK_THREADS 0u
#endif

/* gtap_rx_finish is inlined into the run loop also when distributed code (node_refexec.h)
 * calls it: out of line, it measured 13% slower on fib. */
#define GTAP_RX_HOT static inline __attribute__((always_inline))

#define GTAP_RX_NO_TASK 0xffffffffu
#define GTAP_RX_STATE_ZOMBIE 0xffffu
#define GTAP_RX_STATE_MIGRATED 0xfffeu  /* a stub: the task runs on another rank (hooks only) */
#define GTAP_RX_PARENT_REMOTE 0xfffffffeu /* parent lives on another rank (hooks only) */
#define GTAP_RX_PARENT_ROOT 0xfffffffdu   /* the root of a hooked run: finishing it is reported */
#define GTAP_RX_PARENT_SPECIAL 0xfffffffdu /* parents at or above this are not records */
#define GTAP_RX_BLOCK_SHIFT 12 /* records are allocated in blocks of 4096 and never move */
#define GTAP_RX_BLOCK_RECORDS (1u << GTAP_RX_BLOCK_SHIFT)
#define GTAP_RX_MAX_BLOCKS 65536 /* 2^28 records */

typedef struct gtap_rx_header {
    uint32_t parent;     /* parent task, or GTAP_RX_NO_TASK for the root / detached-from */
    int32_t pending;     /* children not yet finished, armed at join or at zombie finish */
    uint16_t fn;         /* task function id */
    uint16_t state;      /* resumption state, or GTAP_RX_STATE_ZOMBIE */
    int32_t cont_queue;  /* EPAQ queue of the continuation (checked, not used for order) */
    uint32_t live;       /* GTAP_DEBUG: 1 from allocation to free (P6); fills padding */
    void *result_dst;    /* where the return value goes; NULL = discarded */
} gtap_rx_header;

typedef struct gtap_rx gtap_rx;

/* Distributed hooks (see the file comment). All are called on the executor's thread. */
typedef struct gtap_rx_hooks {
    void *ctx;
    int worker_only;  /* entry: do not create the root here (ranks other than 0) */
    /* Between segments and while idle (idle = no runnable task). May import tasks, apply
     * remote results and export tasks. Returns nonzero when the run is over. */
    int (*poll)(void *ctx, gtap_rx *rx, int idle);
    /* Task id, whose parent is GTAP_RX_PARENT_REMOTE, finished its last segment (the moment
     * it would notify a local parent, R4 included); its result is at its result_dst. */
    void (*remote_finish)(void *ctx, gtap_rx *rx, uint32_t id);
} gtap_rx_hooks;

struct gtap_rx {
    unsigned char *blocks[GTAP_RX_MAX_BLOCKS];
    uint32_t num_blocks;
    uint32_t record_size;      /* header + max task data, 16-byte aligned */
    uint32_t data_offset;
    uint32_t *free_ids;        /* stack of free record ids */
    uint32_t free_count, free_cap;
    uint32_t next_fresh;       /* ids below this have been handed out at least once */
    uint32_t *runnable;        /* runnable task ids */
    uint32_t runnable_count, runnable_cap;
    uint64_t rng;              /* 0: LIFO order; else xorshift state for random order */
    uint64_t max_tasks;        /* capacity limit on live records (GTAP_REFEXEC_MAX_TASKS) */
    int num_queues;            /* EPAQ queue count used to validate queue(expr) */
    int no_taskwait;           /* GTAP_ASSUME_NO_TASKWAIT semantics */
    /* per-segment state of the running task */
    uint32_t seg_spawned;      /* children spawned in the current segment */
    int seg_suspended;         /* the segment ended in a join */
    /* results and accounting */
    unsigned char root_result[256];
    uint32_t root_result_size;
    uint32_t root;
    uint64_t tasks_created, segments_run, live, live_peak;
    int error;                 /* nonzero after a capacity or usage error */
    char message[512];
    /* distributed use (NULL / 0 unless hooks are set) */
    const gtap_rx_hooks *hooks;
    int root_finished;         /* the root's last segment ended (or its stub completed) */
    uint64_t detached;         /* tasks that finished with detached children (R4) */
};

struct gtap_worker {
    gtap_rx *rx;
};

/* The executor of this program (one per process; the host target runs one launch at a time). */
static gtap_rx *gtap_rx_current;

static void gtap_rx_fail(gtap_rx *rx, const char *fmt, ...)
{
    va_list ap;
    if (rx->error)
        return; /* the first error wins */
    rx->error = 1;
    va_start(ap, fmt);
    vsnprintf(rx->message, sizeof rx->message, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gtap: error: %s\n", rx->message);
}

static inline gtap_rx_header *gtap_rx_hdr(gtap_rx *rx, uint32_t id)
{
    return (gtap_rx_header *)(rx->blocks[id >> GTAP_RX_BLOCK_SHIFT] +
                              (size_t)(id & (GTAP_RX_BLOCK_RECORDS - 1)) * rx->record_size);
}

#if defined(GTAP_DEBUG)
/* A debug check failed (rule: enum gtap_debug_rule; task: GTAP_DEBUG_NO_TASK for none):
 * fails the run with the line the GPU runtime prints for it. */
static void gtap_rx_debug_fail(gtap_rx *rx, int rule, uint32_t task, long long observed, long long aux)
{
    char line[400];
    const char *fn = NULL;
    if (task < rx->next_fresh && gtap_rx_hdr(rx, task)->fn < gtapgen_program.num_functions)
        fn = gtapgen_program.functions[gtap_rx_hdr(rx, task)->fn].name;
    gtap_debug_describe(line, sizeof line, rule, task, observed, aux, fn, "host executor");
    gtap_rx_fail(rx, "%s", line);
}
/* Checks cond; when it fails, fails the run naming rule GTAP_DBG_<rule>. */
#define GTAP_RX_DEBUG_CHECK(rx, cond, rule, task, observed, aux)                                  \
    do {                                                                                        \
        if (!(cond))                                                                            \
            gtap_rx_debug_fail((rx), GTAP_DBG_##rule, (task), (long long)(observed), (long long)(aux)); \
    } while (0)
#else
#define GTAP_RX_DEBUG_CHECK(rx, cond, rule, task, observed, aux) ((void)0)
#endif

static inline void *gtap_rx_data(gtap_rx *rx, uint32_t id)
{
    return (unsigned char *)gtap_rx_hdr(rx, id) + rx->data_offset;
}

static int gtap_rx_push_u32(uint32_t **arr, uint32_t *count, uint32_t *cap, uint32_t v)
{
    if (*count == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 1024;
        uint32_t *n = (uint32_t *)realloc(*arr, (size_t)ncap * sizeof *n);
        if (!n)
            return -1;
        *arr = n;
        *cap = ncap;
    }
    (*arr)[(*count)++] = v;
    return 0;
}

/* Returns a free record id, or GTAP_RX_NO_TASK after recording a capacity error. */
static uint32_t gtap_rx_alloc(gtap_rx *rx)
{
    uint32_t id;
    if (rx->live >= rx->max_tasks) {
        gtap_rx_fail(rx, "task pool exhausted: %llu live tasks reached the limit "
                     "GTAP_REFEXEC_MAX_TASKS=%llu (raise it in the environment)",
                     (unsigned long long)rx->live, (unsigned long long)rx->max_tasks);
        return GTAP_RX_NO_TASK;
    }
    if (rx->free_count) {
        id = rx->free_ids[--rx->free_count];
    } else {
        id = rx->next_fresh;
        if ((id >> GTAP_RX_BLOCK_SHIFT) >= rx->num_blocks) {
            unsigned char *b;
            if (rx->num_blocks == GTAP_RX_MAX_BLOCKS) {
                gtap_rx_fail(rx, "task pool exhausted: %u records", id);
                return GTAP_RX_NO_TASK;
            }
            b = (unsigned char *)calloc(GTAP_RX_BLOCK_RECORDS, rx->record_size);
            if (!b) {
                gtap_rx_fail(rx, "out of host memory for task records (%u records)", id);
                return GTAP_RX_NO_TASK;
            }
            rx->blocks[rx->num_blocks++] = b;
        }
        rx->next_fresh++;
    }
    rx->live++;
    if (rx->live > rx->live_peak)
        rx->live_peak = rx->live;
#if defined(GTAP_DEBUG)
    GTAP_RX_DEBUG_CHECK(rx, !gtap_rx_hdr(rx, id)->live, POOL_ALLOC_LIVE, id, 0, 0);
    gtap_rx_hdr(rx, id)->live = 1;
#endif
    return id;
}

static void gtap_rx_free(gtap_rx *rx, uint32_t id)
{
#if defined(GTAP_DEBUG)
    if (id >= rx->next_fresh) {
        GTAP_RX_DEBUG_CHECK(rx, 0, POOL_BAD_ID, id, rx->next_fresh, 0);
        return;
    }
    GTAP_RX_DEBUG_CHECK(rx, gtap_rx_hdr(rx, id)->live, POOL_DOUBLE_FREE, id, 0, 0);
    gtap_rx_hdr(rx, id)->live = 0;
#endif
    if (gtap_rx_push_u32(&rx->free_ids, &rx->free_count, &rx->free_cap, id) != 0) {
        gtap_rx_fail(rx, "out of host memory for the free list");
        return;
    }
    rx->live--;
}

static void gtap_rx_make_runnable(gtap_rx *rx, uint32_t id)
{
    if (gtap_rx_push_u32(&rx->runnable, &rx->runnable_count, &rx->runnable_cap, id) != 0)
        gtap_rx_fail(rx, "out of host memory for the ready list");
}

static uint32_t gtap_rx_take_runnable(gtap_rx *rx)
{
    uint32_t i = rx->runnable_count - 1, id;
    if (rx->rng) {
        rx->rng ^= rx->rng << 13;
        rx->rng ^= rx->rng >> 7;
        rx->rng ^= rx->rng << 17;
        i = (uint32_t)(rx->rng % rx->runnable_count);
    }
    id = rx->runnable[i];
    rx->runnable[i] = rx->runnable[rx->runnable_count - 1];
    rx->runnable_count--;
    return id;
}

static uint64_t gtap_rx_env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    char *end;
    unsigned long long v;
    if (!s || !*s)
        return dflt;
    v = strtoull(s, &end, 0);
    if (*end) {
        fprintf(stderr, "gtap: warning: ignoring %s=%s (not a number)\n", name, s);
        return dflt;
    }
    return v;
}

/* Creates the executor for this program. num_queues bounds queue(expr); no_taskwait selects
 * GTAP_ASSUME_NO_TASKWAIT semantics (no parent links; taskwait is an error). */
static gtap_rx *gtap_rx_create(int num_queues, int no_taskwait)
{
    gtap_rx *rx = (gtap_rx *)calloc(1, sizeof *rx);
    uint32_t align = gtapgen_program.max_data_align > 16 ? gtapgen_program.max_data_align : 16;
    if (!rx)
        return NULL;
    rx->data_offset = (uint32_t)((sizeof(gtap_rx_header) + align - 1) / align * align);
    rx->record_size = (rx->data_offset + gtapgen_program.max_data_size + align - 1) / align * align;
    rx->rng = gtap_rx_env_u64("GTAP_REFEXEC_SEED", 0);
    rx->max_tasks = gtap_rx_env_u64("GTAP_REFEXEC_MAX_TASKS", (uint64_t)1 << 28);
    rx->num_queues = num_queues > 0 ? num_queues : 1;
    rx->no_taskwait = no_taskwait;
    rx->root = GTAP_RX_NO_TASK;
    return rx;
}

static void gtap_rx_destroy(gtap_rx *rx)
{
    uint32_t i;
    if (!rx)
        return;
    for (i = 0; i < rx->num_blocks; i++)
        free(rx->blocks[i]);
    free(rx->free_ids);
    free(rx->runnable);
    free(rx);
}

/* A task's segment returned without a pending join: deliver completion to the parent. */
GTAP_RX_HOT void gtap_rx_finish(gtap_rx *rx, uint32_t id)
{
    gtap_rx_header *h = gtap_rx_hdr(rx, id);
    uint32_t parent = h->parent;
    if (rx->seg_spawned > 0 && !rx->no_taskwait) {
        /* Detached children (R4): keep this record alive until they finish. */
        GTAP_RX_DEBUG_CHECK(rx, h->state != GTAP_RX_STATE_ZOMBIE, ZOMBIE_TWICE, id, 0, 0);
        h->state = GTAP_RX_STATE_ZOMBIE;
        h->pending = (int32_t)rx->seg_spawned;
        rx->detached++;
    }
    while (parent != GTAP_RX_NO_TASK) {
        gtap_rx_header *p;
        if (parent >= GTAP_RX_PARENT_SPECIAL) {
            /* hooks only: the root of a distributed run, or an imported task whose parent is
             * a stub on another rank */
            if (parent == GTAP_RX_PARENT_REMOTE)
                rx->hooks->remote_finish(rx->hooks->ctx, rx, id);
            else
                rx->root_finished = 1;
            break;
        }
        p = gtap_rx_hdr(rx, parent);
        GTAP_RX_DEBUG_CHECK(rx, p->pending > 0, JOIN_NEGATIVE, parent, p->pending, 0);
        if (--p->pending > 0)
            break;
        if (p->state != GTAP_RX_STATE_ZOMBIE) {
            GTAP_RX_DEBUG_CHECK(rx, p->cont_queue >= 0 && p->cont_queue < rx->num_queues, QUEUE_INDEX, parent,
                                p->cont_queue, rx->num_queues);
            gtap_rx_make_runnable(rx, parent);
            break;
        }
        /* The last child of a zombie frees it; the zombie already notified its own parent. */
        gtap_rx_free(rx, parent);
        break;
    }
    if (h->state != GTAP_RX_STATE_ZOMBIE)
        gtap_rx_free(rx, id);
}

/* ---- The generated-code interface (gtap_gen.h) --------------------------------------- */

GTAP_API void *gtap_task_data(gtap_worker *w, gtap_task t)
{
    return gtap_rx_data(w->rx, t);
}

GTAP_API int gtap_task_state(gtap_worker *w, gtap_task t)
{
    return gtap_rx_hdr(w->rx, t)->state;
}

GTAP_API void *gtap_task_spawn(gtap_worker *w, gtap_task parent, unsigned fn, unsigned data_size,
                               int queue, void *result_dst)
{
    gtap_rx *rx = w->rx;
    static unsigned char scratch[4096]; /* absorbs the arguments of a spawn that failed */
    uint32_t id;
    gtap_rx_header *h;
#if defined(GTAP_WORKER_IS_BLOCK)
    queue = 0; /* EPAQ is thread-level: block mode ignores queue(...) (gtap_gen.h) */
#endif
    if (fn >= gtapgen_program.num_functions || data_size > gtapgen_program.max_data_size) {
        gtap_rx_fail(rx, "spawn of unknown function %u or with %u bytes of task data", fn, data_size);
        return scratch;
    }
    if (queue < 0 || queue >= rx->num_queues) {
        gtap_rx_fail(rx, "queue(%d) at a spawn of %s is outside 0..%d (GTAP_NUM_QUEUES=%d)", queue,
                     gtapgen_program.functions[fn].name, rx->num_queues - 1, rx->num_queues);
        return scratch;
    }
    id = gtap_rx_alloc(rx);
    if (id == GTAP_RX_NO_TASK)
        return scratch;
    h = gtap_rx_hdr(rx, id);
    h->parent = rx->no_taskwait ? GTAP_RX_NO_TASK : parent;
    h->pending = 0;
    h->fn = (uint16_t)fn;
    h->state = 0;
    h->cont_queue = queue; /* the queue this task waits in (a migrating task keeps it) */
    h->result_dst = rx->no_taskwait ? NULL : result_dst;
    rx->seg_spawned++;
    rx->tasks_created++;
    /* Runnable only after the parent's segment returns (R1): the dispatcher loop makes
     * the children of the finished segment runnable, in spawn order. */
    gtap_rx_make_runnable(rx, id | 0x80000000u);
    return gtap_rx_data(rx, id);
}

/* taskwait; collective: a segment that several simulated threads run together (block mode,
 * warp tasks), whose join is a barrier of all of them. */
static int gtap_rx_join(gtap_worker *w, gtap_task t, int resume_state, int queue, int collective)
{
    gtap_rx *rx = w->rx;
    gtap_rx_header *h = gtap_rx_hdr(rx, t);
    uint64_t spawned = rx->seg_spawned;
    if (rx->no_taskwait) {
        gtap_rx_fail(rx, "taskwait executed in %s, but the program was built with "
                     "GTAP_ASSUME_NO_TASKWAIT", gtapgen_program.functions[h->fn].name);
        return 1;
    }
    if (queue < 0 || queue >= rx->num_queues) {
        gtap_rx_fail(rx, "queue(%d) at a taskwait in %s is outside 0..%d (GTAP_NUM_QUEUES=%d)",
                     queue, gtapgen_program.functions[h->fn].name, rx->num_queues - 1,
                     rx->num_queues);
        return 1;
    }
    if (resume_state <= 0 || resume_state >= GTAP_MAX_RESUME_STATES) {
        gtap_rx_fail(rx, "resume state %d out of range in %s", resume_state,
                     gtapgen_program.functions[h->fn].name);
        return 1;
    }
    if (collective) {
        /* gtap_gen.h, block mode and warp tasks: a barrier of the whole block or warp, so every
         * thread's spawns of this segment are counted before any thread reads the count, and
         * every thread gets the same answer. */
        spawned = gtap_hb_join_barrier(spawned);
        if (spawned == 0)
            return 0; /* R3 */
        if (threadIdx.x != 0)
            return 1; /* thread 0 arms the join for the others */
    }
    if (spawned == 0)
        return 0; /* R3: nothing to wait for, continue in this segment */
    h->state = (uint16_t)resume_state;
    h->cont_queue = queue;
    h->pending = (int32_t)spawned;
    rx->seg_suspended = 1;
    return 1;
}

GTAP_API int gtap_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue)
{
#if defined(GTAP_WORKER_IS_BLOCK)
    return gtap_rx_join(w, t, resume_state, 0, 1); /* queue(...) is ignored in block mode, as at the spawn */
#else
    return gtap_rx_join(w, t, resume_state, queue, 0);
#endif
}

#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
GTAP_API int gtap_warp_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue)
{
    return gtap_rx_join(w, t, resume_state, queue, 1);
}
#endif

GTAP_API void gtap_task_return(gtap_worker *w, gtap_task t, const void *value, unsigned size)
{
    gtap_rx_header *h = gtap_rx_hdr(w->rx, t); /* block mode: only the result thread calls this */
    if (h->result_dst)
        memcpy(h->result_dst, value, size);
}

GTAP_API void gtap_task_bad_state(gtap_worker *w, gtap_task t)
{
    gtap_rx_header *h = gtap_rx_hdr(w->rx, t);
    gtap_rx_fail(w->rx, "task of %s resumed in unknown state %u (runtime or compiler bug)",
                 h->fn < gtapgen_program.num_functions ? gtapgen_program.functions[h->fn].name : "?",
                 h->state);
}

GTAP_API void *gtap_entry_begin(unsigned fn, unsigned data_size, unsigned result_size)
{
    gtap_rx *rx = gtap_rx_current;
    static unsigned char scratch[4096];
    uint32_t id;
    gtap_rx_header *h;
    if (!rx) {
        fprintf(stderr, "gtap: error: #pragma gtap entry reached before gtap_initialize()\n");
        return scratch;
    }
    rx->root_finished = 0;
    if (rx->hooks && rx->hooks->worker_only)
        return NULL; /* like a GPU thread that is not the master: the root starts elsewhere */
    if (fn >= gtapgen_program.num_functions || data_size > gtapgen_program.max_data_size ||
        result_size > sizeof rx->root_result) {
        gtap_rx_fail(rx, "entry of unknown function %u or with oversized data/result", fn);
        return scratch;
    }
    id = gtap_rx_alloc(rx);
    if (id == GTAP_RX_NO_TASK)
        return scratch;
    h = gtap_rx_hdr(rx, id);
    h->parent = GTAP_RX_NO_TASK;
    h->pending = 0;
    h->fn = (uint16_t)fn;
    h->state = 0;
    h->cont_queue = 0;
    h->result_dst = result_size ? rx->root_result : NULL;
    rx->root_result_size = result_size;
    rx->root = id;
    rx->tasks_created++;
    return gtap_rx_data(rx, id);
}

#if defined(GTAP_WORKER_IS_BLOCK)
/* Block mode: one segment of a task, run by each thread of the simulated block. */
typedef struct gtap_rx_block_job {
    gtap_worker *w;
    unsigned fn;
    uint32_t id;
} gtap_rx_block_job;

static void gtap_rx_block_thread(void *ctx, uint32_t thread)
{
    const gtap_rx_block_job *j = (const gtap_rx_block_job *)ctx;
    (void)thread; /* the code reads it as threadIdx.x, which the simulated block sets */
    gtapgen_dispatch(j->w, j->fn, j->id);
}

static void gtap_rx_run_segment(gtap_rx *rx, gtap_worker *w, unsigned fn, uint32_t id)
{
    gtap_rx_block_job j = {w, fn, id};
    if (gtap_hb_run(gtap_rx_block_sim_threads, gtap_rx_block_thread, &j) != 0)
        gtap_rx_fail(rx, "block-level task %s: %s",
                     fn < gtapgen_program.num_functions ? gtapgen_program.functions[fn].name : "?",
                     gtap_hb_sim.message);
}
#define GTAP_RX_RUN_SEGMENT(rx, w, fn, id) gtap_rx_run_segment((rx), (w), (fn), (id))
#elif defined(GTAPGEN_HAS_WARP_FUNCTIONS)
/* A warp task of a thread-level program: one segment on a simulated warp, a block of 32
 * threads (gtap_host_block.h), with the semantics of block mode (gtap_gen.h); thread-level
 * tasks run as they are. */
typedef struct gtap_rx_warp_job {
    gtap_worker *w;
    unsigned fn;
    uint32_t id;
} gtap_rx_warp_job;

static void gtap_rx_warp_lane(void *ctx, uint32_t lane)
{
    const gtap_rx_warp_job *j = (const gtap_rx_warp_job *)ctx;
    (void)lane; /* the code reads it as GTAP_WARP_LANE, from threadIdx.x */
    gtapgen_dispatch_warp(j->w, j->fn, j->id);
}

static void gtap_rx_run_segment(gtap_rx *rx, gtap_worker *w, unsigned fn, uint32_t id)
{
    if (!gtapgen_fn_is_warp(fn)) {
        gtapgen_dispatch(w, fn, id);
        return;
    }
    gtap_rx_warp_job j = {w, fn, id};
    if (gtap_hb_run(32, gtap_rx_warp_lane, &j) != 0)
        gtap_rx_fail(rx, "warp task %s: %s", fn < gtapgen_program.num_functions ? gtapgen_program.functions[fn].name : "?",
                     gtap_hb_sim.message);
}
#define GTAP_RX_RUN_SEGMENT(rx, w, fn, id) gtap_rx_run_segment((rx), (w), (fn), (id))
#else
#define GTAP_RX_RUN_SEGMENT(rx, w, fn, id) gtapgen_dispatch((w), (fn), (id))
#endif

/* Runs the task graph. With hooks (distributed use) the loop also polls between segments
 * and runs until the poll hook says the job's run is over; an error then makes the next
 * poll report it. One loop for both: a second call site of the dispatcher or of
 * gtap_rx_finish (a separate hooked loop) kept them from being inlined here and cost 30%
 * on fib on the CPU. */
GTAP_API void gtap_entry_run(void)
{
    gtap_rx *rx = gtap_rx_current;
    gtap_worker w;
    uint32_t first_child;
    const gtap_rx_hooks *hooks = rx ? rx->hooks : NULL;
    if (!rx || (rx->root == GTAP_RX_NO_TASK && !hooks) || rx->error)
        return;
    w.rx = rx;
    if (rx->root != GTAP_RX_NO_TASK) {
        if (hooks)
            gtap_rx_hdr(rx, rx->root)->parent = GTAP_RX_PARENT_ROOT;
        gtap_rx_make_runnable(rx, rx->root);
    }
    for (;;) {
        uint32_t id;
        gtap_rx_header *h;
        if (hooks) {
            if (hooks->poll(hooks->ctx, rx, rx->runnable_count == 0 || rx->error))
                break;
            if (rx->runnable_count == 0 || rx->error)
                continue;
        } else if (!rx->runnable_count || rx->error) {
            break;
        }
        id = gtap_rx_take_runnable(rx);
        if (id & 0x80000000u) {
            /* A child of a segment that has not returned yet cannot be taken (R1); the
             * loop below publishes children before the next pick, so this is a bug. */
            gtap_rx_fail(rx, "internal error: unpublished child %u taken", id & 0x7fffffffu);
            if (!hooks)
                break;
            continue;
        }
#if defined(GTAP_DEBUG)
        if (id >= rx->next_fresh) {
            GTAP_RX_DEBUG_CHECK(rx, 0, RUN_BAD_ID, id, rx->next_fresh, 0);
            continue; /* the next turn of the loop sees the error */
        }
#endif
        h = gtap_rx_hdr(rx, id);
#if defined(GTAP_DEBUG)
        GTAP_RX_DEBUG_CHECK(rx, h->live, RUN_FREED, id, 0, 0);
        GTAP_RX_DEBUG_CHECK(rx, h->state != GTAP_RX_STATE_ZOMBIE, RUN_ZOMBIE, id, 0, 0);
        GTAP_RX_DEBUG_CHECK(rx, h->state < GTAP_MAX_RESUME_STATES, RUN_STATE, id, h->state, GTAP_MAX_RESUME_STATES);
        if (rx->error)
            continue; /* a failed check: the task does not run; the loop ends (or polls) */
#endif
        rx->seg_spawned = 0;
        rx->seg_suspended = 0;
        first_child = rx->runnable_count;
        GTAP_RX_RUN_SEGMENT(rx, &w, h->fn, id);
        rx->segments_run++;
        /* Publish the children of this segment (clear the unpublished mark). */
        for (uint32_t i = first_child; i < rx->runnable_count; i++)
            rx->runnable[i] &= 0x7fffffffu;
        if (!rx->seg_suspended)
            gtap_rx_finish(rx, id);
    }
    rx->root = GTAP_RX_NO_TASK;
    if (!rx->error && rx->live != 0)
        gtap_rx_fail(rx, "internal error: %llu task records still live at termination",
                     (unsigned long long)rx->live);
}

GTAP_API const void *gtap_entry_result(void)
{
    gtap_rx *rx = gtap_rx_current;
    if (!rx || rx->error || rx->root_result_size == 0)
        return NULL;
    return rx->root_result;
}

#if defined(GTAP_WORKER_IS_BLOCK)
#define GTAP_LANES (GTAP_BLOCK_SIZE)
#define GTAP_LANE (threadIdx.x)
#else
#define GTAP_LANES 1
#define GTAP_LANE 0
/* Warp task functions: the simulated warp's lane (gtap_rx_run_segment). */
#define GTAP_WARP_LANES 32
#define GTAP_WARP_LANE (threadIdx.x & 31u)
#endif

#endif /* GTAP_REFEXEC_H */
