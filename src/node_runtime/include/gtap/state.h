/* gtap/state.h - the node runtime's shared data layout: the resolved configuration, the
 * device-state descriptor that lives in each program's __constant__ memory, the task-record
 * header, deque metadata and the error record. Plain C, fixed-width types, so the host
 * library (C) and the device code (CUDA) agree on every byte.
 */
#ifndef GTAP_STATE_H
#define GTAP_STATE_H

#include <stddef.h>
#include <stdint.h>

#define GTAP_NO_TASK 0xffffffffu
#define GTAP_MAX_NUM_QUEUES 8 /* EPAQ queues per warp, at most */
#define GTAP_MAX_SMS 1024     /* %smid values the busy-slot words cover (GTAP_SPREAD) */
/* A worker's state word (gtap/watch.cuh, docs/debug.md WD1). */
#define GTAP_WATCH_BUSY 1ull
#define GTAP_WATCH_IDLE 2ull
#define GTAP_WATCH_LEFT 0xffffffffffffffffull /* not in the scheduler loop */

/* Worker granularity. */
enum gtap_mode { GTAP_MODE_THREAD = 1, GTAP_MODE_BLOCK = 2 };

/* Scheduler variant (paper section 6.1 ablations). */
enum gtap_sched_kind { GTAP_SCHED_WS = 1, GTAP_SCHED_GQ = 2, GTAP_SCHED_CL = 3 };

/* Values of gtap_ctl.terminate. */
enum gtap_run_state { GTAP_RUN = 0, GTAP_RUN_DONE = 1, GTAP_RUN_ABORT = 2 };

/* The configuration gtap_initialize() resolved from macros, config structs and environment. */
typedef struct gtap_config_t {
    int32_t mode;                  /* enum gtap_mode */
    int32_t sched;                 /* enum gtap_sched_kind */
    int32_t grid_size;             /* blocks the runtime is sized for */
    int32_t block_size;            /* threads per block the runtime is sized for */
    int32_t max_tasks_per_worker;  /* deque capacity per warp (thread) or block (block) */
    int32_t num_queues;            /* EPAQ queues per warp (thread mode), else 1 */
    int32_t max_child_tasks;       /* children per task between joins */
    int32_t profile_capacity;      /* intervals per worker (profiling builds) */
    int32_t assume_no_taskwait;    /* GTAP_ASSUME_NO_TASKWAIT */
    int32_t terminate_on_root;     /* GTAP_TERMINATE_ON_FIRST_TASK_FINISH */
    int32_t profiling;             /* GTAP_ENABLE_PROFILING */
    int32_t stress;                /* GTAP_STRESS */
    int32_t watch_tasks;           /* GTAP_WATCH_TASKS: segment words (gtap/watch.cuh) */
    int32_t grid_is_default;       /* grid_size is the fill-the-GPU default (gtap_launch may lower it) */
    /* SP0 (host/policies.c) decides from these which of SP1-SP4 run (docs/performance.md): */
    int32_t resume_batching;       /* GTAP_RESUME_BATCHING as the program was built */
    int32_t spread;                /* GTAP_SPREAD, likewise */
    int32_t early_publish;         /* GTAP_EARLY_PUBLISH, likewise */
    int32_t topup_steal;           /* GTAP_TOPUP_STEAL, likewise */
    int32_t policies_compiled;     /* bit i: SP(i+1) compiled in (GTAP_POLICIES_COMPILED) */
    uint64_t max_task_memory;      /* bytes the record pool may take */
    /* where each value came from, for messages: the knob a user would change */
    const char *grid_size_knob;
    const char *tasks_knob;
} gtap_config_t;

/* Task-record header (taskwait builds). 24 bytes; the task data follows at data_offset. */
typedef struct gtap_task_header {
    uint32_t fn_state;     /* task function id (low 16 bits) | resumption state (high 16) */
    uint32_t parent;       /* parent task id, GTAP_NO_TASK for the root */
    int32_t pending;       /* join counter: children not yet finished */
    uint32_t cont_queue;   /* EPAQ queue the continuation is pushed to */
    uint64_t result_dst;   /* address receiving the return value; 0 = discarded */
} gtap_task_header;

/* Header of GTAP_ASSUME_NO_TASKWAIT builds: the function id only (same offset). */
typedef struct gtap_task_header_nt {
    uint32_t fn_state;
    uint32_t unused;
} gtap_task_header_nt;

#define GTAP_STATE_ZOMBIE 0xffffu  /* finished with detached children still running */

/* One work-stealing deque (per warp and EPAQ queue, or per block). 64 bytes so that the
 * counters of two workers never share an L2 sector. Which fields a scheduler uses is
 * documented in its header (deque_ws.cuh, deque_cl.cuh). */
typedef struct gtap_deque {
    uint64_t meta;         /* WS: count (low 32) | thief lock (bit 32). CL: unused */
    uint32_t head;         /* WS: steal end. CL: top */
    uint32_t bottom;       /* CL: bottom (owner end) */
    uint32_t pad[12];
} gtap_deque;

#define GTAP_DEQUE_LOCK (1ull << 32)

/* Per-worker free-id pool words shared with other workers (pool.cuh), one 128-byte line
 * per worker. All-zero is the state at the start of a launch. */
typedef struct gtap_pool_worker {
    uint32_t remote_head;  /* ids freed by other workers: list head, stored as id + 1 */
    uint32_t fresh;        /* ids of the range handed out this launch (may overshoot) */
    uint32_t pad[30];
} gtap_pool_worker;

/* Scheduler control words, each on its own 128-byte line. */
typedef struct gtap_ctl {
    int32_t active;        /* workers holding tasks or claiming (docs/termination.md) */
    int32_t pad0[31];
    int32_t terminate;     /* enum gtap_run_state */
    int32_t pad1[31];
    int32_t exited;        /* workers that left the scheduler loop this launch */
    int32_t pad2[31];
    int32_t error_claim;   /* 0 until the first device error claims the error record */
    int32_t pad3[31];
} gtap_ctl;

/* Global-queue ablation state (one ring per EPAQ queue). */
typedef struct gtap_gq {
    unsigned long long head;        /* next position to pop */
    unsigned long long pad0[15];
    unsigned long long reserve;     /* next position to reserve for a push */
    unsigned long long pad1[15];
    unsigned long long commit;      /* positions below this are written and poppable */
    unsigned long long pad2[15];
} gtap_gq;

/* Error codes recorded by the device and decoded by the host (error.c). */
enum gtap_error_code {
    GTAP_ERR_NONE = 0,
    GTAP_ERR_POOL_EXHAUSTED = 1,   /* value = records in use, limit = pool size */
    GTAP_ERR_DEQUE_FULL = 2,       /* value = entries, limit = capacity */
    GTAP_ERR_TOO_MANY_CHILDREN = 3,/* value = children, limit = GTAP_MAX_CHILD_TASKS */
    GTAP_ERR_DATA_TOO_LARGE = 4,   /* value = bytes, limit = record data capacity */
    GTAP_ERR_BAD_QUEUE = 5,        /* value = queue index, limit = GTAP_NUM_QUEUES */
    GTAP_ERR_BAD_STATE = 6,        /* value = state, limit = the task's record id */
    GTAP_ERR_LAUNCH_MISMATCH = 7,  /* value = launched workers, limit = sized workers */
    GTAP_ERR_TASKWAIT_NO_JOIN = 8, /* taskwait in a GTAP_ASSUME_NO_TASKWAIT build */
    GTAP_ERR_DIVERGENT_JOIN = 9,   /* block mode or a warp task: taskwait not reached by every thread */
    GTAP_ERR_BAD_FUNCTION = 10,    /* value = function id */
    GTAP_ERR_NOT_INITIALIZED = 11, /* entry reached without a runtime */
    GTAP_ERR_BLOCK_SIZE = 12,      /* value = launch block size, limit = GTAP_BLOCK_SIZE */
    GTAP_ERR_DEBUG_CHECK = 13      /* GTAP_DEBUG: an invariant failed; value and limit pack the
                                    * rule, task and values (gtap/debug_rules.h) */
};

/* First error of a run; lives in mapped pinned host memory so that the host can read it
 * even when the device is wedged. Written once by the winner of the CAS on code. */
typedef struct gtap_error_record {
    int32_t code;          /* enum gtap_error_code; 0 = none */
    int32_t reported;      /* set by the host once the message was printed */
    int64_t value;         /* the value that hit the limit */
    int64_t limit;         /* the limit */
    int32_t worker;        /* warp (thread mode) or block (block mode) */
    int32_t lane;          /* lane or thread within the worker */
    int32_t fn;            /* task function id involved, or -1 */
    int32_t line;          /* runtime source line that detected it */
} gtap_error_record;

/* Per-worker statistics (always collected; a few counters per batch). */
typedef struct gtap_worker_stats {
    unsigned long long batches;       /* scheduler iterations that ran tasks */
    unsigned long long tasks;         /* task segments executed */
    unsigned long long steals;        /* successful steals */
    unsigned long long steal_attempts;/* claim attempts on a victim that looked non-empty */
    unsigned long long pool_slow;     /* allocations that took the slow path */
    unsigned long long records_used;  /* distinct records the worker handed out */
    unsigned long long resumed_batches;/* iterations that ran a batch of the resume buffer */
    unsigned long long spreads;       /* iterations after which the warp let its tasks be stolen */
    unsigned long long early_publishes;/* entries a finished lane published before its iteration's end */
    unsigned long long topup_steals;  /* of steals: taken while resumed tasks waited for a full batch */
} gtap_worker_stats;

/* Profiler interval: one scheduler iteration that ran tasks. */
typedef struct gtap_profile_interval {
    unsigned long long start_ns;      /* %globaltimer at dispatch start */
    unsigned long long end_ns;        /* %globaltimer after completion handling */
    uint32_t tasks;                   /* tasks executed in the interval */
    uint32_t kind;                    /* 0 = executing, 1 = got work after idling */
} gtap_profile_interval;

/* Everything the device code needs, copied into the program's __constant__ memory. */
typedef struct gtap_dev_state {
    int32_t mode, sched, num_queues, assume_no_taskwait;
    uint32_t max_workers;          /* warps (thread) or blocks (block) the allocation covers */
    uint32_t ring_mask;            /* deque ring capacity - 1 (power of two) */
    uint32_t ring_capacity;        /* deque ring capacity per queue */
    uint32_t record_stride;        /* bytes per task record */
    uint32_t data_offset;          /* offset of the task data within a record */
    uint32_t data_capacity;        /* bytes of task data a record holds */
    uint32_t num_records;          /* pool records; the root uses record num_records */
    uint32_t records_per_worker;   /* each worker owns ids [w * this, (w + 1) * this) */
    uint32_t max_child_tasks;
    uint32_t profile_capacity;
    int32_t terminate_on_root;
    int32_t stress;
    unsigned char *records;        /* (num_records + 1) * record_stride */
    gtap_deque *deques;            /* [max_workers * num_queues] */
    uint32_t *rings;               /* [max_workers * num_queues * ring_capacity] */
    uint32_t *pool_stack;          /* [num_records]: each worker's private free stack */
    gtap_pool_worker *pool_workers;/* [max_workers] */
    gtap_ctl *ctl;
    gtap_gq *gq;                   /* GQ ablation: [num_queues] */
    uint32_t *gq_ring;             /* GQ ablation: [num_queues * gq_capacity] */
    uint32_t gq_mask;
    /* The policies that run, as SP0 decided (host/policies.c, docs/performance.md): */
    int32_t resume_batching;       /* SP1: resumed tasks wait in the warp's buffer (policy_resume.cuh) */
    int32_t spread;                /* SP3: spread when fewer warps than spread/16 are busy */
    int32_t early_publish;         /* SP2: finished lanes publish before the iteration ends */
    int32_t topup_steal;           /* SP4: steal before running a partial resumed batch */
    unsigned long long *sm_busy;   /* SP3, [GTAP_MAX_SMS]: bit s of word m = warp slot s of SM m is busy */
    gtap_error_record *error;      /* device pointer to the mapped host record */
    unsigned char *root_result;    /* receives the root task's return value */
    gtap_worker_stats *stats;      /* [max_workers] */
    gtap_profile_interval *profile;/* [max_workers * profile_capacity] */
    uint32_t *profile_count;       /* [max_workers]: intervals attempted (may exceed capacity) */
    unsigned long long *profile_t0;/* launch start, for relative timestamps */
    unsigned long long *watch_worker; /* [max_workers]: each worker's state, for the watchdog
                                       * (gtap/watch.cuh) */
    unsigned long long *watch;     /* [max_workers x 32 (thread) or x 1 (block)]: each lane's or
                                    * block's running segment; NULL unless GTAP_WATCH_TASKS */
} gtap_dev_state;

#endif /* GTAP_STATE_H */
