#define GTAPGEN_TRANSLATED 1
#line 1 "spill_rules.cu"
// Golden test: what is spilled and what stays a register; a resume label inside a loop and
// a switch; same-named locals; a spawn of a later task function (deferred state machine).
#include "gtap_thread.cuh"

__device__ int g(int v);

/* gtapcc: task function 'f' (id 0) */
enum { GTAPGEN_FN_f = 0 };
using gtapgen_f_ret = int;
using gtapgen_f_T0 = int;
using gtapgen_f_T2 = int;
using gtapgen_f_T3 = int;
using gtapgen_f_T4 = int;
using gtapgen_f_T6 = int;
using gtapgen_f_T7 = int;
struct gtapgen_f_data {
    gtapgen_f_T0 n;
    gtapgen_f_T2 across[GTAP_LANES];
    gtapgen_f_T3 r[GTAP_LANES];
    gtapgen_f_T4 i[GTAP_LANES];
    gtapgen_f_T6 x[GTAP_LANES];
    gtapgen_f_T7 gtapgen_7_x[GTAP_LANES];
};
static_assert(sizeof(struct gtapgen_f_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'f' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_f_T0), "'n' of task function 'f' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_f_T2), "'across' of task function 'f' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_f_T3), "'r' of task function 'f' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_f_T4), "'i' of task function 'f' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_f_T6), "'x' of task function 'f' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_f_T7), "'x' of task function 'f' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_f(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
#line 34 "spill_rules.cu"
 

/* gtapcc: task function 'g' (id 1) */
enum { GTAPGEN_FN_g = 1 };
using gtapgen_g_ret = int;
using gtapgen_g_T0 = int;
struct gtapgen_g_data {
    gtapgen_g_T0 v;
};
static_assert(sizeof(struct gtapgen_g_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'g' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_g_T0), "'v' of task function 'g' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_g(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
#line 37 "spill_rules.cu"
                        GTAP_TASK_FN void gtapgen_g(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_g_data *__restrict__ gtapgen_self = (struct gtapgen_g_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &v = gtapgen_self->v; (void)v; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    { gtapgen_g_ret gtapgen_rv = (v * v); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}

#line 8 "spill_rules.cu"
                        GTAP_TASK_FN void gtapgen_f(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_f_data *__restrict__ gtapgen_self = (struct gtapgen_f_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &n = gtapgen_self->n; (void)n; auto &across = gtapgen_self->across[GTAP_LANE]; (void)across; auto &r = gtapgen_self->r[GTAP_LANE]; (void)r; auto &i = gtapgen_self->i[GTAP_LANE]; (void)i; auto &gtapgen_6_x = gtapgen_self->x[GTAP_LANE]; (void)gtapgen_6_x; auto &gtapgen_7_x = gtapgen_self->gtapgen_7_x[GTAP_LANE]; (void)gtapgen_7_x; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; case 1: goto gtapgen_resume_1; case 2: goto gtapgen_resume_2; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    int before_only; before_only = n * 2;        // used only before the join: register, split
    { across = (n + 1); }             // read after the join: spilled
    { r = (before_only); }
    for (i = (0); i < n; i++) {   // i is read in the loop around the join: spilled
        int tmp; tmp = i * 3;            // fresh each iteration, dead at the join: register
        r += tmp;
        { }
        
        { void *gtapgen_dst = (void *)&(gtapgen_6_x); struct gtapgen_g_data *gtapgen_c = (struct gtapgen_g_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_g, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 16 */ gtapgen_c->v = (i); }
        if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(0))) return; gtapgen_resume_1:;
        r += gtapgen_6_x;
    }
    switch (n) {
    case 1: {
        { }                      // same name as the loop's x, other scope
        
        { void *gtapgen_dst = (void *)&(gtapgen_7_x); struct gtapgen_g_data *gtapgen_c = (struct gtapgen_g_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_g, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 24 */ gtapgen_c->v = (across); }
        if (gtap_task_join(gtapgen_w, gtapgen_t, 2, (int)(0))) return; gtapgen_resume_2:;
        r += gtapgen_7_x;
        break;
    }
    default:
        break;
    }
    { gtapgen_f_ret gtapgen_rv = (r + across); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}

#line 1 "gtapcc-generated"
/* ---- gtapcc: dispatcher and program descriptor (gtap_gen.h) ---- */
GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *gtapgen_w, unsigned gtapgen_fn, gtap_task gtapgen_t)
{
    switch (gtapgen_fn) {
    case GTAPGEN_FN_f: gtapgen_f(gtapgen_w, gtapgen_t); return;
    case GTAPGEN_FN_g: gtapgen_g(gtapgen_w, gtapgen_t); return;
    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;
    }
}
static const gtap_function_desc gtapgen_functions[] = {
    {"f", (uint32_t)sizeof(struct gtapgen_f_data), (uint32_t)alignof(struct gtapgen_f_data), (uint32_t)sizeof(gtapgen_f_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0x7968aa7d9e2357aeull},
    {"g", (uint32_t)sizeof(struct gtapgen_g_data), (uint32_t)alignof(struct gtapgen_g_data), (uint32_t)sizeof(gtapgen_g_ret), 0x1u /* MIGRATABLE*/, 0x6d1574dfb8ca2a97ull},
};
static constexpr uint32_t gtapgen_umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
const gtap_program_desc gtapgen_program = {
    GTAP_GEN_INTERFACE_VERSION, 2u,
    gtapgen_umax(gtapgen_umax(0u, (uint32_t)sizeof(struct gtapgen_f_data)), (uint32_t)sizeof(struct gtapgen_g_data)),
    gtapgen_umax(gtapgen_umax(1u, (uint32_t)alignof(struct gtapgen_f_data)), (uint32_t)alignof(struct gtapgen_g_data)),
    gtapgen_umax(gtapgen_umax(0u, (uint32_t)sizeof(gtapgen_f_ret)), (uint32_t)sizeof(gtapgen_g_ret)),
    1u, 0xfdfad94a29cde9d2ull, gtapgen_functions};
