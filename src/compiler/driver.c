/* driver.c - runtime paths, child processes and temporary files for gtapcc. */
#include "driver.h"
#include "diag.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Set by CMake: where the runtime lives in the build/source tree, and the install layout
 * relative to the installed gtapcc binary. */
#ifndef GTAPCC_BUILD_BIN_DIR
#define GTAPCC_BUILD_BIN_DIR ""
#endif
#ifndef GTAPCC_SOURCE_RUNTIME_INCLUDE
#define GTAPCC_SOURCE_RUNTIME_INCLUDE ""
#endif
#ifndef GTAPCC_SOURCE_HOST_TARGET
#define GTAPCC_SOURCE_HOST_TARGET ""
#endif
#ifndef GTAPCC_BUILD_LIB_DIR
#define GTAPCC_BUILD_LIB_DIR ""
#endif
#ifndef GTAPCC_INSTALL_REL_INCLUDE
#define GTAPCC_INSTALL_REL_INCLUDE "../include/gtap"
#endif
#ifndef GTAPCC_INSTALL_REL_HOST_TARGET
#define GTAPCC_INSTALL_REL_HOST_TARGET "../include/gtap/host_target"
#endif
#ifndef GTAPCC_INSTALL_REL_LIB
#define GTAPCC_INSTALL_REL_LIB "../lib"
#endif

void argv_push(argv_list *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = xstrdup(s);
    a->v[a->n] = NULL;
}

void argv_pushf(argv_list *a, const char *fmt, ...)
{
    strbuf s = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&s, fmt, ap);
    va_end(ap);
    argv_push(a, sb_str(&s));
    sb_free(&s);
}

void argv_free(argv_list *a)
{
    for (unsigned i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

static char *join(const char *a, const char *b)
{
    strbuf sb = {0};
    sb_printf(&sb, "%s/%s", a, b);
    return sb.data;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void paths_resolve(gtap_paths *p)
{
    memset(p, 0, sizeof *p);
    const char *home = getenv("GTAP_HOME");
    if (home && *home) {
        p->runtime_include = join(home, "include/gtap");
        if (!is_dir(p->runtime_include)) { /* a source checkout (with build/) as GTAP_HOME */
            free(p->runtime_include);
            p->runtime_include = join(home, "src/node_runtime/include");
            p->host_target = join(home, "src/node_runtime/host_target");
            p->lib_dir = join(home, "build/src/node_runtime");
        } else {
            p->host_target = join(home, "include/gtap/host_target");
            p->lib_dir = join(home, "lib");
        }
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char bindir[PATH_MAX] = "";
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(bindir, sizeof bindir, "%s", exe);
        }
    }
    char rb[PATH_MAX];
    int in_build = *GTAPCC_BUILD_BIN_DIR && realpath(GTAPCC_BUILD_BIN_DIR, rb) && !strcmp(rb, bindir);
    if (in_build || !*bindir) {
        p->runtime_include = xstrdup(GTAPCC_SOURCE_RUNTIME_INCLUDE);
        p->host_target = xstrdup(GTAPCC_SOURCE_HOST_TARGET);
        p->lib_dir = xstrdup(GTAPCC_BUILD_LIB_DIR);
    } else {
        p->runtime_include = join(bindir, GTAPCC_INSTALL_REL_INCLUDE);
        p->host_target = join(bindir, GTAPCC_INSTALL_REL_HOST_TARGET);
        p->lib_dir = join(bindir, GTAPCC_INSTALL_REL_LIB);
    }
}

void paths_free(gtap_paths *p)
{
    free(p->runtime_include);
    free(p->host_target);
    free(p->lib_dir);
    memset(p, 0, sizeof *p);
}

int run_command(argv_list *argv, int verbose)
{
    if (verbose) {
        for (unsigned i = 0; i < argv->n; i++)
            fprintf(stderr, "%s%s", i ? " " : "", argv->v[i]);
        fputc('\n', stderr);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot start '%s': %s", argv->v[0], strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(argv->v[0], argv->v);
        fprintf(stderr, "gtapcc: error: cannot run '%s': %s\n", argv->v[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            diag_at(DIAG_ERROR, NULL, 0, "waiting for '%s': %s", argv->v[0], strerror(errno));
            return 127;
        }
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    diag_at(DIAG_ERROR, NULL, 0, "'%s' was killed by signal %d", argv->v[0], WTERMSIG(st));
    return 128 + WTERMSIG(st);
}

char *make_temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    strbuf sb = {0};
    sb_printf(&sb, "%s/gtapcc.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(sb.data)) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot create a temporary directory: %s", strerror(errno));
        sb_free(&sb);
        return NULL;
    }
    return sb.data;
}

void remove_temp_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *p = join(dir, e->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

int write_file_atomic(const char *path, const char *text)
{
    strbuf tmp = {0};
    sb_printf(&tmp, "%s.gtapcc-tmp.%ld", path, (long)getpid());
    FILE *fp = fopen(tmp.data, "wb");
    if (!fp) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot write '%s': %s", path, strerror(errno));
        sb_free(&tmp);
        return -1;
    }
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, fp) != n;
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp.data, path) != 0) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp.data);
        sb_free(&tmp);
        return -1;
    }
    sb_free(&tmp);
    return 0;
}
