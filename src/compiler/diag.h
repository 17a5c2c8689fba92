/* diag.h - clang-style diagnostics (file:line:col: error: ...) for gtapcc.
 *
 * Every user-facing message goes through here so the format, the error count and the exit
 * status stay consistent. Positions are byte offsets into a source buffer (srcfile).
 */
#ifndef GTAPCC_DIAG_H
#define GTAPCC_DIAG_H

#include <stddef.h>

/* One user source file held in memory: the bytes gtapcc reads and rewrites. */
typedef struct srcfile {
    char *path;            /* as given on the command line (printed in diagnostics) */
    char *abspath;         /* realpath, used to match libclang file names */
    char *text;            /* contents, NUL-terminated */
    size_t len;
    unsigned *line_start;  /* offsets of line starts; line_start[0] = 0 */
    unsigned num_lines;
} srcfile;

/* Reads path into a new srcfile; returns NULL (after printing an error) on failure. */
srcfile *srcfile_load(const char *path);
void srcfile_free(srcfile *f);
/* 1-based line and column of a byte offset. */
void srcfile_linecol(const srcfile *f, unsigned off, unsigned *line_p, unsigned *col_p);
/* Appends `#line N "path"` (path escaped for a string literal) to sb. */
struct strbuf;
void srcfile_line_directive(struct strbuf *sb, const srcfile *f, unsigned line);

typedef enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_level;

/* Prints "path:line:col: level: message" to stderr. f may be NULL (prints "gtapcc: level:"). */
void diag_at(diag_level lv, const srcfile *f, unsigned off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define diag_error(f, off, ...) diag_at(DIAG_ERROR, (f), (off), __VA_ARGS__)
#define diag_warning(f, off, ...) diag_at(DIAG_WARNING, (f), (off), __VA_ARGS__)
#define diag_note(f, off, ...) diag_at(DIAG_NOTE, (f), (off), __VA_ARGS__)

/* Counts an error printed elsewhere in the same format. */
void diag_count_external_error(void);
/* Errors reported so far (warnings do not count). */
unsigned diag_error_count(void);
/* -w: suppress warnings; -Werror: warnings count as errors. */
void diag_set_warnings(int enabled, int as_errors);

#endif /* GTAPCC_DIAG_H */
