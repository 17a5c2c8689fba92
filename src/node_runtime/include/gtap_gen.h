/* gtap_gen.h - the generated-code interface: everything gtapcc's output calls and defines.
 *
 * This header is the contract between the compiler (src/compiler) and the runtimes that
 * execute its output: the GPU thread-level runtime (gtap_thread.cuh), the GPU block-level
 * runtime (gtap_block.cuh) and the CPU reference executor (refexec/gtap_refexec.h). The same
 * translated source compiles against each of them unchanged. Keep it small and stable; bump
 * GTAP_GEN_INTERFACE_VERSION on any change that alters what generated code must look like.
 *
 * ---------------------------------------------------------------------------------------
 * What the compiler generates for a translation unit (names use the prefix gtapgen_):
 *
 *   #define GTAPGEN_TRANSLATED 1              first line, before any #include, so the runtime
 *                                             headers know the file went through gtapcc
 *   For each `#pragma gtap function` F (in order of definition; index = function id):
 *     enum { GTAPGEN_FN_F = <index> };
 *     struct gtapgen_F_data {                 the task data record (plain C struct):
 *         <parameters, in order>              shared by all lanes of a task
 *         <spilled locals> T name[GTAP_LANES] one copy per executing thread (see GTAP_LANE)
 *     };                                      no result field: results travel through
 *                                             result_dst (see gtap_task_spawn)
 *     GTAP_TASK_FN void gtapgen_F(gtap_worker *w, gtap_task t);   the state machine
 *   Once, after all functions:
 *     GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t);
 *                                             a switch over function ids calling gtapgen_F
 *     const gtap_program_desc gtapgen_program = { ... };   sizes, flags, hash (see below)
 *
 * The state machine of F has this shape (thread and block mode alike):
 *
 *   GTAP_TASK_FN void gtapgen_F(gtap_worker *w, gtap_task t) {
 *     struct gtapgen_F_data *__restrict__ self = (struct gtapgen_F_data *)gtap_task_data(w, t);
 *     switch (gtap_task_state(w, t)) {
 *     case 0: ...body, with parameters and spilled locals read as self->p / self->v[GTAP_LANE]...
 *       // #pragma gtap task queue(q)      x = G(e1, e2);
 *       { struct gtapgen_G_data *c = (struct gtapgen_G_data *)gtap_task_spawn(
 *             w, t, GTAPGEN_FN_G, sizeof *c, (q), &self->x[GTAP_LANE]);
 *         c->p1 = (e1); c->p2 = (e2); }
 *       // #pragma gtap taskwait queue(q)
 *       if (gtap_task_join(w, t, 1, (q))) return;
 *     case 1: ...
 *       // return e;
 *       { T rv = (e); gtap_task_return(w, t, &rv, sizeof rv); return; }
 *     default: gtap_task_bad_state(w, t); return;
 *     }
 *   }
 *
 * Rules the runtimes guarantee (and the compiler relies on):
 *   R1 A child spawned by a task never runs before the spawning segment (the code between
 *      two taskwaits) of its parent has returned. So the parent may fill the child's data
 *      after gtap_task_spawn returns, and `self` may be declared __restrict__.
 *   R2 A child writes its return value to result_dst before it notifies its parent; the
 *      parent's segment after the taskwait that waits for it sees the value (release/acquire,
 *      docs/join.md). result_dst must stay valid until then: the compiler passes the address
 *      of a field of the parent's task data, or a caller-visible global location.
 *   R3 gtap_task_join counts the children spawned by this task since its previous join (in
 *      block mode: by all threads of the block). It returns 0 when there are none; the
 *      generated code then falls through into the next case without suspending.
 *   R4 Returning from the state machine without a pending join finishes the task. Children
 *      spawned since the last join and not waited for are detached: they run to completion,
 *      their results (if any) are written into the finished parent's record, which the
 *      runtime keeps alive until they are done.
 *   R5 State 0 is the first entry. Resumption states are 1, 2, ... in the order the compiler
 *      numbers taskwaits; at most GTAP_MAX_RESUME_STATES.
 *
 * Warp task functions (`#pragma gtap function warp`, thread-level programs only; docs/compiler.md
 * section 5, docs/design.md W1-W3): the whole warp executes the state machine, as
 * a block does in block mode below, with GTAP_WARP_LANES / GTAP_WARP_LANE in place of
 * GTAP_LANES / GTAP_LANE, gtap_warp_task_join in place of gtap_task_join and the result lane
 * tested with GTAP_WARP_LANE. A translation unit that defines one starts with
 *   #define GTAPGEN_HAS_WARP_FUNCTIONS 1      (right after GTAPGEN_TRANSLATED)
 * and defines, after the dispatcher,
 *   GTAP_TASK_FN int gtapgen_fn_is_warp(unsigned fn);      nonzero for warp functions
 *   GTAP_TASK_FN void gtapgen_dispatch_warp(gtap_worker *w, unsigned fn, gtap_task t);
 *                                             gtapgen_dispatch restricted to warp functions
 *
 * Block mode (gtap_block.cuh): the whole thread block executes the state machine. Every
 * thread that reaches a spawn spawns its own child; gtap_task_join and the final return are
 * collective (all threads reach them); the task's result is the return value of its result
 * thread (`#pragma gtap function return_thread(k)`, default 0).
 * GTAP_LANES is the block size and GTAP_LANE is threadIdx.x, so each thread keeps its own
 * copy of every spilled local. In thread mode and on the host GTAP_LANES is 1, GTAP_LANE 0.
 * ---------------------------------------------------------------------------------------
 */
#ifndef GTAP_GEN_H
#define GTAP_GEN_H

#include <stddef.h>
#include <stdint.h>

#define GTAP_GEN_INTERFACE_VERSION 2

/* Resumption states are stored in 16 bits next to the function id; states at or above
 * GTAP_MAX_RESUME_STATES are reserved for the runtime (e.g. the zombie marker). */
#define GTAP_MAX_RESUME_STATES 65000

/* ---- Qualifiers: chosen by the runtime that includes this header. -------------------- */
#if defined(GTAP_TARGET_HOST)
#define GTAP_TASK_FN static inline
#define GTAP_API static inline
#else
#define GTAP_TASK_FN static __device__ __forceinline__
#define GTAP_API static __device__ __forceinline__
#endif

/* gtapcc writes GTAP_ENTRY_KERNEL before the name of every kernel that holds an entry
 * directive (unless it names its own __launch_bounds__ or __maxnreg__). Thread mode gives
 * ptxas the registers that the warps per SM the runtime launches leave each thread
 * (GTAP_ENTRY_MAX_REGISTERS, gtap/host_api.cuh): left to its default, ptxas kept the
 * persistent kernel near 72 registers, for an occupancy the runtime never uses, and the
 * scheduling of the task code moved with every change around it (a load of the binary
 * tree's unrolled loop waited for the previous one: +15% at D=18). */
/* A distributed block-level program (GTAP_DISTRIBUTED): the GPU node's agent is in the entry
 * kernel's call graph, and ptxas gave the kernel the distributed build's cap of 128
 * registers per thread (-maxrregcount, src/inter_gpu/CMakeLists.txt): blocks of 64 threads
 * then fit 8 per SM where the program alone fits 16-25 (40-64 registers), and one rank ran
 * the binary tree 1.8x slower than the program without the layer. The entry kernel gets
 * GTAP_DIST_BLOCK_MAX_REGISTERS instead; the agent spills under it (it runs no tasks).
 * Measured on one rank (docs/dist.md): with 40 the binary tree and the pruned B-ary tree run
 * 0.87-0.95x the time of the program without the layer, with 48 0.90-1.06x, with 64
 * 1.03-1.24x (the apps alone take 48-64 registers: the cap's occupancy wins over spills). */
#ifndef GTAP_DIST_BLOCK_MAX_REGISTERS
#define GTAP_DIST_BLOCK_MAX_REGISTERS 40
#endif
#if !defined(GTAP_TARGET_HOST) && defined(__CUDACC__) && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define GTAP_HAVE_MAXNREG 1 /* __maxnreg__ exists (CUDA 12.4) */
#endif
#if !defined(GTAP_ENTRY_KERNEL)
#if defined(GTAP_HAVE_MAXNREG) && defined(GTAP_WORKER_IS_THREAD)
#define GTAP_ENTRY_KERNEL __maxnreg__(GTAP_ENTRY_MAX_REGISTERS)
#elif defined(GTAP_HAVE_MAXNREG) && defined(GTAP_WORKER_IS_BLOCK) && defined(GTAP_DISTRIBUTED)
#define GTAP_ENTRY_KERNEL __maxnreg__(GTAP_DIST_BLOCK_MAX_REGISTERS)
#else
#define GTAP_ENTRY_KERNEL
#endif
#endif

#ifdef __cplusplus
#define GTAP_EXTERN_C extern "C"
#else
#define GTAP_EXTERN_C extern
#endif

/* Handle of a task; only the runtime interprets it. */
typedef uint32_t gtap_task;

/* Per-executing-thread worker context; defined by each runtime. Generated code only passes
 * the pointer it received on to the runtime calls below. */
typedef struct gtap_worker gtap_worker;

/* ---- The program descriptor the compiler emits (host-visible constant data). ---------- */

/* gtap_function_desc.flags */
#define GTAP_FN_MIGRATABLE 0x1u  /* task data holds no pointers: may move to another GPU */
#define GTAP_FN_HAS_TASKWAIT 0x2u /* the function contains at least one taskwait */
#define GTAP_FN_WARP 0x4u         /* a warp task function: the whole warp runs each segment */

typedef struct gtap_function_desc {
    const char *name;       /* source name of the task function */
    uint32_t data_size;     /* sizeof(struct gtapgen_F_data) */
    uint32_t data_align;    /* alignof(struct gtapgen_F_data) */
    uint32_t result_size;   /* sizeof the return type; 0 for void */
    uint32_t flags;         /* GTAP_FN_* */
    uint64_t signature_hash;/* hash of name + parameter types + return type */
} gtap_function_desc;

typedef struct gtap_program_desc {
    uint32_t interface_version;  /* GTAP_GEN_INTERFACE_VERSION the code was generated for */
    uint32_t num_functions;
    uint32_t max_data_size;      /* max over functions of data_size */
    uint32_t max_data_align;     /* max over functions of data_align */
    uint32_t max_result_size;    /* max over functions of result_size */
    uint32_t uses_taskwait;      /* nonzero if any function contains a taskwait */
    uint64_t program_hash;       /* hash over every function's signature_hash and layout */
    const gtap_function_desc *functions; /* [num_functions], indexed by function id */
} gtap_program_desc;

#ifdef __cplusplus
extern "C" {
#endif
extern const gtap_program_desc gtapgen_program; /* defined by the generated code */
#ifdef __cplusplus
}
#endif

/* ---- Defined by the generated code, called by the runtime. -------------------------- */

/* Runs one segment of task t, whose function id is fn. Called by every executing thread of
 * the task (one thread in thread mode, the whole block in block mode). */
#if defined(__CUDACC__) || defined(GTAP_TARGET_HOST)
GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t);
#if defined(GTAPGEN_HAS_WARP_FUNCTIONS)
GTAP_TASK_FN int gtapgen_fn_is_warp(unsigned fn);
GTAP_TASK_FN void gtapgen_dispatch_warp(gtap_worker *w, unsigned fn, gtap_task t);
#endif
#endif

/* ---- Provided by the runtime, called by the generated code. ------------------------- *
 * Each runtime defines these as GTAP_API functions after including this header; they are
 * listed here with their contracts. "Caller" is the executing thread of task t (thread
 * mode) or any thread of the executing block (block mode) unless stated otherwise. */
#if 0 /* documentation of the functions each runtime defines */

/* Address of task t's data record (struct gtapgen_F_data). Stable for the task's life. */
void *gtap_task_data(gtap_worker *w, gtap_task t);

/* Resumption state of t: 0 on first entry, else the resume_state of the join it waits at. */
int gtap_task_state(gtap_worker *w, gtap_task t);

/* Creates a child of `parent` running function fn, with data_size bytes of task data, to be
 * queued on EPAQ queue `queue` (thread mode; ignored in block mode and on the host). The child
 * becomes runnable when the parent's current segment returns (R1). Returns the child's data
 * record, which the caller fills with the arguments. result_dst receives the child's return
 * value (R2), or is NULL when the result is discarded. On a capacity error (pool exhausted,
 * deque full, too many children, data too large) the runtime records the error, starts the
 * abort, and returns a scratch record so the caller can finish its segment harmlessly. */
void *gtap_task_spawn(gtap_worker *w, gtap_task parent, unsigned fn, unsigned data_size,
                      int queue, void *result_dst);

/* taskwait: if t has children spawned since its previous join, records resume_state and the
 * EPAQ queue for the continuation, arms the join counter and returns 1 - the caller must
 * return at once; the runtime re-runs t at resume_state after the last child finishes.
 * Returns 0 when there is nothing to wait for (R3). Block mode: collective. */
int gtap_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue);

/* Stores t's return value (size bytes at value) into t's result destination, if any. Called
 * once, immediately before the state machine returns for the last time. Block mode: only the
 * function's result thread calls it (the generated code tests threadIdx.x). */
void gtap_task_return(gtap_worker *w, gtap_task t, const void *value, unsigned size);

/* taskwait in a warp task function: gtap_task_join's contract, collective over the 32 lanes
 * of the warp (all of them reach it together; it counts every lane's spawns and returns the
 * same answer on every lane). A taskwait that not every lane reaches fails the run. */
int gtap_warp_task_join(gtap_worker *w, gtap_task t, int resume_state, int queue);

/* Reports a resumption state the state machine does not know (a runtime or compiler bug) and
 * aborts the run. */
void gtap_task_bad_state(gtap_worker *w, gtap_task t);

/* #pragma gtap entry, called by every thread of the launched grid (GPU) or once (host):
 * gtap_entry_begin returns the root task's data record on exactly one thread (the master)
 * and NULL on every other; the master fills the arguments. gtap_entry_run executes the task
 * graph to termination. gtap_entry_result returns, on the master only, the root's return
 * value (result_size bytes, suitably aligned), and NULL elsewhere or after an error. */
void *gtap_entry_begin(unsigned fn, unsigned data_size, unsigned result_size);
void gtap_entry_run(void);
const void *gtap_entry_result(void);

/* Spilled-local replication: a spilled local v is declared `T v[GTAP_LANES]` in the task
 * data and accessed as self->v[GTAP_LANE]. */
#define GTAP_LANES ...
#define GTAP_LANE ...
/* The same in warp task functions: 32 copies, indexed by the lane in the warp. */
#define GTAP_WARP_LANES 32
#define GTAP_WARP_LANE ...

#endif /* documentation */

#endif /* GTAP_GEN_H */
