/* warp.c - the compile-time rules of worker sizes and warp task functions: a function's
 * worker size against the program's runtime header, its result thread, and a warp task's
 * taskwait, which must not sit under a condition that depends on the lane (docs/compiler.md
 * section 5; docs/design.md W3 is the run-time side). */
#include "warp.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

/* The first lane-dependent name in f->text[b, e) (the lane API, threadIdx), or NULL. */
static const char *lane_dependence(const srcfile *f, unsigned b, unsigned e)
{
    static const char *const names[] = {"gtap_warp_lane", "GTAP_WARP_LANE", "threadIdx", "__lane_id", NULL};
    for (unsigned i = b; i < e && i < f->len; i++) {
        if (is_ident_char((unsigned char)f->text[i]) && (i == b || !is_ident_char((unsigned char)f->text[i - 1]))) {
            unsigned j = i;
            while (j < e && is_ident_char((unsigned char)f->text[j]))
                j++;
            for (const char *const *n = names; *n; n++)
                if (strlen(*n) == j - i && !strncmp(f->text + i, *n, j - i))
                    return *n;
            i = j;
        }
    }
    return NULL;
}

/* The first local of fn that node range [b, e) reads and that holds[] marks, or -1. */
static int held_local_in(const tree *t, const char *holds, unsigned b, unsigned e)
{
    for (unsigned k = 1; k < t->n; k++)
        if (t->v[k].kind == CXCursor_DeclRefExpr && t->v[k].local >= 0 && holds[t->v[k].local] &&
            t->v[k].begin >= b && t->v[k].end <= e)
            return t->v[k].local;
    return -1;
}

/* Marks in holds[] the locals of fn whose value depends on the lane: initialized or assigned
 * from an expression that names the lane (lane_dependence) or reads such a local, to a fixed
 * point. Flow-insensitive: a local assigned a lane-dependent value anywhere counts. */
static void lane_dependent_locals(const unit *u, const taskfn *fn, char *holds)
{
    const tree *t = &fn->t;
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned k = 1; k < t->n; k++) {
            const node *nd = &t->v[k];
            int target = -1;
            unsigned b = nd->begin, e = nd->end;
            if (nd->kind == CXCursor_VarDecl && nd->local >= 0) {
                target = nd->local;
                b = fn->locals[nd->local].decl_off; /* the initializer follows the name */
            } else if (nd->kind == CXCursor_BinaryOperator || nd->kind == CXCursor_CompoundAssignOperator) {
                const enum CX_BinaryOperatorKind op = clang_Cursor_getBinaryOpcode(nd->cur);
                const int lhs = tree_unwrap(t, nd->first_child);
                if (op >= CX_BO_Assign && op <= CX_BO_OrAssign && lhs >= 0 &&
                    t->v[lhs].kind == CXCursor_DeclRefExpr && t->v[lhs].local >= 0) {
                    target = t->v[lhs].local;
                    b = t->v[lhs].end;
                }
            }
            if (target < 0 || holds[target])
                continue;
            if (lane_dependence(u->f, b, e) || held_local_in(t, holds, b, e) >= 0)
                holds[target] = changed = 1;
        }
    }
}

/* A taskwait of a warp task function is collective (gtap_gen.h): a loop or branch around it
 * whose condition depends on the lane would let some lanes skip it. The check follows the lane
 * through locals (lane_dependent_locals) but not through calls or memory; the runtime catches
 * the rest (docs/design.md W3). */
void gtapcc_check_warp_taskwait(unit *u, const taskfn *fn, const directive *d)
{
    const tree *t = &fn->t;
    char *holds = xcalloc(fn->num_locals + 1, 1);
    lane_dependent_locals(u, fn, holds);
    for (int p = tree_innermost(t, d->begin); p > 0 && p != fn->body; p = t->v[p].parent) {
        enum CXCursorKind k = t->v[p].kind;
        unsigned b = 0, e = 0;
        if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt || k == CXCursor_ForStmt ||
            k == CXCursor_SwitchStmt) {
            /* the parenthesized head after the keyword */
            unsigned i = t->v[p].begin;
            while (i < t->v[p].end && u->f->text[i] != '(')
                i++;
            int depth = 0;
            b = i;
            for (; i < t->v[p].end; i++) {
                if (u->f->text[i] == '(')
                    depth++;
                else if (u->f->text[i] == ')' && --depth == 0)
                    break;
            }
            e = i;
        } else if (k == CXCursor_DoStmt) {
            int body = t->v[p].first_child;
            b = body >= 0 ? t->v[body].end : t->v[p].begin;
            e = t->v[p].end;
        } else {
            continue;
        }
        const char *name = lane_dependence(u->f, b, e);
        const int held = name ? -1 : held_local_in(t, holds, b, e);
        if (name || held >= 0) {
            unsigned line, col;
            srcfile_linecol(u->f, b, &line, &col);
            diag_error(u->f, d->kw_off, "taskwait in warp task function '%s' under a condition that "
                       "depends on the lane ('%s'%s at line %u); all 32 lanes must reach a taskwait together",
                       fn->name, name ? name : fn->locals[held].name, name ? "" : ", which holds a lane-dependent value",
                       line);
            break;
        }
    }
    free(holds);
}

void gtapcc_check_worker_size(unit *u, const directive *d)
{
    if (d->worker_size == WORKER_WARP && u->mode == WORKER_BLOCK)
        diag_error(u->f, d->kw_off, "warp task functions belong to thread-level programs "
                   "(gtap_thread.cuh); in a block-level program every task already runs on a whole "
                   "block");
    else if (d->worker_size && d->worker_size != WORKER_WARP && d->worker_size != u->mode)
        diag_error(u->f, d->kw_off, "worker_size(%s) does not match the included runtime header (%s)",
                   d->worker_size == WORKER_BLOCK ? "block" : "thread",
                   u->mode == WORKER_BLOCK ? "gtap_block.cuh" : "gtap_thread.cuh");
    if (d->worker_size == WORKER_WARP && d->return_thread > 31)
        diag_error(u->f, d->kw_off, "return_thread(%d) of a warp task function must name a lane, "
                   "0 to 31", d->return_thread);
    else if (d->return_thread > 0 && u->mode != WORKER_BLOCK && d->worker_size != WORKER_WARP)
        diag_warning(u->f, d->kw_off, "return_thread(...) only matters for block-level and warp task "
                     "functions");
}
