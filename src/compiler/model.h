/* model.h - what gtapcc knows about a translation unit: syntax trees of the user's
 * functions, task functions with their locals and directives, and the text edits that turn
 * the user's file into the translated file. Filled by analyze.c, consumed by lower.c and
 * emit.c.
 */
#ifndef GTAPCC_MODEL_H
#define GTAPCC_MODEL_H

#include <clang-c/Index.h>
#include <stdint.h>

#include "diag.h"
#include "parse.h"
#include "pragma.h"

/* ---- Syntax tree of one function, built from libclang cursors (ast.c) ---------------- */

typedef struct node {
    enum CXCursorKind kind;
    CXCursor cur;
    unsigned begin, end;     /* [begin, end) byte offsets in the user's file */
    int parent, first_child, next_sibling;
    int local;               /* VarDecl/ParmDecl: its local index; DeclRefExpr: referenced local; else -1 */
    int from_macro;          /* the node's text comes from a macro expansion */
} node;

typedef struct tree {
    node *v;
    unsigned n, cap;
} tree;

/* Builds the tree of the function definition fn (node 0 = the function). */
void tree_build(tree *t, CXCursor fn, const parse_result *pr, const srcfile *f);
void tree_free(tree *t);
/* The i-th child of node p, or -1. */
int tree_child(const tree *t, int p, unsigned i);
unsigned tree_num_children(const tree *t, int p);
/* Skips implicit wrappers (implicit casts, parentheses-free temporaries) with one child. */
int tree_unwrap(const tree *t, int i);
/* Innermost node whose extent strictly contains off (begin < off < end), or 0. */
int tree_innermost(const tree *t, unsigned off);

/* ---- Text edits (emit.c) ---------------------------------------------------------------- */

typedef struct edit {
    unsigned begin, end;     /* replaced range of the original text */
    unsigned seq;            /* insertion order, breaks ties among equal begins */
    char *text;
} edit;

typedef struct edit_list {
    edit *v;
    unsigned n, cap;
} edit_list;

/* Replaces [begin, end) by text, appending the newlines of the replaced text so that the
 * lines after it keep their numbers. */
void edit_add(edit_list *l, const srcfile *f, unsigned begin, unsigned end, const char *text);
/* Returns the text of [begin, end) with the edits inside that range applied (caller frees).
 * Returns NULL and reports an internal error if two edits overlap. */
char *edit_apply(const srcfile *f, unsigned begin, unsigned end, edit_list *l);
void edit_list_free(edit_list *l);

/* ---- Locals, task functions, the translation unit (analyze.c) ------------------------ */

typedef struct local {
    CXCursor decl;           /* VarDecl or ParmDecl */
    char *name;
    int node;                /* its node in the function's tree */
    unsigned decl_off;       /* offset of the declared name */
    int scope;               /* node of the enclosing scope (compound, for, if, while, switch) */
    int declstmt;            /* enclosing DeclStmt node, or -1 */
    int is_param;
    int is_static;           /* static, extern or __shared__: never spilled */
    int is_ref;              /* reference type */
    int has_init;
    int in_scope_at_join;    /* a resume label lands in its scope after its declaration */
    int spill;               /* lives in the task data */
    int split;               /* `T x = e;` becomes `T x; x = e;` (a resume label jumps past it) */
    int assigned;            /* parameter written in the body (block mode keeps per-thread copies) */
    int result_target;       /* a child's result is written into it */
    char *alias;             /* name used in the translated body */
    char *field;             /* field in the task data */
    CXType type;             /* declared type */
} local;

typedef struct spawn {
    directive *dir;
    int stmt;                /* the statement node after the directive */
    int call;                /* the CallExpr node */
    int dst;                 /* node of the result destination, or -1 */
    int decl_local;          /* `T x = f(...)`: the local x, else -1 */
    struct taskfn *callee;
    unsigned stmt_end;       /* offset just past the statement's ';' */
} spawn;

typedef struct taskfn {
    char *name;
    unsigned id;
    directive *dir;
    CXCursor cur;
    tree t;
    unsigned def_begin, def_end;   /* the definition, from its first token to past its '}' */
    int body;                      /* CompoundStmt node of the body */
    local *locals;
    unsigned num_locals, num_params;
    char *ret_spelling;            /* spelling of the return type */
    int is_void;
    long long ret_size;
    directive **waits;             /* taskwait directives in source order */
    unsigned num_waits;
    spawn *spawns;
    unsigned num_spawns;
    int has_goto;
    int worker;                    /* WORKER_THREAD / WORKER_BLOCK / WORKER_WARP */
    int return_thread;
    long long data_size, data_align; /* computed layout, -1 when unknown */
    int migratable;
    uint64_t sig_hash, layout_hash;
    int deferred;                  /* state machine emitted at the end of the file */
    int needs_clone;               /* an if/final path reaches it: it gets a serial clone (clone.c) */
    char *clone_text;              /* the clone's definition when it goes to the end of the file */
    edit_list edits;               /* edits inside the definition */
} taskfn;

/* An entry directive and the statement it rewrites. */
typedef struct entry_site {
    directive *dir;
    unsigned stmt_begin, stmt_end; /* statement range including its ';' */
    taskfn *callee;
    char *text;                    /* replacement (built by lower.c) */
    /* pieces for lowering */
    char *dst_text;                /* destination lvalue text, or NULL */
    char *decl_prefix;             /* `T x` of a declaration form, or NULL */
    char **args;
    unsigned num_args;
    long kernel_name_off;          /* where GTAP_ENTRY_KERNEL goes (the kernel's name), or -1 */
    char *kernel_ref;              /* the kernel's name when the end of the file can name it (a
                                    * __global__ function at file scope, not a template), else NULL */
} entry_site;

typedef struct unit {
    srcfile *f;
    parse_result *pr;
    dir_list dirs;
    taskfn *fns;
    unsigned num_fns;
    entry_site *entries;
    unsigned num_entries;
    edit_list edits;               /* top-level edits outside task functions */
    int mode;                      /* WORKER_THREAD / WORKER_BLOCK (from the included header) */
    int host_target;
    int no_taskwait;
    long long max_data_size;       /* GTAP_MAX_TASK_DATA_SIZE, -1 unknown */
    long long lanes;               /* GTAP_LANES: 1, or GTAP_BLOCK_SIZE in block mode */
    uint64_t program_hash;
} unit;

/* Task functions that several threads run together: block-level ones and warp task functions.
 * Every thread that reaches a spawn spawns its own child, taskwait is collective, locals have
 * a copy per thread, assigned parameters too, and the result is the result thread's. */
static inline int fn_is_cooperative(const taskfn *fn)
{
    return fn->worker == WORKER_BLOCK || fn->worker == WORKER_WARP;
}
/* The generated code's names for the copies of a local and the executing thread's copy. */
static inline const char *fn_lanes_macro(const taskfn *fn)
{
    return fn->worker == WORKER_WARP ? "GTAP_WARP_LANES" : "GTAP_LANES";
}
static inline const char *fn_lane_macro(const taskfn *fn)
{
    return fn->worker == WORKER_WARP ? "GTAP_WARP_LANE" : "GTAP_LANE";
}

/* Finds task functions, attaches directives, decides spills and checks every restriction.
 * Returns the number of errors reported. */
unsigned analyze_unit(unit *u);
/* Builds the per-function and top-level edits (state machines, spawns, joins, entries). */
unsigned lower_unit(unit *u);
/* Writes the translated file text into *out_p (caller frees). Returns 0 or -1 on error. */
int emit_unit(unit *u, char **out_p);
void unit_free(unit *u);

/* Small text helpers shared by the passes. */
char *cursor_spelling(CXCursor c);        /* caller frees */
char *type_spelling(CXType t);            /* caller frees */
/* Offset just past the ';' that ends a statement ending at off, or 0 if none follows. */
unsigned find_semicolon(const srcfile *f, unsigned off);
int is_ident_char(int c);

#endif /* GTAPCC_MODEL_H */
