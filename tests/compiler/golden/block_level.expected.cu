#define GTAPGEN_TRANSLATED 1
#line 1 "block_level.cu"
// Golden test: a block-level task function (per-thread copies of spilled locals, a
// parameter written in the body, shared memory untouched, return_thread).
#include "gtap_block.cuh"

/* gtapcc: task function 'sum' (id 0) */
enum { GTAPGEN_FN_sum = 0 };
using gtapgen_sum_ret = int;
using gtapgen_sum_T0 = int;
using gtapgen_sum_T1 = int;
using gtapgen_sum_T4 = int;
using gtapgen_sum_T5 = int;
struct gtapgen_sum_data {
    gtapgen_sum_T0 lo;
    gtapgen_sum_T0 gtapgen_lp_lo[GTAP_LANES]; /* per-thread copy */
    gtapgen_sum_T1 hi;
    gtapgen_sum_T4 a[GTAP_LANES];
    gtapgen_sum_T5 b[GTAP_LANES];
};
static_assert(sizeof(struct gtapgen_sum_data) <= GTAP_MAX_TASK_DATA_SIZE, "task data of 'sum' exceeds GTAP_MAX_TASK_DATA_SIZE");
static_assert(__is_trivially_copyable(gtapgen_sum_T0), "'lo' of task function 'sum' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_sum_T1), "'hi' of task function 'sum' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_sum_T4), "'a' of task function 'sum' lives in the task data and must be trivially copyable");
static_assert(__is_trivially_copyable(gtapgen_sum_T5), "'b' of task function 'sum' lives in the task data and must be trivially copyable");
GTAP_TASK_FN void gtapgen_sum(gtap_worker *gtapgen_w, gtap_task gtapgen_t);
#line 6 "block_level.cu"
                                   GTAP_TASK_FN void gtapgen_sum(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_sum_data *__restrict__ gtapgen_self = (struct gtapgen_sum_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &lo = gtapgen_self->gtapgen_lp_lo[GTAP_LANE]; (void)lo; auto &hi = gtapgen_self->hi; (void)hi; auto &a = gtapgen_self->a[GTAP_LANE]; (void)a; auto &b = gtapgen_self->b[GTAP_LANE]; (void)b; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: gtapgen_self->gtapgen_lp_lo[GTAP_LANE] = gtapgen_self->lo; break; case 1: goto gtapgen_resume_1; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    __shared__ int s_mid;
    if (threadIdx.x == 0) s_mid = (lo + hi) / 2;
    __syncthreads();
    int mid; mid = s_mid;
    if (hi - lo < 4) { gtapgen_sum_ret gtapgen_rv = (hi - lo); if (threadIdx.x == 1) gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
    { a = (0); b = (0); }
    if (threadIdx.x == 0) {
        
        { void *gtapgen_dst = (void *)&(a); struct gtapgen_sum_data *gtapgen_c = (struct gtapgen_sum_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_sum, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 14 */ gtapgen_c->lo = (lo); gtapgen_c->hi = (mid); }
        
        { void *gtapgen_dst = (void *)&(b); struct gtapgen_sum_data *gtapgen_c = (struct gtapgen_sum_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_sum, (unsigned)sizeof *gtapgen_c, (int)(0), gtapgen_dst); (void)gtapgen_c; /* task at line 16 */ gtapgen_c->lo = (mid); gtapgen_c->hi = (hi); }
    }
    if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(0))) return; gtapgen_resume_1:;
    lo = a + b;
    { gtapgen_sum_ret gtapgen_rv = (lo); if (threadIdx.x == 1) gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}


#line 1 "gtapcc-generated"
/* ---- gtapcc: dispatcher and program descriptor (gtap_gen.h) ---- */
GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *gtapgen_w, unsigned gtapgen_fn, gtap_task gtapgen_t)
{
    switch (gtapgen_fn) {
    case GTAPGEN_FN_sum: gtapgen_sum(gtapgen_w, gtapgen_t); return;
    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;
    }
}
static const gtap_function_desc gtapgen_functions[] = {
    {"sum", (uint32_t)sizeof(struct gtapgen_sum_data), (uint32_t)alignof(struct gtapgen_sum_data), (uint32_t)sizeof(gtapgen_sum_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0x64db37e6132c40ffull},
};
static constexpr uint32_t gtapgen_umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
const gtap_program_desc gtapgen_program = {
    GTAP_GEN_INTERFACE_VERSION, 1u,
    gtapgen_umax(0u, (uint32_t)sizeof(struct gtapgen_sum_data)),
    gtapgen_umax(1u, (uint32_t)alignof(struct gtapgen_sum_data)),
    gtapgen_umax(0u, (uint32_t)sizeof(gtapgen_sum_ret)),
    1u, 0xcad3a230bdeccd26ull, gtapgen_functions};
