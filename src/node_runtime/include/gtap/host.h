/* gtap/host.h - the node runtime's host library (libgtap_host, C): sizing and allocation of
 * the device state, launch geometry, error decoding, statistics and profile export. The
 * inline C++ wrappers of the user API (host_api.cuh) call these; user programs do not.
 *
 * One runtime per process. Functions return CUDA error codes (cudaError_t values as int):
 * 0 is success. They print one message where an error is detected; callers propagate.
 */
#ifndef GTAP_HOST_H
#define GTAP_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "gtap/state.h"
#include "gtap_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sizes and allocates the runtime for cfg and the program prog, fills *state with the
 * device-side descriptor (the caller copies it to the program's __constant__ gtap_dev),
 * and stores *bytes_p = device bytes allocated (if bytes_p is non-NULL). prepare_device
 * (may be NULL) runs once the runtime is allocated, inside the initialization's reported
 * time: the header's device set-up that needs a kernel of its own (host_api.cuh); it returns
 * 0 or a CUDA error, which fails the initialization. Fails with cudaErrorInitializationError
 * if already initialized, cudaErrorInvalidConfiguration / cudaErrorInvalidValue for bad
 * settings (with a message naming the knob). */
int gtap_host_init(const gtap_config_t *cfg, const gtap_program_desc *prog, int (*prepare_device)(void),
                   gtap_dev_state *state, size_t *bytes_p);

/* Nonzero between a successful gtap_host_init and gtap_host_finalize. */
int gtap_host_initialized(void);

/* The descriptor of the current runtime (valid while initialized). */
const gtap_dev_state *gtap_host_state(void);
const gtap_config_t *gtap_host_config(void);

/* Looks at the device error record after the device is idle (or at exit): prints the
 * decoded message once and returns cudaErrorLaunchFailure if an error was recorded. */
int gtap_host_check(void);

/* Clears every queue, the pool, the counters and a recorded error, keeping the memory.
 * The device must be idle. */
int gtap_host_reset(void);

/* Stops the single-GPU watchdog's thread (GTAP_WATCHDOG_S, GTAP_PROGRESS: host/watchdog.c), if
 * one runs; gtap_finalize calls it, and a distributed node on attaching, whose own watchdog
 * then watches the run (docs/dist.md). */
void gtap_host_watch_stop(void);

/* Prints statistics of the last launch when GTAP_STATS=1 (called by gtap_synchronize). */
void gtap_host_stats_maybe_print(void);

/* Releases everything gtap_host_init allocated. */
int gtap_host_finalize(void);

/* The program's entry kernels (kernels that hold `#pragma gtap entry`), registered by the code
 * gtapcc generates, at static initialization, so that gtap_initialize can do what their first
 * launch would do lazily (gtap/host_api.cuh, gtap_prepare_device). At most
 * GTAP_HOST_MAX_ENTRY_KERNELS are kept; a kernel registered twice is kept once. */
#define GTAP_HOST_MAX_ENTRY_KERNELS 64
int gtap_host_register_entry_kernel(const void *kernel);
/* The registered kernels; returns how many. */
int gtap_host_entry_kernels(const void *const **kernels);

/* Grid size when none was configured: GTAP_GRID_SIZE from the environment if set, else
 * enough blocks of block_threads threads to fill every SM of the current device. */
int gtap_host_default_grid_size(int block_threads);

/* Reads an integer environment variable; dflt if unset. Invalid values are reported and
 * ignored. */
long long gtap_host_env_ll(const char *name, long long dflt);

/* The launch geometry the resolved configuration asks for (gtap_launch may serve it with
 * another shape in thread mode, or fewer blocks: host_api.cuh). */
void gtap_host_launch_geometry(int *grid, int *block);

/* Profile export (see gtap/api_types.h for the meaning of the fields). */
typedef struct gtap_host_profile_options {
    const char *output_directory;
    const char *label;
    int overwrite;
} gtap_host_profile_options;

typedef struct gtap_host_profile_result {
    int status; /* gtap_profile_export_status values */
    size_t recorded_intervals, dropped_intervals;
    char result_directory[512];
    char profile_path[512];
    char intervals_path[512];
    char aggregates_path[512];
    char trace_path[512];
} gtap_host_profile_result;

void gtap_host_export_profile(const gtap_host_profile_options *opt, gtap_host_profile_result *res);

#ifdef __cplusplus
}
#endif

#endif /* GTAP_HOST_H */
