/* ast.c - a compact syntax tree of one function built from libclang cursors, with byte
 * offsets into the user's file, plus small text helpers. */
#include "model.h"
#include "strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct build_ctx {
    tree *t;
    const parse_result *pr;
    const srcfile *f;
    int parent;
    int last_child;
} build_ctx;

char *cursor_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

char *type_spelling(CXType ty)
{
    CXString s = clang_getTypeSpelling(ty);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

int is_ident_char(int c)
{
    return isalnum(c) || c == '_';
}

unsigned find_semicolon(const srcfile *f, unsigned off)
{
    const char *t = f->text;
    unsigned n = (unsigned)f->len;
    while (off < n) {
        if (isspace((unsigned char)t[off])) {
            off++;
        } else if (t[off] == '/' && off + 1 < n && t[off + 1] == '/') {
            while (off < n && t[off] != '\n')
                off++;
        } else if (t[off] == '/' && off + 1 < n && t[off + 1] == '*') {
            off += 2;
            while (off + 1 < n && !(t[off] == '*' && t[off + 1] == '/'))
                off++;
            off += 2;
        } else {
            return t[off] == ';' ? off + 1 : 0;
        }
    }
    return 0;
}

/* True when loc comes out of a macro expansion (its spelling is somewhere else). */
static int is_macro_loc(CXSourceLocation loc)
{
    CXFile ef, sf;
    unsigned eo, so;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    return !(ef && sf && clang_File_isEqual(ef, sf) && eo == so);
}

static int add_node(tree *t, CXCursor c, unsigned b, unsigned e, int parent)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->v = xrealloc(t->v, t->cap * sizeof *t->v);
    }
    node *nd = &t->v[t->n];
    nd->kind = clang_getCursorKind(c);
    nd->cur = c;
    nd->begin = b;
    nd->end = e < b ? b : e;
    nd->parent = parent;
    nd->first_child = nd->next_sibling = -1;
    nd->local = -1;
    CXSourceRange r = clang_getCursorExtent(c);
    nd->from_macro = is_macro_loc(clang_getRangeStart(r)) || is_macro_loc(clang_getCursorLocation(c));
    return (int)t->n++;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    build_ctx *ctx = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isAttribute(k))
        return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    long b = parse_offset(ctx->pr, ctx->f, clang_getRangeStart(r));
    long e = parse_offset(ctx->pr, ctx->f, clang_getRangeEnd(r));
    if (b < 0 || e < 0) {
        /* Implicit or foreign node: keep walking its children under the same parent. */
        clang_visitChildren(c, visit, ctx);
        return CXChildVisit_Continue;
    }
    tree *t = ctx->t;
    int me = add_node(t, c, (unsigned)b, (unsigned)e, ctx->parent);
    if (ctx->last_child >= 0)
        t->v[ctx->last_child].next_sibling = me;
    else if (ctx->parent >= 0)
        t->v[ctx->parent].first_child = me;
    ctx->last_child = me;
    if (k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue; /* lambdas are opaque to the state machine */
    build_ctx sub = {t, ctx->pr, ctx->f, me, -1};
    clang_visitChildren(c, visit, &sub);
    return CXChildVisit_Continue;
}

void tree_build(tree *t, CXCursor fn, const parse_result *pr, const srcfile *f)
{
    memset(t, 0, sizeof *t);
    CXSourceRange r = clang_getCursorExtent(fn);
    long b = parse_offset(pr, f, clang_getRangeStart(r));
    long e = parse_offset(pr, f, clang_getRangeEnd(r));
    add_node(t, fn, b < 0 ? 0 : (unsigned)b, e < 0 ? 0 : (unsigned)e, -1);
    build_ctx ctx = {t, pr, f, 0, -1};
    clang_visitChildren(fn, visit, &ctx);
}

void tree_free(tree *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

int tree_child(const tree *t, int p, unsigned i)
{
    int c = t->v[p].first_child;
    while (c >= 0 && i > 0) {
        c = t->v[c].next_sibling;
        i--;
    }
    return c;
}

unsigned tree_num_children(const tree *t, int p)
{
    unsigned n = 0;
    for (int c = t->v[p].first_child; c >= 0; c = t->v[c].next_sibling)
        n++;
    return n;
}

int tree_unwrap(const tree *t, int i)
{
    while (i >= 0) {
        enum CXCursorKind k = t->v[i].kind;
        if ((k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr) && tree_num_children(t, i) == 1)
            i = t->v[i].first_child;
        else
            break;
    }
    return i;
}

int tree_innermost(const tree *t, unsigned off)
{
    int best = 0;
    for (unsigned i = 1; i < t->n; i++) {
        const node *nd = &t->v[i];
        if (nd->begin < off && off < nd->end) {
            const node *bn = &t->v[best];
            if (best == 0 || (nd->end - nd->begin) <= (bn->end - bn->begin))
                best = (int)i;
        }
    }
    return best;
}
