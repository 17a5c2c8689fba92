/* spill.c - spilling: collects the locals of a task function, decides which live in the task
 * data (the rule is at the top of analyze.c), and checks addresses and early reads. */
#include "model.h"
#include "spill.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

/* ---- locals --------------------------------------------------------------------------- */

static int is_scope_kind(enum CXCursorKind k)
{
    return k == CXCursor_CompoundStmt || k == CXCursor_ForStmt || k == CXCursor_IfStmt ||
           k == CXCursor_WhileStmt || k == CXCursor_SwitchStmt || k == CXCursor_CXXForRangeStmt ||
           k == CXCursor_CXXCatchStmt;
}

static int is_loop_kind(enum CXCursorKind k)
{
    return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
           k == CXCursor_CXXForRangeStmt;
}

/* True when the declarator text after the name has `= e`, `(e)` or `{e}` (an implicit
 * default construction has an initializer in the AST but none in the text). */
static int has_written_init(const srcfile *f, unsigned p, unsigned end)
{
    const char *t = f->text;
    while (p < f->len) {
        while (p < f->len && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r'))
            p++;
        if (p < f->len && t[p] == '[') {
            while (p < f->len && t[p] != ']')
                p++;
            p++;
            continue;
        }
        break;
    }
    (void)end;
    return p < f->len && (t[p] == '=' || t[p] == '(' || t[p] == '{');
}

void gtapcc_collect_locals(unit *u, taskfn *fn)
{
    tree *t = &fn->t;
    unsigned cap = 16;
    fn->locals = xcalloc(cap, sizeof *fn->locals);
    for (unsigned i = 1; i < t->n; i++) {
        node *nd = &t->v[i];
        int is_param = nd->kind == CXCursor_ParmDecl && nd->parent == 0;
        if (!is_param && nd->kind != CXCursor_VarDecl)
            continue;
        if (fn->num_locals == cap) {
            cap *= 2;
            fn->locals = xrealloc(fn->locals, cap * sizeof *fn->locals);
        }
        local *l = &fn->locals[fn->num_locals];
        memset(l, 0, sizeof *l);
        l->decl = nd->cur;
        l->name = cursor_spelling(nd->cur);
        l->node = (int)i;
        long off = parse_offset(u->pr, u->f, clang_getCursorLocation(nd->cur));
        l->decl_off = off < 0 ? nd->begin : (unsigned)off;
        l->is_param = is_param;
        l->type = clang_getCursorType(nd->cur);
        l->is_ref = l->type.kind == CXType_LValueReference || l->type.kind == CXType_RValueReference;
        l->declstmt = -1;
        l->scope = 0;
        if (!is_param) {
            l->is_static = clang_Cursor_hasVarDeclGlobalStorage(nd->cur) == 1 ||
                           clang_Cursor_hasVarDeclExternalStorage(nd->cur) == 1 ||
                           gtapcc_has_attr(nd->cur, CXCursor_CUDASharedAttr);
            l->has_init = !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(nd->cur)) &&
                          has_written_init(u->f, l->decl_off + (unsigned)strlen(l->name), nd->end);
            int p = nd->parent;
            if (p >= 0 && t->v[p].kind == CXCursor_DeclStmt) {
                l->declstmt = p;
                p = t->v[p].parent;
            }
            while (p > 0 && !is_scope_kind(t->v[p].kind))
                p = t->v[p].parent;
            l->scope = p < 0 ? 0 : p;
        }
        nd->local = (int)fn->num_locals;
        fn->num_locals++;
    }
    /* resolve references */
    for (unsigned i = 1; i < t->n; i++) {
        node *nd = &t->v[i];
        if (nd->kind != CXCursor_DeclRefExpr)
            continue;
        CXCursor ref = clang_getCursorReferenced(nd->cur);
        if (clang_Cursor_isNull(ref))
            continue;
        for (unsigned k = 0; k < fn->num_locals; k++)
            if (clang_equalCursors(ref, fn->locals[k].decl)) {
                nd->local = (int)k;
                break;
            }
    }
}

static int in_scope_at(const tree *t, const local *l, unsigned off)
{
    const node *s = &t->v[l->scope];
    return !l->is_param && !l->is_static && l->decl_off < off && s->begin <= off && off < s->end;
}

/* ---- spilling and the checks on locals ------------------------------------------------ */

void gtapcc_decide_spills(unit *u, taskfn *fn)
{
    tree *t = &fn->t;
    for (unsigned i = 0; i < fn->num_locals; i++) {
        local *l = &fn->locals[i];
        if (l->is_param || l->is_static)
            continue;
        if (l->result_target)
            l->spill = 1;
        for (unsigned w = 0; w < fn->num_waits && !l->spill; w++) {
            unsigned woff = fn->waits[w]->begin;
            if (!in_scope_at(t, l, woff))
                continue;
            l->in_scope_at_join = 1;
            for (unsigned k = 1; k < t->n && !l->spill; k++) {
                const node *r = &t->v[k];
                if (r->kind != CXCursor_DeclRefExpr || r->local != (int)i)
                    continue;
                if (r->begin > woff || fn->has_goto)
                    l->spill = 1;
            }
            /* loops around W: a reference anywhere in the loop is live across W */
            for (int p = tree_innermost(t, woff); p > 0 && !l->spill; p = t->v[p].parent) {
                if (!is_loop_kind(t->v[p].kind))
                    continue;
                int body = -1;
                for (int c = t->v[p].first_child; c >= 0; c = t->v[c].next_sibling)
                    if (t->v[c].begin <= woff && woff < t->v[c].end)
                        body = c;
                if (body < 0 || l->decl_off >= t->v[body].begin)
                    continue;
                for (unsigned k = 1; k < t->n; k++) {
                    const node *r = &t->v[k];
                    if (r->kind == CXCursor_DeclRefExpr && r->local == (int)i &&
                        r->begin >= t->v[p].begin && r->end <= t->v[p].end) {
                        l->spill = 1;
                        break;
                    }
                }
            }
        }
        (void)u;
    }
    /* A resume label in scope of a non-spilled initialized local: split `T x = e;` when the
     * text allows it, else spill. */
    for (unsigned i = 0; i < fn->num_locals; i++) {
        local *l = &fn->locals[i];
        if (l->is_param || l->is_static || l->spill || !l->in_scope_at_join || !l->has_init)
            continue;
        const node *vd = &t->v[l->node];
        int splittable = l->declstmt >= 0 && t->v[t->v[l->declstmt].parent].kind == CXCursor_CompoundStmt &&
                         tree_num_children(t, l->declstmt) == 1 &&
                         !vd->from_macro && !l->is_ref && !clang_isConstQualifiedType(l->type) &&
                         clang_getCanonicalType(l->type).kind != CXType_ConstantArray;
        if (splittable) {
            /* only `T x = e` with a non-brace e */
            unsigned p = l->decl_off + (unsigned)strlen(l->name);
            const char *tx = u->f->text;
            while (p < vd->end && (tx[p] == ' ' || tx[p] == '\t' || tx[p] == '\n' || tx[p] == '\r'))
                p++;
            if (p >= vd->end || tx[p] != '=')
                splittable = 0;
            else {
                p++;
                while (p < vd->end && (tx[p] == ' ' || tx[p] == '\t' || tx[p] == '\n'))
                    p++;
                if (p < vd->end && tx[p] == '{')
                    splittable = 0;
            }
        }
        if (splittable)
            l->split = 1;
        else
            l->spill = 1;
    }
    /* All declarators of one declaration move together (their text is rewritten as one). */
    for (unsigned i = 0; i < fn->num_locals; i++) {
        local *l = &fn->locals[i];
        if (!l->spill || l->declstmt < 0)
            continue;
        for (unsigned k = 0; k < fn->num_locals; k++) {
            local *o = &fn->locals[k];
            if (o->declstmt == l->declstmt && !o->spill) {
                o->spill = 1;
                o->split = 0;
            }
        }
    }
}

/* Params written in the body: block mode gives each thread its own copy. */
void gtapcc_find_assigned_params(taskfn *fn)
{
    tree *t = &fn->t;
    for (unsigned k = 1; k < t->n; k++) {
        const node *nd = &t->v[k];
        int target = -1;
        if ((nd->kind == CXCursor_BinaryOperator &&
             clang_getCursorBinaryOperatorKind(nd->cur) == CXBinaryOperator_Assign) ||
            nd->kind == CXCursor_CompoundAssignOperator) {
            target = tree_child(t, (int)k, 0);
        } else if (nd->kind == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(nd->cur);
            if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
                op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ||
                op == CXUnaryOperator_AddrOf)
                target = nd->first_child;
        } else if (nd->kind == CXCursor_CallExpr) {
            char *name = cursor_spelling(nd->cur);
            if (!strncmp(name, "operator", 8) && strchr(name + 8, '=') && strcmp(name, "operator==") &&
                strcmp(name, "operator!=") && strcmp(name, "operator<=") && strcmp(name, "operator>="))
                target = tree_child(t, (int)k, 0);
            free(name);
        }
        if (target < 0)
            continue;
        int bad;
        int root = gtapcc_dst_root_local(t, target, &bad);
        if (root >= 0 && fn->locals[root].is_param)
            fn->locals[root].assigned = 1;
    }
}

/* Reports addresses of locals that escape across a taskwait (into a spawned child or into
 * a pointer that lives across a join). */
void gtapcc_check_addresses(unit *u, taskfn *fn)
{
    tree *t = &fn->t;
    for (unsigned k = 1; k < t->n; k++) {
        const node *nd = &t->v[k];
        int operand = -1;
        if (nd->kind == CXCursor_UnaryOperator &&
            clang_getCursorUnaryOperatorKind(nd->cur) == CXUnaryOperator_AddrOf)
            operand = nd->first_child;
        if (operand < 0)
            continue;
        int bad;
        int root = gtapcc_dst_root_local(t, operand, &bad);
        if (root < 0 || fn->locals[root].is_param || fn->locals[root].is_static)
            continue;
        const local *v = &fn->locals[root];
        /* (a) passed to a child */
        for (unsigned s = 0; s < fn->num_spawns; s++) {
            const node *c = &t->v[fn->spawns[s].call];
            if (nd->begin >= c->begin && nd->end <= c->end) {
                diag_error(u->f, nd->begin, "address of local variable '%s' is passed to task '%s'; a "
                           "task's locals do not keep their address across a taskwait (pass a global "
                           "or heap pointer, or return the value)", v->name, fn->spawns[s].callee->name);
                goto next;
            }
        }
        /* (b) stored into a local pointer that lives across a taskwait */
        for (int p = nd->parent; p > 0; p = t->v[p].parent) {
            const node *pn = &t->v[p];
            int holder = -1;
            if (pn->kind == CXCursor_VarDecl)
                holder = pn->local;
            else if (pn->kind == CXCursor_BinaryOperator &&
                     clang_getCursorBinaryOperatorKind(pn->cur) == CXBinaryOperator_Assign) {
                int b2;
                holder = gtapcc_dst_root_local(t, tree_child(t, p, 0), &b2);
            }
            if (holder >= 0 && fn->locals[holder].spill) {
                unsigned woff = 0;
                for (unsigned w = 0; w < fn->num_waits; w++)
                    if (fn->waits[w]->begin > nd->begin) {
                        woff = fn->waits[w]->begin;
                        break;
                    }
                if (!woff && fn->num_waits)
                    woff = fn->waits[0]->begin;
                unsigned line = 0, col = 0;
                if (woff)
                    srcfile_linecol(u->f, woff, &line, &col);
                diag_error(u->f, nd->begin, "address of local variable '%s' is stored in '%s', which is "
                           "used across the taskwait at line %u; a task's locals do not keep their "
                           "address across a taskwait", v->name, fn->locals[holder].name, line);
                goto next;
            }
            if (pn->kind == CXCursor_DeclStmt || pn->kind == CXCursor_CompoundStmt)
                break;
        }
    next:;
    }
    /* references bound to locals and kept across a taskwait */
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *r = &fn->locals[i];
        if (!r->is_ref || !r->spill)
            continue;
        for (int c = t->v[r->node].first_child; c >= 0; c = t->v[c].next_sibling) {
            int bad;
            int root = gtapcc_dst_root_local(t, c, &bad);
            if (root >= 0 && root != (int)i && !fn->locals[root].is_param && !fn->locals[root].is_static &&
                !fn->locals[root].is_ref) {
                diag_error(u->f, t->v[r->node].begin, "reference '%s' to local variable '%s' is used "
                           "across a taskwait; a task's locals do not keep their address across a "
                           "taskwait", r->name, fn->locals[root].name);
                break;
            }
        }
    }
}

/* Warns where a child's result is read before the taskwait that makes it valid. */
void gtapcc_check_early_reads(unit *u, taskfn *fn)
{
    tree *t = &fn->t;
    for (unsigned s = 0; s < fn->num_spawns; s++) {
        const spawn *sp = &fn->spawns[s];
        int root = -1, bad = 0;
        if (sp->dst >= 0)
            root = gtapcc_dst_root_local(t, sp->dst, &bad);
        else if (sp->decl_local >= 0)
            root = sp->decl_local;
        if (root < 0)
            continue;
        unsigned limit = ~0u;
        for (unsigned w = 0; w < fn->num_waits; w++)
            if (fn->waits[w]->begin > sp->stmt_end && fn->waits[w]->begin < limit)
                limit = fn->waits[w]->begin;
        for (unsigned k = 1; k < t->n; k++) {
            const node *r = &t->v[k];
            if (r->kind != CXCursor_DeclRefExpr || r->local != root || r->begin < sp->stmt_end ||
                r->begin >= limit)
                continue;
            /* writes through another spawn's destination are fine */
            int is_dst = 0;
            for (unsigned o = 0; o < fn->num_spawns; o++) {
                const spawn *q = &fn->spawns[o];
                if (q->dst >= 0 && r->begin >= t->v[q->dst].begin && r->end <= t->v[q->dst].end)
                    is_dst = 1;
            }
            int p = r->parent;
            if (p >= 0 && t->v[p].kind == CXCursor_BinaryOperator &&
                clang_getCursorBinaryOperatorKind(t->v[p].cur) == CXBinaryOperator_Assign &&
                tree_child(t, p, 0) == (int)k)
                is_dst = 1;
            if (is_dst)
                continue;
            unsigned line, col;
            srcfile_linecol(u->f, t->v[sp->stmt].begin, &line, &col);
            diag_warning(u->f, r->begin, "'%s' is read before the taskwait that makes the result of "
                         "'%s' (spawned at line %u) valid", fn->locals[root].name, sp->callee->name, line);
            break;
        }
    }
}

int gtapcc_type_is_local(CXType ty)
{
    CXType c = clang_getCanonicalType(ty);
    while (c.kind == CXType_ConstantArray || c.kind == CXType_Pointer)
        c = c.kind == CXType_Pointer ? clang_getPointeeType(c) : clang_getArrayElementType(c);
    CXCursor d = clang_getTypeDeclaration(c);
    if (clang_Cursor_isNull(d))
        return 0;
    for (CXCursor p = clang_getCursorSemanticParent(d); !clang_Cursor_isNull(p) &&
         clang_getCursorKind(p) != CXCursor_TranslationUnit; p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod)
            return 1;
    }
    return 0;
}
