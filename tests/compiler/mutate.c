/* mutate.c - robustness test for gtapcc: mutates the test corpus (deleting or duplicating
 * lines and tokens, truncating files, garbling pragmas) and runs the compiler on each
 * mutant. Every run must end with exit status 0 or 1, print a diagnostic when it is 1, and
 * finish within 10 seconds; a signal, another status or a timeout is a failure (the mutant
 * is kept in the work directory for reproduction).
 *
 * usage: gtapcc_mutate --gtapcc PATH [--count N] [--seed S] [--workdir DIR] corpus.cu...
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUN_LIMIT_S 10

typedef struct text { char *p; size_t n; } text;

static unsigned long long rng_state;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

static text load(const char *path)
{
    text t = {0};
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return t;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    t.p = malloc((size_t)n + 1);
    if (t.p && fread(t.p, 1, (size_t)n, fp) == (size_t)n) {
        t.n = (size_t)n;
        t.p[n] = 0;
    }
    fclose(fp);
    return t;
}

/* Replaces [b, e) of t by r (length rn). */
static void splice(text *t, size_t b, size_t e, const char *r, size_t rn)
{
    char *q = malloc(t->n - (e - b) + rn + 1);
    memcpy(q, t->p, b);
    memcpy(q + b, r, rn);
    memcpy(q + b + rn, t->p + e, t->n - e);
    t->n = t->n - (e - b) + rn;
    q[t->n] = 0;
    free(t->p);
    t->p = q;
}

static size_t line_start(const text *t, size_t off)
{
    while (off > 0 && t->p[off - 1] != '\n')
        off--;
    return off;
}

static size_t line_end(const text *t, size_t off)
{
    while (off < t->n && t->p[off] != '\n')
        off++;
    return off < t->n ? off + 1 : off;
}

static int is_id(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* A token at or after off: [*b, *e). */
static void token_at(const text *t, size_t off, size_t *b, size_t *e)
{
    while (off < t->n && (t->p[off] == ' ' || t->p[off] == '\n' || t->p[off] == '\t'))
        off++;
    *b = off;
    if (off < t->n && is_id(t->p[off])) {
        while (off < t->n && is_id(t->p[off]))
            off++;
    } else if (off < t->n) {
        off++;
    }
    *e = off;
}

static const char *mutate(text *t)
{
    if (t->n == 0)
        return "empty";
    size_t off = rnd((unsigned)t->n), b, e;
    switch (rnd(9)) {
    case 0: /* delete a line */
        b = line_start(t, off);
        splice(t, b, line_end(t, off), "", 0);
        return "delete line";
    case 1: { /* duplicate a line */
        b = line_start(t, off);
        e = line_end(t, off);
        char *copy = strndup(t->p + b, e - b);
        splice(t, e, e, copy, strlen(copy));
        free(copy);
        return "duplicate line";
    }
    case 2: /* delete a token */
        token_at(t, off, &b, &e);
        splice(t, b, e, "", 0);
        return "delete token";
    case 3: { /* duplicate a token */
        token_at(t, off, &b, &e);
        char *copy = strndup(t->p + b, e - b);
        splice(t, e, e, copy, strlen(copy));
        free(copy);
        return "duplicate token";
    }
    case 4: /* truncate */
        t->n = off;
        t->p[off] = 0;
        return "truncate";
    default: { /* garble a pragma gtap line */
        char *hits[64];
        int nh = 0;
        for (char *p = strstr(t->p, "#pragma gtap"); p && nh < 64; p = strstr(p + 1, "#pragma gtap"))
            hits[nh++] = p;
        if (!nh) {
            token_at(t, off, &b, &e);
            splice(t, b, e, "", 0);
            return "delete token (no pragma)";
        }
        size_t pb = (size_t)(hits[rnd((unsigned)nh)] - t->p);
        size_t pe = line_end(t, pb);
        if (pe > pb && t->p[pe - 1] == '\n')
            pe--;
        static const char *junk[] = {"task", "taskwait", "entry", "function", "queue(", "queue()", ")", "(",
                                     "queue(1", "worker_size(warp)", "return_thread(x)", "\\", "{", "}",
                                     "wait", "#pragma gtap", ";", "/*", "\"", "queue(n)) queue(0)"};
        const char *j = junk[rnd(sizeof junk / sizeof junk[0])];
        size_t at = pb + 8 + rnd((unsigned)(pe - pb - 8 + 1));
        if (rnd(2))
            splice(t, at, at, j, strlen(j));
        else
            splice(t, at, pe, j, strlen(j));
        return "garble pragma";
    }
    }
}

static int contains_error(const char *path)
{
    text t = load(path);
    int r = t.p && strstr(t.p, "error:") != NULL;
    free(t.p);
    return r;
}

int main(int argc, char **argv)
{
    const char *gtapcc = NULL, *workdir = "mutants";
    unsigned count = 200;
    unsigned long long seed = 1;
    const char *corpus[512];
    unsigned ncorpus = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gtapcc") && i + 1 < argc)
            gtapcc = argv[++i];
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--workdir") && i + 1 < argc)
            workdir = argv[++i];
        else if (ncorpus < 512)
            corpus[ncorpus++] = argv[i];
    }
    if (!gtapcc || !ncorpus) {
        fprintf(stderr, "usage: gtapcc_mutate --gtapcc PATH [--count N] [--seed S] [--workdir DIR] files...\n");
        return 2;
    }
    mkdir(workdir, 0777);
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    unsigned passed = 0, failed = 0, status1 = 0;
    double worst = 0;
    for (unsigned i = 0; i < count; i++) {
        const char *src = corpus[rnd(ncorpus)];
        text t = load(src);
        if (!t.p) {
            fprintf(stderr, "cannot read %s\n", src);
            return 2;
        }
        char what[256] = "";
        unsigned nm = 1 + rnd(3);
        for (unsigned k = 0; k < nm; k++) {
            strncat(what, mutate(&t), sizeof what - strlen(what) - 3);
            strncat(what, k + 1 < nm ? ", " : "", sizeof what - strlen(what) - 1);
        }
        char mpath[4096], opath[4096], epath[4096], inc[4096];
        snprintf(mpath, sizeof mpath, "%s/mutant_%03u.cu", workdir, i);
        snprintf(opath, sizeof opath, "%s/mutant_%03u.out.cu", workdir, i);
        snprintf(epath, sizeof epath, "%s/mutant_%03u.stderr", workdir, i);
        const char *slash = strrchr(src, '/');
        snprintf(inc, sizeof inc, "-I%.*s", slash ? (int)(slash - src) : 1, slash ? src : ".");
        FILE *fp = fopen(mpath, "wb");
        if (!fp || fwrite(t.p, 1, t.n, fp) != t.n || fclose(fp) != 0) {
            fprintf(stderr, "cannot write %s\n", mpath);
            return 2;
        }
        free(t.p);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = fork();
        if (pid == 0) {
            FILE *e = freopen(epath, "w", stderr);
            (void)e;
            FILE *o = freopen("/dev/null", "w", stdout);
            (void)o;
            execl(gtapcc, gtapcc, "--translate-only", inc, mpath, "-o", opath, (char *)NULL);
            _exit(127);
        }
        int st = 0, done = 0;
        double el = 0;
        while (!done) {
            pid_t r = waitpid(pid, &st, WNOHANG);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            el = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            if (r == pid) {
                done = 1;
            } else if (el > RUN_LIMIT_S) {
                kill(pid, SIGKILL);
                waitpid(pid, &st, 0);
                done = 2;
            } else {
                struct timespec ns = {0, 5000000};
                nanosleep(&ns, NULL);
            }
        }
        if (el > worst)
            worst = el;
        const char *bad = NULL;
        if (done == 2)
            bad = "ran longer than 10 s";
        else if (WIFSIGNALED(st))
            bad = "killed by a signal";
        else if (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 1)
            bad = "exit status other than 0 or 1";
        else if (WEXITSTATUS(st) == 1 && !contains_error(epath))
            bad = "exit status 1 without an error message";
        if (bad) {
            failed++;
            printf("FAIL %s (from %s; %s): %s\n", mpath, src, what, bad);
            if (WIFSIGNALED(st))
                printf("  signal %d\n", WTERMSIG(st));
        } else {
            passed++;
            status1 += WEXITSTATUS(st) == 1;
            unlink(mpath);
            unlink(epath);
        }
        unlink(opath);
    }
    printf("mutants: %u, rejected with a diagnostic: %u, slowest run %.2f s\n", count, status1, worst);
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
