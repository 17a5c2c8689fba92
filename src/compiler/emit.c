/* emit.c - text edits, task data layout, hashes, the dispatcher and program descriptor, and
 * the assembly of the translated file. */
#include "model.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- edits ---------------------------------------------------------------------------- */

static void push_edit(edit_list *l, unsigned b, unsigned e, char *text)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n].begin = b;
    l->v[l->n].end = e;
    l->v[l->n].seq = l->n;
    l->v[l->n].text = text;
    l->n++;
}

void edit_add(edit_list *l, const srcfile *f, unsigned begin, unsigned end, const char *text)
{
    strbuf sb = {0};
    sb_append(&sb, text);
    for (unsigned i = begin; i < end && i < f->len; i++)
        if (f->text[i] == '\n')
            sb_append(&sb, "\n");
    push_edit(l, begin, end < begin ? begin : end, sb.data ? sb.data : xstrdup(""));
}

static int cmp_edit(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    /* insertions before replacements at the same place, then in the order made */
    int xi = x->begin == x->end, yi = y->begin == y->end;
    if (xi != yi)
        return xi ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

char *edit_apply(const srcfile *f, unsigned begin, unsigned end, edit_list *l)
{
    if (l->n)
        qsort(l->v, l->n, sizeof *l->v, cmp_edit);
    strbuf sb = {0};
    unsigned cur = begin;
    for (unsigned i = 0; i < l->n; i++) {
        const edit *e = &l->v[i];
        if (e->begin < begin || e->end > end || (e->begin == end && e->begin != e->end))
            continue;
        if (e->begin < cur) {
            unsigned line, col;
            srcfile_linecol(f, e->begin, &line, &col);
            diag_error(f, e->begin, "internal error: overlapping rewrites (please report this input)");
            sb_free(&sb);
            return NULL;
        }
        sb_append_n(&sb, f->text + cur, e->begin - cur);
        sb_append(&sb, e->text);
        cur = e->end;
    }
    sb_append_n(&sb, f->text + cur, end - cur);
    return sb.data ? sb.data : xstrdup("");
}

void edit_list_free(edit_list *l)
{
    for (unsigned i = 0; i < l->n; i++)
        free(l->v[i].text);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* ---- layout, migratability, hashes ------------------------------------------------------ */

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    h ^= 0xff; /* separator so "ab"+"c" differs from "a"+"bc" */
    h *= 0x100000001b3ull;
    return h;
}

static uint64_t fnv1a_u64(uint64_t h, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return fnv1a(h, buf);
}

typedef struct ptr_ctx { int found; int depth; } ptr_ctx;
static int type_has_pointer(CXType t, int depth);

static enum CXVisitorResult field_visit(CXCursor c, CXClientData data)
{
    ptr_ctx *p = data;
    if (type_has_pointer(clang_getCursorType(c), p->depth + 1)) {
        p->found = 1;
        return CXVisit_Break;
    }
    return CXVisit_Continue;
}

static int type_has_pointer(CXType t, int depth)
{
    if (depth > 32)
        return 1; /* absurdly deep: be conservative */
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Pointer:
    case CXType_LValueReference:
    case CXType_RValueReference:
    case CXType_MemberPointer:
    case CXType_BlockPointer:
    case CXType_NullPtr:
    case CXType_ObjCObjectPointer:
        return 1;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_DependentSizedArray:
        return type_has_pointer(clang_getArrayElementType(c), depth + 1);
    case CXType_Record: {
        ptr_ctx p = {0, depth};
        clang_Type_visitFields(c, field_visit, &p);
        return p.found;
    }
    case CXType_Invalid:
    case CXType_Unexposed:
        return 1;
    default:
        return 0;
    }
}

static void layout(unit *u, taskfn *fn)
{
    long long off = 0, align = 1;
    int known = 1, migratable = 1;
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < fn->num_locals; i++) {
        const local *l = &fn->locals[i];
        if (!l->is_param && !l->spill)
            continue;
        CXType ft = l->is_ref && !l->is_param ? clang_getPointeeType(l->type)
                                               : clang_getNonReferenceType(l->type);
        long long sz = l->is_ref && !l->is_param ? 8 : clang_Type_getSizeOf(ft);
        long long al = l->is_ref && !l->is_param ? 8 : clang_Type_getAlignOf(ft);
        if ((l->is_ref && !l->is_param) || type_has_pointer(ft, 0))
            migratable = 0;
        char *ts = type_spelling(clang_getCanonicalType(ft));
        h = fnv1a(h, l->field);
        h = fnv1a(h, ts);
        free(ts);
        const long long lanes = fn->worker == WORKER_WARP ? 32 : u->lanes;
        long long copies = l->is_param ? 1 : lanes;
        if (l->is_param && fn_is_cooperative(fn) && l->assigned)
            copies = 1 + lanes;
        h = fnv1a_u64(h, (uint64_t)copies);
        if (sz < 0 || al <= 0 || copies < 0) {
            known = 0;
            continue;
        }
        if (l->is_param && copies > 1) { /* the shared field, then the per-thread array */
            off = (off + al - 1) / al * al + sz;
            copies--;
        }
        off = (off + al - 1) / al * al + sz * copies;
        if (al > align)
            align = al;
    }
    if (off == 0)
        off = 1;
    off = (off + align - 1) / align * align;
    fn->data_size = known ? off : -1;
    fn->data_align = known ? align : -1;
    fn->migratable = migratable;
    fn->layout_hash = fnv1a_u64(h, (uint64_t)(known ? off : 0));
    /* signature: name, parameter types, return type */
    uint64_t s = fnv1a(0xcbf29ce484222325ull, fn->name);
    for (unsigned i = 0; i < fn->num_params; i++) {
        char *ts = type_spelling(clang_getCanonicalType(fn->locals[i].type));
        s = fnv1a(s, ts);
        free(ts);
    }
    char *rs = type_spelling(clang_getCanonicalType(clang_getCursorResultType(fn->cur)));
    s = fnv1a(s, rs);
    free(rs);
    fn->sig_hash = s;
    if (known && u->max_data_size > 0 && off > u->max_data_size)
        diag_error(u->f, fn->def_begin, "task data of '%s' is %lld bytes (arguments and locals that live "
                   "across a taskwait%s), more than GTAP_MAX_TASK_DATA_SIZE=%lld; raise "
                   "GTAP_MAX_TASK_DATA_SIZE or keep fewer values across taskwaits", fn->name, off,
                   fn->worker == WORKER_WARP ? ", one copy per lane of the warp"
                   : u->lanes > 1 ? ", one copy per thread of the block" : "", u->max_data_size);
}

/* ---- output ------------------------------------------------------------------------------ */

static int has_warp_functions(const unit *u)
{
    for (unsigned i = 0; i < u->num_fns; i++)
        if (u->fns[i].worker == WORKER_WARP)
            return 1;
    return 0;
}

static void trailer(unit *u, strbuf *sb)
{
    sb_append(sb, "\n#line 1 \"gtapcc-generated\"\n");
    sb_append(sb, "/* ---- gtapcc: dispatcher and program descriptor (gtap_gen.h) ---- */\n");
    sb_append(sb, "GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *gtapgen_w, unsigned gtapgen_fn, "
                  "gtap_task gtapgen_t)\n{\n    switch (gtapgen_fn) {\n");
    for (unsigned i = 0; i < u->num_fns; i++)
        sb_printf(sb, "    case GTAPGEN_FN_%s: gtapgen_%s(gtapgen_w, gtapgen_t); return;\n", u->fns[i].name,
                  u->fns[i].name);
    sb_append(sb, "    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;\n    }\n}\n");
    if (has_warp_functions(u)) {
        /* the scheduler's second call site runs warp tasks only (worker_thread_warp.cuh) */
        sb_append(sb, "GTAP_TASK_FN int gtapgen_fn_is_warp(unsigned gtapgen_fn)\n{\n    switch (gtapgen_fn) {\n");
        for (unsigned i = 0; i < u->num_fns; i++)
            if (u->fns[i].worker == WORKER_WARP)
                sb_printf(sb, "    case GTAPGEN_FN_%s:\n", u->fns[i].name);
        sb_append(sb, "        return 1;\n    default: return 0;\n    }\n}\n");
        sb_append(sb, "GTAP_TASK_FN void gtapgen_dispatch_warp(gtap_worker *gtapgen_w, unsigned gtapgen_fn, "
                      "gtap_task gtapgen_t)\n{\n    switch (gtapgen_fn) {\n");
        for (unsigned i = 0; i < u->num_fns; i++)
            if (u->fns[i].worker == WORKER_WARP)
                sb_printf(sb, "    case GTAPGEN_FN_%s: gtapgen_%s(gtapgen_w, gtapgen_t); return;\n",
                          u->fns[i].name, u->fns[i].name);
        sb_append(sb, "    default: gtap_task_bad_state(gtapgen_w, gtapgen_t); return;\n    }\n}\n");
    }
    sb_append(sb, "static const gtap_function_desc gtapgen_functions[] = {\n");
    int any_wait = 0;
    for (unsigned i = 0; i < u->num_fns; i++) {
        const taskfn *fn = &u->fns[i];
        unsigned flags = (fn->migratable ? 1u : 0u) | (fn->num_waits ? 2u : 0u) |
                         (fn->worker == WORKER_WARP ? 4u : 0u);
        any_wait |= fn->num_waits > 0;
        sb_printf(sb, "    {\"%s\", (uint32_t)sizeof(struct gtapgen_%s_data), (uint32_t)alignof(struct gtapgen_%s_data), ",
                  fn->name, fn->name, fn->name);
        if (fn->is_void)
            sb_append(sb, "0u, ");
        else
            sb_printf(sb, "(uint32_t)sizeof(gtapgen_%s_ret), ", fn->name);
        sb_printf(sb, "0x%xu /*%s%s%s*/, 0x%016llxull},\n", flags, fn->migratable ? " MIGRATABLE" : "",
                  fn->num_waits ? " HAS_TASKWAIT" : "", fn->worker == WORKER_WARP ? " WARP" : "",
                  (unsigned long long)fn->sig_hash);
    }
    sb_append(sb, "};\n");
    sb_append(sb, "static constexpr uint32_t gtapgen_umax(uint32_t a, uint32_t b) { return a > b ? a : b; }\n");
    /* max over functions, written as a fold of gtapgen_umax over sizeof/alignof */
    const char *what[3] = {"sizeof(struct gtapgen_%s_data)", "alignof(struct gtapgen_%s_data)", NULL};
    strbuf m[3] = {{0}, {0}, {0}};
    for (int k = 0; k < 3; k++) {
        sb_append(&m[k], k == 1 ? "1u" : "0u");
        for (unsigned i = 0; i < u->num_fns; i++) {
            const taskfn *fn = &u->fns[i];
            strbuf term = {0};
            if (k < 2)
                sb_printf(&term, what[k], fn->name);
            else if (fn->is_void)
                sb_append(&term, "0u");
            else
                sb_printf(&term, "sizeof(gtapgen_%s_ret)", fn->name);
            strbuf next = {0};
            sb_printf(&next, "gtapgen_umax(%s, (uint32_t)%s)", sb_str(&m[k]), sb_str(&term));
            sb_free(&m[k]);
            m[k] = next;
            sb_free(&term);
        }
    }
    uint64_t ph = fnv1a(0xcbf29ce484222325ull, "gtap-program");
    ph = fnv1a_u64(ph, 2); /* GTAP_GEN_INTERFACE_VERSION */
    ph = fnv1a_u64(ph, (uint64_t)u->mode);
    for (unsigned i = 0; i < u->num_fns; i++) {
        ph = fnv1a_u64(ph, u->fns[i].sig_hash);
        ph = fnv1a_u64(ph, u->fns[i].layout_hash);
        ph = fnv1a_u64(ph, (uint64_t)u->fns[i].migratable);
        if (u->fns[i].worker == WORKER_WARP) /* only then: other programs keep their hashes */
            ph = fnv1a(ph, "warp");
    }
    u->program_hash = ph;
    sb_printf(sb, "const gtap_program_desc gtapgen_program = {\n    GTAP_GEN_INTERFACE_VERSION, %uu,\n"
                  "    %s,\n    %s,\n    %s,\n    %du, 0x%016llxull, gtapgen_functions};\n",
              u->num_fns, sb_str(&m[0]), sb_str(&m[1]), sb_str(&m[2]), any_wait,
              (unsigned long long)ph);
    for (int k = 0; k < 3; k++)
        sb_free(&m[k]);
    /* the entry kernels, so that gtap_initialize does what their first launch would do lazily
     * (gtap/host.h, gtap_host_register_entry_kernel) */
    int any_kernel = 0;
    for (unsigned i = 0; i < u->num_entries; i++) {
        const entry_site *e = &u->entries[i];
        int seen = 0;
        for (unsigned k = 0; k < i; k++)
            seen |= u->entries[k].kernel_ref && e->kernel_ref && !strcmp(u->entries[k].kernel_ref, e->kernel_ref);
        if (!e->kernel_ref || seen)
            continue;
        if (!any_kernel)
            sb_append(sb, "#if !defined(GTAP_TARGET_HOST)\n"
                          "static const int gtapgen_entry_kernels __attribute__((unused)) = 0");
        any_kernel = 1;
        sb_printf(sb, "\n    + gtap_host_register_entry_kernel((const void *)%s)", e->kernel_ref);
    }
    if (any_kernel)
        sb_append(sb, ";\n#endif\n");
}

int emit_unit(unit *u, char **out_p)
{
    *out_p = NULL;
    for (unsigned i = 0; i < u->num_fns; i++)
        if (u->fns[i].body >= 0)
            layout(u, &u->fns[i]);
    if (diag_error_count())
        return -1;
    /* in-place state machines contribute their edits to the file-level list */
    for (unsigned i = 0; i < u->num_fns; i++) {
        taskfn *fn = &u->fns[i];
        if (fn->deferred)
            continue;
        for (unsigned k = 0; k < fn->edits.n; k++) {
            push_edit(&u->edits, fn->edits.v[k].begin, fn->edits.v[k].end, fn->edits.v[k].text);
            fn->edits.v[k].text = NULL;
        }
        fn->edits.n = 0;
    }
    strbuf sb = {0};
    sb_append(&sb, "#define GTAPGEN_TRANSLATED 1\n");
    if (has_warp_functions(u))
        sb_append(&sb, "#define GTAPGEN_HAS_WARP_FUNCTIONS 1\n");
    srcfile_line_directive(&sb, u->f, 1);
    char *body = edit_apply(u->f, 0, (unsigned)u->f->len, &u->edits);
    if (!body) {
        sb_free(&sb);
        return -1;
    }
    sb_append(&sb, body);
    free(body);
    if (u->num_fns) {
        sb_append(&sb, "\n");
        for (unsigned i = 0; i < u->num_fns; i++) {
            taskfn *fn = &u->fns[i];
            if (!fn->deferred || fn->body < 0)
                continue;
            unsigned ob = fn->t.v[fn->body].begin, line, col;
            srcfile_linecol(u->f, ob, &line, &col);
            srcfile_line_directive(&sb, u->f, line);
            for (unsigned c = 1; c < col; c++)
                sb_append(&sb, " ");
            char *text = edit_apply(u->f, ob, fn->def_end, &fn->edits);
            if (!text) {
                sb_free(&sb);
                return -1;
            }
            sb_append(&sb, text);
            sb_append(&sb, "\n");
            free(text);
            if (fn->clone_text)
                sb_append(&sb, fn->clone_text);
        }
        trailer(u, &sb);
    }
    *out_p = sb.data;
    return 0;
}

void unit_free(unit *u)
{
    for (unsigned i = 0; i < u->num_fns; i++) {
        taskfn *fn = &u->fns[i];
        for (unsigned k = 0; k < fn->num_locals; k++) {
            free(fn->locals[k].name);
            free(fn->locals[k].alias);
            free(fn->locals[k].field);
        }
        free(fn->locals);
        free(fn->name);
        free(fn->ret_spelling);
        free(fn->clone_text);
        free(fn->waits);
        free(fn->spawns);
        tree_free(&fn->t);
        edit_list_free(&fn->edits);
    }
    free(u->fns);
    for (unsigned i = 0; i < u->num_entries; i++) {
        entry_site *e = &u->entries[i];
        for (unsigned k = 0; k < e->num_args; k++)
            free(e->args[k]);
        free(e->args);
        free(e->dst_text);
        free(e->decl_prefix);
        free(e->kernel_ref);
        free(e->text);
    }
    free(u->entries);
    edit_list_free(&u->edits);
    dir_list_free(&u->dirs);
}
