/* taskbench_mpi.c - Task Bench's graphs on MPI, one rank per core (the CPU baseline of the
 * distributed kind): rank r owns the points [r W / R, (r + 1) W / R) of every step. A step is
 * bulk-synchronous per rank pair: the rank receives, from each rank that owns inputs of its
 * points, one message with those outputs (in point order), runs its points, then sends each
 * rank that owns a dependent of one of them one message with those outputs. Both sides derive
 * the same point lists, the sender from the dependents of its points and the receiver from
 * the dependencies of its own (they mirror each other: taskbench_graph.c checks it). Graphs of
 * one run (-and) run one after the other. Same flags, output and checks as the other
 * implementations; workers = ranks.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "app_cli.h"
#include "taskbench_graph.h"
#include "taskbench_kernel.h"
#include "taskbench_params.h"

/* MPI calls that fail end the job: a half-finished exchange cannot be recovered. */
#define MPI_CHECK(call)                                                                                            \
    do {                                                                                                           \
        int mpi_rc_ = (call);                                                                                      \
        if (mpi_rc_ != MPI_SUCCESS) {                                                                              \
            fprintf(stderr, "taskbench_mpi: %s failed (%d) at %s:%d\n", #call, mpi_rc_, __FILE__, __LINE__);      \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                          \
        }                                                                                                          \
    } while (0)

typedef struct mpi_graph {
    tb_graph g;
    tb_store s;              /* two fields of all W points: own outputs and received copies */
    unsigned long long *ran; /* tasks run per point (this rank's points) */
    long first, last;        /* this rank's points [first, last) */
} mpi_graph;

/* A list of points for each rank (counting-sorted by rank, in point order within one). */
typedef struct rank_lists {
    long *point;   /* all lists, rank after rank */
    long *count;   /* per rank */
    long *start;   /* per rank: offset into point[] */
    long n, cap;
} rank_lists;

typedef struct mpi_run {
    int rank, size;
    const tb_app *app;
    mpi_graph graphs[TB_MAX_GRAPHS];
    long *mark;    /* per point, then per rank: the stamp of the last list that took it */
    long stamp;
    long *pair_rank, *pair_point, pairs_cap; /* (destination, point) before sorting */
    rank_lists recv, send;
    long long *recv_buf, *send_buf;
    long recv_words, send_words;
    MPI_Request *recv_req, *send_req;
    int nsend;
    long faults;
    tb_fault first_fault;
    double sink;
} mpi_run;

static long owner(const mpi_run *x, const tb_graph *g, long p)
{
    return ((p + 1) * x->size - 1) / g->width;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "taskbench_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return q;
}

/* Collects the (rank, point) pairs into per-rank lists, keeping the point order of each rank. */
static void sort_pairs(mpi_run *x, rank_lists *l, long npairs)
{
    for (int r = 0; r < x->size; r++)
        l->count[r] = 0;
    for (long i = 0; i < npairs; i++)
        l->count[x->pair_rank[i]]++;
    for (int r = 0, off = 0; r < x->size; r++) {
        l->start[r] = off;
        off += l->count[r];
    }
    if (npairs > l->cap) {
        l->cap = npairs;
        l->point = (long *)xrealloc(l->point, (size_t)l->cap * sizeof(long));
    }
    for (int r = 0; r < x->size; r++)
        l->count[r] = 0;
    for (long i = 0; i < npairs; i++) {
        const long r = x->pair_rank[i];
        l->point[l->start[r] + l->count[r]++] = x->pair_point[i];
    }
    l->n = npairs;
}

static void add_pair(mpi_run *x, long *npairs, long r, long p)
{
    if (*npairs == x->pairs_cap) {
        x->pairs_cap = x->pairs_cap ? 2 * x->pairs_cap : 1024;
        x->pair_rank = (long *)xrealloc(x->pair_rank, (size_t)x->pairs_cap * sizeof(long));
        x->pair_point = (long *)xrealloc(x->pair_point, (size_t)x->pairs_cap * sizeof(long));
    }
    x->pair_rank[*npairs] = r;
    x->pair_point[*npairs] = p;
    ++*npairs;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Receives the outputs of step t - 1 that this rank's points of step t read from other ranks
 * and copies them into their slots. */
static void receive_inputs(mpi_run *x, mpi_graph *mg, long t)
{
    const tb_graph *g = &mg->g;
    const long lo = tb_offset_at(g, t - 1), hi = lo + tb_width_at(g, t - 1), dset = tb_dset_at(g, t);
    const long sw = mg->s.slot_words;
    long npairs = 0;
    x->stamp++;
    for (long q = tb_maxl(mg->first, tb_offset_at(g, t)); q < tb_minl(mg->last, tb_offset_at(g, t) + tb_width_at(g, t));
         q++) {
        tb_deps it;
        tb_span s;
        tb_deps_init(&it, g, dset, q, 0);
        while (tb_deps_next(&it, &s))
            for (long d = tb_maxl(s.first, lo); d <= tb_minl(s.last, hi - 1); d++)
                if ((d < mg->first || d >= mg->last) && x->mark[d] != x->stamp) {
                    x->mark[d] = x->stamp;
                    add_pair(x, &npairs, 0, d); /* rank filled in after sorting */
                }
    }
    qsort(x->pair_point, (size_t)npairs, sizeof(long), cmp_long);
    for (long i = 0; i < npairs; i++)
        x->pair_rank[i] = owner(x, g, x->pair_point[i]);
    sort_pairs(x, &x->recv, npairs);
    int nreq = 0;
    for (int r = 0; r < x->size; r++)
        if (x->recv.count[r])
            MPI_CHECK(MPI_Irecv(x->recv_buf + x->recv.start[r] * sw, (int)(x->recv.count[r] * sw), MPI_LONG_LONG, r,
                                (int)(t % 32768), MPI_COMM_WORLD, &x->recv_req[nreq++]));
    MPI_CHECK(MPI_Waitall(nreq, x->recv_req, MPI_STATUSES_IGNORE));
    for (long i = 0; i < npairs; i++)
        memcpy(tb_slot(&mg->s, g, t - 1, x->recv.point[i]), x->recv_buf + i * sw, (size_t)sw * sizeof(long long));
}

/* Sends the outputs of this rank's points of step t to the ranks whose points of step t + 1
 * read them (one message per rank, tagged with the reading step). */
static void send_outputs(mpi_run *x, mpi_graph *mg, long t)
{
    const tb_graph *g = &mg->g;
    const long lo = tb_offset_at(g, t + 1), hi = lo + tb_width_at(g, t + 1), dset = tb_dset_at(g, t + 1);
    const long sw = mg->s.slot_words;
    long npairs = 0;
    MPI_CHECK(MPI_Waitall(x->nsend, x->send_req, MPI_STATUSES_IGNORE)); /* send_buf is free again */
    x->nsend = 0;
    for (long p = tb_maxl(mg->first, tb_offset_at(g, t)); p < tb_minl(mg->last, tb_offset_at(g, t) + tb_width_at(g, t));
         p++) {
        tb_deps it;
        tb_span s;
        x->stamp++; /* mark[r]: rank r already gets p */
        tb_deps_init(&it, g, dset, p, 1);
        while (tb_deps_next(&it, &s))
            for (long q = tb_maxl(s.first, lo); q <= tb_minl(s.last, hi - 1); q++) {
                const long r = owner(x, g, q);
                if (r != x->rank && x->mark[g->width + r] != x->stamp) {
                    x->mark[g->width + r] = x->stamp;
                    add_pair(x, &npairs, r, p);
                }
            }
    }
    sort_pairs(x, &x->send, npairs);
    if (npairs * sw > x->send_words) { /* a point may go to several ranks */
        x->send_words = npairs * sw;
        x->send_buf = (long long *)xrealloc(x->send_buf, (size_t)x->send_words * sizeof(long long));
    }
    for (long i = 0; i < npairs; i++)
        memcpy(x->send_buf + i * sw, tb_slot(&mg->s, g, t, x->send.point[i]), (size_t)sw * sizeof(long long));
    for (int r = 0; r < x->size; r++)
        if (x->send.count[r])
            MPI_CHECK(MPI_Isend(x->send_buf + x->send.start[r] * sw, (int)(x->send.count[r] * sw), MPI_LONG_LONG, r,
                                (int)((t + 1) % 32768), MPI_COMM_WORLD, &x->send_req[x->nsend++]));
}

static void run_graph(mpi_run *x, mpi_graph *mg)
{
    const tb_graph *g = &mg->g;
    for (long t = 0; t < g->steps; t++) {
        if (t > 0)
            receive_inputs(x, mg, t);
        const long lo = tb_maxl(mg->first, tb_offset_at(g, t)),
                   hi = tb_minl(mg->last, tb_offset_at(g, t) + tb_width_at(g, t));
        for (long p = lo; p < hi; p++) {
            tb_fault f;
            double sink = 0;
            if (tb_task_run(g, &mg->s, t, p, 0, 1, &f, &sink) && x->faults++ == 0)
                x->first_fault = f;
            if (sink == TB_NEVER)
                x->sink = sink;
            mg->ran[p]++;
        }
        if (t + 1 < g->steps)
            send_outputs(x, mg, t);
    }
    MPI_CHECK(MPI_Waitall(x->nsend, x->send_req, MPI_STATUSES_IGNORE));
    x->nsend = 0;
}

/* Storage of graph k on this rank. */
static void setup_graph(mpi_run *x, const tb_app *app, int k)
{
    mpi_graph *mg = &x->graphs[k];
    const tb_graph *g = &app->graphs[k];
    mg->g = *g;
    mg->first = (long)x->rank * g->width / x->size;
    mg->last = (long)(x->rank + 1) * g->width / x->size;
    mg->s.fields = 2; /* a step reads only the previous one, and ranks move step by step */
    mg->s.slot_words = (g->output_bytes + TB_RECORD_BYTES - 1) / TB_RECORD_BYTES * 2;
    mg->s.scratch_words = g->scratch_bytes / 8;
    mg->s.fault_step = k == 0 ? app->fault_step : -1;
    mg->s.fault_point = k == 0 ? app->fault_point : -1;
    mg->s.out = (long long *)xrealloc(NULL, (size_t)(2 * g->width * mg->s.slot_words) * sizeof(long long));
    mg->ran = (unsigned long long *)xrealloc(NULL, (size_t)g->width * sizeof *mg->ran);
    memset(mg->ran, 0, (size_t)g->width * sizeof *mg->ran);
    if (g->scratch_bytes) { /* only this rank's points use theirs */
        const size_t n = (size_t)(g->width * mg->s.scratch_words);
        mg->s.scratch = (unsigned long long *)xrealloc(NULL, n * sizeof(long long));
        for (size_t i = 0; i < n; i++)
            mg->s.scratch[i] = TB_SCRATCH_FILL;
    }
    if (g->width * mg->s.slot_words > x->recv_words) { /* a step receives at most every point once */
        x->recv_words = g->width * mg->s.slot_words;
        x->recv_buf = (long long *)xrealloc(x->recv_buf, (size_t)x->recv_words * sizeof(long long));
    }
}

int main(int argc, char **argv)
{
    static app_stats stats;
    static tb_app app;
    static mpi_run x;
    app_cli c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &x.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &x.size);
    app_cli_init(&c, "taskbench", "mpi", 0);
    int rc = tb_app_parse_on_rank(x.rank, &app, &c, argc, argv, 0);
    if (rc) {
        MPI_Finalize();
        return rc < 0 ? 0 : rc;
    }
    x.app = &app;
    for (int k = 0; k < app.ngraphs; k++)
        setup_graph(&x, &app, k);
    x.recv.count = (long *)xrealloc(NULL, (size_t)x.size * sizeof(long));
    x.recv.start = (long *)xrealloc(NULL, (size_t)x.size * sizeof(long));
    x.send.count = (long *)xrealloc(NULL, (size_t)x.size * sizeof(long));
    x.send.start = (long *)xrealloc(NULL, (size_t)x.size * sizeof(long));
    x.recv_req = (MPI_Request *)xrealloc(NULL, (size_t)x.size * sizeof(MPI_Request));
    x.send_req = (MPI_Request *)xrealloc(NULL, (size_t)x.size * sizeof(MPI_Request));
    long widest = 0;
    for (int k = 0; k < app.ngraphs; k++)
        widest = tb_maxl(widest, app.graphs[k].width);
    x.mark = (long *)xrealloc(NULL, (size_t)(widest + x.size) * sizeof(long)); /* points, then ranks */
    for (long i = 0; i < widest + x.size; i++)
        x.mark[i] = -1;
    c.grid = c.block = c.queues = 0;
    c.workers = x.size;
    tb_app_params(&c, &app);
    app_param(&c, "ranks=%d", x.size);
    if (x.rank == 0) {
        app_banner(&c);
        tb_app_display(&app, c.out);
        fflush(c.out);
    }
    for (int r = 0; r < c.warmup + c.repeat; r++) {
        for (int k = 0; k < app.ngraphs; k++) /* outputs read "never written" (-1, -1) */
            memset(x.graphs[k].s.out, 0xff,
                   (size_t)(2 * x.graphs[k].g.width * x.graphs[k].s.slot_words) * sizeof(long long));
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        for (int k = 0; k < app.ngraphs; k++)
            run_graph(&x, &x.graphs[k]);
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double ms = (MPI_Wtime() - t0) * 1e3;
        if (c.verbose && x.rank == 0)
            fprintf(c.out, "run %d%s ms %.4f\n", r, r < c.warmup ? " (warm-up)" : "", ms);
        if (r >= c.warmup)
            app_stats_add(&stats, ms, ms);
    }
    /* The first rank that saw a wrong input names it; every rank checks its own points. */
    long bad = x.faults, total_bad = 0;
    int reporter = x.faults ? x.rank : x.size, first_reporter;
    MPI_CHECK(MPI_Allreduce(&reporter, &first_reporter, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (x.rank == first_reporter) {
        tb_fault_print(&x.first_fault, app.prog, stderr);
        fflush(stderr);
    }
    for (int k = 0; k < app.ngraphs && c.check; k++) {
        const mpi_graph *mg = &x.graphs[k];
        bad += tb_check_after_run(&mg->g, tb_slot(&mg->s, &mg->g, mg->g.steps - 1, 0), mg->s.slot_words, mg->ran,
                                  c.warmup + c.repeat, mg->first, mg->last, app.prog, stderr);
    }
    MPI_CHECK(MPI_Allreduce(&bad, &total_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    rc = total_bad ? 1 : 0;
    if (x.rank == 0) {
        if (total_bad)
            fprintf(stderr, "%s: %ld fault(s) on %d rank(s)\n", app.prog, total_bad, x.size);
        tb_app_report_timing(&app, app_quantile(stats.kernel_ms, stats.count, 0.5) / 1e3, c.out);
        char answer[96];
        snprintf(answer, sizeof answer, "tasks=%lld;deps=%lld", c.n, tb_app_total_deps(&app));
        rc = app_report(&c, &stats, total_bad ? APP_CHECK_FAIL : c.check ? APP_CHECK_PASS : APP_CHECK_SKIPPED,
                        answer);
    }
    MPI_Finalize();
    return rc;
}
