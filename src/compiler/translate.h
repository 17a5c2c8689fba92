/* translate.h - one user file in, its translated text out (parse, analyze, lower, emit). */
#ifndef GTAPCC_TRANSLATE_H
#define GTAPCC_TRANSLATE_H

#include "parse.h"

typedef struct translate_opts {
    parse_opts parse;
    int host_target;      /* --target=host */
} translate_opts;

typedef struct translate_info {
    unsigned num_functions;
    int block_mode;
    unsigned long long program_hash;
} translate_info;

/* Translates path; on success returns 0 and the text in *out_p (caller frees). On failure
 * the diagnostics have been printed and -1 is returned (nothing is written anywhere). */
int translate_file(const char *path, const translate_opts *o, char **out_p, translate_info *info_p);

#endif /* GTAPCC_TRANSLATE_H */
