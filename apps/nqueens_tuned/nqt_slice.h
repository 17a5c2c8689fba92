/* nqt_slice.h - how a checkpointed distributed run of nqueens_tuned cuts its to-do list of
 * subtrees into launches ("slices"; README.md, "Across ranks"): a small first slice, then
 * each slice sized from the one before to take about the checkpoint interval. Plain C, no
 * clock and no I/O: the caller passes the length of each slice as every rank sees it (rank
 * 0's, shared by an allreduce), so every rank computes the same slices and makes the same
 * launches (docs/dist.md: every rank makes the same sequence of launches). The arithmetic is
 * one IEEE multiply and divide per slice, rounded the same way on every rank.
 */
#ifndef NQT_SLICE_H
#define NQT_SLICE_H

/* Subtrees of the first slice: a few, so that the first checkpoint comes soon and the first
 * measurement of the rate is cheap; later slices grow from it. */
#define NQT_SLICE_FIRST 8
/* A slice has at most NQT_SLICE_STEP times and at least 1 / NQT_SLICE_STEP of the subtrees
 * of the one before: one short or long slice (a launch's fixed cost, a cluster of large
 * subtrees) moves the next one by a bounded step. */
#define NQT_SLICE_STEP 4

typedef struct nqt_slicer {
    long long todo;    /* entries of the to-do list */
    long long next;    /* the first entry of the next slice */
    long long size;    /* entries the next slice aims at, >= 1 */
    long long stop_at; /* no slice crosses this entry (--test-kill-after); <= 0: none */
    double target_s;   /* the length a slice aims at, seconds, > 0 */
} nqt_slicer;

/* Starts cutting a list of todo entries into slices of about target_s seconds; a slice ends
 * at entry stop_at when it would cross it (<= 0 or >= todo: nowhere). Any thread. */
static inline void nqt_slicer_init(nqt_slicer *s, long long todo, double target_s, long long stop_at)
{
    s->todo = todo;
    s->next = 0;
    s->size = NQT_SLICE_FIRST;
    s->stop_at = stop_at;
    s->target_s = target_s;
}

/* The next slice, entries [*lo_p, *hi_p) of the list: returns 1, or 0 when the list is done
 * (outputs untouched). */
static inline int nqt_slicer_next(const nqt_slicer *s, long long *lo_p, long long *hi_p)
{
    if (s->next >= s->todo)
        return 0;
    long long hi = s->todo - s->next > s->size ? s->next + s->size : s->todo;
    if (s->stop_at > s->next && hi > s->stop_at)
        hi = s->stop_at;
    *lo_p = s->next;
    *hi_p = hi;
    return 1;
}

/* The slice [lo, hi) that nqt_slicer_next gave has run in elapsed_s seconds: the next one
 * starts at hi and aims at target_s at the rate this one ran, within NQT_SLICE_STEP times
 * (or 1 / NQT_SLICE_STEP of) this one's size. */
static inline void nqt_slicer_ran(nqt_slicer *s, long long lo, long long hi, double elapsed_s)
{
    const long long ran = hi - lo;
    const long long most = ran * NQT_SLICE_STEP, least = ran / NQT_SLICE_STEP;
    long long size = most;
    if (elapsed_s * NQT_SLICE_STEP > s->target_s) /* else the rate would ask for more: most */
        size = (long long)((double)ran * s->target_s / elapsed_s);
    s->size = size < least ? least : size > most ? most : size;
    if (s->size < 1)
        s->size = 1;
    s->next = hi;
}

#endif /* NQT_SLICE_H */
