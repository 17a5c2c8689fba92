/* translate.c - runs the passes over one file: parse -> analyze -> lower -> emit. */
#include "translate.h"
#include "model.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct incl_ctx {
    const translate_opts *o;
    const char *main_path;
    unsigned reported;
} incl_ctx;

/* Task functions in included user headers are not translated yet: say so instead of
 * letting nvcc compile them as plain functions. System, CUDA and runtime headers are skipped. */
static void check_include(CXFile inc, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    incl_ctx *x = data;
    if (depth == 0)
        return;
    CXString name = clang_getFileName(inc);
    const char *p = clang_getCString(name);
    int skip = !p || !strncmp(p, "/usr/", 5) || !strncmp(p, "/__gtapcc_virtual__", 19) ||
               !strncmp(p, x->o->parse.cuda_path, strlen(x->o->parse.cuda_path)) ||
               !strncmp(p, x->o->parse.runtime_include, strlen(x->o->parse.runtime_include)) ||
               !strcmp(p, x->main_path);
    if (!skip) {
        FILE *fp = fopen(p, "rb");
        char line[4096];
        unsigned ln = 0;
        while (fp && fgets(line, sizeof line, fp)) {
            ln++;
            char *q = line;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != '#')
                continue;
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, "pragma", 6))
                continue;
            q += 6;
            while (*q == ' ' || *q == '\t')
                q++;
            if (!strncmp(q, "gtap", 4) && (q[4] == ' ' || q[4] == '\t' || q[4] == '\n' || q[4] == 0)) {
                fprintf(stderr, "%s:%u:1: error: '#pragma gtap' in an included header is not translated "
                        "(gtapcc translates the .cu file it is given); move the task functions into the .cu file\n",
                        p, ln);
                x->reported++;
                diag_count_external_error();
                break;
            }
        }
        if (fp)
            fclose(fp);
    }
    (void)stack;
    clang_disposeString(name);
}

int translate_file(const char *path, const translate_opts *o, char **out_p, translate_info *info_p)
{
    int rc = -1;
    unsigned errors = diag_error_count();
    *out_p = NULL;
    srcfile *f = srcfile_load(path);
    if (!f)
        return -1;
    parse_result pr;
    if (parse_file(f, &o->parse, &pr) != 0)
        goto out_src;
    incl_ctx ic = {o, f->abspath, 0};
    clang_getInclusions(pr.tu, check_include, &ic);
    unit u;
    memset(&u, 0, sizeof u);
    u.f = f;
    u.pr = &pr;
    u.host_target = o->host_target;
    u.no_taskwait = o->parse.no_taskwait || pr.no_taskwait;
    u.max_data_size = pr.max_data_size;
    u.lanes = 1;
    if (analyze_unit(&u) == 0 && diag_error_count() == errors && lower_unit(&u) == 0 &&
        diag_error_count() == errors && emit_unit(&u, out_p) == 0 && diag_error_count() == errors) {
        rc = 0;
        if (info_p) {
            info_p->num_functions = u.num_fns;
            info_p->block_mode = u.mode == WORKER_BLOCK;
            info_p->program_hash = u.program_hash;
        }
    }
    if (rc != 0 && *out_p) {
        free(*out_p);
        *out_p = NULL;
    }
    unit_free(&u);
    parse_dispose(&pr);
out_src:
    srcfile_free(f);
    return rc;
}
