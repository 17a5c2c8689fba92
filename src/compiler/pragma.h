/* pragma.h - finds `#pragma gtap` directives in a source buffer and parses their clauses.
 *
 * libclang drops unknown pragmas from the AST, so directives are found in the source text
 * itself (comments, string literals and preprocessor-skipped ranges excluded) and attached to
 * statements later by position (analyze.c).
 */
#ifndef GTAPCC_PRAGMA_H
#define GTAPCC_PRAGMA_H

#include "diag.h"

typedef enum dir_kind { DIR_FUNCTION = 1, DIR_TASK, DIR_TASKWAIT, DIR_ENTRY } dir_kind;

/* WORKER_WARP: a warp task function of a thread-level program (`#pragma gtap function warp`). */
enum { WORKER_UNSET = 0, WORKER_THREAD = 1, WORKER_BLOCK = 2, WORKER_WARP = 3 };

typedef struct directive {
    dir_kind kind;
    unsigned begin;        /* offset of the '#' */
    unsigned end;          /* offset just past the directive's last character (before '\n') */
    unsigned kw_off;       /* offset of the directive keyword, for diagnostics */
    char *queue;           /* text of queue(expr), or NULL */
    unsigned queue_off;
    char *if_expr;         /* text of if(expr), or NULL (task only; docs/compiler.md, if and final) */
    unsigned if_off;
    char *final_expr;      /* text of final(expr), or NULL (task only) */
    unsigned final_off;
    int worker_size;       /* WORKER_* (function only) */
    int return_thread;     /* -1 when absent (function only) */
    int used;              /* set once analysis attached it to a statement or function */
} directive;

typedef struct dir_list {
    directive *v;
    unsigned n, cap;
} dir_list;

/* Appends every directive of f outside the skipped ranges (pairs of [begin, end) offsets,
 * sorted) to out. Malformed directives are reported and not appended. */
void pragma_scan(const srcfile *f, const unsigned (*skipped)[2], unsigned nskipped, dir_list *out);
void dir_list_free(dir_list *l);
const char *dir_kind_name(dir_kind k);

#endif /* GTAPCC_PRAGMA_H */
