/* app_cli.h - the command line, timing statistics and result line shared by every
 * application and its CPU baselines (C11 and CUDA C++; header-only).
 *
 * Every program takes the same options:
 *   --n N          problem size (fib n, board size, elements, tree depth, vertices, rows);
 *                  accepts 1e7, 10^7 and 2^20
 *   --grid G       persistent-kernel blocks (GPU; 0 = the runtime's default)
 *   --block B      threads per block (GPU; block-level programs: must equal GTAP_BLOCK_SIZE)
 *   --repeat R     timed runs after --warmup W untimed ones (defaults 5 and 1); reported
 *                  times are the median of the R runs
 *   --check / --no-check   compare the answer with a CPU reference (default: check)
 *   --csv          print the CSV row (APP_CSV_HEADER) on stdout, everything else on stderr
 *   --csv-header   print the CSV header and exit
 *   --max-tasks M, --queues Q   GPU runtime capacity per worker / EPAQ queues (0 = default)
 *   --threads T    OpenMP threads (0 = the OpenMP default)
 * plus the per-program options it declares (`--cutoff 7`, `--mem 256`, ...).
 *
 * Output: a line naming the run, `answer: ...`, `check: PASS|FAIL|skipped`, then
 * `Execution time: X ms` (median kernel time: CUDA events around the launch, or the timed
 * region of a CPU baseline - the line the paper's scripts parse), `Wall time: X ms`
 * (launch + synchronize), and the individual runs.
 * Exit status: 0 success, 1 wrong answer or runtime error, 2 usage error, 77 no GPU.
 */
#ifndef APP_CLI_H
#define APP_CLI_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APP_MAX_OPTS 24
#define APP_MAX_RUNS 1000

#define APP_CSV_HEADER                                                                             \
    "app,impl,n,params,grid,block,workers,queues,repeat,kernel_ms,wall_ms,kernel_min_ms,"          \
    "kernel_q1_ms,kernel_q3_ms,check,answer"

typedef enum { APP_CHECK_SKIPPED = 0, APP_CHECK_PASS = 1, APP_CHECK_FAIL = 2 } app_check_t;

typedef struct app_cli {
    const char *app;  /* program name in the CSV, e.g. "fib" */
    const char *impl; /* implementation: gtap-thread, gtap-block, gtap-thread-gq, omp, seq, ... */
    long long n;
    int grid, block, repeat, warmup, check, csv, verbose, threads, queues;
    long long max_tasks;
    int workers; /* filled by the program: total GPU threads / blocks, or CPU threads */
    int nopts;
    const char *key[APP_MAX_OPTS], *val[APP_MAX_OPTS];
    char params[256]; /* program parameters for the CSV, "k=v;k=v" */
    FILE *out;        /* human-readable output: stdout, or stderr with --csv */
} app_cli;

typedef struct app_stats {
    int count;
    double kernel_ms[APP_MAX_RUNS], wall_ms[APP_MAX_RUNS];
} app_stats;

/* Parses "30", "1e7", "10^7", "2^20" (exact powers; no overflow checks beyond 2^62). */
static inline int app_parse_ll(const char *s, long long *v)
{
    char *end = NULL;
    const char *caret = strchr(s, '^');
    if (caret) {
        long long b = strtoll(s, &end, 10), e;
        if (end != caret)
            return -1;
        e = strtoll(caret + 1, &end, 10);
        if (*end || e < 0 || e > 62)
            return -1;
        *v = 1;
        while (e--)
            *v *= b;
        return 0;
    }
    if (strpbrk(s, "eE.")) {
        double d = strtod(s, &end);
        if (*end || d != floor(d) || fabs(d) > 4.6e18)
            return -1;
        *v = (long long)d;
        return 0;
    }
    *v = strtoll(s, &end, 0);
    return *end || end == s ? -1 : 0;
}

static inline void app_cli_init(app_cli *c, const char *app, const char *impl, long long default_n)
{
    memset(c, 0, sizeof *c);
    c->app = app;
    c->impl = impl;
    c->n = default_n;
    c->repeat = 5;
    c->warmup = 1;
    c->check = 1;
    c->out = stdout;
}

static inline int app_usage(const app_cli *c, const char *extra)
{
    fprintf(stderr,
            "usage: %s [--n N] [--grid G] [--block B] [--repeat R] [--warmup W] [--check|--no-check]\n"
            "       [--csv] [--csv-header] [--max-tasks M] [--queues Q] [--threads T] [--verbose]%s%s\n",
            c->app, extra && *extra ? "\n       " : "", extra ? extra : "");
    return 2;
}

/* Parses argv. `keys` lists the program's own options (NULL-terminated); they take a value.
 * Returns 0, or 2 after printing the usage (unknown option, bad number), or -1 after
 * printing the CSV header (--csv-header: the caller exits 0). */
static inline int app_cli_parse(app_cli *c, int argc, char **argv, const char *const *keys, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        char name[64];
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "%s: unexpected argument '%s'\n", c->app, a);
            return app_usage(c, usage);
        }
        a += 2;
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name)
            return app_usage(c, usage);
        memcpy(name, a, len);
        name[len] = 0;
        if (eq)
            v = eq + 1;
        /* flags */
        if (!strcmp(name, "check") && !v) { c->check = 1; continue; }
        if (!strcmp(name, "no-check")) { c->check = 0; continue; }
        if (!strcmp(name, "csv") && !v) { c->csv = 1; continue; }
        if (!strcmp(name, "verbose")) { c->verbose = 1; continue; }
        if (!strcmp(name, "help")) { app_usage(c, usage); exit(0); }
        if (!strcmp(name, "csv-header")) { printf("%s\n", APP_CSV_HEADER); return -1; }
        if (!v) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: option --%s needs a value\n", c->app, name);
                return app_usage(c, usage);
            }
            v = argv[++i];
        }
        long long x = 0;
        int isnum = app_parse_ll(v, &x) == 0;
        struct { const char *k; int *i; } ints[] = {{"grid", &c->grid}, {"block", &c->block}, {"repeat", &c->repeat},
                                                    {"warmup", &c->warmup}, {"threads", &c->threads},
                                                    {"queues", &c->queues}, {"check", &c->check}};
        int done = 0;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
            if (!strcmp(name, ints[k].k)) {
                if (!isnum || x < 0 || x > 1 << 30) {
                    fprintf(stderr, "%s: bad value '%s' for --%s\n", c->app, v, name);
                    return app_usage(c, usage);
                }
                *ints[k].i = (int)x;
                done = 1;
            }
        if (!done && (!strcmp(name, "n") || !strcmp(name, "max-tasks"))) {
            if (!isnum || x < 0) {
                fprintf(stderr, "%s: bad value '%s' for --%s\n", c->app, v, name);
                return app_usage(c, usage);
            }
            *(name[0] == 'n' ? &c->n : &c->max_tasks) = x;
            done = 1;
        }
        for (int k = 0; !done && keys && keys[k]; k++)
            if (!strcmp(name, keys[k])) {
                if (c->nopts == APP_MAX_OPTS)
                    return app_usage(c, usage);
                c->key[c->nopts] = keys[k];
                c->val[c->nopts++] = v;
                done = 1;
            }
        if (!done) {
            fprintf(stderr, "%s: unknown option --%s\n", c->app, name);
            return app_usage(c, usage);
        }
    }
    if (c->repeat < 1 || c->repeat > APP_MAX_RUNS - 1) {
        fprintf(stderr, "%s: --repeat must be in [1, %d]\n", c->app, APP_MAX_RUNS - 1);
        return app_usage(c, usage);
    }
    if (c->csv)
        c->out = stderr;
    return 0;
}

/* The value of a program option, or NULL when it was not given (the last one wins). */
static inline const char *app_opt_str(const app_cli *c, const char *key, const char *def)
{
    for (int k = c->nopts - 1; k >= 0; k--)
        if (!strcmp(c->key[k], key))
            return c->val[k];
    return def;
}

/* An integer program option; exits with status 2 on a malformed value. */
static inline long long app_opt_ll(const app_cli *c, const char *key, long long def)
{
    const char *s = app_opt_str(c, key, NULL);
    long long v;
    if (!s)
        return def;
    if (app_parse_ll(s, &v) != 0) {
        fprintf(stderr, "%s: bad value '%s' for --%s\n", c->app, s, key);
        exit(2);
    }
    return v;
}

/* Appends "k=v" to the CSV params (printf-style value). */
static inline void app_param(app_cli *c, const char *fmt, ...)
{
    size_t len = strlen(c->params);
    va_list ap;
    if (len && len + 1 < sizeof c->params)
        c->params[len++] = ';';
    va_start(ap, fmt);
    vsnprintf(c->params + len, sizeof c->params - len, fmt, ap);
    va_end(ap);
}

static inline double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline void app_stats_add(app_stats *s, double kernel_ms, double wall_ms)
{
    if (s->count < APP_MAX_RUNS) {
        s->kernel_ms[s->count] = kernel_ms;
        s->wall_ms[s->count] = wall_ms;
        s->count++;
    }
}

static inline int app_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank quantile of v[0..n) as the paper's scripts compute it: sorted[ceil(p n) - 1];
 * the median is the middle element (mean of the two middle ones for even n). */
static inline double app_quantile(const double *v, int n, double p)
{
    double s[APP_MAX_RUNS];
    if (n <= 0)
        return 0;
    memcpy(s, v, n * sizeof *v);
    qsort(s, n, sizeof *s, app_cmp_double);
    if (p == 0.5)
        return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    int k = (int)ceil(p * n) - 1;
    return s[k < 0 ? 0 : k >= n ? n - 1 : k];
}

static inline const char *app_check_str(app_check_t c)
{
    return c == APP_CHECK_PASS ? "pass" : c == APP_CHECK_FAIL ? "FAIL" : "skipped";
}

/* Prints the result and timing lines (and the CSV row with --csv). Returns the exit status:
 * 1 when the check failed. */
static inline int app_report(const app_cli *c, const app_stats *s, app_check_t check, const char *answer)
{
    FILE *o = c->out;
    double k = app_quantile(s->kernel_ms, s->count, 0.5), w = app_quantile(s->wall_ms, s->count, 0.5);
    fprintf(o, "answer: %s\n", answer);
    fprintf(o, "check: %s\n", check == APP_CHECK_PASS ? "PASS" : check == APP_CHECK_FAIL ? "FAIL" : "skipped");
    fprintf(o, "Execution time: %.3f ms\n", k);
    fprintf(o, "Wall time: %.3f ms\n", w);
    fprintf(o, "runs (kernel ms):");
    for (int i = 0; i < s->count; i++)
        fprintf(o, " %.3f", s->kernel_ms[i]);
    fprintf(o, "\n");
    if (c->csv) {
        printf("%s,%s,%lld,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%s\n", c->app, c->impl, c->n,
               c->params[0] ? c->params : "-", c->grid, c->block, c->workers, c->queues, s->count, k, w,
               app_quantile(s->kernel_ms, s->count, 0.0), app_quantile(s->kernel_ms, s->count, 0.25),
               app_quantile(s->kernel_ms, s->count, 0.75), app_check_str(check), answer);
        fflush(stdout);
    }
    return check == APP_CHECK_FAIL ? 1 : 0;
}

/* The run's first line: what runs, with which parameters. */
static inline void app_banner(const app_cli *c)
{
    fprintf(c->out, "%s [%s] n=%lld %s grid=%d block=%d workers=%d queues=%d repeat=%d\n", c->app, c->impl,
            c->n, c->params, c->grid, c->block, c->workers, c->queues, c->repeat);
}

#endif /* APP_CLI_H */
