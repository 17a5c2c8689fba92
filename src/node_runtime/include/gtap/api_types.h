/* gtap/api_types.h - the types of the user-facing host API, shared by the GPU runtimes and
 * the host target. Field names, order and defaults follow the paper's runtime so that its
 * programs (designated initializers included) compile unchanged. C++ only: these are
 * aggregates with default member initializers, as the paper's API requires.
 */
#ifndef GTAP_API_TYPES_H
#define GTAP_API_TYPES_H

#include <stddef.h>

#ifndef __cplusplus
#error "gtap_thread.cuh / gtap_block.cuh are CUDA C++ headers"
#endif

#if defined(GTAP_TARGET_HOST)
typedef void *gtap_stream_t;
#else
#include <cuda_runtime.h>
typedef cudaStream_t gtap_stream_t;
#endif

/* Thread-level workers. A zero field means "unset": the compile-time macro or its
 * environment override applies (docs/configuration.md). */
struct gtap_thread_config {
    int grid_size = 0;                    /* 0: GTAP_GRID_SIZE, or fill the GPU */
    int block_size = 0;                   /* 0: GTAP_BLOCK_SIZE */
    int max_tasks_per_warp = 0;           /* 0: GTAP_MAX_TASKS_PER_WARP */
    size_t max_task_memory_bytes = 0;     /* 0: GTAP_MAX_TASK_MEMORY */
    int num_queues = 0;                   /* 0: GTAP_NUM_QUEUES */
    int profile_capacity_per_warp = 0;    /* 0: GTAP_PROFILE_CAPACITY */
    gtap_stream_t stream = nullptr;       /* stream gtap_launch uses */
};

/* Block-level workers. block_size precedes max_tasks_per_block (paper programs rely on the
 * order in designated initializers). */
struct gtap_block_config {
    int grid_size = 0;                    /* 0: GTAP_GRID_SIZE, or fill the GPU */
    int block_size = 0;                   /* 0: GTAP_BLOCK_SIZE; must equal it if set */
    int max_tasks_per_block = 0;          /* 0: GTAP_MAX_TASKS_PER_BLOCK */
    size_t max_task_memory_bytes = 0;     /* 0: GTAP_MAX_TASK_MEMORY */
    int profile_capacity_per_block = 0;   /* 0: GTAP_PROFILE_CAPACITY */
    size_t dynamic_shared_bytes = 0;      /* extra dynamic shared memory per block */
    gtap_stream_t stream = nullptr;
};

/* Profile export (gtap_export_profile). */
enum class gtap_profile_export_status {
    success = 0,
    invalid_label,
    invalid_output_directory,
    path_too_long,
    already_exists,
    cuda_error,
    out_of_memory,
    io_error,
    no_data,
    profiling_disabled
};

struct gtap_profile_export_options {
    const char *output_directory = "./profile"; /* created if missing; one %i = first free number */
    const char *label = nullptr;                /* optional, [A-Za-z0-9._-]{1,128} */
    bool overwrite = false;                     /* replace existing output files */
};

struct gtap_profile_export_result {
    gtap_profile_export_status status;
    size_t recorded_intervals;
    size_t dropped_intervals;
    char result_directory[512];
    char profile_path[512];     /* profile.json: summary */
    char intervals_path[512];   /* task_execution_intervals.csv */
    char aggregates_path[512];  /* task_execution_aggregates.csv */
    char trace_path[512];       /* trace.json: Chrome trace (Perfetto, chrome://tracing) */
};

static inline const char *gtap_profile_export_status_string(gtap_profile_export_status s)
{
    switch (s) {
    case gtap_profile_export_status::success: return "success";
    case gtap_profile_export_status::invalid_label: return "invalid_label";
    case gtap_profile_export_status::invalid_output_directory: return "invalid_output_directory";
    case gtap_profile_export_status::path_too_long: return "path_too_long";
    case gtap_profile_export_status::already_exists: return "already_exists";
    case gtap_profile_export_status::cuda_error: return "cuda_error";
    case gtap_profile_export_status::out_of_memory: return "out_of_memory";
    case gtap_profile_export_status::io_error: return "io_error";
    case gtap_profile_export_status::no_data: return "no_data";
    case gtap_profile_export_status::profiling_disabled: return "profiling_disabled";
    }
    return "unknown";
}

#endif /* GTAP_API_TYPES_H */
