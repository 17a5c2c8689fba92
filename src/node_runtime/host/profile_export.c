/* profile_export.c - writes the profiler's per-worker intervals as a Chrome trace (opens in
 * Perfetto or chrome://tracing), a CSV of intervals, a CSV of per-worker aggregates (busy
 * fraction, tasks per iteration) and a JSON summary. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuda_runtime_api.h>

#include "host_internal.h"

enum { ST_OK = 0, ST_BAD_LABEL, ST_BAD_DIR, ST_TOO_LONG, ST_EXISTS, ST_CUDA, ST_OOM, ST_IO, ST_NO_DATA,
       ST_DISABLED };

static int mkdir_p(const char *path)
{
    char tmp[512];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof tmp)
        return -1;
    memcpy(tmp, path, n + 1);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Resolves one "%i" to the first number whose directory does not exist yet. */
static int resolve_dir(const char *pattern, char *out, size_t outsz)
{
    const char *m = strstr(pattern, "%i");
    if (!*pattern)
        return ST_BAD_DIR;
    if (!m) {
        if (strlen(pattern) >= outsz)
            return ST_TOO_LONG;
        strcpy(out, pattern);
        return ST_OK;
    }
    if (strstr(m + 2, "%i"))
        return ST_BAD_DIR;
    for (int i = 0; i < 1000000; i++) {
        int n = snprintf(out, outsz, "%.*s%d%s", (int)(m - pattern), pattern, i, m + 2);
        if (n < 0 || (size_t)n >= outsz)
            return ST_TOO_LONG;
        if (!exists(out))
            return ST_OK;
    }
    return ST_BAD_DIR;
}

static int valid_label(const char *l)
{
    size_t n = strlen(l);
    if (n == 0 || n > 128)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = l[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == '_' || c == '.'))
            return 0;
    }
    return 1;
}

static int join_path(char *out, size_t outsz, const char *dir, const char *file)
{
    int n = snprintf(out, outsz, "%s/%s", dir, file);
    return n >= 0 && (size_t)n < outsz;
}

void gtap_host_export_profile(const gtap_host_profile_options *opt, gtap_host_profile_result *res)
{
    const gtap_dev_state *s = &gtap_rt.state;
    const gtap_config_t *c = &gtap_rt.cfg;
    uint32_t *counts = NULL;
    gtap_profile_interval *iv = NULL;
    FILE *ftrace = NULL, *fiv = NULL, *fagg = NULL, *fsum = NULL;
    size_t total = 0;
    unsigned long long t_min = ~0ull, t_max = 0, busy_all = 0, tasks_all = 0;

    memset(res, 0, sizeof *res);
    if (!gtap_rt.initialized || !c->profiling || !s->profile) {
        res->status = ST_DISABLED;
        return;
    }
    if (opt->label && !valid_label(opt->label)) {
        res->status = ST_BAD_LABEL;
        return;
    }
    res->status = resolve_dir(opt->output_directory ? opt->output_directory : "./profile",
                              res->result_directory, sizeof res->result_directory);
    if (res->status != ST_OK)
        return;
    if (mkdir_p(res->result_directory) != 0) {
        res->status = ST_BAD_DIR;
        return;
    }
    if (!join_path(res->profile_path, 512, res->result_directory, "profile.json") ||
        !join_path(res->intervals_path, 512, res->result_directory, "task_execution_intervals.csv") ||
        !join_path(res->aggregates_path, 512, res->result_directory, "task_execution_aggregates.csv") ||
        !join_path(res->trace_path, 512, res->result_directory, "trace.json")) {
        res->status = ST_TOO_LONG;
        return;
    }
    if (!opt->overwrite && (exists(res->profile_path) || exists(res->intervals_path) ||
                            exists(res->aggregates_path) || exists(res->trace_path))) {
        res->status = ST_EXISTS;
        return;
    }

    const uint32_t nw = s->max_workers, cap = s->profile_capacity;
    counts = (uint32_t *)malloc((size_t)nw * sizeof *counts);
    if (!counts) {
        res->status = ST_OOM;
        goto done;
    }
    if (cudaMemcpy(counts, s->profile_count, (size_t)nw * sizeof *counts, cudaMemcpyDeviceToHost) != cudaSuccess) {
        res->status = ST_CUDA;
        goto done;
    }
    for (uint32_t i = 0; i < nw; i++) {
        size_t kept = counts[i] < cap ? counts[i] : cap;
        total += kept;
        res->dropped_intervals += counts[i] - kept;
    }
    if (total == 0) {
        res->status = ST_NO_DATA;
        goto done;
    }
    iv = (gtap_profile_interval *)malloc(total * sizeof *iv);
    if (!iv) {
        res->status = ST_OOM;
        goto done;
    }
    {
        size_t off = 0;
        for (uint32_t i = 0; i < nw; i++) {
            size_t kept = counts[i] < cap ? counts[i] : cap;
            if (kept && cudaMemcpy(iv + off, s->profile + (size_t)i * cap, kept * sizeof *iv,
                                   cudaMemcpyDeviceToHost) != cudaSuccess) {
                res->status = ST_CUDA;
                goto done;
            }
            off += kept;
        }
    }
    for (size_t i = 0; i < total; i++) {
        if (iv[i].start_ns < t_min)
            t_min = iv[i].start_ns;
        if (iv[i].end_ns > t_max)
            t_max = iv[i].end_ns;
    }
    ftrace = fopen(res->trace_path, "w");
    fiv = fopen(res->intervals_path, "w");
    fagg = fopen(res->aggregates_path, "w");
    fsum = fopen(res->profile_path, "w");
    if (!ftrace || !fiv || !fagg || !fsum) {
        res->status = ST_IO;
        goto done;
    }
    const char *unit = c->mode == GTAP_MODE_THREAD ? "warp" : "block";
    fprintf(ftrace, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    fprintf(ftrace, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"gtap %s workers\"}}",
            unit);
    fprintf(fiv, "%s,start_ns,end_ns,tasks\n", unit);
    fprintf(fagg, "%s,intervals,dropped,busy_ns,span_ns,busy_fraction,tasks,tasks_per_interval\n", unit);
    {
        size_t off = 0;
        for (uint32_t wk = 0; wk < nw; wk++) {
            size_t kept = counts[wk] < cap ? counts[wk] : cap;
            unsigned long long busy = 0, tasks = 0, first = ~0ull, last = 0;
            for (size_t j = 0; j < kept; j++) {
                const gtap_profile_interval *p = &iv[off + j];
                unsigned long long d = p->end_ns > p->start_ns ? p->end_ns - p->start_ns : 0;
                busy += d;
                tasks += p->tasks;
                if (p->start_ns < first)
                    first = p->start_ns;
                if (p->end_ns > last)
                    last = p->end_ns;
                fprintf(ftrace, ",\n{\"name\":\"%u tasks\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,\"ts\":%.3f,"
                        "\"dur\":%.3f,\"args\":{\"tasks\":%u}}", p->tasks, wk,
                        (p->start_ns - t_min) / 1000.0, d / 1000.0, p->tasks);
                fprintf(fiv, "%u,%llu,%llu,%u\n", wk, p->start_ns - t_min, p->end_ns - t_min, p->tasks);
            }
            unsigned long long span = kept ? last - first : 0;
            fprintf(fagg, "%u,%zu,%u,%llu,%llu,%.6f,%llu,%.3f\n", wk, kept, counts[wk] - (uint32_t)kept, busy,
                    span, t_max > t_min ? (double)busy / (double)(t_max - t_min) : 0.0, tasks,
                    kept ? (double)tasks / kept : 0.0);
            busy_all += busy;
            tasks_all += tasks;
            off += kept;
        }
    }
    fprintf(ftrace, "\n]}\n");
    res->recorded_intervals = total;
    fprintf(fsum,
            "{\n  \"label\": \"%s\",\n  \"mode\": \"%s\",\n  \"grid_size\": %d,\n  \"block_size\": %d,\n"
            "  \"workers\": %u,\n  \"recorded_intervals\": %zu,\n  \"dropped_intervals\": %zu,\n"
            "  \"span_ns\": %llu,\n  \"busy_fraction\": %.6f,\n  \"tasks\": %llu,\n"
            "  \"tasks_per_interval\": %.3f\n}\n",
            opt->label ? opt->label : "", c->mode == GTAP_MODE_THREAD ? "thread" : "block", c->grid_size,
            c->block_size, nw, total, res->dropped_intervals, t_max - t_min,
            t_max > t_min ? (double)busy_all / ((double)(t_max - t_min) * nw) : 0.0, tasks_all,
            (double)tasks_all / (double)total);
    res->status = ST_OK;
done:
    if (ftrace && fclose(ftrace) != 0)
        res->status = ST_IO;
    if (fiv && fclose(fiv) != 0)
        res->status = ST_IO;
    if (fagg && fclose(fagg) != 0)
        res->status = ST_IO;
    if (fsum && fclose(fsum) != 0)
        res->status = ST_IO;
    free(iv);
    free(counts);
    if (res->status == ST_OK && res->dropped_intervals)
        fprintf(stderr, "gtap: profile: %zu intervals dropped (a worker's buffer was full); raise "
                "GTAP_PROFILE_CAPACITY (now %u)\n", res->dropped_intervals, cap);
}
