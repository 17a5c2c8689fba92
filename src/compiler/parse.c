/* parse.c - libclang setup: arguments, virtual prelude and stand-in headers, probes. */
#include "parse.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VDIR "/__gtapcc_virtual__"

/* Empty stand-in for the header clang's CUDA wrapper wants and CUDA 13 no longer ships. */
static const char k_texture_stub[] = "/* gtapcc: CUDA 13 has no texture_fetch_functions.h */\n";

/* Parse-only declarations of the user-visible runtime API (the real headers are compiled
 * by nvcc later); kept in step with gtap_thread.cuh / gtap_block.cuh. */
static const char k_api_common[] =
    "#pragma once\n"
    "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <string.h>\n#include <limits.h>\n"
    "#include \"gtap/config.h\"\n#include \"gtap/api_types.h\"\n"
    "int gtap_default_grid_size(void);\n"
    "cudaError_t gtap_initialize();\n"
    "cudaError_t gtap_initialize(size_t *);\n"
    "template <class K, class... A> cudaError_t gtap_launch(K, A &&...);\n"
    "cudaError_t gtap_synchronize();\ncudaError_t gtap_finalize();\ncudaError_t gtap_reset();\n"
    "gtap_profile_export_result gtap_export_profile(const gtap_profile_export_options & = {});\n"
    "gtap_profile_export_result gtap_export_profile(const char *);\n"
    "void gtap_visualize_profile(const char *);\nvoid visualize_profile(const char *);\n"
    "void visualize_working_time(const char *);\n"
    "size_t gtap_host_task_data_stride();\n"
    "template <class T> __device__ T load_L2(const T *);\n"
    "template <class T> __device__ T load_L2(T *);\n";

static const char k_thread_stub[] =
    "#pragma once\n#define GTAPGEN_PARSE_MODE_THREAD 1\n#include \"gtapgen_parse_api.h\"\n"
    "cudaError_t gtap_initialize(const gtap_thread_config &, size_t * = nullptr);\n"
    "cudaError_t gtap_validate_config(const gtap_thread_config &);\n";

static const char k_block_stub[] =
    "#pragma once\n#define GTAPGEN_PARSE_MODE_BLOCK 1\n#include \"gtapgen_parse_api.h\"\n"
    "cudaError_t gtap_initialize(const gtap_block_config &, size_t * = nullptr);\n"
    "cudaError_t gtap_validate_config(const gtap_block_config &);\n";

static const char k_epilogue[] =
    "\n#ifdef GTAP_MAX_TASK_DATA_SIZE\n"
    "constexpr long long gtapgen_probe_max_data = (long long)(GTAP_MAX_TASK_DATA_SIZE);\n#endif\n"
    "#ifdef GTAP_BLOCK_SIZE\n"
    "constexpr long long gtapgen_probe_block_size = (long long)(GTAP_BLOCK_SIZE);\n#endif\n"
    "#if defined(GTAPGEN_PARSE_MODE_BLOCK) && defined(GTAPGEN_PARSE_MODE_THREAD)\n"
    "constexpr int gtapgen_probe_mode = 3;\n"
    "#elif defined(GTAPGEN_PARSE_MODE_BLOCK)\nconstexpr int gtapgen_probe_mode = 2;\n"
    "#elif defined(GTAPGEN_PARSE_MODE_THREAD)\nconstexpr int gtapgen_probe_mode = 1;\n#endif\n"
    "#ifdef GTAP_ASSUME_NO_TASKWAIT\nconstexpr int gtapgen_probe_no_taskwait = 1;\n#endif\n";

typedef struct { const char *name; const char *text; } vfile;

static const vfile k_vfiles[] = {
    {VDIR "/include/texture_fetch_functions.h", k_texture_stub},
    {VDIR "/include/gtapgen_parse_api.h", k_api_common},
    {VDIR "/include/gtap_thread.cuh", k_thread_stub},
    {VDIR "/include/gtap_thread_gq.cuh", k_thread_stub},
    {VDIR "/include/gtap_thread_chaselev.cuh", k_thread_stub},
    {VDIR "/include/experimental/gtap_thread_gq.cuh", k_thread_stub},
    {VDIR "/include/experimental/gtap_thread_chaselev.cuh", k_thread_stub},
    {VDIR "/include/gtap_block.cuh", k_block_stub},
    {VDIR "/include/gtap_block_gq.cuh", k_block_stub},
    {VDIR "/include/experimental/gtap_block_gq.cuh", k_block_stub},
};
#define NUM_VFILES (sizeof k_vfiles / sizeof k_vfiles[0])

typedef struct { parse_result *r; const char *name; long long *out; } probe_ctx;

static enum CXChildVisitResult find_probe(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    probe_ctx *p = data;
    if (clang_getCursorKind(c) != CXCursor_VarDecl)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    int match = strcmp(clang_getCString(s), p->name) == 0;
    clang_disposeString(s);
    if (!match)
        return CXChildVisit_Continue;
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (ev) {
        if (clang_EvalResult_getKind(ev) == CXEval_Int)
            *p->out = clang_EvalResult_getAsLongLong(ev);
        clang_EvalResult_dispose(ev);
    }
    return CXChildVisit_Break;
}

static long long probe(parse_result *r, const char *name)
{
    long long v = -1;
    probe_ctx p = {r, name, &v};
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), find_probe, &p);
    return v;
}

int parse_file(const srcfile *f, const parse_opts *o, parse_result *r)
{
    memset(r, 0, sizeof *r);
    r->max_data_size = r->block_size = -1;

    /* Arguments: CUDA host-side parse through clang's wrapper, our virtual headers first. */
    const char *args[512];
    unsigned na = 0;
    static char cuda_inc[4096], cuda_path_arg[4096], rt_inc[4096];
    snprintf(cuda_path_arg, sizeof cuda_path_arg, "--cuda-path=%s", o->cuda_path);
    snprintf(cuda_inc, sizeof cuda_inc, "-I%s/include", o->cuda_path);
    snprintf(rt_inc, sizeof rt_inc, "-I%s", o->runtime_include);
    args[na++] = "-x";
    args[na++] = "cuda";
    args[na++] = "-std=c++20";
    args[na++] = "--cuda-host-only";
    args[na++] = "-nocudalib";
    args[na++] = "--cuda-gpu-arch=sm_90";
    args[na++] = cuda_path_arg;
    args[na++] = "-Wno-unknown-cuda-version";
    args[na++] = "-D__GTAPCC__=1";
    if (o->no_taskwait)
        args[na++] = "-DGTAP_ASSUME_NO_TASKWAIT=1";
    args[na++] = "-I" VDIR "/include";
    /* The runtime's headers before the user's -I paths: one of those may hold another GTaP
     * runtime (the paper's Makefiles pass -I$(GT_INC)), whose gtap_thread.cuh must not win. */
    args[na++] = rt_inc;
    for (unsigned i = 0; i < o->num_user_args && na < 500; i++)
        args[na++] = o->user_args[i];
    args[na++] = cuda_inc;

    struct CXUnsavedFile uf[NUM_VFILES + 1];
    for (unsigned i = 0; i < NUM_VFILES; i++) {
        uf[i].Filename = k_vfiles[i].name;
        uf[i].Contents = k_vfiles[i].text;
        uf[i].Length = strlen(k_vfiles[i].text);
    }
    /* The user's file as written plus the probe epilogue: offsets of the original text are
     * unchanged, so every AST position maps straight back to the user's bytes. */
    strbuf main_text = {0};
    sb_append_n(&main_text, f->text, f->len);
    sb_append(&main_text, k_epilogue);
    uf[NUM_VFILES].Filename = f->abspath;
    uf[NUM_VFILES].Contents = main_text.data;
    uf[NUM_VFILES].Length = main_text.len;

    r->index = clang_createIndex(0, 0);
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        r->index, f->abspath, args, (int)na, uf, NUM_VFILES + 1,
        CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord,
        &r->tu);
    sb_free(&main_text);
    if (ec != CXError_Success || !r->tu) {
        diag_at(DIAG_ERROR, NULL, 0, "libclang could not parse '%s' (error %d)", f->path, (int)ec);
        parse_dispose(r);
        return -1;
    }
    r->file = clang_getFile(r->tu, f->abspath);
    if (!r->file) {
        diag_at(DIAG_ERROR, NULL, 0, "libclang lost track of '%s'", f->path);
        parse_dispose(r);
        return -1;
    }
    if (o->verbose) { /* clang's own view, for debugging parses; never fatal */
        unsigned nd = clang_getNumDiagnostics(r->tu);
        for (unsigned i = 0; i < nd; i++) {
            CXDiagnostic d = clang_getDiagnostic(r->tu, i);
            if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
                CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
                fprintf(stderr, "gtapcc: (libclang) %s\n", clang_getCString(s));
                clang_disposeString(s);
            }
            clang_disposeDiagnostic(d);
        }
    }
    CXSourceRangeList *sk = clang_getSkippedRanges(r->tu, r->file);
    if (sk) {
        r->skipped = xcalloc(sk->count ? sk->count : 1, sizeof *r->skipped);
        for (unsigned i = 0; i < sk->count; i++) {
            unsigned b, e;
            clang_getFileLocation(clang_getRangeStart(sk->ranges[i]), NULL, NULL, NULL, &b);
            clang_getFileLocation(clang_getRangeEnd(sk->ranges[i]), NULL, NULL, NULL, &e);
            r->skipped[r->num_skipped][0] = b;
            r->skipped[r->num_skipped][1] = e;
            r->num_skipped++;
        }
        clang_disposeSourceRangeList(sk);
    }
    r->max_data_size = probe(r, "gtapgen_probe_max_data");
    r->block_size = probe(r, "gtapgen_probe_block_size");
    long long m = probe(r, "gtapgen_probe_mode");
    r->mode = m < 0 ? 0 : (int)m;
    r->no_taskwait = probe(r, "gtapgen_probe_no_taskwait") == 1;
    return 0;
}

void parse_dispose(parse_result *r)
{
    if (r->tu)
        clang_disposeTranslationUnit(r->tu);
    if (r->index)
        clang_disposeIndex(r->index);
    free(r->skipped);
    memset(r, 0, sizeof *r);
}

long parse_offset(const parse_result *r, const srcfile *f, CXSourceLocation loc)
{
    CXFile file;
    unsigned off;
    clang_getExpansionLocation(loc, &file, NULL, NULL, &off);
    if (!file || !clang_File_isEqual(file, r->file) || off > f->len)
        return -1;
    return (long)off;
}
