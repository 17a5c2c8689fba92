#define GTAPGEN_TRANSLATED 1
#line 1 "if_final.cu"
// Golden test: if(...) and final(...) on task (docs/compiler.md, "if and final"). fib gets a
// serial clone in place (it spawns only itself); walk spawns visit, defined after it, so its
// state machine and its clone go to the end of the file; nothing spawns count with a clause
// and it gets no clone. The clause over 'k' reads the renamed local that lives in the task data.
#include "gtap_thread.cuh"

__device__ int d_cutoff;
__device__ int d_result;

/* gtapcc: task function 'fib' (id 0) */
enum { GTAPGEN_FN_fib = 0 };
using gtapgen_fib_ret = int;
using gtapgen_fib_T0 = int;
using gtapgen_fib_T1 = int;
using gtapgen_fib_T2 = int;
struct gtapgen_fib_data {
    gtapgen_fib_T0 n;
    gtapgen_fib_T1 a[GTAP_LANES];
    gtapgen_fib_T2 b[GTAP_LANES];
};
static_assert(sizeof(struct gtapgen_fib_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'fib' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_fib_T0), "'n' of task function 'fib' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_fib_T1), "'a' of task function 'fib' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_fib_T2), "'b' of task function 'fib' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_fib(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
static __device__ __noinline__ gtapgen_fib_ret gtapgen_fib_serial(gtapgen_fib_T0 n);
/* gtapcc: serial clone of 'fib' for if(...) / final(...): plain recursion */
static __device__ __noinline__ gtapgen_fib_ret gtapgen_fib_serial(gtapgen_fib_T0 n)
#line 11 "if_final.cu"
                          {
    if (n < 2) return n;
    int a, b;
    
    a = gtapgen_fib_serial(n - 1);
    
    b = gtapgen_fib_serial(n - 2);
    
    return a + b;
}
#line 11 "if_final.cu"
                          GTAP_TASK_FN void gtapgen_fib(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_fib_data *__restrict__ gtapgen_self = (struct gtapgen_fib_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &n = gtapgen_self->n; (void)n; auto &a = gtapgen_self->a[GTAP_LANE]; (void)a; auto &b = gtapgen_self->b[GTAP_LANE]; (void)b; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; case 1: goto gtapgen_resume_1; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    if (n < 2) { gtapgen_fib_ret gtapgen_rv = (n); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
    { }
    
    { void *gtapgen_dst = (void *)&(a); const bool gtapgen_if = (bool)(n > d_cutoff); gtapgen_fib_T0 gtapgen_a0 = (n - 1); if (!gtapgen_if) { *(gtapgen_fib_ret *)gtapgen_dst = gtapgen_fib_serial(gtapgen_a0); } else { struct gtapgen_fib_data *gtapgen_c = (struct gtapgen_fib_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 14 */ gtapgen_c->n = gtapgen_a0; } }
    
    { void *gtapgen_dst = (void *)&(b); const bool gtapgen_if = (bool)(n > d_cutoff); gtapgen_fib_T0 gtapgen_a0 = (n - 2); if (!gtapgen_if) { *(gtapgen_fib_ret *)gtapgen_dst = gtapgen_fib_serial(gtapgen_a0); } else { struct gtapgen_fib_data *gtapgen_c = (struct gtapgen_fib_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 16 */ gtapgen_c->n = gtapgen_a0; } }
    if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(0))) return; gtapgen_resume_1:;
    { gtapgen_fib_ret gtapgen_rv = (a + b); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}

__device__ void visit(int i);

/* gtapcc: task function 'walk' (id 1) */
enum { GTAPGEN_FN_walk = 1 };
using gtapgen_walk_ret = int;
using gtapgen_walk_T0 = int;
using gtapgen_walk_T1 = int;
using gtapgen_walk_T2 = int;
struct gtapgen_walk_data {
    gtapgen_walk_T0 depth;
    gtapgen_walk_T1 total[GTAP_LANES];
    gtapgen_walk_T2 k[GTAP_LANES];
};
static_assert(sizeof(struct gtapgen_walk_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'walk' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_walk_T0), "'depth' of task function 'walk' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_walk_T1), "'total' of task function 'walk' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_walk_T2), "'k' of task function 'walk' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_walk(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
static __device__ __noinline__ gtapgen_walk_ret gtapgen_walk_serial(gtapgen_walk_T0 depth);
#line 36 "if_final.cu"
 

/* gtapcc: task function 'visit' (id 2) */
enum { GTAPGEN_FN_visit = 2 };
using gtapgen_visit_T0 = int;
struct gtapgen_visit_data {
    gtapgen_visit_T0 i;
};
static_assert(sizeof(struct gtapgen_visit_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'visit' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_visit_T0), "'i' of task function 'visit' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_visit(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
static __device__ __noinline__ void gtapgen_visit_serial(gtapgen_visit_T0 i);
/* gtapcc: serial clone of 'visit' for if(...) / final(...): plain recursion */
static __device__ __noinline__ void gtapgen_visit_serial(gtapgen_visit_T0 i)
#line 39 "if_final.cu"
                             {
    if (i > 4) {
        
        gtapgen_visit_serial(i / 2);
    }
}
#line 39 "if_final.cu"
                             GTAP_TASK_FN void gtapgen_visit(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_visit_data *__restrict__ gtapgen_self = (struct gtapgen_visit_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &i = gtapgen_self->i; (void)i; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    if (i > 4) {
        
        { void *gtapgen_dst = (void *)0; struct gtapgen_visit_data *gtapgen_c = (struct gtapgen_visit_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_visit, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 41 */ gtapgen_c->i = (i / 2); }
    }
}}

/* gtapcc: task function 'count' (id 3) */
enum { GTAPGEN_FN_count = 3 };
using gtapgen_count_ret = int;
using gtapgen_count_T0 = int;
using gtapgen_count_T1 = int;
struct gtapgen_count_data {
    gtapgen_count_T0 n;
    gtapgen_count_T1 c[GTAP_LANES];
};
static_assert(sizeof(struct gtapgen_count_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'count' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_count_T0), "'n' of task function 'count' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_count_T1), "'c' of task function 'count' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_count(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
#line 47 "if_final.cu"
                            GTAP_TASK_FN void gtapgen_count(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_count_data *__restrict__ gtapgen_self = (struct gtapgen_count_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &n = gtapgen_self->n; (void)n; auto &c = gtapgen_self->c[GTAP_LANE]; (void)c; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; case 1: goto gtapgen_resume_1; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    { }
    
    { void *gtapgen_dst = (void *)&(c); const bool gtapgen_if = (bool)(n > 1); gtapgen_walk_T0 gtapgen_a0 = (n); if (!gtapgen_if) { *(gtapgen_walk_ret *)gtapgen_dst = gtapgen_walk_serial(gtapgen_a0); } else { struct gtapgen_walk_data *gtapgen_c = (struct gtapgen_walk_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_walk, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 49 */ gtapgen_c->depth = gtapgen_a0; } }
    if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(0))) return; gtapgen_resume_1:;
    { gtapgen_count_ret gtapgen_rv = (c); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}

__global__ void GTAP_ENTRY_KERNEL k(int n) {
    
    { struct gtapgen_count_data *gtapgen_root = (struct gtapgen_count_data *)gtap_entry_begin(GTAPGEN_FN_count, (unsigned)sizeof(struct gtapgen_count_data), (unsigned)sizeof(gtapgen_count_ret)); if (gtapgen_root) { gtapgen_root->n = (n); } gtap_entry_run(); { const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) d_result = *(const gtapgen_count_ret *)gtapgen_res; } }
}

#line 25 "if_final.cu"
                               GTAP_TASK_FN void gtapgen_walk(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_walk_data *__restrict__ gtapgen_self = (struct gtapgen_walk_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &depth = gtapgen_self->depth; (void)depth; auto &total = gtapgen_self->total[GTAP_LANE]; (void)total; auto &gtapgen_2_k = gtapgen_self->k[GTAP_LANE]; (void)gtapgen_2_k; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; case 1: goto gtapgen_resume_1; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    { total = (0); }
    for (gtapgen_2_k = (0); gtapgen_2_k < 2; gtapgen_2_k++) {
        
        { void *gtapgen_dst = (void *)0; const bool gtapgen_final = (bool)(depth < 3 && gtapgen_2_k == 0); gtapgen_visit_T0 gtapgen_a0 = (depth * 2 + gtapgen_2_k); if (gtapgen_final) { gtapgen_visit_serial(gtapgen_a0); } else { struct gtapgen_visit_data *gtapgen_c = (struct gtapgen_visit_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_visit, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 28 */ gtapgen_c->i = gtapgen_a0; } }
        
        { void *gtapgen_dst = (void *)&(total); const bool gtapgen_final = (bool)(depth < 2); gtapgen_fib_T0 gtapgen_a0 = (depth); if (gtapgen_final) { *(gtapgen_fib_ret *)gtapgen_dst = gtapgen_fib_serial(gtapgen_a0); } else { struct gtapgen_fib_data *gtapgen_c = (struct gtapgen_fib_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 30 */ gtapgen_c->n = gtapgen_a0; } }
        if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(0))) return; gtapgen_resume_1:;
    }
    { int k = total; total = k + 1; }
    { gtapgen_walk_ret gtapgen_rv = (total); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}
/* gtapcc: serial clone of 'walk' for if(...) / final(...): plain recursion */
static __device__ __noinline__ gtapgen_walk_ret gtapgen_walk_serial(gtapgen_walk_T0 depth)
#line 25 "if_final.cu"
                               {
    int total = 0;
    for (int k = 0; k < 2; k++) {
        
        gtapgen_visit_serial(depth * 2 + k);
        
        total = gtapgen_fib_serial(depth);
        
    }
    { int k = total; total = k + 1; }
    return total;
}

#line 1 "gtapcc-generated"
/* ---- gtapcc: dispatcher and program descriptor (gtap_gen.h) ---- */
GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *gtapgen_w, unsigned gtapgen_fn, gtap_task gtapgen_t)
{
    switch (gtapgen_fn) {
    case GTAPGEN_FN_fib: gtapgen_fib(gtapgen_w, gtapgen_t); return;
    case GTAPGEN_FN_walk: gtapgen_walk(gtapgen_w, gtapgen_t); return;
    case GTAPGEN_FN_visit: gtapgen_visit(gtapgen_w, gtapgen_t); return;
    case GTAPGEN_FN_count: gtapgen_count(gtapgen_w, gtapgen_t); return;
    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;
    }
}
static const gtap_function_desc gtapgen_functions[] = {
    {"fib", (uint32_t)sizeof(struct gtapgen_fib_data), (uint32_t)alignof(struct gtapgen_fib_data), (uint32_t)sizeof(gtapgen_fib_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0x85a7700c20785427ull},
    {"walk", (uint32_t)sizeof(struct gtapgen_walk_data), (uint32_t)alignof(struct gtapgen_walk_data), (uint32_t)sizeof(gtapgen_walk_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0xfb72b0cb5f106e31ull},
    {"visit", (uint32_t)sizeof(struct gtapgen_visit_data), (uint32_t)alignof(struct gtapgen_visit_data), 0u, 0x1u /* MIGRATABLE*/, 0x7f23c3f1f43f408aull},
    {"count", (uint32_t)sizeof(struct gtapgen_count_data), (uint32_t)alignof(struct gtapgen_count_data), (uint32_t)sizeof(gtapgen_count_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0x6375d307c0555b45ull},
};
static constexpr uint32_t gtapgen_umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
const gtap_program_desc gtapgen_program = {
    GTAP_GEN_INTERFACE_VERSION, 4u,
    gtapgen_umax(gtapgen_umax(gtapgen_umax(gtapgen_umax(0u, (uint32_t)sizeof(struct gtapgen_fib_data)), (uint32_t)sizeof(struct gtapgen_walk_data)), (uint32_t)sizeof(struct gtapgen_visit_data)), (uint32_t)sizeof(struct gtapgen_count_data)),
    gtapgen_umax(gtapgen_umax(gtapgen_umax(gtapgen_umax(1u, (uint32_t)alignof(struct gtapgen_fib_data)), (uint32_t)alignof(struct gtapgen_walk_data)), (uint32_t)alignof(struct gtapgen_visit_data)), (uint32_t)alignof(struct gtapgen_count_data)),
    gtapgen_umax(gtapgen_umax(gtapgen_umax(gtapgen_umax(0u, (uint32_t)sizeof(gtapgen_fib_ret)), (uint32_t)sizeof(gtapgen_walk_ret)), (uint32_t)0u), (uint32_t)sizeof(gtapgen_count_ret)),
    1u, 0x6cc31b9a2bc55953ull, gtapgen_functions};
#if !defined(GTAP_TARGET_HOST)
static const int gtapgen_entry_kernels __attribute__((unused)) = 0
    + gtap_host_register_entry_kernel((const void *)k);
#endif
