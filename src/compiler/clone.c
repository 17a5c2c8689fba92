/* clone.c - which task functions get a serial clone, and the clone's text (clone.h). */
#include "clone.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static int has_clause(const directive *d)
{
    return d->if_expr || d->final_expr;
}

/* A static or __shared__ local is one object for every activation of the task function; the
 * clone, a second function, would get an object of its own, so the two paths would not share
 * it. extern locals name the same object from anywhere and are fine. */
static void check_static_locals(unit *u, const taskfn *fn)
{
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->is_static && clang_Cursor_getStorageClass(l->decl) != CX_SC_Extern)
            diag_error(u->f, l->decl_off, "'%s' is a static or __shared__ local of task function '%s', which "
                       "if(...) or final(...) runs through a serial clone; the clone would have its own '%s' "
                       "(declare it at namespace scope)", l->name, fn->name, l->name);
    }
}

void clone_plan(unit *u)
{
    for (unsigned i = 0; i < u->num_fns; i++) {
        taskfn *fn = &u->fns[i];
        for (unsigned s = 0; s < fn->num_spawns; s++) {
            const directive *d = fn->spawns[s].dir;
            if (!has_clause(d))
                continue;
            if (fn_is_cooperative(fn)) {
                /* gtap_gen.h, block mode and warp functions: every thread runs the spawn; a
                 * serial child would run once per thread, with none of the cooperation */
                diag_error(u->f, d->if_expr ? d->if_off : d->final_off, "'%s(...)' is not supported in "
                           "%s task functions; spawn unconditionally and test the condition in the child",
                           d->if_expr ? "if" : "final", fn->worker == WORKER_WARP ? "warp" : "block-level");
                continue;
            }
            if (fn->spawns[s].callee->worker == WORKER_WARP) {
                diag_error(u->f, d->if_expr ? d->if_off : d->final_off, "'%s(...)' on a spawn of warp task "
                           "function '%s': a warp task needs the whole warp and has no serial form",
                           d->if_expr ? "if" : "final", fn->spawns[s].callee->name);
                continue;
            }
            fn->spawns[s].callee->needs_clone = 1;
        }
    }
    /* a clone calls the clones of everything its function spawns */
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < u->num_fns; i++) {
            const taskfn *fn = &u->fns[i];
            if (!fn->needs_clone)
                continue;
            for (unsigned s = 0; s < fn->num_spawns; s++) {
                taskfn *g = fn->spawns[s].callee;
                if (g->worker != WORKER_WARP && !g->needs_clone) /* warp callees: reported below */
                    g->needs_clone = changed = 1;
            }
        }
    }
    for (unsigned i = 0; i < u->num_fns; i++) {
        const taskfn *fn = &u->fns[i];
        if (!fn->needs_clone)
            continue;
        if (fn->body >= 0)
            check_static_locals(u, fn);
        for (unsigned s = 0; s < fn->num_spawns; s++)
            if (fn->spawns[s].callee->worker == WORKER_WARP)
                diag_error(u->f, fn->spawns[s].dir->kw_off, "'%s' runs serially under if(...) or final(...), "
                           "but spawns warp task function '%s', which has no serial form", fn->name,
                           fn->spawns[s].callee->name);
    }
}

/* `static __device__ __noinline__ R gtapgen_F_serial(T0 a, const T1 &b)`. Parameter types are
 * the preamble's aliases (lower.c), so nothing of the user's declarator (default arguments,
 * attributes, __forceinline__) carries over. __noinline__ keeps the recursion out of the
 * persistent kernel's body: its registers and code stay those of the task path. */
static void clone_head(strbuf *sb, const taskfn *fn)
{
    sb_append(sb, "static __device__ __noinline__ ");
    if (fn->is_void)
        sb_append(sb, "void");
    else
        sb_printf(sb, "gtapgen_%s_ret", fn->name);
    sb_printf(sb, " gtapgen_%s_serial(", fn->name);
    for (unsigned i = 0; i < fn->num_params; i++) {
        const local *p = &fn->locals[i];
        sb_printf(sb, "%s%sgtapgen_%s_T%u %s%s", i ? ", " : "", p->is_ref ? "const " : "", fn->name, i,
                  p->is_ref ? "&" : "", *p->name ? p->name : "");
        if (!*p->name)
            sb_printf(sb, "gtapgen_arg%u", i);
    }
    sb_append(sb, ")");
}

char *clone_prototype(const taskfn *fn)
{
    strbuf sb = {0};
    clone_head(&sb, fn);
    sb_append(&sb, ";\n");
    return sb.data;
}

/* Replaces the callee's name in the spawned call by its clone's name. */
static int rename_callee(unit *u, taskfn *fn, const spawn *sp, edit_list *ed)
{
    const tree *t = &fn->t;
    int c = tree_unwrap(t, t->v[sp->call].first_child);
    long at = -1;
    size_t len = strlen(sp->callee->name);
    if (c >= 0 && t->v[c].kind == CXCursor_DeclRefExpr)
        at = parse_offset(u->pr, u->f, clang_getCursorLocation(t->v[c].cur));
    if (at < 0 || (size_t)at + len > u->f->len || strncmp(u->f->text + at, sp->callee->name, len) ||
        is_ident_char((unsigned char)u->f->text[at + len])) {
        diag_error(u->f, t->v[sp->call].begin, "cannot find the name of '%s' in this call for the serial "
                   "clone of '%s' (call it by its plain name)", sp->callee->name, fn->name);
        return -1;
    }
    strbuf sb = {0};
    sb_printf(&sb, "gtapgen_%s_serial", sp->callee->name);
    edit_add(ed, u->f, (unsigned)at, (unsigned)(at + (long)len), sb_str(&sb));
    sb_free(&sb);
    return 0;
}

char *clone_definition(unit *u, taskfn *fn)
{
    edit_list ed = {0};
    int bad = 0;
    for (unsigned s = 0; s < fn->num_spawns; s++) {
        edit_add(&ed, u->f, fn->spawns[s].dir->begin, fn->spawns[s].dir->end, "");
        bad |= rename_callee(u, fn, &fn->spawns[s], &ed);
    }
    for (unsigned w = 0; w < fn->num_waits; w++) /* everything before it has run already */
        edit_add(&ed, u->f, fn->waits[w]->begin, fn->waits[w]->end, "");
    unsigned ob = fn->t.v[fn->body].begin, cb = fn->t.v[fn->body].end;
    char *body = bad ? NULL : edit_apply(u->f, ob, cb, &ed);
    edit_list_free(&ed);
    if (!body)
        return NULL;
    strbuf sb = {0};
    sb_printf(&sb, "/* gtapcc: serial clone of '%s' for if(...) / final(...): plain recursion */\n", fn->name);
    clone_head(&sb, fn);
    sb_append(&sb, "\n");
    unsigned line, col;
    srcfile_linecol(u->f, ob, &line, &col);
    srcfile_line_directive(&sb, u->f, line);
    for (unsigned c = 1; c < col; c++)
        sb_append(&sb, " ");
    sb_append(&sb, body);
    sb_append(&sb, "\n");
    free(body);
    return sb.data;
}
