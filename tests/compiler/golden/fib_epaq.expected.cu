#define GTAPGEN_TRANSLATED 1
#line 1 "fib_epaq.cu"
// Golden test: the paper's Program 4 (fib with EPAQ queues).
#include "gtap_thread.cuh"
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
#line 6 "fib_epaq.cu"
                          GTAP_TASK_FN void gtapgen_fib(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { struct gtapgen_fib_data *__restrict__ gtapgen_self = (struct gtapgen_fib_data *)gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; auto &n = gtapgen_self->n; (void)n; auto &a = gtapgen_self->a[GTAP_LANE]; (void)a; auto &b = gtapgen_self->b[GTAP_LANE]; (void)b; switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: break; case 1: goto gtapgen_resume_1; default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {
    if (n < 2) { gtapgen_fib_ret gtapgen_rv = (n); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
    { }
    
    { void *gtapgen_dst = (void *)&(a); struct gtapgen_fib_data *gtapgen_c = (struct gtapgen_fib_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, (unsigned)sizeof *gtapgen_c, (int)((n - 1) < 2 ? 1 : 0), gtapgen_dst); (void)gtapgen_c; /* task at line 9 */ gtapgen_c->n = (n - 1); }
    
    { void *gtapgen_dst = (void *)&(b); struct gtapgen_fib_data *gtapgen_c = (struct gtapgen_fib_data *)gtap_task_spawn(gtapgen_w, gtapgen_t, GTAPGEN_FN_fib, (unsigned)sizeof *gtapgen_c, (int)((n - 2) < 2 ? 1 : 0), gtapgen_dst); (void)gtapgen_c; /* task at line 11 */ gtapgen_c->n = (n - 2); }
    if (gtap_task_join(gtapgen_w, gtapgen_t, 1, (int)(2))) return; gtapgen_resume_1:;
    { gtapgen_fib_ret gtapgen_rv = (a + b); gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }
}}

__global__ void GTAP_ENTRY_KERNEL exec_kernel() {
    
    { struct gtapgen_fib_data *gtapgen_root = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, (unsigned)sizeof(struct gtapgen_fib_data), (unsigned)sizeof(gtapgen_fib_ret)); if (gtapgen_root) { gtapgen_root->n = (40); } gtap_entry_run(); { const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) d_result = *(const gtapgen_fib_ret *)gtapgen_res; } }
}

// GTAP_ENTRY_KERNEL goes before the name of a kernel with entries, once; a kernel that names
// its own __launch_bounds__ keeps them alone.
__global__ void GTAP_ENTRY_KERNEL twice_kernel(int n) {
    
    { struct gtapgen_fib_data *gtapgen_root = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, (unsigned)sizeof(struct gtapgen_fib_data), (unsigned)sizeof(gtapgen_fib_ret)); if (gtapgen_root) { gtapgen_root->n = (n); } gtap_entry_run(); { const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) d_result = *(const gtapgen_fib_ret *)gtapgen_res; } }
    
    int more; { struct gtapgen_fib_data *gtapgen_root = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, (unsigned)sizeof(struct gtapgen_fib_data), (unsigned)sizeof(gtapgen_fib_ret)); if (gtapgen_root) { gtapgen_root->n = (n - 1); } gtap_entry_run(); { const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) more = *(const gtapgen_fib_ret *)gtapgen_res; } }
    d_result += more;
}

__global__ void __launch_bounds__(128) bounded_kernel() {
    
    { struct gtapgen_fib_data *gtapgen_root = (struct gtapgen_fib_data *)gtap_entry_begin(GTAPGEN_FN_fib, (unsigned)sizeof(struct gtapgen_fib_data), (unsigned)sizeof(gtapgen_fib_ret)); if (gtapgen_root) { gtapgen_root->n = (20); } gtap_entry_run(); { const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) d_result = *(const gtapgen_fib_ret *)gtapgen_res; } }
}


#line 1 "gtapcc-generated"
/* ---- gtapcc: dispatcher and program descriptor (gtap_gen.h) ---- */
GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *gtapgen_w, unsigned gtapgen_fn, gtap_task gtapgen_t)
{
    switch (gtapgen_fn) {
    case GTAPGEN_FN_fib: gtapgen_fib(gtapgen_w, gtapgen_t); return;
    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;
    }
}
static const gtap_function_desc gtapgen_functions[] = {
    {"fib", (uint32_t)sizeof(struct gtapgen_fib_data), (uint32_t)alignof(struct gtapgen_fib_data), (uint32_t)sizeof(gtapgen_fib_ret), 0x3u /* MIGRATABLE HAS_TASKWAIT*/, 0x85a7700c20785427ull},
};
static constexpr uint32_t gtapgen_umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
const gtap_program_desc gtapgen_program = {
    GTAP_GEN_INTERFACE_VERSION, 1u,
    gtapgen_umax(0u, (uint32_t)sizeof(struct gtapgen_fib_data)),
    gtapgen_umax(1u, (uint32_t)alignof(struct gtapgen_fib_data)),
    gtapgen_umax(0u, (uint32_t)sizeof(gtapgen_fib_ret)),
    1u, 0x29e3570c980c9e98ull, gtapgen_functions};
#if !defined(GTAP_TARGET_HOST)
static const int gtapgen_entry_kernels __attribute__((unused)) = 0
    + gtap_host_register_entry_kernel((const void *)exec_kernel)
    + gtap_host_register_entry_kernel((const void *)twice_kernel)
    + gtap_host_register_entry_kernel((const void *)bounded_kernel);
#endif
