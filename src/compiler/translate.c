/* translate.c - runs the passes over one file: parse -> analyze -> lower -> emit. */
#include "translate.h"
#include "model.h"

#include <stdlib.h>
#include <string.h>

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
