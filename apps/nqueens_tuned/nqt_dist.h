/* nqt_dist.h - the distributed side of nqueens_tuned (nqueens_tuned.cu includes it when built
 * with GTAP_DISTRIBUTED; README.md, "Across ranks"): rank 0's verdict on the run's files for
 * every rank, the checkpointed run as a sequence of launches over slices of the to-do list,
 * the sum of the ranks' counts, and the per-rank balance (GTAP_STATS=1).
 *
 * Why slices. A subtree's tasks migrate and finish on several ranks, so while a launch runs
 * no rank knows when a subtree is done. When a launch returns, every rank's gtap_synchronize
 * has seen the whole job's task graph end (docs/dist.md), so every subtree the launch
 * started is done and its count is the sum of the ranks' counts of it. A checkpointed run
 * therefore launches the to-do list (the same on every rank) a slice at a time, sums the
 * slice's counts over the ranks with one allreduce, and marks its subtrees done on every
 * rank (state word = count + 1, as the single-process program's tasks publish them); rank 0
 * writes the checkpoint file after each slice. A kill loses the slice in progress.
 *
 * Slice sizes come from nqt_slice.h, fed with rank 0's time for each slice, which travels in
 * the same allreduce: every rank makes the same launches.
 *
 * Every function here is collective (every rank calls it, in the same order, from the main
 * thread, between launches) unless it says otherwise. Include after gtap_dist.h,
 * gtap_app.cuh, nqt_checkpoint.h and nqt_search.h.
 */
#ifndef NQT_DIST_H
#define NQT_DIST_H

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "nqt_slice.h"

/* Collective: rank 0's verdict on the run's files (status 0, 1 or 2 of nqt_setup in
 * nqueens_tuned.cu), with the checkpoint depth, the number of subtrees the resumed file holds
 * and rank 0's GTAP_STATS, reaches every rank. Returns rank 0's status (1 when the broadcast
 * fails); the outputs are rank 0's values on every rank. */
static inline int nqt_dist_share_setup(int status, int *depth, long long *done, int *stats)
{
    long long w[4] = {status, *depth, *done, *stats};
    if (gtap_replicate(w, w, sizeof w) != 0)
        return 1;
    *depth = (int)w[1];
    *done = w[2];
    *stats = (int)w[3];
    return (int)w[0];
}

/* A checkpointed run across ranks. The caller sets the fields down to `out` (the same on
 * every rank but buf and out, rank 0's log) and allocates `sums`; the rest start at zero. */
typedef struct nqt_dist_job {
    const char *path;                  /* the checkpoint file; rank 0 writes it */
    int n, depth, rank, ranks;
    int verbose;                       /* --verbose: rank 0 prints a line per slice */
    int stats;                         /* rank 0's GTAP_STATS: gather per-rank counters per slice */
    long long subtrees, todo_count;
    long long resumed_done;            /* subtrees finished before this run */
    long long kill_after;              /* --test-kill-after; 0: none */
    double interval_s;                 /* --checkpoint-s: what a slice aims at */
    const int *todo;                   /* the to-do list, subtree indices increasing */
    const nqt_prefix *prefix;
    unsigned long long *state;         /* host, per subtree: 0, or count + 1 once done */
    const unsigned long long *d_count; /* device: this rank's count per subtree */
    unsigned long long *buf;           /* host, subtrees + 1 words */
    FILE *out;
    long long slices, writes;          /* slices run; checkpoints rank 0 wrote after them */
    int write_failing;                 /* rank 0: the last write failed (said once) */
    int dying;                         /* rank 0: --test-kill-after's SIGKILL is on its way */
    unsigned long long solutions;      /* weighted solutions of the tasks this rank ran */
    gtap_dist_stats *sums;             /* rank 0 with stats: per rank, summed over the slices */
} nqt_dist_job;

/* Rank 0 only: --test-kill-after's end, once a written checkpoint holds `saved` >=
 * kill_after subtrees: the process dies by SIGKILL from a thread of its own while this one
 * goes on into the next launch (or the end), where the other ranks then wait for it until
 * the launcher ends the job (docs/dist.md F2). */
static inline void nqt_dist_die(nqt_dist_job *j, long long saved)
{
    assert(j->rank == 0 && !j->dying);
    j->dying = 1;
    nqt_ckpt_test_kill_soon(j->kill_after, saved);
}

/* Rank 0 only: writes the checkpoint of the subtrees done so far. A failed write is said once
 * and retried after the next slice (with --test-kill-after it aborts: the test waits for it). */
static inline void nqt_dist_save(nqt_dist_job *j)
{
    assert(j->rank == 0 && !j->dying); /* nothing is written once the kill is on its way */
    char err[512];
    const long long saved = nqt_ckpt_write(j->path, j->n, j->depth, j->subtrees, j->state, err, sizeof err);
    if (saved < 0) {
        if (j->kill_after) {
            fprintf(stderr, "nqueens_tuned: checkpoint: %s\n", err);
            abort();
        }
        if (!j->write_failing)
            fprintf(stderr, "nqueens_tuned: checkpoint: %s (retrying after every slice)\n", err);
        j->write_failing = 1;
        return;
    }
    j->write_failing = 0;
    j->writes++;
    if (j->kill_after && saved >= j->kill_after)
        nqt_dist_die(j, saved);
}

/* Collective, after the launch of the list's entries [lo, hi) returned on every rank: sums
 * the ranks' counts of the slice's subtrees and marks them done on every rank (state word =
 * count + 1), adds this rank's part to j->solutions, and stores in *elapsed_s rank 0's
 * my_elapsed_s (its launch to gtap_synchronize), the same number on every rank. With
 * j->stats, gathers the runtime's per-rank counters of the slice into j->sums on rank 0.
 * Returns 0, or 1 after a message. */
static inline int nqt_dist_slice_done(nqt_dist_job *j, long long lo, long long hi, double my_elapsed_s,
                                      double *elapsed_s)
{
    const long long m = hi - lo, first = j->todo[lo], span = j->todo[hi - 1] - first + 1;
    unsigned long long *b = j->buf;
    if (cudaMemcpy(b, j->d_count + first, (size_t)span * sizeof *b, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "nqueens_tuned: rank %d: reading the counts of a slice failed\n", j->rank);
        return 1;
    }
    for (long long i = 0; i < m; i++) { /* in place: todo[lo + i] - first >= i */
        const int sub = j->todo[lo + i];
        b[i] = b[sub - first];
        j->solutions += j->prefix[sub].weight * b[i];
    }
    b[m] = j->rank == 0 ? (unsigned long long)(my_elapsed_s * 1e9) : 0;
    if (gtap_dist_allreduce_u64((uint64_t *)b, (int)(m + 1), GTAP_DIST_SUM) != 0)
        return 1;
    for (long long i = 0; i < m; i++)
        j->state[j->todo[lo + i]] = b[i] + 1; /* no other thread reads them: plain stores */
    *elapsed_s = (double)b[m] / 1e9;
    j->slices++;
    if (!j->stats)
        return 0;
    gtap_dist_stats *all = NULL;
    if (j->rank == 0 && !(all = (gtap_dist_stats *)calloc((size_t)j->ranks, sizeof *all)))
        return 1;
    int rc = gtap_dist_stats_gather(all) != 0;
    for (int r = 0; all && r < j->ranks && !rc; r++) {
        gtap_dist_stats *s = &j->sums[r];
        s->segments += all[r].segments;
        s->tasks_in += all[r].tasks_in;
        s->tasks_out += all[r].tasks_out;
        s->steals_succeeded += all[r].steals_succeeded;
        s->idle_ns += all[r].idle_ns;
        s->run_ns += all[r].run_ns;
    }
    free(all);
    return rc;
}

/* Collective: the checkpointed run. Launches the list slice by slice through launch(lo, hi)
 * (gtap_launch of the list's entries [lo, hi)), records `end` after each launch
 * (app_gtap_run's form of a run of several launches), marks each slice's subtrees done on
 * every rank, and on rank 0 writes the checkpoint after every slice but the last (the caller
 * writes the final one; --test-kill-after: also after the last, then dies). Returns
 * cudaSuccess or the first error. */
template <class Launch>
static cudaError_t nqt_dist_slices(nqt_dist_job *j, cudaEvent_t end, Launch launch)
{
    nqt_slicer s;
    long long lo, hi;
    nqt_slicer_init(&s, j->todo_count, j->interval_s,
                    j->kill_after > j->resumed_done ? j->kill_after - j->resumed_done : 0);
    if (j->rank == 0 && j->kill_after && j->resumed_done >= j->kill_after)
        nqt_dist_die(j, j->resumed_done); /* the file written at the start holds them */
    cudaEventRecord(end, 0); /* a run with nothing to do has no launch to record it after */
    while (nqt_slicer_next(&s, &lo, &hi)) {
        const double t0 = app_now_ms();
        cudaError_t e = launch(lo, hi);
        cudaEventRecord(end, 0);
        if (e == cudaSuccess)
            e = gtap_synchronize();
        if (e != cudaSuccess)
            return e;
        double elapsed_s;
        if (nqt_dist_slice_done(j, lo, hi, (app_now_ms() - t0) / 1e3, &elapsed_s) != 0)
            return cudaErrorUnknown;
        nqt_slicer_ran(&s, lo, hi, elapsed_s);
        if (j->verbose && j->rank == 0)
            fprintf(j->out, "slice %lld: entries %lld..%lld of %lld, %.6f s; the next aims at %lld\n", j->slices, lo,
                    hi, j->todo_count, elapsed_s, s.size);
        const int kill_due = j->kill_after && j->resumed_done + hi >= j->kill_after;
        if (j->rank == 0 && !j->dying && (hi < j->todo_count || kill_due))
            nqt_dist_save(j);
    }
    return cudaSuccess;
}

/* Collective, after one launch of the whole list (a run without checkpoints): a subtree's
 * count is the sum of the ranks' counts (its tasks ran on several ranks). Stores count + 1
 * in every subtree's state word and this rank's weighted solutions in *mine_p. Returns 0, or 1
 * after a message. */
static inline int nqt_dist_sum_counts(const unsigned long long *d_count, const nqt_prefix *prefix,
                                      long long subtrees, unsigned long long *state, unsigned long long *mine_p)
{
    const size_t words = (size_t)(subtrees ? subtrees : 1);
    unsigned long long *counts = (unsigned long long *)malloc(words * sizeof *counts), mine = 0;
    if (!counts || cudaMemcpy(counts, d_count, words * sizeof *counts, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(counts);
        fprintf(stderr, "nqueens_tuned: rank %d: reading the subtree counts failed\n", gtap_dist_rank());
        return 1;
    }
    for (long long i = 0; i < subtrees; i++)
        mine += prefix[i].weight * counts[i];
    if (gtap_dist_allreduce_u64((uint64_t *)counts, (int)words, GTAP_DIST_SUM) != 0) {
        free(counts);
        return 1;
    }
    for (long long i = 0; i < subtrees; i++)
        state[i] = counts[i] + 1;
    free(counts);
    *mine_p = mine;
    return 0;
}

/* Collective; call only where rank 0's GTAP_STATS is on: rank 0 prints one line per rank,
 * the solutions the rank's tasks found and their share (how evenly the ranks shared the
 * search), and for a run of slices (j not NULL) the runtime's counters of the rank summed
 * over the slices (docs/dist.md, "Statistics": each slice's own tables come from the
 * runtime). Returns 0 or 1. */
static inline int nqt_dist_balance(FILE *out, unsigned long long mine, const nqt_dist_job *j)
{
    const int rank = gtap_dist_rank(), ranks = gtap_dist_size();
    unsigned long long *v = (unsigned long long *)calloc((size_t)ranks, sizeof *v), total = 0;
    if (!v)
        return 1;
    v[rank] = mine;
    if (gtap_dist_allreduce_u64((uint64_t *)v, ranks, GTAP_DIST_SUM) != 0) {
        free(v);
        return 1;
    }
    for (int r = 0; r < ranks; r++)
        total += v[r];
    if (rank == 0) {
        fprintf(out, "balance: rank solutions share%s\n",
                j ? " segments tasks_in tasks_out steals_ok idle_ms run_ms (summed over the slices)" : "");
        for (int r = 0; r < ranks; r++) {
            fprintf(out, "balance: %4d %llu %.1f%%", r, v[r], total ? 100.0 * (double)v[r] / (double)total : 0.0);
            if (j) {
                const gtap_dist_stats *s = &j->sums[r];
                fprintf(out, " %llu %llu %llu %llu %.1f %.1f", (unsigned long long)s->segments,
                        (unsigned long long)s->tasks_in, (unsigned long long)s->tasks_out,
                        (unsigned long long)s->steals_succeeded, s->idle_ns / 1e6, s->run_ns / 1e6);
            }
            fprintf(out, "\n");
        }
    }
    free(v);
    return 0;
}

#endif /* NQT_DIST_H */
