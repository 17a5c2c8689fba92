/* gtap/config.h - every configuration knob of the node runtime: its default, its range, and
 * how it may be set. Included by the device headers and by the host library (C).
 *
 * Compile-time macros keep the names and meaning of the paper's Table 1. Where it costs no
 * speed the same value may also be set at run time through an environment variable of the
 * same name, which wins over the macro (docs/configuration.md lists them all). The resolved
 * values travel to the host library in a gtap_config_t (gtap/state.h).
 */
#ifndef GTAP_CONFIG_H
#define GTAP_CONFIG_H

#include "gtap/state.h"

/* ---- Paper Table 1 ------------------------------------------------------------------ */

/* Threads per block of the persistent kernel; a multiple of 32. Thread mode: any launch
 * block size up to this value uses static shared memory, larger ones need gtap_launch.
 * Block mode: the largest block a task runs on (spilled locals have a copy per thread). */
#ifndef GTAP_BLOCK_SIZE
#define GTAP_BLOCK_SIZE 256
#endif

/* Block mode: whether a block of `threads` threads can run this program's tasks. The per-
 * thread copies in task records are sized for GTAP_BLOCK_SIZE (GTAP_LANES), so any block of
 * whole warps up to it can; distributed builds need it exactly, as every task on the wire
 * carries it (docs/wire.md). Checked by gtap_initialize, and by the scheduler at launch. */
#if defined(GTAP_DISTRIBUTED)
#define GTAP_BLOCK_THREADS_FIT(threads) ((threads) == (GTAP_BLOCK_SIZE))
#else
#define GTAP_BLOCK_THREADS_FIT(threads)                                                            \
    ((threads) >= 32 && (threads) <= (GTAP_BLOCK_SIZE) && (threads) % 32 == 0)
#endif

/* Blocks of the persistent kernel. When not defined it expands to a run-time choice: the
 * environment variable GTAP_GRID_SIZE if set, else enough blocks to fill every SM. */
#ifndef GTAP_GRID_SIZE
#define GTAP_GRID_SIZE (gtap_default_grid_size())
#define GTAP_GRID_SIZE_IS_DEFAULT 1
#endif

/* Thread mode: capacity of each warp's deques (all EPAQ queues together), i.e. how many
 * published-but-unclaimed tasks one warp may hold. Also sizes the shared task-record pool
 * (this value x warps, capped by GTAP_MAX_TASK_MEMORY). Env: GTAP_MAX_TASKS_PER_WARP. */
#ifndef GTAP_MAX_TASKS_PER_WARP
#define GTAP_MAX_TASKS_PER_WARP 8192
#endif

/* Block mode: capacity of each block's deque; sizes the pool like the above.
 * Env: GTAP_MAX_TASKS_PER_BLOCK. */
#ifndef GTAP_MAX_TASKS_PER_BLOCK
#define GTAP_MAX_TASKS_PER_BLOCK 16384
#endif

/* The most children one task may spawn between two joins (the join counter's range, and a
 * guard against runaway spawn loops). Env: GTAP_MAX_CHILD_TASKS. */
#ifndef GTAP_MAX_CHILD_TASKS
#define GTAP_MAX_CHILD_TASKS (1 << 24)
#endif

/* EPAQ: deques per warp (thread mode). queue(expr) must lie in [0, GTAP_NUM_QUEUES).
 * Env: GTAP_NUM_QUEUES (up to GTAP_MAX_NUM_QUEUES). */
#ifndef GTAP_NUM_QUEUES
#define GTAP_NUM_QUEUES 1
#endif

/* Upper bound on one task function's task data in bytes; gtapcc rejects larger records and
 * the generated code static_asserts it. */
#ifndef GTAP_MAX_TASK_DATA_SIZE
#define GTAP_MAX_TASK_DATA_SIZE 4096
#endif

/* GTAP_ASSUME_NO_TASKWAIT: the program never executes taskwait; tasks carry no parent link,
 * join counter or result destination (smaller records, no completion atomics). */

/* GTAP_TERMINATE_ON_FIRST_TASK_FINISH: end the run when the root task finishes instead of
 * when every task has finished. Valid only when every task is joined by its parent. */

/* ---- Beyond the paper ----------------------------------------------------------------- */

/* Bytes of device memory the task-record pool may take; the pool holds
 * min(tasks-per-worker x workers, GTAP_MAX_TASK_MEMORY / record size) records. Env too. */
#ifndef GTAP_MAX_TASK_MEMORY
#define GTAP_MAX_TASK_MEMORY (8ull << 30)
#endif

/* Thread mode, one queue, work-stealing scheduler: while nearly every warp has work, a
 * resumed task (its last child finished) waits in its warp's resume buffer, and the warp runs
 * a batch of them once 32 are ready or when it has nothing else; until then it runs spawned
 * tasks. Batches then hold like tasks:
 * a continuation that does the node's work no longer runs beside an entry that only spawns
 * and suspends (SP1, docs/performance.md). 0 turns it off. Env: GTAP_RESUME_BATCHING. */
#ifndef GTAP_RESUME_BATCHING
#define GTAP_RESUME_BATCHING 1
#endif

/* Thread mode, one queue, work stealing: the four warps that share one of an SM's four
 * schedulers share its issue slots and ALU pipe, whatever their lanes, so near the end of a
 * run (fewer warps busy than GTAP_SPREAD sixteenths of all) a scheduler with two or three
 * busy warps runs each at 1/2 or 1/3 of its speed while others idle. While its iterations
 * average at least GTAP_SPREAD_MIN_CYCLES, a warp that shares its scheduler with a busy warp
 * of a lower slot publishes all its tasks, lets idle warps steal them for up to
 * GTAP_SPREAD_WAIT_CYCLES, and takes back what is left (SP3, docs/performance.md). 0 turns
 * it off; at most 16. Env: GTAP_SPREAD. */
#ifndef GTAP_SPREAD
#define GTAP_SPREAD 4
#endif
#ifndef GTAP_SPREAD_MIN_CYCLES
#define GTAP_SPREAD_MIN_CYCLES 65536
#endif
#ifndef GTAP_SPREAD_WAIT_CYCLES
#define GTAP_SPREAD_WAIT_CYCLES 40000
#endif

/* Thread mode, one queue, work stealing: a warp's lanes run their tasks side by side, and the
 * tasks a lane spawns (or the parent its finished task resumes) normally wait for the
 * iteration's end, i.e. for the warp's slowest lane. While some warps are idle, lanes that
 * finish while others still run wait up to GTAP_EARLY_PUBLISH_WAIT_CYCLES for them, and then
 * publish their new entries at once, so idle warps can take them (cilksort: a split's two
 * halves waited ~66 us for a base-case merge beside it; SP2, docs/performance.md). 0 turns it
 * off. Env: GTAP_EARLY_PUBLISH. */
#ifndef GTAP_EARLY_PUBLISH
#define GTAP_EARLY_PUBLISH 1
#endif
#ifndef GTAP_EARLY_PUBLISH_WAIT_CYCLES
#define GTAP_EARLY_PUBLISH_WAIT_CYCLES 8000
#endif

/* Thread mode, one queue, work stealing, with GTAP_RESUME_BATCHING and GTAP_SPREAD (whose
 * clock look it uses): while every warp is busy with long iterations, a warp whose deque is
 * empty and whose resume buffer holds fewer than 32 tasks (a subtree's last levels: 16, 8, 4,
 * 2, 1 parents, each a full iteration on a few lanes) probes once for a steal before running
 * them; the stolen subtree fills its lanes, and its own resumed tasks complete the waiting
 * batch (SP4, docs/performance.md). 0 turns it off. Env: GTAP_TOPUP_STEAL. */
#ifndef GTAP_TOPUP_STEAL
#define GTAP_TOPUP_STEAL 1
#endif

/* GTAP_WITH_RESUME_BATCHING, GTAP_WITH_EARLY_PUBLISH, GTAP_WITH_SPREAD, GTAP_WITH_TOPUP_STEAL
 * (default 1; gtap/policies.cuh): 0 compiles that policy out of the scheduler loop, and the
 * knobs above can then not turn it on (GTAP_STATS says "compiled out"). */

/* Profiler (compile-time switch; costs nothing when off): GTAP_ENABLE_PROFILING, or the
 * paper's PROFILE. Intervals recorded per worker before later ones are counted as dropped
 * (env: GTAP_PROFILE_CAPACITY; the paper's MAX_PROFILE_DATA is accepted as an alias). */
#if defined(PROFILE) && !defined(GTAP_ENABLE_PROFILING)
#define GTAP_ENABLE_PROFILING 1
#endif
#ifndef GTAP_PROFILE_CAPACITY
#ifdef MAX_PROFILE_DATA
#define GTAP_PROFILE_CAPACITY MAX_PROFILE_DATA
#else
#define GTAP_PROFILE_CAPACITY 15000
#endif
#endif

/* Scheduler ablations of the paper's section 6.1 (compile-time): a single global queue, or
 * per-warp Chase-Lev deques operated one task at a time. The paper's -DGQ / -DCHASELEV are
 * accepted as aliases. */
#if defined(GQ) && !defined(GTAP_SCHED_GLOBAL_QUEUE)
#define GTAP_SCHED_GLOBAL_QUEUE 1
#endif
#if defined(CHASELEV) && !defined(GTAP_SCHED_CHASELEV)
#define GTAP_SCHED_CHASELEV 1
#endif
#if defined(GTAP_SCHED_GLOBAL_QUEUE) && defined(GTAP_SCHED_CHASELEV)
#error "GTAP_SCHED_GLOBAL_QUEUE and GTAP_SCHED_CHASELEV are exclusive"
#endif

/* GTAP_STRESS: force the rare paths everywhere so tests exercise them: nearly every new task
 * is published (so pops and steals see it), and the free-id cache is tiny (so allocations
 * take the slow path). It turns GTAP_DEBUG on too. */

/* GTAP_DEBUG: the debug tier (gtap/debug.cuh, docs/debug.md): the runtime checks its own
 * invariants (task states, join counters, queue indexes, record ownership) on the GPU and in
 * the CPU reference executor, and a failed check stops the run with an error naming the rule.
 * Compile-time only; nothing is checked, and nothing costs, without it. */
#if defined(GTAP_STRESS) && !defined(GTAP_DEBUG)
#define GTAP_DEBUG 1
#endif

/* ---- Range checks of the compile-time values ------------------------------------------ */
#if (GTAP_BLOCK_SIZE) % 32 != 0 || (GTAP_BLOCK_SIZE) < 32 || (GTAP_BLOCK_SIZE) > 1024
#error "GTAP_BLOCK_SIZE must be a multiple of 32 between 32 and 1024"
#endif
#if (GTAP_NUM_QUEUES) < 1 || (GTAP_NUM_QUEUES) > GTAP_MAX_NUM_QUEUES
#error "GTAP_NUM_QUEUES must be between 1 and 8"
#endif
#if (GTAP_MAX_TASKS_PER_WARP) < 1 || (GTAP_MAX_TASKS_PER_BLOCK) < 1
#error "GTAP_MAX_TASKS_PER_WARP and GTAP_MAX_TASKS_PER_BLOCK must be positive"
#endif
#if (GTAP_MAX_CHILD_TASKS) < 1
#error "GTAP_MAX_CHILD_TASKS must be positive"
#endif
#if (GTAP_PROFILE_CAPACITY) < 1
#error "GTAP_PROFILE_CAPACITY must be positive"
#endif

#endif /* GTAP_CONFIG_H */
