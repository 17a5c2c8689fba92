/* fmm.cu - the FMM's dual-tree traversal as GTaP thread-level tasks (the upstream's newest
 * evaluation). A task per cell pair (A, B) with --task-min (256) bodies or more: it visits the
 * pair (fmm_dtt.h) and, when the pair splits, spawns each child pair that is again that large
 * and walks the smaller ones itself, depth first (fmm_walk). Three builds:
 *
 *   fmm              (plain) every M2L / P2P pair appended to its target's interaction list;
 *                    kernels apply the lists after the traversal. No task waits
 *                    (-fgtap-no-taskwait): the traversal ends when the last task does.
 *   fmm_fused        (-DFMM_FUSED) each interaction applied in its task, with atomics into the
 *                    target's local expansion and bodies. No task waits.
 *   fmm_partitioned  (-DFMM_PARTITIONED) applied in-task without atomics: a task owns its
 *                    target cell's subtree while it runs. Children that split the target run
 *                    in parallel (disjoint targets); children that split the source, and the
 *                    rows of a self pair, run one after the other (taskwait), each row a task.
 *   fmm_dist         (-DFMM_FUSED, linked with the distributed layer) fmm_fused across ranks:
 *                    every rank builds the same bodies and tree, the traversal's tasks (two
 *                    cell indices) migrate, each rank applies the pairs it ran into its own
 *                    arrays, and the ranks' sums (fmm_run.cuh: fmm_dev_merge) make the run's
 *                    field, which rank 0 finishes and checks.
 *
 * Every task reads the run through g_fmm (global memory; set once before the launches); a
 * task's arguments are two cell indices (and a row length in the partitioned build).
 */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"

#if defined(GTAP_DISTRIBUTED) && !defined(FMM_FUSED)
#error "the distributed FMM (fmm_dist) is the fused traversal: build it with -DFMM_FUSED"
#endif
#if defined(GTAP_DISTRIBUTED)
#include "gtap_dist.h"
#define FMM_FIXED_MODE FMM_MODE_FUSED
#define FMM_APP "fmm_dist"
#elif defined(FMM_PARTITIONED)
#define FMM_FIXED_MODE FMM_MODE_OWNED
#define FMM_APP "fmm_partitioned"
#elif defined(FMM_FUSED)
#define FMM_FIXED_MODE FMM_MODE_FUSED
#define FMM_APP "fmm_fused"
#else
#define FMM_FIXED_MODE FMM_MODE_LIST
#define FMM_APP "fmm"
#endif

#include "fmm_run.cuh"

__constant__ fmm_ctx g_fmm;

#if !defined(FMM_PARTITIONED)

#pragma gtap function
__device__ void dtt(int a, int b)
{
    fmm_tally t = {0, 0};
    fmm_frame f;
    if (fmm_pair_visit(&g_fmm, a, b, &f, &t) != FMM_PAIR_DONE) {
        const int pairs = fmm_frame_pairs(&f);
        for (int k = 0; k < pairs; k++) {
            int ca, cb;
            fmm_frame_pair(&f, k, &ca, &cb);
            if (fmm_pair_bodies(&g_fmm, ca, cb) >= g_fmm.task_min) {
#pragma gtap task
                dtt(ca, cb);
            } else {
                fmm_walk(&g_fmm, ca, cb, &t);
            }
        }
    }
    fmm_tally_flush(&g_fmm, &t);
}

__global__ void dtt_kernel()
{
#pragma gtap entry
    dtt(0, 0);
}

#else

/* What part() does with its pair: walked or applied (kind FMM_PAIR_DONE), or split. Returned
 * by value: the task keeps no address of its own locals across a taskwait. */
struct fmm_split {
    int kind, first, cnt;
};

static __device__ __forceinline__ fmm_split fmm_part_visit(int a, int b)
{
    fmm_tally t = {0, 0};
    fmm_frame f;
    fmm_split s = {FMM_PAIR_DONE, 0, 0};
    if (fmm_pair_bodies(&g_fmm, a, b) < g_fmm.task_min)
        fmm_walk(&g_fmm, a, b, &t);
    else if ((s.kind = fmm_pair_visit(&g_fmm, a, b, &f, &t)) != FMM_PAIR_DONE)
        s.first = f.first, s.cnt = f.cnt;
    fmm_tally_flush(&g_fmm, &t);
    return s;
}

/* rows == 0: pair (a, b), while this task owns a's subtree (no other task writes its targets).
 * rows > 0: the row of pairs (a, b + j), j < rows, one after the other (they share the target a). */
#pragma gtap function
__device__ void part(int a, int b, int rows)
{
    if (rows > 0) {
        for (int j = 0; j < rows; j++) {
#pragma gtap task
            part(a, b + j, 0);
#pragma gtap taskwait
        }
        return;
    }
    fmm_split s = fmm_part_visit(a, b);
    if (s.kind == FMM_SPLIT_A) { /* disjoint targets: all at once */
        for (int k = 0; k < s.cnt; k++) {
#pragma gtap task
            part(s.first + k, b, 0);
        }
#pragma gtap taskwait
    } else if (s.kind == FMM_SPLIT_B) { /* every child pair writes a: one after the other */
        for (int k = 0; k < s.cnt; k++) {
#pragma gtap task
            part(a, s.first + k, 0);
#pragma gtap taskwait
        }
    } else if (s.kind == FMM_SPLIT_SELF) { /* a row per child target, the rows at once */
        for (int i = 0; i < s.cnt; i++) {
#pragma gtap task
            part(s.first + i, s.first, s.cnt);
        }
#pragma gtap taskwait
    }
}

__global__ void dtt_kernel()
{
#pragma gtap entry
    part(0, 0, 0);
}

#endif

int main(int argc, char **argv)
{
    static bool initialized = false;
    return fmm_main(
        argc, argv, FMM_APP, APP_GTAP_IMPL, FMM_FIXED_MODE,
        [&](app_cli *c, const fmm_ctx &ctx) {
            if (!initialized && app_gtap_init(c))
                return 1;
            initialized = true;
            return cudaMemcpyToSymbol(g_fmm, &ctx, sizeof ctx) == cudaSuccess ? 0 : 1;
        },
        [] {
            cudaError_t e = gtap_launch(dtt_kernel);
            cudaError_t s = gtap_synchronize();
            return e != cudaSuccess ? e : s;
        },
        [](app_cli *c, app_stats *stats, auto reset) {
            return app_gtap_run(c, stats, reset, [] { return gtap_launch(dtt_kernel); });
        });
}
