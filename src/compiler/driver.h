/* driver.h - what gtapcc runs after translating: nvcc (GPU target) or g++ (host target),
 * where it finds the runtime, and temporary files. */
#ifndef GTAPCC_DRIVER_H
#define GTAPCC_DRIVER_H

typedef struct argv_list {
    char **v;
    unsigned n, cap;
} argv_list;

void argv_push(argv_list *a, const char *s);
/* Pushes a printf-formatted argument. */
void argv_pushf(argv_list *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(argv_list *a);

/* Directories of the runtime this gtapcc belongs to (build tree, install tree, or $GTAP_HOME). */
typedef struct gtap_paths {
    char *runtime_include;   /* gtap_thread.cuh, gtap_gen.h, gtap/... */
    char *host_target;       /* host_target/ (the host target's cuda_runtime.h, gtap_thread.cuh) */
    char *lib_dir;           /* libgtap_host.a */
} gtap_paths;

void paths_resolve(gtap_paths *p);
void paths_free(gtap_paths *p);

/* Runs argv (argv->v NULL-terminated by the call); prints it first when verbose. Returns
 * the exit status, or 127 (and an error) when it cannot be started. */
int run_command(argv_list *argv, int verbose);

/* Creates a private temporary directory; returns its path (caller frees) or NULL. */
char *make_temp_dir(void);
/* Removes dir and the files directly inside it. */
void remove_temp_dir(const char *dir);
/* Writes text to path through a temporary file and rename, so a failure leaves no partial
 * file behind. Returns 0 or -1 (reported). */
int write_file_atomic(const char *path, const char *text);

#endif /* GTAPCC_DRIVER_H */
