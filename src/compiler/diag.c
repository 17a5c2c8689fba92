/* diag.c - clang-style diagnostics and the in-memory source file. */
#include "diag.h"
#include "strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_errors;
static int g_warnings_enabled = 1;
static int g_warnings_as_errors;

srcfile *srcfile_load(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    strbuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        sb_append_n(&sb, buf, n);
    int failed = ferror(fp);
    fclose(fp);
    if (failed) {
        diag_at(DIAG_ERROR, NULL, 0, "cannot read '%s'", path);
        sb_free(&sb);
        return NULL;
    }
    srcfile *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    char rp[PATH_MAX];
    f->abspath = xstrdup(realpath(path, rp) ? rp : path);
    f->len = sb.len;
    f->text = sb.data ? sb.data : xstrdup("");
    /* Embedded NUL bytes would cut the text short for every string function below. */
    for (size_t i = 0; i < f->len; i++)
        if (f->text[i] == 0)
            f->text[i] = ' ';
    unsigned cap = 64;
    f->line_start = xmalloc(cap * sizeof *f->line_start);
    f->line_start[f->num_lines++] = 0;
    for (size_t i = 0; i < f->len; i++) {
        if (f->text[i] == '\n') {
            if (f->num_lines == cap) {
                cap *= 2;
                f->line_start = xrealloc(f->line_start, cap * sizeof *f->line_start);
            }
            f->line_start[f->num_lines++] = (unsigned)(i + 1);
        }
    }
    return f;
}

void srcfile_free(srcfile *f)
{
    if (!f)
        return;
    free(f->path);
    free(f->abspath);
    free(f->text);
    free(f->line_start);
    free(f);
}

void srcfile_line_directive(strbuf *sb, const srcfile *f, unsigned line)
{
    sb_printf(sb, "#line %u \"", line);
    for (const char *p = f->path; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_append_n(sb, "\\", 1);
        sb_append_n(sb, p, 1);
    }
    sb_append(sb, "\"\n");
}

void srcfile_linecol(const srcfile *f, unsigned off, unsigned *line_p, unsigned *col_p)
{
    unsigned lo = 0, hi = f->num_lines;
    if (off > f->len)
        off = (unsigned)f->len;
    while (hi - lo > 1) { /* last line start <= off */
        unsigned mid = (lo + hi) / 2;
        if (f->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line_p = lo + 1;
    *col_p = off - f->line_start[lo] + 1;
}

void diag_set_warnings(int enabled, int as_errors)
{
    g_warnings_enabled = enabled;
    g_warnings_as_errors = as_errors;
}

void diag_count_external_error(void)
{
    g_errors++;
}

unsigned diag_error_count(void)
{
    return g_errors;
}

void diag_at(diag_level lv, const srcfile *f, unsigned off, const char *fmt, ...)
{
    const char *name = lv == DIAG_ERROR ? "error" : lv == DIAG_WARNING ? "warning" : "note";
    if (lv == DIAG_WARNING && !g_warnings_enabled)
        return;
    if (lv == DIAG_WARNING && g_warnings_as_errors) {
        lv = DIAG_ERROR;
        name = "error";
    }
    if (lv == DIAG_ERROR)
        g_errors++;
    if (f) {
        unsigned line, col;
        srcfile_linecol(f, off, &line, &col);
        fprintf(stderr, "%s:%u:%u: %s: ", f->path, line, col, name);
    } else {
        fprintf(stderr, "gtapcc: %s: ", name);
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
