/* nqt_checkpoint.c - writing, reading and periodically saving nqueens_tuned checkpoints
 * (the format and the guarantees are in nqt_checkpoint.h). */
#define _GNU_SOURCE
#include "nqt_checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static uint64_t fnv1a(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define FNV_OFFSET 0xcbf29ce484222325ull

/* A growable text buffer: the whole file is built in memory and checksummed before writing. */
typedef struct text {
    char *p;
    size_t len, cap;
} text;

static int text_printf(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (k < 0)
            return -1;
        if ((size_t)k < t->cap - t->len) {
            t->len += (size_t)k;
            return 0;
        }
        size_t cap = t->cap * 2 + (size_t)k + 64;
        char *p = realloc(t->p, cap);
        if (!p)
            return -1;
        t->p = p;
        t->cap = cap;
    }
}

/* Writes all of buf to fd, retrying short writes and EINTR. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t k = write(fd, buf, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        buf += k;
        n -= (size_t)k;
    }
    return 0;
}

/* fsync of path's directory, so that the rename itself survives a crash of the machine. */
static int sync_dir_of(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

long long nqt_ckpt_write(const char *path, int n, int depth, long long subtrees,
                         const unsigned long long *state, char *err, size_t err_len)
{
    text t = {NULL, 0, 0};
    long long done = 0;
    for (long long i = 0; i < subtrees; i++)
        done += __atomic_load_n(&state[i], __ATOMIC_ACQUIRE) != 0;
    /* The states only go from 0 to final, so a second pass sees at least `done` of them;
     * it writes exactly `done` lines (later finishers wait for the next checkpoint). */
    int bad = text_printf(&t, "nqueens-checkpoint %d\nn %d\ndepth %d\nsubtrees %lld\ndone %lld\n",
                          NQT_CKPT_VERSION, n, depth, subtrees, done);
    long long written = 0;
    for (long long i = 0; i < subtrees && written < done && !bad; i++) {
        unsigned long long s = __atomic_load_n(&state[i], __ATOMIC_ACQUIRE);
        if (s) {
            bad = text_printf(&t, "%lld %llu\n", i, s - 1);
            written++;
        }
    }
    if (!bad)
        bad = text_printf(&t, "checksum %016" PRIx64 "\n", fnv1a(FNV_OFFSET, t.p, t.len));
    if (bad) {
        free(t.p);
        set_err(err, err_len, "out of memory while building the checkpoint");
        return -1;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        free(t.p);
        set_err(err, err_len, "checkpoint path too long: %s", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        set_err(err, err_len, "cannot create %s: %s", tmp, strerror(errno));
        free(t.p);
        return -1;
    }
    if (write_all(fd, t.p, t.len) != 0 || fsync(fd) != 0) {
        set_err(err, err_len, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(t.p);
        return -1;
    }
    free(t.p);
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        set_err(err, err_len, "cannot replace %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (sync_dir_of(path) != 0) {
        set_err(err, err_len, "cannot sync the directory of %s: %s", path, strerror(errno));
        return -1;
    }
    return done;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Reads the next line of buf[*pos..len) into line (without '\n'); 0 at a complete line, -1
 * at the end of the buffer or at a line that is not terminated (a cut-off file). */
static int next_line(const char *buf, size_t len, size_t *pos, char *line, size_t cap)
{
    const char *start = buf + *pos, *nl = memchr(start, '\n', len - *pos);
    if (*pos >= len || !nl)
        return -1;
    size_t k = (size_t)(nl - start);
    if (k >= cap)
        k = cap - 1; /* an overlong line cannot parse as anything valid */
    memcpy(line, start, k);
    line[k] = 0;
    for (size_t i = 0; i < k; i++) /* the line may be quoted in an error message */
        if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] > 0x7e)
            line[i] = '?';
    *pos = (size_t)(nl - buf) + 1;
    return 0;
}

/* Parses "<key> <non-negative decimal>" exactly. */
static int parse_kv(const char *line, const char *key, long long *v)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) != 0 || line[k] != ' ' || line[k + 1] < '0' || line[k + 1] > '9')
        return -1;
    char *end;
    errno = 0;
    *v = strtoll(line + k + 1, &end, 10);
    return *end || errno ? -1 : 0;
}

int nqt_ckpt_read(const char *path, nqt_ckpt *out, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, err_len, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                set_err(err, err_len, "%s: out of memory", path);
                return -1;
            }
            buf = p;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0)
            break;
    }
    int ioerr = ferror(f);
    fclose(f);
    nqt_ckpt c = {0, 0, 0, 0, 0, NULL, NULL};
    char line[256];
    size_t pos = 0;
    long long v[4];
    static const char *const keys[] = {"n", "depth", "subtrees", "done"};
    if (ioerr) {
        set_err(err, err_len, "cannot read %s", path);
        goto free_buf;
    }
    if (next_line(buf, len, &pos, line, sizeof line) != 0 || strncmp(line, "nqueens-checkpoint ", 19) != 0) {
        set_err(err, err_len, "%s is not an nqueens_tuned checkpoint (no 'nqueens-checkpoint' header)", path);
        goto free_buf;
    }
    if (strcmp(line + 19, "1") != 0) {
        set_err(err, err_len, "%s has checkpoint format version '%s'; this program reads version %d", path,
                line + 19, NQT_CKPT_VERSION);
        goto free_buf;
    }
    c.version = NQT_CKPT_VERSION;
    for (int i = 0; i < 4; i++)
        if (next_line(buf, len, &pos, line, sizeof line) != 0 || parse_kv(line, keys[i], &v[i]) != 0) {
            set_err(err, err_len, "%s is corrupt or truncated: line %d should be '%s <number>'", path, i + 2,
                    keys[i]);
            goto free_buf;
        }
    if (v[0] < 1 || v[0] > 64 || v[1] < 1 || v[1] > v[0] || v[3] > v[2]) {
        set_err(err, err_len, "%s is corrupt: n %lld, depth %lld, %lld of %lld subtrees done", path, v[0], v[1],
                v[3], v[2]);
        goto free_buf;
    }
    c.n = (int)v[0];
    c.depth = (int)v[1];
    c.subtrees = v[2];
    c.done = v[3];
    c.index = malloc((size_t)(c.done ? c.done : 1) * sizeof *c.index);
    c.count = malloc((size_t)(c.done ? c.done : 1) * sizeof *c.count);
    if (!c.index || !c.count) {
        set_err(err, err_len, "%s: out of memory", path);
        goto free_ckpt;
    }
    for (long long i = 0; i < c.done; i++) {
        char *end;
        if (next_line(buf, len, &pos, line, sizeof line) != 0) {
            set_err(err, err_len, "%s is truncated: %lld of %lld subtree lines", path, i, c.done);
            goto free_ckpt;
        }
        errno = 0;
        c.index[i] = line[0] >= '0' && line[0] <= '9' ? strtoll(line, &end, 10) : -1;
        if (c.index[i] < 0 || *end != ' ' || end[1] < '0' || end[1] > '9') {
            set_err(err, err_len, "%s is corrupt: subtree line %lld is '%s'", path, i + 1, line);
            goto free_ckpt;
        }
        c.count[i] = strtoull(end + 1, &end, 10);
        if (*end || errno || c.count[i] == ~0ull) {
            set_err(err, err_len, "%s is corrupt: subtree line %lld is '%s'", path, i + 1, line);
            goto free_ckpt;
        }
        if (c.index[i] >= c.subtrees || (i && c.index[i] <= c.index[i - 1])) {
            set_err(err, err_len, "%s is corrupt: subtree %lld out of order or range (%lld subtrees)", path,
                    c.index[i], c.subtrees);
            goto free_ckpt;
        }
    }
    size_t body = pos;
    if (next_line(buf, len, &pos, line, sizeof line) != 0 || strncmp(line, "checksum ", 9) != 0) {
        set_err(err, err_len, "%s is truncated or corrupt: no checksum line after %lld subtree lines", path, c.done);
        goto free_ckpt;
    }
    char want[32];
    snprintf(want, sizeof want, "%016" PRIx64, fnv1a(FNV_OFFSET, buf, body));
    if (strcmp(line + 9, want) != 0) {
        set_err(err, err_len, "%s is corrupt: checksum %s, but its contents give %s", path, line + 9, want);
        goto free_ckpt;
    }
    if (pos != len) {
        set_err(err, err_len, "%s is corrupt: data after the checksum line", path);
        goto free_ckpt;
    }
    *out = c;
    free(buf);
    return 0;
free_ckpt:
    nqt_ckpt_free(&c);
free_buf:
    free(buf);
    return -1;
}

void nqt_ckpt_free(nqt_ckpt *c)
{
    free(c->index);
    free(c->count);
    c->index = NULL;
    c->count = NULL;
}

/* ---- the periodic writer ---------------------------------------------------------------- */

static void *writer_main(void *arg)
{
    nqt_ckpt_writer *w = arg;
    char err[512];
    pthread_mutex_lock(&w->lock);
    for (;;) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        double whole = (double)(long long)w->interval_s;
        until.tv_sec += (time_t)whole;
        until.tv_nsec += (long)((w->interval_s - whole) * 1e9);
        if (until.tv_nsec >= 1000000000l) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000l;
        }
        while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) != ETIMEDOUT)
            ;
        if (w->stop)
            break;
        pthread_mutex_unlock(&w->lock); /* the search never waits for a write */
        long long done = nqt_ckpt_write(w->path, w->n, w->depth, w->subtrees, w->state, err, sizeof err);
        pthread_mutex_lock(&w->lock);
        if (done < 0) {
            if (w->kill_after > 0) { /* the kill test would wait forever for this checkpoint */
                fprintf(stderr, "nqueens_tuned: checkpoint: %s\n", err);
                abort();
            }
            if (!w->failing)
                fprintf(stderr, "nqueens_tuned: checkpoint: %s (retrying every %g s)\n", err, w->interval_s);
            w->failing = 1;
            continue;
        }
        w->failing = 0;
        w->writes++;
        if (w->kill_after > 0 && done >= w->kill_after)
            nqt_ckpt_test_kill(w->kill_after, done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int nqt_ckpt_writer_start(nqt_ckpt_writer *w, const char *path, int n, int depth, long long subtrees,
                          const unsigned long long *state, double interval_s, long long kill_after)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->n = n;
    w->depth = depth;
    w->subtrees = subtrees;
    w->state = state;
    w->interval_s = interval_s;
    w->kill_after = kill_after;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    int e = pthread_create(&w->thread, NULL, writer_main, w);
    if (e != 0) {
        fprintf(stderr, "nqueens_tuned: cannot start the checkpoint thread: %s\n", strerror(e));
        return -1;
    }
    return 0;
}

void nqt_ckpt_writer_stop(nqt_ckpt_writer *w)
{
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake); /* ends its wait at once */
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}

void nqt_ckpt_writer_await_kill(nqt_ckpt_writer *w)
{
    pthread_join(w->thread, NULL); /* the thread leaves its loop only when stopped */
}

/* ---- the kill test's hook --------------------------------------------------------------- */

void nqt_ckpt_test_kill(long long kill_after, long long done)
{
    fprintf(stderr, "nqueens_tuned: --test-kill-after %lld: checkpoint with %lld subtrees written; SIGKILL\n",
            kill_after, done);
    fflush(NULL);
    kill(getpid(), SIGKILL); /* the whole process, whichever thread asks */
    for (;;)
        pause();
}

typedef struct kill_order {
    long long kill_after, done;
} kill_order;

static void *kill_main(void *arg)
{
    kill_order k = *(kill_order *)arg;
    free(arg);
    nqt_ckpt_test_kill(k.kill_after, k.done);
}

void nqt_ckpt_test_kill_soon(long long kill_after, long long done)
{
    kill_order *k = malloc(sizeof *k);
    pthread_t t;
    if (k) {
        k->kill_after = kill_after;
        k->done = done;
        if (pthread_create(&t, NULL, kill_main, k) == 0) {
            pthread_detach(t);
            return;
        }
        free(k);
    }
    nqt_ckpt_test_kill(kill_after, done); /* no thread: die here */
}

void nqt_ckpt_test_kill_await(void)
{
    for (;;) /* until the thread of nqt_ckpt_test_kill_soon ends the process */
        pause();
}
