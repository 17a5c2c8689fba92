/* pragma.c - finds `#pragma gtap` lines in the source text and parses their clauses. */
#include "pragma.h"
#include "strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *dir_kind_name(dir_kind k)
{
    switch (k) {
    case DIR_FUNCTION: return "function";
    case DIR_TASK: return "task";
    case DIR_TASKWAIT: return "taskwait";
    case DIR_ENTRY: return "entry";
    }
    return "?";
}

void dir_list_free(dir_list *l)
{
    for (unsigned i = 0; i < l->n; i++) {
        free(l->v[i].queue);
        free(l->v[i].if_expr);
        free(l->v[i].final_expr);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* A logical directive line: backslash-newlines and comments removed; each kept character
 * remembers its offset in the file so diagnostics point at the right column. */
typedef struct logline {
    char *c;
    unsigned *off;
    unsigned n;
} logline;

static int in_skipped(unsigned off, const unsigned (*sk)[2], unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (off >= sk[i][0] && off < sk[i][1])
            return 1;
    return 0;
}

/* Reads the preprocessor line starting at `start` ('#'); returns the offset of the line's
 * terminating '\n' (or EOF) and fills ll (caller frees). */
static unsigned read_logline(const srcfile *f, unsigned start, logline *ll)
{
    const char *t = f->text;
    unsigned i = start, n = (unsigned)f->len;
    ll->c = xmalloc(n - start + 1);
    ll->off = xmalloc((n - start + 1) * sizeof *ll->off);
    ll->n = 0;
    while (i < n && t[i] != '\n') {
        if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (t[i] == '\\' && i + 2 < n && t[i + 1] == '\r' && t[i + 2] == '\n') {
            i += 3;
            continue;
        }
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '/')
            break; /* line comment ends the directive (continuations inside it: rare, ignored) */
        if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
            unsigned j = i + 2;
            while (j + 1 < n && !(t[j] == '*' && t[j + 1] == '/'))
                j++;
            i = j + 1 < n ? j + 2 : n;
            ll->c[ll->n] = ' ';
            ll->off[ll->n++] = i > 0 ? i - 1 : 0;
            continue;
        }
        ll->c[ll->n] = t[i] == '\r' || t[i] == '\t' ? ' ' : t[i];
        ll->off[ll->n++] = i;
        i++;
    }
    ll->c[ll->n] = 0;
    /* the directive ends at the newline, past any trailing comment */
    while (i < n && t[i] != '\n')
        i++;
    return i;
}

static unsigned skip_ws(const logline *ll, unsigned p)
{
    while (p < ll->n && isspace((unsigned char)ll->c[p]))
        p++;
    return p;
}

static unsigned ident_end(const logline *ll, unsigned p)
{
    while (p < ll->n && (isalnum((unsigned char)ll->c[p]) || ll->c[p] == '_'))
        p++;
    return p;
}

static unsigned offset_at(const logline *ll, unsigned p, unsigned eol)
{
    return p < ll->n ? ll->off[p] : eol;
}

/* Parses `name ( text )` with balanced parentheses starting at p (at '('); returns the
 * position after ')' or 0 on error (reported). */
static unsigned parse_paren(const srcfile *f, const logline *ll, unsigned p, unsigned eol,
                            const char *clause, char **text_p, unsigned *text_pos_p)
{
    if (p >= ll->n || ll->c[p] != '(') {
        diag_error(f, offset_at(ll, p, eol), "expected '(' after '%s'", clause);
        return 0;
    }
    unsigned depth = 0, q = p;
    for (; q < ll->n; q++) {
        char c = ll->c[q];
        if (c == '"' || c == '\'') { /* skip literals so ')' inside them does not count */
            char quote = c;
            for (q++; q < ll->n && ll->c[q] != quote; q++)
                if (ll->c[q] == '\\')
                    q++;
            if (q >= ll->n)
                break;
            continue;
        }
        if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            break;
    }
    if (q >= ll->n) {
        diag_error(f, offset_at(ll, p, eol), "expected ')' to close '%s('", clause);
        return 0;
    }
    unsigned b = skip_ws(ll, p + 1), e = q;
    while (e > b && isspace((unsigned char)ll->c[e - 1]))
        e--;
    if (e == b) {
        diag_error(f, offset_at(ll, p + 1, eol), "expected an expression in '%s(...)'", clause);
        return 0;
    }
    *text_p = xstrndup(ll->c + b, e - b);
    *text_pos_p = b;
    return q + 1;
}

/* A clause expression is pasted into the generated code as it is written, so a mistake in it
 * would surface as a compiler error inside generated text; the shape checks here catch the
 * common ones at the directive instead. Returns NULL, or what is wrong and its index in s. */
static const char *expr_problem(const char *s, unsigned *at_p)
{
    size_t n = strlen(s);
    char *open = xmalloc(n + 1); /* the brackets still open */
    unsigned *open_at = xmalloc((n + 1) * sizeof *open_at);
    unsigned depth = 0;
    const char *why = NULL;
    for (unsigned i = 0; i < n && !why; i++) {
        char c = s[i];
        *at_p = i;
        if (c == '"' || c == '\'') {
            for (i++; i < n && s[i] != c; i++)
                if (s[i] == '\\')
                    i++;
        } else if (c == ';' || c == '{' || c == '}') {
            why = "a statement or a block cannot appear in a clause";
        } else if (c == '(' || c == '[') {
            open[depth] = c;
            open_at[depth++] = i;
        } else if (c == ')' || c == ']') {
            if (!depth || open[depth - 1] != (c == ')' ? '(' : '['))
                why = "unbalanced brackets";
            else
                depth--;
        } else if (c == ',' && !depth) {
            why = "expected one expression, found ','";
        }
    }
    if (!why && depth) {
        *at_p = open_at[depth - 1];
        why = "unbalanced brackets";
    }
    free(open);
    free(open_at);
    if (why)
        return why;
    /* parse_paren trimmed s, so its ends are operands or operators */
    if (strchr("/%|^<>=?,)]", s[0]) || (s[0] == '.' && !isdigit((unsigned char)s[1])) ||
        (s[0] == ':' && s[1] != ':')) {
        *at_p = 0;
        return "expected an operand at the start";
    }
    char last = s[n - 1];
    int postfix = n >= 2 && (last == '+' || last == '-') && s[n - 2] == last;
    if (strchr("+-*/%&|^<>=!~?:,.", last) && !postfix) {
        *at_p = (unsigned)n - 1;
        return "expected an operand at the end";
    }
    return NULL;
}

/* Parses the directive in ll (which starts with '#'); appends it to out on success. */
static void parse_directive(const srcfile *f, const logline *ll, unsigned eol, dir_list *out)
{
    unsigned p = skip_ws(ll, 1);
    unsigned e = ident_end(ll, p);
    if (e - p != 6 || strncmp(ll->c + p, "pragma", 6) != 0)
        return;
    p = skip_ws(ll, e);
    e = ident_end(ll, p);
    if (e - p != 4 || strncmp(ll->c + p, "gtap", 4) != 0)
        return;
    p = skip_ws(ll, e);
    e = ident_end(ll, p);
    directive d;
    memset(&d, 0, sizeof d);
    d.begin = ll->off[0];
    d.end = eol;
    d.kw_off = offset_at(ll, p, eol);
    d.return_thread = -1;
    if (e == p) {
        diag_error(f, d.kw_off, "expected a gtap directive (function, task, taskwait or entry)");
        return;
    }
    char *name = xstrndup(ll->c + p, e - p);
    if (!strcmp(name, "function"))
        d.kind = DIR_FUNCTION;
    else if (!strcmp(name, "task"))
        d.kind = DIR_TASK;
    else if (!strcmp(name, "taskwait"))
        d.kind = DIR_TASKWAIT;
    else if (!strcmp(name, "entry"))
        d.kind = DIR_ENTRY;
    else {
        diag_error(f, d.kw_off, "unknown gtap directive '%s' (expected function, task, taskwait or entry)",
                   name);
        free(name);
        return;
    }
    free(name);
    p = skip_ws(ll, e);
    while (p < ll->n) {
        unsigned coff = ll->off[p];
        e = ident_end(ll, p);
        if (e == p) {
            diag_error(f, coff, "unexpected '%c' in '#pragma gtap %s'", ll->c[p], dir_kind_name(d.kind));
            goto fail;
        }
        char *clause = xstrndup(ll->c + p, e - p);
        char *arg = NULL;
        unsigned arg_pos = 0;
        int task_only = !strcmp(clause, "if") || !strcmp(clause, "final");
        if (task_only && d.kind != DIR_TASK) {
            diag_error(f, coff, "'%s' is a clause of '#pragma gtap task' only, not of '#pragma gtap %s'",
                       clause, dir_kind_name(d.kind));
            free(clause);
            goto fail;
        }
        int known = task_only ? 1
                    : (d.kind == DIR_TASK || d.kind == DIR_TASKWAIT) ? !strcmp(clause, "queue")
                    : d.kind == DIR_FUNCTION ? !strcmp(clause, "worker_size") || !strcmp(clause, "return_thread") ||
                                                   !strcmp(clause, "warp")
                    : 0;
        if (!known) {
            diag_error(f, coff, "unknown clause '%s' on '#pragma gtap %s'", clause, dir_kind_name(d.kind));
            free(clause);
            goto fail;
        }
        if (!strcmp(clause, "warp")) { /* a bare word: the same as worker_size(warp) */
            if (d.worker_size) {
                diag_error(f, coff, "'warp' and worker_size(...) both give the function's worker size; "
                           "keep one");
                free(clause);
                goto fail;
            }
            d.worker_size = WORKER_WARP;
            free(clause);
            p = skip_ws(ll, e);
            continue;
        }
        unsigned q = parse_paren(f, ll, skip_ws(ll, e), eol, clause, &arg, &arg_pos);
        if (!q) {
            free(clause);
            goto fail;
        }
        if (!strcmp(clause, "queue")) {
            if (d.queue) {
                diag_error(f, coff, "duplicate 'queue' clause");
                free(arg);
                free(clause);
                goto fail;
            }
            d.queue = arg;
            d.queue_off = coff;
        } else if (task_only) {
            char **slot = clause[0] == 'i' ? &d.if_expr : &d.final_expr;
            unsigned at;
            const char *why = expr_problem(arg, &at);
            if (*slot || why) {
                if (*slot)
                    diag_error(f, coff, "duplicate '%s' clause", clause);
                else
                    diag_error(f, offset_at(ll, arg_pos + at, eol), "malformed expression in '%s(...)': %s",
                               clause, why);
                free(arg);
                free(clause);
                goto fail;
            }
            *slot = arg;
            if (clause[0] == 'i')
                d.if_off = coff;
            else
                d.final_off = coff;
        } else if (!strcmp(clause, "worker_size")) {
            if (d.worker_size) {
                diag_error(f, coff, "duplicate worker size ('warp' or worker_size(...))");
                free(arg);
                free(clause);
                goto fail;
            }
            if (!strcmp(arg, "thread"))
                d.worker_size = WORKER_THREAD;
            else if (!strcmp(arg, "block"))
                d.worker_size = WORKER_BLOCK;
            else if (!strcmp(arg, "warp"))
                d.worker_size = WORKER_WARP;
            else {
                diag_error(f, coff, "worker_size must be 'thread', 'warp' or 'block', not '%s'", arg);
                free(arg);
                free(clause);
                goto fail;
            }
            free(arg);
        } else { /* return_thread */
            char *endp;
            long v = strtol(arg, &endp, 0);
            if (*endp || v < 0 || v > 1023) {
                diag_error(f, coff, "return_thread needs a thread index between 0 and 1023, not '%s'", arg);
                free(arg);
                free(clause);
                goto fail;
            }
            d.return_thread = (int)v;
            free(arg);
        }
        free(clause);
        p = skip_ws(ll, q);
    }
    if (out->n == out->cap) {
        out->cap = out->cap ? out->cap * 2 : 16;
        out->v = xrealloc(out->v, out->cap * sizeof *out->v);
    }
    out->v[out->n++] = d;
    return;
fail:
    free(d.queue);
    free(d.if_expr);
    free(d.final_expr);
}

void pragma_scan(const srcfile *f, const unsigned (*skipped)[2], unsigned nskipped, dir_list *out)
{
    const char *t = f->text;
    unsigned n = (unsigned)f->len, i = 0;
    int line_start = 1;
    while (i < n) {
        char c = t[i];
        if (c == '\n') {
            line_start = 1;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n') {
                if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n')
                    i++;
                i++;
            }
            continue;
        }
        if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'))
                i++;
            i = i + 1 < n ? i + 2 : n;
            continue; /* a comment does not end "start of line" */
        }
        if (c == '#' && line_start) {
            logline ll;
            unsigned eol = read_logline(f, i, &ll);
            if (!in_skipped(i, skipped, nskipped))
                parse_directive(f, &ll, eol, out);
            free(ll.c);
            free(ll.off);
            i = eol;
            continue;
        }
        line_start = 0;
        if (c == '"' || c == '\'') {
            /* raw strings R"(...)" are rare in device code; a plain scan is good enough */
            char quote = c;
            i++;
            while (i < n && t[i] != quote && t[i] != '\n') {
                if (t[i] == '\\')
                    i++;
                i++;
            }
            i++;
            continue;
        }
        i++;
    }
}
