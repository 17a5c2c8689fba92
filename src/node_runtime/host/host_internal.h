/* host_internal.h - the host library's private state (one runtime per process). */
#ifndef GTAP_HOST_INTERNAL_H
#define GTAP_HOST_INTERNAL_H

#include "gtap/host.h"

typedef struct gtap_host_runtime {
    int initialized;
    int atexit_registered;
    gtap_config_t cfg;
    const gtap_program_desc *prog;
    gtap_dev_state state;                 /* the descriptor copied to the device */
    volatile gtap_error_record *error_host; /* mapped pinned memory the device writes */
    size_t device_bytes;
    double init_ms;
    int records_limited_by_memory;        /* GTAP_MAX_TASK_MEMORY capped the pool */
} gtap_host_runtime;

extern gtap_host_runtime gtap_rt;

void gtap_host_free_all(void);
void gtap_host_report_error(void);
/* The name of task function fn of the program, or "?" (error.c). */
const char *gtap_host_fn_name(int fn);
/* The watchdog and progress report (watchdog.c): the knobs, read before anything is
 * allocated; the words per worker; the watching thread, started once the runtime is set up
 * (nothing without the knobs). gtap_host_watch_stop is in gtap/host.h. */
int gtap_host_watch_parse(void);
size_t gtap_host_watch_words(const gtap_dev_state *s);
int gtap_host_watch_start(void);

#endif /* GTAP_HOST_INTERNAL_H */
