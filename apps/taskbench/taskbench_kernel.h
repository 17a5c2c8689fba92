/* taskbench_kernel.h - what one Task Bench task does, for every implementation: check its
 * inputs (each must hold the (step, point) of the dependency that produced it), run the
 * kernel, write its output records. The work of one task may be spread over `lanes`
 * cooperating threads (a block-level GPU task: lane = threadIdx.x, lanes = blockDim.x); every
 * other caller passes lane 0 of 1. Compiles as C, as the host target's C++ and as CUDA.
 */
#ifndef TASKBENCH_KERNEL_H
#define TASKBENCH_KERNEL_H

#include "taskbench_graph.h"

/* The fill pattern of scratch memory; a task finds it in its point's first word, or the
 * scratch was overwritten by something other than the kernel's own copies. */
#define TB_SCRATCH_FILL 0x7b3d5c1e9a2f4681ull

/* The value no kernel result can take (they converge to small positive numbers or stay
 * below 2^31): a result equal to it is stored, so the compiler must compute every result. */
#define TB_NEVER (-1.0e300)

/* Loads another task's output: at L2 on the GPU, as an SM's L1 may hold an older copy of the
 * line (outputs are rewritten every step, by tasks on other SMs). */
#if defined(__CUDA_ARCH__)
#define TB_LOAD(ptr) __ldcg(ptr)
#else
#define TB_LOAD(ptr) (*(ptr))
#endif

/* Where a graph's outputs and scratch live: `fields` copies of `width` slots of `slot_words`
 * int64 each (task (t, p) writes field t % fields), and `width` scratch areas. A fork-join run
 * needs two fields (steps are ordered); a dataflow run one per step (a point may run ahead). */
typedef struct tb_store {
    long long *out;
    long fields;
    long slot_words;
    unsigned long long *scratch; /* NULL without -scratch */
    long scratch_words;          /* per point */
    long fault_step, fault_point; /* --inject-fault (graph 0 only; -1 elsewhere) */
} tb_store;

TB_HD long long *tb_slot(const tb_store *s, const tb_graph *g, long t, long p)
{
    return s->out + ((t % s->fields) * g->width + p) * s->slot_words;
}

/* Lane `lane`'s share of n items spread over `lanes`. */
TB_HD long tb_share(long n, int lane, int lanes)
{
    return n / lanes + (lane < n % lanes ? 1 : 0);
}

/* compute_bound / load_imbalance: `fmas` dependent FP64 FMAs in four independent chains per
 * lane (Task Bench's 64 FMAs an iteration; the chains converge, so no value overflows or
 * goes subnormal). Returns the lane's result. */
TB_HD double tb_kernel_compute(long fmas, int lane, int lanes)
{
    long n = tb_share(fmas, lane, lanes);
    double a = 0.25 + lane, b = 0.5 + lane, c = 0.75 + lane, d = 1.0 + lane;
    const double m = 0.999999, k = 1.0e-6;
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        a = a * m + k;
        b = b * m + k;
        c = c * m + k;
        d = d * m + k;
    }
    for (; i < n; i++)
        a = a * m + k;
    return a + b + c + d;
}

/* busy_wait: a chain of integer multiply-modulo steps (no memory, no FLOPs). */
TB_HD double tb_kernel_busy_wait(long iterations, int lane, int lanes)
{
    long n = tb_share(iterations, lane, lanes);
    long long acc = 113 + lane;
    for (long i = 0; i < n; i++)
        acc = acc * 139 % 2147483647;
    return (double)acc;
}

/* memory_bound: each iteration copies the first half of one scratch sample onto its second
 * half, walking the samples from where the step left off, as Task Bench does (words of one
 * copy spread over the lanes). */
TB_HD void tb_kernel_memory(unsigned long long *scratch, long words, long samples, long iterations, long t,
                            int lane, int lanes)
{
    const long per_sample = words / samples, half = per_sample / 2;
    for (long i = 0; i < iterations; i++) {
        unsigned long long *base = scratch + ((t * iterations + i) % samples) * per_sample;
        for (long w = lane; w < half; w += lanes)
            base[half + w] = base[w];
    }
}

/* Checks the inputs of task (t, p) against its dependencies (this lane's share of them:
 * input k goes to lane k % lanes). Returns 1 and fills *f at the first wrong one, else 0. */
TB_HD int tb_check_inputs(const tb_graph *g, const tb_store *s, long t, long p, int lane, int lanes, tb_fault *f)
{
    const long lo = tb_offset_at(g, t - 1), hi = lo + tb_width_at(g, t - 1);
    const long records = g->output_bytes / TB_RECORD_BYTES;
    tb_deps it;
    tb_span sp;
    long k = 0;
    tb_deps_init(&it, g, tb_dset_at(g, t), p, 0);
    while (tb_deps_next(&it, &sp)) {
        long first = tb_maxl(sp.first, lo), last = tb_minl(sp.last, hi - 1);
        for (long d = first; d <= last; d++, k++) {
            if (k % lanes != lane)
                continue;
            const long long *in = tb_slot(s, g, t - 1, d);
            for (long r = 0; r < records; r++) {
                long long st = TB_LOAD(&in[2 * r]), pt = TB_LOAD(&in[2 * r + 1]);
                if (st != t - 1 || pt != d) {
                    f->kind = TB_FAULT_INPUT;
                    f->graph = g->graph_index;
                    f->step = t;
                    f->point = p;
                    f->dep = d;
                    f->got_step = (long)st;
                    f->got_point = (long)pt;
                    f->expected = f->got = 0;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Runs task (t, p) of graph g: checks its inputs and its scratch, runs the kernel, writes its
 * output records (all this lane's share). Returns 1 and fills *f when a check failed; the
 * task still runs, so a run with a fault ends normally and reports it. *sink receives the
 * kernel's result (store it when it equals TB_NEVER). */
TB_HD int tb_task_run(const tb_graph *g, const tb_store *s, long t, long p, int lane, int lanes, tb_fault *f,
                      double *sink)
{
    int bad = t > 0 ? tb_check_inputs(g, s, t, p, lane, lanes, f) : 0;
    unsigned long long *scratch = s->scratch ? s->scratch + p * s->scratch_words : 0;
    if (!bad && scratch && lane == 0 && scratch[0] != TB_SCRATCH_FILL) {
        f->kind = TB_FAULT_SCRATCH;
        f->graph = g->graph_index;
        f->step = t;
        f->point = p;
        f->dep = f->got_step = f->got_point = -1;
        f->expected = f->got = 0;
        bad = 1;
    }
    switch (g->kernel) {
    case TB_BUSY_WAIT:
        *sink = tb_kernel_busy_wait(g->iterations, lane, lanes);
        break;
    case TB_COMPUTE_BOUND:
    case TB_LOAD_IMBALANCE:
        *sink = tb_kernel_compute(64 * tb_task_iterations(g, t, p), lane, lanes);
        break;
    case TB_MEMORY_BOUND:
        tb_kernel_memory(scratch, s->scratch_words, g->samples, g->iterations, t, lane, lanes);
        *sink = 0;
        break;
    default:
        *sink = 0;
        break;
    }
    if (t == s->fault_step && p == s->fault_point)
        return bad; /* --inject-fault: this task's consumers must notice the missing output */
    long long *out = tb_slot(s, g, t, p);
    const long records = g->output_bytes / TB_RECORD_BYTES;
    for (long r = lane; r < records; r += lanes) {
        out[2 * r] = t;
        out[2 * r + 1] = p;
    }
    return bad;
}

#endif /* TASKBENCH_KERNEL_H */
