/* analyze.c - finds task functions, attaches directives to statements, decides which
 * locals live in the task data (spilling) and checks every restriction of the model.
 *
 * Spilling rule (sound, source-level; DESIGN.md section 5): a local v declared before a
 * taskwait W whose scope contains W is spilled when it is referenced after W in source
 * order, when W lies in a loop body that v was declared outside of and the loop references
 * v, when the function has a goto, or when a child's result is written into it. A local in
 * scope at W that is not spilled but has an initializer is split into declaration plus
 * assignment (the resume jump may not skip an initialization), or spilled where it cannot
 * be split. Everything else stays a register.
 */
#include "clone.h"
#include "model.h"
#include "spill.h"
#include "strbuf.h"
#include "warp.h"

#include <stdlib.h>
#include <string.h>

typedef struct fn_def {
    CXCursor cur;
    unsigned begin, end;
    tree t;
    int built;
    taskfn *task;     /* when it is a task function */
} fn_def;

typedef struct actx {
    unit *u;
    fn_def *defs;
    unsigned num_defs, cap_defs;
    unsigned *tops;           /* begin offsets of namespace-level declarations */
    CXCursor *top_curs;
    unsigned num_tops, cap_tops;
    unsigned errors_before;
} actx;

/* ---- collecting declarations ---------------------------------------------------------- */

static void add_top(actx *a, CXCursor c, unsigned b)
{
    if (a->num_tops == a->cap_tops) {
        a->cap_tops = a->cap_tops ? a->cap_tops * 2 : 64;
        a->tops = xrealloc(a->tops, a->cap_tops * sizeof *a->tops);
        a->top_curs = xrealloc(a->top_curs, a->cap_tops * sizeof *a->top_curs);
    }
    a->tops[a->num_tops] = b;
    a->top_curs[a->num_tops++] = c;
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    actx *a = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isPreprocessing(k))
        return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    long b = parse_offset(a->u->pr, a->u->f, clang_getRangeStart(r));
    long e = parse_offset(a->u->pr, a->u->f, clang_getRangeEnd(r));
    if (b < 0 || e < 0)
        return CXChildVisit_Continue;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_StructDecl ||
        k == CXCursor_ClassDecl) {
        add_top(a, c, (unsigned)b);
        return CXChildVisit_Recurse;
    }
    add_top(a, c, (unsigned)b);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor || k == CXCursor_Destructor) &&
        clang_isCursorDefinition(c)) {
        if (a->num_defs == a->cap_defs) {
            a->cap_defs = a->cap_defs ? a->cap_defs * 2 : 32;
            a->defs = xrealloc(a->defs, a->cap_defs * sizeof *a->defs);
        }
        fn_def *d = &a->defs[a->num_defs++];
        memset(d, 0, sizeof *d);
        d->cur = c;
        d->begin = (unsigned)b;
        d->end = (unsigned)e;
    }
    return CXChildVisit_Continue;
}

static fn_def *def_containing(actx *a, unsigned off)
{
    for (unsigned i = 0; i < a->num_defs; i++)
        if (a->defs[i].begin <= off && off < a->defs[i].end)
            return &a->defs[i];
    return NULL;
}

static void ensure_tree(actx *a, fn_def *d)
{
    if (!d->built) {
        tree_build(&d->t, d->cur, a->u->pr, a->u->f);
        d->built = 1;
    }
}

typedef struct attr_ctx { enum CXCursorKind want; int found; } attr_ctx;

static enum CXChildVisitResult find_attr(CXCursor c, CXCursor p, CXClientData data)
{
    (void)p;
    attr_ctx *x = data;
    if (clang_getCursorKind(c) == x->want) {
        x->found = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

int gtapcc_has_attr(CXCursor c, enum CXCursorKind attr)
{
    attr_ctx x = {attr, 0};
    clang_visitChildren(c, find_attr, &x);
    return x.found;
}

/* The task function whose definition (or any declaration) the cursor refers to. */
static taskfn *task_of(unit *u, CXCursor ref)
{
    if (clang_Cursor_isNull(ref))
        return NULL;
    CXCursor canon = clang_getCanonicalCursor(ref);
    for (unsigned i = 0; i < u->num_fns; i++)
        if (clang_equalCursors(canon, clang_getCanonicalCursor(u->fns[i].cur)))
            return &u->fns[i];
    return NULL;
}

/* ---- directives and statements ------------------------------------------------------ */

/* The statement a directive precedes: the first child of the innermost enclosing node that
 * starts after the directive. Returns -1 and reports when there is none. */
static int stmt_after(unit *u, const tree *t, const directive *d)
{
    int container = tree_innermost(t, d->begin);
    int best = -1;
    for (int c = t->v[container].first_child; c >= 0; c = t->v[c].next_sibling) {
        if (t->v[c].begin >= d->end) {
            best = c;
            break;
        }
    }
    if (best < 0)
        return -1;
    /* another directive in between means this one has no statement of its own */
    for (unsigned i = 0; i < u->dirs.n; i++) {
        const directive *o = &u->dirs.v[i];
        if (o != d && o->begin >= d->end && o->begin < t->v[best].begin)
            return -1;
    }
    return best;
}

typedef struct call_form {
    int call;          /* CallExpr node */
    int dst;           /* destination lvalue node or -1 */
    int decl_var;      /* VarDecl node of `T x = f()` or -1 */
    int compound;      /* the statement is a block */
    int compound_assign; /* x += f() and friends */
} call_form;

static int is_call_to_task(unit *u, const tree *t, int n, taskfn **fn_p)
{
    n = tree_unwrap(t, n);
    if (n < 0 || t->v[n].kind != CXCursor_CallExpr)
        return 0;
    taskfn *fn = task_of(u, clang_getCursorReferenced(t->v[n].cur));
    if (fn_p)
        *fn_p = fn;
    return fn != NULL;
}

/* Recognizes `f(a...)`, `lhs = f(a...)` and `T x = f(a...)`. Returns the callee or NULL. */
static taskfn *match_call_stmt(unit *u, const tree *t, int s, call_form *cf)
{
    taskfn *fn = NULL;
    memset(cf, 0, sizeof *cf);
    cf->call = cf->dst = cf->decl_var = -1;
    if (t->v[s].kind == CXCursor_CompoundStmt) {
        cf->compound = 1;
        return NULL;
    }
    if (t->v[s].kind == CXCursor_DeclStmt) {
        int v = t->v[s].first_child;
        if (v < 0 || t->v[v].next_sibling >= 0 || t->v[v].kind != CXCursor_VarDecl)
            return NULL;
        CXCursor init = clang_Cursor_getVarDeclInitializer(t->v[v].cur);
        if (clang_Cursor_isNull(init))
            return NULL;
        for (int c = t->v[v].first_child; c >= 0; c = t->v[c].next_sibling) {
            int w = tree_unwrap(t, c);
            if (is_call_to_task(u, t, w, &fn)) {
                cf->call = w;
                cf->decl_var = v;
                return fn;
            }
        }
        return NULL;
    }
    int e = tree_unwrap(t, s);
    if (e < 0)
        return NULL;
    if (t->v[e].kind == CXCursor_CallExpr) {
        char *name = cursor_spelling(t->v[e].cur);
        int is_assign = !strcmp(name, "operator=");
        int is_compound = !is_assign && !strncmp(name, "operator", 8) && strlen(name) == 10 &&
                          name[9] == '=' && strchr("+-*/%&|^", name[8]);
        free(name);
        if ((is_assign || is_compound) && tree_num_children(t, e) == 3) {
            int rhs = tree_child(t, e, 2);
            if (is_call_to_task(u, t, rhs, &fn)) {
                cf->compound_assign = is_compound;
                cf->call = tree_unwrap(t, rhs);
                cf->dst = tree_child(t, e, 0);
                return fn;
            }
            return NULL;
        }
        if (is_call_to_task(u, t, e, &fn)) {
            cf->call = e;
            return fn;
        }
        return NULL;
    }
    if ((t->v[e].kind == CXCursor_BinaryOperator || t->v[e].kind == CXCursor_CompoundAssignOperator) &&
        tree_num_children(t, e) == 2) {
        int rhs = tree_child(t, e, 1);
        if (!is_call_to_task(u, t, rhs, &fn))
            return NULL;
        if (t->v[e].kind == CXCursor_CompoundAssignOperator)
            cf->compound_assign = 1;
        else if (clang_getCursorBinaryOperatorKind(t->v[e].cur) != CXBinaryOperator_Assign)
            return NULL;
        cf->call = tree_unwrap(t, rhs);
        cf->dst = tree_child(t, e, 0);
        return fn;
    }
    return NULL;
}

/* Root local of a destination lvalue whose storage is the local itself (x, x[i], x.f),
 * -1 when the destination is memory reached through a pointer or a global. Sets *bad_p
 * when the expression is not a plain lvalue path. */
int gtapcc_dst_root_local(const tree *t, int n, int *bad_p)
{
    *bad_p = 0;
    for (;;) {
        n = tree_unwrap(t, n);
        if (n < 0) {
            *bad_p = 1;
            return -1;
        }
        const node *nd = &t->v[n];
        if (nd->kind == CXCursor_DeclRefExpr)
            return nd->local;
        if (nd->kind == CXCursor_ArraySubscriptExpr || nd->kind == CXCursor_MemberRefExpr) {
            int base = tree_child(t, n, 0);
            if (base < 0)
                return -1; /* implicit this->member: not a local */
            int ub = tree_unwrap(t, base);
            CXType bt = clang_getCanonicalType(clang_getCursorType(t->v[ub].cur));
            if (bt.kind == CXType_Pointer)
                return -1; /* p[i], p->f: memory outside the frame */
            if (nd->kind == CXCursor_ArraySubscriptExpr && bt.kind != CXType_ConstantArray &&
                bt.kind != CXType_IncompleteArray)
                return -1;
            n = ub;
            continue;
        }
        if (nd->kind == CXCursor_UnaryOperator &&
            clang_getCursorUnaryOperatorKind(nd->cur) == CXUnaryOperator_Deref)
            return -1;
        *bad_p = 1;
        return -1;
    }
}

/* ---- task functions --------------------------------------------------------------------- */

/* After a rejected directive, the calls in its statement are not reported again as
 * direct calls. */
static void mark_calls(tree *t, int s)
{
    if (s < 0)
        return;
    for (unsigned k = 1; k < t->n; k++)
        if (t->v[k].kind == CXCursor_CallExpr && t->v[k].begin >= t->v[s].begin && t->v[k].end <= t->v[s].end)
            t->v[k].local = -2;
}

static void analyze_spawn(actx *a, taskfn *fn, directive *d)
{
    unit *u = a->u;
    tree *t = &fn->t;
    int s = stmt_after(u, t, d);
    call_form cf;
    taskfn *callee = s >= 0 ? match_call_stmt(u, t, s, &cf) : NULL;
    if (s >= 0 && cf.compound) {
        diag_error(u->f, t->v[s].begin, "a statement block cannot follow '#pragma gtap task'; "
                   "move the code into a task function and spawn that");
        mark_calls(t, s);
        return;
    }
    if (!callee) {
        diag_error(u->f, d->kw_off, "'#pragma gtap task' must be followed by a call to a task function "
                   "('f(...);', 'x = f(...);' or 'T x = f(...);' with f declared by '#pragma gtap function')");
        mark_calls(t, s);
        return;
    }
    if (cf.compound_assign) {
        diag_error(u->f, t->v[s].begin, "the result of a task can only be stored with '=' "
                   "(store it in a variable and combine after the taskwait)");
        mark_calls(t, s);
        return;
    }
    if (t->v[s].from_macro || t->v[cf.call].from_macro) {
        diag_error(u->f, t->v[s].begin, "the call after '#pragma gtap task' must not come from a macro expansion");
        mark_calls(t, s);
        return;
    }
    unsigned end = find_semicolon(u->f, t->v[s].end);
    if (t->v[s].kind == CXCursor_DeclStmt)
        end = t->v[s].end; /* a DeclStmt's extent already ends past its ';' */
    if (!end) {
        diag_error(u->f, t->v[s].end, "expected ';' after the spawned call");
        mark_calls(t, s);
        return;
    }
    /* argument count must match what is written (no default arguments) */
    int nargs = clang_Cursor_getNumArguments(t->v[cf.call].cur);
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(t->v[cf.call].cur, (unsigned)i);
        CXSourceRange r = clang_getCursorExtent(arg);
        if (parse_offset(u->pr, u->f, clang_getRangeStart(r)) < 0) {
            diag_error(u->f, t->v[cf.call].begin, "default arguments are not supported in a spawn; "
                       "pass every argument of '%s'", callee->name);
            mark_calls(t, s);
        return;
        }
    }
    if (nargs < 0 || (unsigned)nargs != callee->num_params) {
        diag_error(u->f, t->v[cf.call].begin, "call to task function '%s' has %d arguments, "
                   "but it takes %u", callee->name, nargs, callee->num_params);
        mark_calls(t, s);
        return;
    }
    spawn sp;
    memset(&sp, 0, sizeof sp);
    sp.dir = d;
    sp.stmt = s;
    sp.call = cf.call;
    sp.dst = cf.dst;
    sp.decl_local = cf.decl_var >= 0 ? t->v[cf.decl_var].local : -1;
    sp.callee = callee;
    sp.stmt_end = end;
    /* the destination must have the callee's result type: the child writes those bytes */
    if (cf.dst >= 0 || cf.decl_var >= 0) {
        if (callee->is_void) {
            diag_error(u->f, t->v[s].begin, "task function '%s' returns void; its result cannot be assigned",
                       callee->name);
            mark_calls(t, s);
        return;
        }
        CXType dt = cf.dst >= 0 ? clang_getCursorType(t->v[tree_unwrap(t, cf.dst)].cur)
                                : clang_getCursorType(t->v[cf.decl_var].cur);
        CXType rt = clang_getCursorResultType(callee->cur);
        CXType dtc = clang_getUnqualifiedType(clang_getCanonicalType(dt));
        CXType rtc = clang_getUnqualifiedType(clang_getCanonicalType(rt));
        if (!clang_equalTypes(dtc, rtc) && dtc.kind != CXType_Invalid && rtc.kind != CXType_Invalid) {
            char *ds = type_spelling(dt), *rs = type_spelling(rt);
            diag_error(u->f, t->v[s].begin, "the result of '%s' has type '%s' but is stored into an "
                       "object of type '%s'; the child writes its result in place, so the types must match",
                       callee->name, rs, ds);
            free(ds);
            free(rs);
            mark_calls(t, s);
        return;
        }
    }
    if (cf.dst >= 0) {
        int bad;
        int root = gtapcc_dst_root_local(t, cf.dst, &bad);
        if (bad) {
            diag_error(u->f, t->v[cf.dst].begin, "unsupported destination for the result of '%s' "
                       "(use a variable, an array element or a struct field)", callee->name);
            mark_calls(t, s);
        return;
        }
        if (root >= 0) {
            local *l = &fn->locals[root];
            if (l->is_ref) {
                diag_error(u->f, t->v[cf.dst].begin, "the result of '%s' cannot be stored through the "
                           "reference '%s'; store it in a local and copy it after the taskwait",
                           callee->name, l->name);
                mark_calls(t, s);
        return;
            }
            if (!l->is_static)
                l->result_target = 1;
            if (l->is_param)
                l->assigned = 1;
        }
    } else if (sp.decl_local >= 0) {
        fn->locals[sp.decl_local].result_target = 1;
    }
    d->used = 1;
    fn->spawns = xrealloc(fn->spawns, (fn->num_spawns + 1) * sizeof *fn->spawns);
    fn->spawns[fn->num_spawns++] = sp;
}

static void analyze_taskfn(actx *a, taskfn *fn, fn_def *def)
{
    unit *u = a->u;
    fn->t = def->t; /* the task function owns the tree from here on */
    def->t.v = NULL;
    def->built = 0;
    tree *t = &fn->t;
    fn->body = -1;
    for (int c = t->v[0].first_child; c >= 0; c = t->v[c].next_sibling)
        if (t->v[c].kind == CXCursor_CompoundStmt)
            fn->body = c;
    if (fn->body < 0) {
        diag_error(u->f, def->begin, "task function '%s' has no body", fn->name);
        return;
    }
    gtapcc_collect_locals(u, fn);
    for (unsigned k = 1; k < t->n; k++)
        if (t->v[k].kind == CXCursor_GotoStmt || t->v[k].kind == CXCursor_IndirectGotoStmt)
            fn->has_goto = 1;
    for (unsigned i = 0; i < fn->num_params; i++) {
        local *p = &fn->locals[i];
        if (p->type.kind == CXType_LValueReference &&
            !clang_isConstQualifiedType(clang_getPointeeType(p->type))) {
            diag_error(u->f, p->decl_off, "parameter '%s' of task function '%s' is a non-const "
                       "reference; task arguments are copied at spawn (use a value or a pointer)",
                       p->name, fn->name);
        }
    }
    /* directives inside the body */
    for (unsigned i = 0; i < u->dirs.n; i++) {
        directive *d = &u->dirs.v[i];
        if (d->begin < t->v[fn->body].begin || d->begin >= t->v[fn->body].end)
            continue;
        int inner = tree_innermost(t, d->begin);
        for (int p = inner; p > 0; p = t->v[p].parent) {
            if (t->v[p].kind == CXCursor_CXXForRangeStmt && d->kind == DIR_TASKWAIT) {
                diag_error(u->f, d->kw_off, "taskwait inside a range-based for loop is not supported "
                           "(use an index loop)");
                d->used = 1;
            }
            if (t->v[p].kind == CXCursor_LambdaExpr) {
                diag_error(u->f, d->kw_off, "'#pragma gtap %s' inside a lambda is not supported",
                           dir_kind_name(d->kind));
                d->used = 1;
            }
        }
        if (d->used)
            continue;
        if (d->kind == DIR_TASK) {
            if (fn->worker == WORKER_BLOCK && d->queue)
                diag_warning(u->f, d->queue_off, "queue(...) is ignored for block-level task functions");
            analyze_spawn(a, fn, d);
            d->used = 1;
        } else if (d->kind == DIR_TASKWAIT) {
            d->used = 1;
            if (u->no_taskwait) {
                diag_error(u->f, d->kw_off, "taskwait in a program built with -fgtap-no-taskwait "
                           "(GTAP_ASSUME_NO_TASKWAIT)");
                continue;
            }
            if (fn->worker == WORKER_BLOCK && d->queue)
                diag_warning(u->f, d->queue_off, "queue(...) is ignored for block-level task functions");
            if (fn->worker == WORKER_WARP)
                gtapcc_check_warp_taskwait(u, fn, d);
            if (fn->num_waits + 1 >= 65000) {
                diag_error(u->f, d->kw_off, "too many taskwaits in '%s'", fn->name);
                continue;
            }
            fn->waits = xrealloc(fn->waits, (fn->num_waits + 1) * sizeof *fn->waits);
            fn->waits[fn->num_waits++] = d;
        } else if (d->kind == DIR_ENTRY) {
            d->used = 1;
            diag_error(u->f, d->kw_off, "'#pragma gtap entry' inside task function '%s'; the entry "
                       "starts the task graph from a kernel", fn->name);
        }
    }
    gtapcc_decide_spills(u, fn);
    gtapcc_find_assigned_params(fn);
    gtapcc_check_addresses(u, fn);
    gtapcc_check_early_reads(u, fn);
    for (unsigned i = 0; i < fn->num_locals; i++) {
        local *l = &fn->locals[i];
        if (!(l->spill || l->is_param))
            continue;
        CXType ty = l->is_ref ? clang_getPointeeType(l->type) : l->type;
        char *sp = type_spelling(ty);
        if (strstr(sp, "(lambda") || strstr(sp, "(unnamed") || strstr(sp, "(anonymous") || gtapcc_type_is_local(ty))
            diag_error(u->f, l->decl_off, "the type of '%s' ('%s') cannot be named outside '%s', but the "
                       "variable must live in the task data; declare the type at namespace scope",
                       l->name, sp, fn->name);
        free(sp);
    }
}

/* ---- entries and the rest ------------------------------------------------------------ */

static char *text_of(const srcfile *f, unsigned b, unsigned e)
{
    return xstrndup(f->text + b, e > b ? e - b : 0);
}

/* Offset of the name of the kernel holding an entry directive, where GTAP_ENTRY_KERNEL (the
 * runtime's attributes for the persistent kernel: gtap_gen.h) is written; -1 when the
 * function is not a __global__ definition or names its own __launch_bounds__ / __maxnreg__,
 * which would conflict. */
static long entry_kernel_name_offset(actx *a, const fn_def *def)
{
    const srcfile *f = a->u->f;
    long name = parse_offset(a->u->pr, f, clang_getCursorLocation(def->cur));
    if (name < (long)def->begin || name >= (long)def->end)
        return -1;
    const char *body = memchr(f->text + name, '{', def->end - (unsigned)name);
    if (!body)
        return -1;
    char *head = xstrndup(f->text + def->begin, (size_t)(body - (f->text + def->begin)));
    int ok = strstr(head, "__global__") && !strstr(head, "__launch_bounds__") && !strstr(head, "__maxnreg__");
    free(head);
    return ok ? name : -1;
}

static void analyze_entry(actx *a, fn_def *def, directive *d)
{
    unit *u = a->u;
    tree *t = &def->t;
    int s = stmt_after(u, t, d);
    call_form cf;
    taskfn *callee = s >= 0 ? match_call_stmt(u, t, s, &cf) : NULL;
    d->used = 1;
    if (!callee || cf.compound_assign) {
        diag_error(u->f, d->kw_off, "'#pragma gtap entry' must be followed by a call to a task function "
                   "('f(...);' or 'x = f(...);')");
        mark_calls(t, s);
        return;
    }
    if (t->v[s].from_macro || t->v[cf.call].from_macro) {
        diag_error(u->f, t->v[s].begin, "the call after '#pragma gtap entry' must not come from a macro expansion");
        mark_calls(t, s);
        return;
    }
    unsigned end = t->v[s].kind == CXCursor_DeclStmt ? t->v[s].end : find_semicolon(u->f, t->v[s].end);
    if (!end) {
        diag_error(u->f, t->v[s].end, "expected ';' after the entry call");
        mark_calls(t, s);
        return;
    }
    int nargs = clang_Cursor_getNumArguments(t->v[cf.call].cur);
    if (nargs < 0 || (unsigned)nargs != callee->num_params) {
        diag_error(u->f, t->v[cf.call].begin, "call to task function '%s' has %d arguments, but it takes %u",
                   callee->name, nargs, callee->num_params);
        mark_calls(t, s);
        return;
    }
    entry_site e;
    memset(&e, 0, sizeof e);
    e.dir = d;
    e.stmt_begin = t->v[s].begin;
    e.stmt_end = end;
    e.callee = callee;
    e.kernel_name_off = entry_kernel_name_offset(a, def);
    if (clang_getCursorKind(def->cur) == CXCursor_FunctionDecl && gtapcc_has_attr(def->cur, CXCursor_CUDAGlobalAttr) &&
        clang_getCursorKind(clang_getCursorSemanticParent(def->cur)) == CXCursor_TranslationUnit)
        e.kernel_ref = cursor_spelling(def->cur);
    if ((cf.dst >= 0 || cf.decl_var >= 0) && callee->is_void) {
        diag_error(u->f, t->v[s].begin, "task function '%s' returns void; its result cannot be assigned",
                   callee->name);
        mark_calls(t, s);
        return;
    }
    if (cf.dst >= 0)
        e.dst_text = text_of(u->f, t->v[cf.dst].begin, t->v[cf.dst].end);
    if (cf.decl_var >= 0) {
        /* `T x = f(...)`: keep `T x` as a declaration, assign the result afterwards */
        const node *vd = &t->v[cf.decl_var];
        long nameoff = parse_offset(u->pr, u->f, clang_getCursorLocation(vd->cur));
        char *name = cursor_spelling(vd->cur);
        if (nameoff < 0) {
            free(name);
            mark_calls(t, s);
        return;
        }
        e.decl_prefix = text_of(u->f, t->v[s].begin, (unsigned)nameoff + (unsigned)strlen(name));
        e.dst_text = name;
    }
    e.num_args = (unsigned)nargs;
    e.args = xcalloc(e.num_args ? e.num_args : 1, sizeof *e.args);
    for (int i = 0; i < nargs; i++) {
        CXSourceRange r = clang_getCursorExtent(clang_Cursor_getArgument(t->v[cf.call].cur, (unsigned)i));
        long b = parse_offset(u->pr, u->f, clang_getRangeStart(r));
        long en = parse_offset(u->pr, u->f, clang_getRangeEnd(r));
        if (b < 0 || en < 0) {
            diag_error(u->f, t->v[cf.call].begin, "default arguments are not supported in an entry call; "
                       "pass every argument of '%s'", callee->name);
            for (int k = 0; k < i; k++)
                free(e.args[k]);
            free(e.args);
            free(e.dst_text);
            free(e.decl_prefix);
            return;
        }
        e.args[i] = text_of(u->f, (unsigned)b, (unsigned)en);
    }
    u->entries = xrealloc(u->entries, (u->num_entries + 1) * sizeof *u->entries);
    u->entries[u->num_entries++] = e;
    /* remember the call so it is not reported as a direct call */
    t->v[cf.call].local = -2;
}

/* Calls of task functions that no directive turned into a spawn or an entry. */
static void check_direct_calls(actx *a, tree *t, const taskfn *owner)
{
    unit *u = a->u;
    for (unsigned k = 1; k < t->n; k++) {
        const node *nd = &t->v[k];
        if (nd->kind != CXCursor_CallExpr || nd->local == -2)
            continue;
        taskfn *fn = task_of(u, clang_getCursorReferenced(nd->cur));
        if (!fn)
            continue;
        int consumed = 0;
        if (owner)
            for (unsigned s = 0; s < owner->num_spawns; s++)
                if (owner->spawns[s].call == (int)k)
                    consumed = 1;
        if (!consumed)
            diag_error(u->f, nd->begin, "task function '%s' is called without '#pragma gtap task' "
                       "(or '#pragma gtap entry' in a kernel); task functions cannot be called directly",
                       fn->name);
    }
}

static void setup_taskfn(actx *a, taskfn *fn, fn_def *def, directive *d)
{
    unit *u = a->u;
    fn->dir = d;
    fn->cur = def->cur;
    fn->name = cursor_spelling(def->cur);
    fn->def_begin = def->begin;
    fn->def_end = def->end;
    CXType rt = clang_getCursorResultType(def->cur);
    fn->is_void = rt.kind == CXType_Void;
    fn->ret_spelling = type_spelling(rt);
    fn->ret_size = fn->is_void ? 0 : clang_Type_getSizeOf(rt);
    fn->worker = d->worker_size == WORKER_WARP ? WORKER_WARP : u->mode;
    fn->return_thread = d->return_thread < 0 ? 0 : d->return_thread;
    fn->num_params = (unsigned)(clang_Cursor_getNumArguments(def->cur) < 0 ? 0 : clang_Cursor_getNumArguments(def->cur));
}

unsigned analyze_unit(unit *u)
{
    actx a;
    memset(&a, 0, sizeof a);
    a.u = u;
    a.errors_before = diag_error_count();
    pragma_scan(u->f, (const unsigned (*)[2])u->pr->skipped, u->pr->num_skipped, &u->dirs);
    clang_visitChildren(clang_getTranslationUnitCursor(u->pr->tu), collect, &a);

    /* 1. task functions, in order of definition */
    fn_def **task_defs = xcalloc(u->dirs.n + 1, sizeof *task_defs);
    directive **task_dirs = xcalloc(u->dirs.n + 1, sizeof *task_dirs);
    unsigned ntask = 0;
    for (unsigned i = 0; i < u->dirs.n; i++) {
        directive *d = &u->dirs.v[i];
        if (d->kind != DIR_FUNCTION)
            continue;
        d->used = 1;
        if (def_containing(&a, d->begin)) {
            diag_error(u->f, d->kw_off, "'#pragma gtap function' must precede a function definition at "
                       "namespace scope, not appear inside a function");
            continue;
        }
        unsigned best = ~0u;
        CXCursor bc = clang_getNullCursor();
        for (unsigned k = 0; k < a.num_tops; k++)
            if (a.tops[k] >= d->end && a.tops[k] < best) {
                best = a.tops[k];
                bc = a.top_curs[k];
            }
        fn_def *def = NULL;
        for (unsigned k = 0; k < a.num_defs; k++)
            if (a.defs[k].begin == best && clang_equalCursors(a.defs[k].cur, bc))
                def = &a.defs[k];
        for (unsigned k = 0; k < u->dirs.n; k++) /* a directive in between steals it */
            if (k != i && u->dirs.v[k].begin > d->begin && u->dirs.v[k].begin < best)
                def = NULL;
        if (!def) {
            diag_error(u->f, d->kw_off, "'#pragma gtap function' must be followed by the definition of a "
                       "__device__ function");
            continue;
        }
        enum CXCursorKind k = clang_getCursorKind(def->cur);
        if (k != CXCursor_FunctionDecl) {
            diag_error(u->f, def->begin, "task functions must be plain __device__ functions (not templates, "
                       "methods, constructors or destructors)");
            continue;
        }
        if (gtapcc_has_attr(def->cur, CXCursor_CUDAGlobalAttr)) {
            diag_error(u->f, def->begin, "a __global__ kernel cannot be a task function; use a __device__ "
                       "function and start it with '#pragma gtap entry'");
            continue;
        }
        if (!gtapcc_has_attr(def->cur, CXCursor_CUDADeviceAttr)) {
            diag_error(u->f, def->begin, "task functions must be declared __device__ (if this one is, "
                       "gtapcc did not find CUDA's headers: check --cuda-path or CUDA_HOME)");
            continue;
        }
        if (clang_Cursor_isVariadic(def->cur)) {
            diag_error(u->f, def->begin, "task functions cannot be variadic");
            continue;
        }
        if (def->task)
            continue; /* two directives for one function: the first wins */
        def->task = (taskfn *)1; /* placeholder until the array is allocated */
        task_defs[ntask] = def;
        task_dirs[ntask++] = d;
    }
    /* sort by definition order (directives are already in source order) */
    u->fns = xcalloc(ntask ? ntask : 1, sizeof *u->fns);
    u->num_fns = ntask;
    for (unsigned i = 0; i < ntask; i++) {
        u->fns[i].id = i;
        task_defs[i]->task = &u->fns[i];
    }
    /* 2. worker mode */
    if (ntask) {
        if (u->pr->mode == 0 || u->pr->mode == 3) {
            diag_error(u->f, task_dirs[0]->kw_off, u->pr->mode == 0
                       ? "task functions need the runtime: #include \"gtap_thread.cuh\" (thread-level) or "
                         "\"gtap_block.cuh\" (block-level) before them"
                       : "both gtap_thread.cuh and gtap_block.cuh are included; a program uses one");
        }
        u->mode = u->pr->mode == 2 ? WORKER_BLOCK : WORKER_THREAD;
        u->lanes = 1;
        if (u->mode == WORKER_BLOCK)
            u->lanes = u->pr->block_size > 0 ? u->pr->block_size : -1;
        for (unsigned i = 0; i < ntask; i++) {
            directive *d = task_dirs[i];
            gtapcc_check_worker_size(u, d);
            setup_taskfn(&a, &u->fns[i], task_defs[i], d);
        }
    }
    /* 3. task function bodies */
    for (unsigned i = 0; i < ntask; i++) {
        ensure_tree(&a, task_defs[i]);
        analyze_taskfn(&a, &u->fns[i], task_defs[i]);
    }
    for (unsigned i = 0; i < ntask; i++)
        if (u->fns[i].t.n)
            check_direct_calls(&a, &u->fns[i].t, &u->fns[i]);
    clone_plan(u); /* if/final: needs every function's spawns */
    /* 4. other functions: entries, stray directives, direct calls */
    for (unsigned i = 0; i < a.num_defs; i++) {
        fn_def *def = &a.defs[i];
        if (def->task)
            continue;
        ensure_tree(&a, def);
        for (unsigned k = 0; k < u->dirs.n; k++) {
            directive *d = &u->dirs.v[k];
            if (d->used || d->begin < def->begin || d->begin >= def->end)
                continue;
            if (d->kind == DIR_ENTRY) {
                analyze_entry(&a, def, d);
            } else {
                d->used = 1;
                diag_error(u->f, d->kw_off, "'#pragma gtap %s' outside a task function (mark the enclosing "
                           "function with '#pragma gtap function')", dir_kind_name(d->kind));
            }
        }
        if (ntask)
            check_direct_calls(&a, &def->t, NULL);
    }
    for (unsigned k = 0; k < u->dirs.n; k++) {
        directive *d = &u->dirs.v[k];
        if (!d->used)
            diag_error(u->f, d->kw_off, "'#pragma gtap %s' outside a function", dir_kind_name(d->kind));
    }
    for (unsigned i = 0; i < a.num_defs; i++)
        if (a.defs[i].built)
            tree_free(&a.defs[i].t);
    free(a.defs);
    free(a.tops);
    free(a.top_curs);
    free(task_defs);
    free(task_dirs);
    return diag_error_count() - a.errors_before;
}
