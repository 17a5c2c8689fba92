/* parse.h - runs libclang over the user's CUDA file with the flags and prelude gtapcc needs.
 *
 * clang 19 cannot parse CUDA 13's headers through its CUDA wrapper alone (it misses
 * texture_fetch_functions.h), and the runtime headers may be mid-change, so the parse sees
 * small virtual stand-ins (parse-only declarations of the user API) instead of the real
 * runtime headers. The user's file is parsed as written plus an epilogue of probes that read
 * configuration macros (GTAP_MAX_TASK_DATA_SIZE, GTAP_BLOCK_SIZE, the worker mode).
 */
#ifndef GTAPCC_PARSE_H
#define GTAPCC_PARSE_H

#include <clang-c/Index.h>

#include "diag.h"

typedef struct parse_opts {
    const char **user_args;    /* -D/-U/-I/-include/-std... from the command line */
    unsigned num_user_args;
    const char *cuda_path;     /* CUDA toolkit root (for its include dir) */
    const char *runtime_include; /* src/node_runtime/include or the installed copy */
    int no_taskwait;           /* -fgtap-no-taskwait */
    int verbose;               /* print clang's own diagnostics too */
} parse_opts;

typedef struct parse_result {
    CXIndex index;
    CXTranslationUnit tu;
    CXFile file;               /* the user's file inside tu */
    /* probes; -1 when the macro was not defined */
    long long max_data_size;
    long long block_size;
    int mode;                  /* 0 no runtime header, 1 thread, 2 block */
    int no_taskwait;
    unsigned (*skipped)[2];    /* preprocessor-skipped ranges in the user's file */
    unsigned num_skipped;
} parse_result;

/* Parses f. Returns 0 on success; on failure reports an error and returns -1. */
int parse_file(const srcfile *f, const parse_opts *o, parse_result *r);
void parse_dispose(parse_result *r);

/* Byte offset of loc in the user's file, or -1 if loc lies elsewhere (or in the epilogue).
 * Macro locations map to their expansion point. */
long parse_offset(const parse_result *r, const srcfile *f, CXSourceLocation loc);

#endif /* GTAPCC_PARSE_H */
