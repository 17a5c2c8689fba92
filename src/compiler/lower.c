/* lower.c - turns each task function into a resumable state machine (as text edits): task
 * data layout, aliases for parameters and spilled locals, spawn code at every task, a join
 * and resume label at every taskwait, finish-and-return at every return; rewrites entries
 * and, on the host target, kernel launches.
 *
 * Shape (gtap_gen.h): the state machine binds every parameter and spilled local to its
 * field through a reference (`auto &x = self->x[GTAP_LANE];`), so the user's statements keep
 * their text; a switch on the resumption state jumps to `gtapgen_resume_K:` right after the
 * K-th taskwait. Resume labels may sit inside loops, if/else and user switches, which is
 * why the dispatch uses goto rather than case labels in the user's code.
 */
#include "clone.h"
#include "model.h"
#include "strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static unsigned line_of(const srcfile *f, unsigned off)
{
    unsigned line, col;
    srcfile_linecol(f, off, &line, &col);
    return line;
}

/* ---- names ---------------------------------------------------------------------------- */

static void assign_names(unit *u, taskfn *fn)
{
    (void)u;
    tree *t = &fn->t;
    for (unsigned i = 0; i < fn->num_locals; i++) {
        local *l = &fn->locals[i];
        if (l->is_param) {
            l->field = *l->name ? xstrdup(l->name) : NULL;
            if (!l->field) {
                strbuf sb = {0};
                sb_printf(&sb, "gtapgen_arg%u", i);
                l->field = sb.data;
            }
            l->alias = xstrdup(l->field);
            continue;
        }
        if (!l->spill)
            continue;
        /* field: the plain name unless another field already has it */
        int clash = 0;
        for (unsigned k = 0; k < i; k++)
            if (fn->locals[k].field && !strcmp(fn->locals[k].field, l->name))
                clash = 1;
        strbuf sb = {0};
        if (clash)
            sb_printf(&sb, "gtapgen_%u_%s", i, l->name);
        else
            sb_append(&sb, l->name);
        l->field = sb.data;
        /* alias: the plain name when nothing else in the function is called that */
        int conflict = l->is_ref;
        for (unsigned k = 0; k < fn->num_locals && !conflict; k++)
            if (k != i && !strcmp(fn->locals[k].name, l->name))
                conflict = 1;
        for (unsigned k = 1; k < t->n && !conflict; k++) {
            const node *nd = &t->v[k];
            if (nd->local == (int)i || (nd->kind != CXCursor_DeclRefExpr && nd->kind != CXCursor_TypeRef &&
                                        nd->kind != CXCursor_MemberRefExpr))
                continue;
            char *sp = cursor_spelling(nd->cur);
            const char *last = strrchr(sp, ' ');
            last = last ? last + 1 : sp;
            if (!strcmp(last, l->name) && nd->kind != CXCursor_MemberRefExpr)
                conflict = 1;
            free(sp);
        }
        sb = (strbuf){0};
        if (l->is_ref)
            sb_printf(&sb, "(*gtapgen_self->%s[%s])", l->field, fn_lane_macro(fn));
        else if (conflict)
            sb_printf(&sb, "gtapgen_%u_%s", i, l->name);
        else
            sb_append(&sb, l->name);
        l->alias = sb.data;
        l->split = 0;
        if (conflict || l->is_ref)
            l->split = 2; /* marks "renamed": references are rewritten one by one */
    }
}

static int is_renamed(const local *l)
{
    return l->spill && l->split == 2;
}

/* Field type for the task data: references become pointers (spilled locals) or values
 * (const-reference parameters, copied at spawn like every argument). */
static CXType field_type(const local *l)
{
    if (l->is_ref)
        return clang_getPointeeType(l->type);
    return l->type;
}

/* ---- clause expressions ------------------------------------------------------------- */

/* The text of a clause expression written in directive d, with renamed locals replaced by
 * their translated names (the directive is not part of libclang's tree, so by identifier;
 * a name after '.', '->' or '::' is a member, not a local). */
static char *clause_text(const taskfn *fn, const directive *d, const char *expr)
{
    strbuf sb = {0};
    const char *p = expr;
    while (*p) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (is_ident_char((unsigned char)*p))
                p++;
            size_t n = (size_t)(p - s);
            const char *rep = NULL;
            const char *b = s;
            while (b > expr && (b[-1] == ' '))
                b--;
            int member = b > expr && (b[-1] == '.' || (b - expr >= 2 && ((b[-2] == '-' && b[-1] == '>') ||
                                                                         (b[-2] == ':' && b[-1] == ':'))));
            for (unsigned i = 0; i < fn->num_locals && !member; i++) {
                const local *l = &fn->locals[i];
                if (is_renamed(l) && strlen(l->name) == n && !strncmp(l->name, s, n) &&
                    l->decl_off < d->begin && fn->t.v[l->scope].begin <= d->begin &&
                    d->begin < fn->t.v[l->scope].end)
                    rep = l->alias;
            }
            if (rep)
                sb_append(&sb, rep);
            else
                sb_append_n(&sb, s, n);
        } else {
            sb_append_n(&sb, p, 1);
            p++;
        }
    }
    return sb.data ? sb.data : xstrdup("0");
}

/* The queue clause's text; block-level functions ignore it (warned in analyze.c). */
static char *queue_text(const taskfn *fn, const directive *d)
{
    if (!d->queue || fn->worker == WORKER_BLOCK)
        return xstrdup("0");
    return clause_text(fn, d, d->queue);
}

/* ---- declarations of spilled locals ----------------------------------------------------- */

/* Extent of the initializer text of VarDecl node vd: [*b, *e). form: '=', '(' or '{'.
 * Returns 0 when the text cannot be understood. */
static int init_region(const srcfile *f, const tree *t, const local *l, unsigned *b, unsigned *e, char *form)
{
    const node *vd = &t->v[l->node];
    const char *tx = f->text;
    unsigned p = l->decl_off + (unsigned)strlen(l->name);
    unsigned end = vd->end;
    /* skip array bounds */
    while (p < end) {
        while (p < end && isspace((unsigned char)tx[p]))
            p++;
        if (p < end && tx[p] == '[') {
            int depth = 0;
            for (; p < f->len; p++) {
                if (tx[p] == '[')
                    depth++;
                else if (tx[p] == ']' && --depth == 0) {
                    p++;
                    break;
                }
            }
            continue;
        }
        break;
    }
    if (p >= f->len)
        return 0;
    if (tx[p] == '=') {
        p++;
        while (p < end && isspace((unsigned char)tx[p]))
            p++;
        *b = p;
        *e = end;
        *form = '=';
        return p < end;
    }
    if (tx[p] == '(' || tx[p] == '{') {
        char open = tx[p], close = open == '(' ? ')' : '}';
        int depth = 0;
        unsigned q = p;
        for (; q < f->len; q++) {
            if (tx[q] == open)
                depth++;
            else if (tx[q] == close && --depth == 0)
                break;
        }
        if (q >= f->len)
            return 0;
        *b = p;
        *e = q + 1;
        *form = open;
        return 1;
    }
    return 0;
}

static void type_alias_name(strbuf *sb, const taskfn *fn, unsigned i)
{
    sb_printf(sb, "gtapgen_%s_T%u", fn->name, i);
}

/* Rewrites one declaration whose declarators all live in the task data. */
static void lower_spilled_decl(unit *u, taskfn *fn, int ds)
{
    tree *t = &fn->t;
    const srcfile *f = u->f;
    int parent = t->v[ds].parent;
    int for_init = parent >= 0 && t->v[parent].kind == CXCursor_ForStmt;
    unsigned cursor = t->v[ds].begin, end = t->v[ds].end;
    strbuf pending = {0};
    sb_append(&pending, for_init ? "" : "{ ");
    int first = 1;
    for (int c = t->v[ds].first_child; c >= 0; c = t->v[c].next_sibling) {
        if (t->v[c].kind != CXCursor_VarDecl || t->v[c].local < 0)
            continue;
        const local *l = &fn->locals[t->v[c].local];
        if (!l->has_init)
            continue;
        unsigned b, e;
        char form;
        if (t->v[c].from_macro || !init_region(f, t, l, &b, &e, &form)) {
            diag_error(f, l->decl_off, "cannot move the declaration of '%s' into the task data "
                       "(write it as 'T %s = value;')", l->name, l->name);
            sb_free(&pending);
            return;
        }
        int is_array = clang_getCanonicalType(l->type).kind == CXType_ConstantArray;
        strbuf pre = {0}, tname = {0};
        type_alias_name(&tname, fn, (unsigned)t->v[c].local);
        if (l->is_ref) {
            sb_printf(&pre, "%sgtapgen_self->%s[%s] = &(", for_init && !first ? ", " : "", l->field, fn_lane_macro(fn));
        } else if (is_array) {
            if (for_init) {
                diag_error(f, l->decl_off, "an array declared in a for-loop header cannot live across a taskwait");
                sb_free(&pending);
                sb_free(&tname);
                return;
            }
            sb_printf(&pre, "{ %s gtapgen_init%s", sb_str(&tname), form == '=' ? " = " : "");
        } else if (form == '=' && f->text[b] != '{') {
            sb_printf(&pre, "%s%s = (", for_init && !first ? ", " : "", l->alias);
        } else {
            sb_printf(&pre, "%s%s = %s", for_init && !first ? ", " : "", l->alias, sb_str(&tname));
        }
        sb_append(&pending, sb_str(&pre));
        edit_add(&fn->edits, f, cursor, b, sb_str(&pending));
        sb_free(&pending);
        if (l->is_ref || (!is_array && form == '=' && f->text[b] != '{'))
            sb_append(&pending, ")");
        if (is_array)
            sb_printf(&pending, "; __builtin_memcpy(&%s, &gtapgen_init, sizeof gtapgen_init); }", l->alias);
        sb_append(&pending, for_init ? "" : "; ");
        cursor = e;
        first = 0;
        sb_free(&pre);
        sb_free(&tname);
    }
    sb_append(&pending, for_init ? ";" : "}");
    if (cursor > end)
        cursor = end;
    edit_add(&fn->edits, f, cursor, end, sb_str(&pending));
    sb_free(&pending);
}

/* A spilled condition variable (`if (int x = e)`) becomes `if ((x = e))`. */
static void lower_condition_var(unit *u, taskfn *fn, const local *l)
{
    tree *t = &fn->t;
    unsigned b, e;
    char form;
    if (!init_region(u->f, t, l, &b, &e, &form) || form != '=' || l->is_ref) {
        diag_error(u->f, l->decl_off, "cannot move the condition variable '%s' into the task data; "
                   "declare it before the statement", l->name);
        return;
    }
    strbuf sb = {0};
    sb_printf(&sb, "(%s = (", l->alias);
    edit_add(&fn->edits, u->f, t->v[l->node].begin, b, sb_str(&sb));
    edit_add(&fn->edits, u->f, e, t->v[l->node].end, "))");
    sb_free(&sb);
}

/* `T x = e;` with a resume label in x's scope becomes `T x; x = e;`. */
static void lower_split(unit *u, taskfn *fn, const local *l)
{
    unsigned b, e;
    char form;
    if (!init_region(u->f, &fn->t, l, &b, &e, &form) || form != '=')
        return;
    unsigned name_end = l->decl_off + (unsigned)strlen(l->name);
    strbuf sb = {0};
    sb_printf(&sb, "; %s = ", l->name);
    edit_add(&fn->edits, u->f, name_end, b, sb_str(&sb));
    sb_free(&sb);
}

/* The spawn proper: `struct gtapgen_G_data *gtapgen_c = gtap_task_spawn(...); ` (gtap_gen.h). */
static void spawn_call(strbuf *sb, const unit *u, const taskfn *fn, const spawn *sp)
{
    const taskfn *g = sp->callee;
    char *q = queue_text(fn, sp->dir);
    sb_printf(sb, "struct gtapgen_%s_data *gtapgen_c = (struct gtapgen_%s_data *)gtap_task_spawn("
              "gtapgen_w, gtapgen_t, GTAPGEN_FN_%s, (unsigned)sizeof *gtapgen_c, (int)(%s), gtapgen_dst); "
              "(void)gtapgen_c; /* task at line %u */ ", g->name, g->name, g->name, q, line_of(u->f, sp->dir->begin));
    free(q);
}

/* A spawn with if(...) / final(...) (docs/compiler.md, "if and final"): the clauses, then the
 * arguments, are evaluated once into temporaries; then either the callee's serial clone runs
 * at once in this lane, its result stored where the child's would go, or the child is
 * spawned as without the clauses. */
static void clause_tests(strbuf *sb, const taskfn *fn, const directive *d)
{
    if (d->if_expr) {
        char *e = clause_text(fn, d, d->if_expr);
        sb_printf(sb, "const bool gtapgen_if = (bool)(%s); ", e);
        free(e);
    }
    if (d->final_expr) {
        char *e = clause_text(fn, d, d->final_expr);
        sb_printf(sb, "const bool gtapgen_final = (bool)(%s); ", e);
        free(e);
    }
}

static void clause_branches(strbuf *sb, const unit *u, const taskfn *fn, const spawn *sp)
{
    const taskfn *g = sp->callee;
    const directive *d = sp->dir;
    sb_printf(sb, "if (%s%s%s) { ", d->if_expr ? "!gtapgen_if" : "", d->if_expr && d->final_expr ? " || " : "",
              d->final_expr ? "gtapgen_final" : "");
    if (sp->dst >= 0 || sp->decl_local >= 0)
        sb_printf(sb, "*(gtapgen_%s_ret *)gtapgen_dst = ", g->name);
    else if (!g->is_void)
        sb_append(sb, "(void)");
    sb_printf(sb, "gtapgen_%s_serial(", g->name);
    for (unsigned i = 0; i < g->num_params; i++)
        sb_printf(sb, "%sgtapgen_a%u", i ? ", " : "", i);
    sb_append(sb, "); } else { ");
    spawn_call(sb, u, fn, sp);
    for (unsigned i = 0; i < g->num_params; i++)
        sb_printf(sb, "gtapgen_c->%s = gtapgen_a%u; ", g->locals[i].field, i);
    sb_append(sb, "} ");
}

static void lower_spawn(unit *u, taskfn *fn, const spawn *sp)
{
    tree *t = &fn->t;
    const srcfile *f = u->f;
    const taskfn *g = sp->callee;
    unsigned nargs = g->num_params;
    int clauses = sp->dir->if_expr || sp->dir->final_expr;
    unsigned *ab = xcalloc(nargs + 1, sizeof *ab), *ae = xcalloc(nargs + 1, sizeof *ae);
    for (unsigned i = 0; i < nargs; i++) {
        CXSourceRange r = clang_getCursorExtent(clang_Cursor_getArgument(t->v[sp->call].cur, i));
        ab[i] = (unsigned)parse_offset(u->pr, f, clang_getRangeStart(r));
        ae[i] = (unsigned)parse_offset(u->pr, f, clang_getRangeEnd(r));
    }
    strbuf head = {0};
    edit_add(&fn->edits, f, sp->dir->begin, sp->dir->end, ""); /* the directive line goes away */
    unsigned cursor;
    /* where the result goes */
    if (sp->dst >= 0) {
        edit_add(&fn->edits, f, t->v[sp->stmt].begin, t->v[sp->dst].begin, "{ void *gtapgen_dst = (void *)&(");
        sb_append(&head, "); ");
        cursor = t->v[sp->dst].end;
    } else if (sp->decl_local >= 0) {
        sb_printf(&head, "{ void *gtapgen_dst = (void *)&(%s); ", fn->locals[sp->decl_local].alias);
        cursor = t->v[sp->stmt].begin;
    } else {
        sb_append(&head, "{ void *gtapgen_dst = (void *)0; ");
        cursor = t->v[sp->stmt].begin;
    }
    if (clauses)
        clause_tests(&head, fn, sp->dir);
    else
        spawn_call(&head, u, fn, sp);
    for (unsigned i = 0; i < nargs; i++) {
        if (clauses)
            sb_printf(&head, "gtapgen_%s_T%u gtapgen_a%u = (", g->name, i, i);
        else
            sb_printf(&head, "gtapgen_c->%s = (", g->locals[i].field);
        edit_add(&fn->edits, f, cursor, ab[i], sb_str(&head));
        sb_free(&head);
        sb_append(&head, "); ");
        cursor = ae[i];
    }
    if (clauses)
        clause_branches(&head, u, fn, sp);
    sb_append(&head, "}");
    edit_add(&fn->edits, f, cursor, sp->stmt_end, sb_str(&head));
    sb_free(&head);
    free(ab);
    free(ae);
}

static void lower_return(unit *u, taskfn *fn, int r)
{
    tree *t = &fn->t;
    const srcfile *f = u->f;
    int e = t->v[r].first_child;
    if (fn->is_void || e < 0)
        return; /* `return;` finishes the task as it is (R4) */
    if (t->v[r].from_macro) {
        diag_error(f, t->v[r].begin, "a return in task function '%s' must not come from a macro expansion",
                   fn->name);
        return;
    }
    unsigned end = find_semicolon(f, t->v[r].end);
    if (!end) {
        diag_error(f, t->v[r].end, "expected ';' after return");
        return;
    }
    int brace = f->text[t->v[e].begin] == '{';
    strbuf sb = {0};
    sb_printf(&sb, "{ gtapgen_%s_ret gtapgen_rv = %s", fn->name, brace ? "" : "(");
    edit_add(&fn->edits, f, t->v[r].begin, t->v[e].begin, sb_str(&sb));
    sb_free(&sb);
    sb_printf(&sb, "%s; ", brace ? "" : ")");
    if (fn->worker == WORKER_BLOCK) /* gtap_gen.h, block mode: one call, from the result thread */
        sb_printf(&sb, "if (threadIdx.x == %d) ", fn->return_thread);
    else if (fn->worker == WORKER_WARP) /* the same for a warp task: the result lane */
        sb_printf(&sb, "if (GTAP_WARP_LANE == %d) ", fn->return_thread);
    sb_append(&sb, "gtap_task_return(gtapgen_w, gtapgen_t, &gtapgen_rv, (unsigned)sizeof gtapgen_rv); return; }");
    edit_add(&fn->edits, f, t->v[e].end, end, sb_str(&sb));
    sb_free(&sb);
}

/* The namespace-scope declarations before a task function: id, types, data record. */
static char *preamble(unit *u, taskfn *fn)
{
    strbuf sb = {0};
    sb_printf(&sb, "/* gtapcc: task function '%s' (id %u) */\n", fn->name, fn->id);
    sb_printf(&sb, "enum { GTAPGEN_FN_%s = %u };\n", fn->name, fn->id);
    if (!fn->is_void)
        sb_printf(&sb, "using gtapgen_%s_ret = %s;\n", fn->name, fn->ret_spelling);
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (!l->is_param && !l->spill)
            continue;
        CXType ft = field_type(l);
        char *ts = type_spelling(l->is_param ? clang_getUnqualifiedType(clang_getNonReferenceType(ft))
                                             : clang_getUnqualifiedType(ft));
        sb_printf(&sb, "using gtapgen_%s_T%u = %s%s;\n", fn->name, i, ts, l->is_ref && !l->is_param ? " *" : "");
        free(ts);
    }
    sb_printf(&sb, "struct gtapgen_%s_data {\n", fn->name);
    unsigned nfields = 0;
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->is_param) {
            sb_printf(&sb, "    gtapgen_%s_T%u %s;\n", fn->name, i, l->field);
            if (fn_is_cooperative(fn) && l->assigned)
                sb_printf(&sb, "    gtapgen_%s_T%u gtapgen_lp_%s[%s]; /* per-thread copy */\n",
                          fn->name, i, l->field, fn_lanes_macro(fn));
            nfields++;
        } else if (l->spill) {
            sb_printf(&sb, "    gtapgen_%s_T%u %s[%s];\n", fn->name, i, l->field, fn_lanes_macro(fn));
            nfields++;
        }
    }
    if (!nfields)
        sb_append(&sb, "    char gtapgen_empty; /* no arguments, nothing spilled */\n");
    sb_append(&sb, "};\n");
    sb_printf(&sb, "static_assert(sizeof(struct gtapgen_%s_data) <= GTAP_MAX_TASK_DATA_SIZE, "
              "\"task data of '%s' exceeds GTAP_MAX_TASK_DATA_SIZE\");\n", fn->name, fn->name);
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->spill || l->is_param)
            sb_printf(&sb, "static_assert(__is_trivially_copyable(gtapgen_%s_T%u), \"'%s' of task function "
                      "'%s' lives in the task data and must be trivially copyable\");\n",
                      fn->name, i, l->name, fn->name);
    }
    sb_printf(&sb, "GTAP_TASK_FN void gtapgen_%s(gtap_worker *gtapgen_w, gtap_task gtapgen_t);\n", fn->name);
    if (fn->needs_clone) {
        char *proto = clone_prototype(fn);
        sb_append(&sb, proto);
        free(proto);
    }
    (void)u;
    return sb.data;
}

/* The state machine's first line: replaces the body's '{'. */
static char *header(unit *u, taskfn *fn)
{
    (void)u;
    strbuf sb = {0};
    sb_printf(&sb, "GTAP_TASK_FN void gtapgen_%s(gtap_worker *gtapgen_w, gtap_task gtapgen_t) { "
              "struct gtapgen_%s_data *__restrict__ gtapgen_self = (struct gtapgen_%s_data *)"
              "gtap_task_data(gtapgen_w, gtapgen_t); (void)gtapgen_self; ", fn->name, fn->name, fn->name);
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->is_param) {
            if (fn_is_cooperative(fn) && l->assigned)
                sb_printf(&sb, "auto &%s = gtapgen_self->gtapgen_lp_%s[%s]; (void)%s; ", l->alias,
                          l->field, fn_lane_macro(fn), l->alias);
            else
                sb_printf(&sb, "auto &%s = gtapgen_self->%s; (void)%s; ", l->alias, l->field, l->alias);
        } else if (l->spill && !l->is_ref) {
            sb_printf(&sb, "auto &%s = gtapgen_self->%s[%s]; (void)%s; ", l->alias, l->field, fn_lane_macro(fn),
                      l->alias);
        }
    }
    sb_append(&sb, "switch (gtap_task_state(gtapgen_w, gtapgen_t)) { case 0: ");
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->is_param && fn_is_cooperative(fn) && l->assigned)
            sb_printf(&sb, "gtapgen_self->gtapgen_lp_%s[%s] = gtapgen_self->%s; ", l->field, fn_lane_macro(fn),
                      l->field);
    }
    sb_append(&sb, "break; ");
    for (unsigned k = 1; k <= fn->num_waits; k++)
        sb_printf(&sb, "case %u: goto gtapgen_resume_%u; ", k, k);
    sb_append(&sb, "default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return; } {");
    return sb.data;
}

static void lower_taskfn(unit *u, taskfn *fn)
{
    tree *t = &fn->t;
    const srcfile *f = u->f;
    if (fn->body < 0)
        return;
    /* declarations */
    for (unsigned i = 0; i < t->n; i++) {
        if (t->v[i].kind != CXCursor_DeclStmt)
            continue;
        int any_spill = 0, is_spawn = 0;
        for (int c = t->v[i].first_child; c >= 0; c = t->v[c].next_sibling)
            if (t->v[c].local >= 0 && fn->locals[t->v[c].local].spill)
                any_spill = 1;
        for (unsigned s = 0; s < fn->num_spawns; s++)
            if (fn->spawns[s].stmt == (int)i)
                is_spawn = 1;
        if (any_spill && !is_spawn)
            lower_spilled_decl(u, fn, (int)i);
    }
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (l->is_param || l->is_static)
            continue;
        if (l->spill && l->declstmt < 0 && l->has_init)
            lower_condition_var(u, fn, l);
        else if (l->spill && l->declstmt < 0)
            diag_error(f, l->decl_off, "cannot move '%s' into the task data", l->name);
        else if (!l->spill && l->split == 1)
            lower_split(u, fn, l);
    }
    /* references to renamed locals */
    for (unsigned k = 1; k < t->n; k++) {
        const node *nd = &t->v[k];
        if (nd->kind != CXCursor_DeclRefExpr || nd->local < 0 || !is_renamed(&fn->locals[nd->local]))
            continue;
        const local *l = &fn->locals[nd->local];
        if (nd->from_macro) {
            diag_error(f, nd->begin, "'%s' lives in the task data under another name (it shares its name "
                       "with another declaration in '%s') and cannot be used inside a macro; rename it",
                       l->name, fn->name);
            continue;
        }
        edit_add(&fn->edits, f, nd->begin, nd->end, l->alias);
    }
    for (unsigned s = 0; s < fn->num_spawns; s++)
        lower_spawn(u, fn, &fn->spawns[s]);
    for (unsigned w = 0; w < fn->num_waits; w++) {
        char *q = queue_text(fn, fn->waits[w]);
        strbuf sb = {0};
        sb_printf(&sb, "if (%s(gtapgen_w, gtapgen_t, %u, (int)(%s))) return; gtapgen_resume_%u:;",
                  fn->worker == WORKER_WARP ? "gtap_warp_task_join" : "gtap_task_join", w + 1, q, w + 1);
        edit_add(&fn->edits, f, fn->waits[w]->begin, fn->waits[w]->end, sb_str(&sb));
        sb_free(&sb);
        free(q);
    }
    for (unsigned k = 1; k < t->n; k++)
        if (t->v[k].kind == CXCursor_ReturnStmt)
            lower_return(u, fn, (int)k);
    /* the body's braces */
    unsigned ob = t->v[fn->body].begin, cb = t->v[fn->body].end;
    char *h = header(u, fn);
    edit_add(&fn->edits, f, ob, ob + 1, h);
    free(h);
    edit_add(&fn->edits, f, cb - 1, cb, "}}");
    /* a state machine that spawns a later-defined function goes to the end of the file,
     * where every task data record is complete */
    for (unsigned s = 0; s < fn->num_spawns; s++)
        if (fn->spawns[s].callee->id > fn->id)
            fn->deferred = 1;
}

static void lower_entry(unit *u, entry_site *e)
{
    const taskfn *g = e->callee;
    strbuf sb = {0};
    if (e->decl_prefix)
        sb_printf(&sb, "%s; ", e->decl_prefix);
    strbuf rsize = {0};
    if (g->is_void)
        sb_append(&rsize, "0u");
    else
        sb_printf(&rsize, "(unsigned)sizeof(gtapgen_%s_ret)", g->name);
    sb_printf(&sb, "{ struct gtapgen_%s_data *gtapgen_root = (struct gtapgen_%s_data *)gtap_entry_begin("
              "GTAPGEN_FN_%s, (unsigned)sizeof(struct gtapgen_%s_data), %s); if (gtapgen_root) { ",
              g->name, g->name, g->name, g->name, sb_str(&rsize));
    sb_free(&rsize);
    for (unsigned i = 0; i < e->num_args; i++)
        sb_printf(&sb, "gtapgen_root->%s = (%s); ", g->locals[i].field, e->args[i]);
    sb_append(&sb, "} gtap_entry_run(); ");
    if (e->dst_text && !g->is_void)
        sb_printf(&sb, "{ const void *gtapgen_res = gtap_entry_result(); if (gtapgen_res) %s = "
                  "*(const gtapgen_%s_ret *)gtapgen_res; } ", e->dst_text, g->name);
    sb_append(&sb, "}");
    /* the pragma line itself disappears; the statement becomes the entry sequence */
    edit_add(&u->edits, u->f, e->dir->begin, e->dir->end, "");
    /* the kernel gets the runtime's attributes once, however many entries it holds */
    int first_in_kernel = e->kernel_name_off >= 0;
    for (const entry_site *o = u->entries; o < e && first_in_kernel; o++)
        first_in_kernel = o->kernel_name_off != e->kernel_name_off;
    if (first_in_kernel)
        edit_add(&u->edits, u->f, (unsigned)e->kernel_name_off, (unsigned)e->kernel_name_off, "GTAP_ENTRY_KERNEL ");
    edit_add(&u->edits, u->f, e->stmt_begin, e->stmt_end, sb_str(&sb));
    sb_free(&sb);
}

/* Host target: `k<<<g, b>>>(args)` runs the kernel as a plain call. */
static void lower_host_launches(unit *u)
{
    const char *t = u->f->text;
    unsigned n = (unsigned)u->f->len;
    for (unsigned i = 0; i + 2 < n; i++) {
        if (t[i] == '/' && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        if (t[i] == '/' && t[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'))
                i++;
            i++;
            continue;
        }
        if (t[i] == '"' || t[i] == '\'') {
            char qc = t[i];
            for (i++; i < n && t[i] != qc && t[i] != '\n'; i++)
                if (t[i] == '\\')
                    i++;
            continue;
        }
        if (t[i] == '<' && t[i + 1] == '<' && t[i + 2] == '<') {
            int skipped = 0;
            for (unsigned k = 0; k < u->pr->num_skipped; k++)
                if (i >= u->pr->skipped[k][0] && i < u->pr->skipped[k][1])
                    skipped = 1;
            unsigned j = i + 3;
            while (j + 2 < n && !(t[j] == '>' && t[j + 1] == '>' && t[j + 2] == '>'))
                j++;
            if (j + 2 >= n)
                return;
            if (!skipped)
                edit_add(&u->edits, u->f, i, j + 3, "");
            i = j + 2;
        }
    }
}

unsigned lower_unit(unit *u)
{
    unsigned before = diag_error_count();
    for (unsigned i = 0; i < u->num_fns; i++) /* spawns read their callee's field names */
        if (u->fns[i].body >= 0)
            assign_names(u, &u->fns[i]);
    for (unsigned i = 0; i < u->num_fns; i++)
        lower_taskfn(u, &u->fns[i]);
    for (unsigned i = 0; i < u->num_entries; i++)
        lower_entry(u, &u->entries[i]);
    if (u->host_target)
        lower_host_launches(u);
    /* preambles: in place before each function (with the state machine after them unless
     * deferred) */
    for (unsigned i = 0; i < u->num_fns; i++) {
        taskfn *fn = &u->fns[i];
        if (fn->body < 0)
            continue;
        char *pre = preamble(u, fn);
        strbuf sb = {0};
        sb_append(&sb, pre);
        free(pre);
        /* the clone goes where the state machine goes: in place when every function it calls
         * is declared above, else at the end of the file (emit.c) */
        char *clone = fn->needs_clone ? clone_definition(u, fn) : NULL;
        if (clone && fn->deferred)
            fn->clone_text = clone;
        else if (clone) {
            sb_append(&sb, clone);
            free(clone);
        }
        unsigned ob = fn->t.v[fn->body].begin;
        unsigned end = fn->deferred ? fn->def_end : ob;
        unsigned line, col;
        srcfile_linecol(u->f, end, &line, &col);
        srcfile_line_directive(&sb, u->f, line);
        for (unsigned c = 1; c < col; c++)
            sb_append(&sb, " ");
        edit_list *target = &u->edits;
        edit *ed;
        /* the preamble replaces the directive and the function's declarator: raw text, the
         * #line above restores the numbering */
        if (target->n == target->cap) {
            target->cap = target->cap ? target->cap * 2 : 64;
            target->v = xrealloc(target->v, target->cap * sizeof *target->v);
        }
        ed = &target->v[target->n];
        ed->begin = fn->dir->begin;
        ed->end = end;
        ed->seq = target->n;
        ed->text = sb.data;
        target->n++;
    }
    return diag_error_count() - before;
}
