/* gtap_thread.cuh - GTaP with thread-level workers: each task runs on one CUDA thread, a
 * warp schedules up to 32 tasks at a time. Include it in a CUDA program that uses
 * `#pragma gtap` and build the program with gtapcc (README.md).
 *
 * Configuration: the macros of gtap/config.h (paper Table 1), set before this include or
 * with -D, or a gtap_thread_config passed to gtap_initialize(). Host API: gtap/host_api.cuh.
 */
#ifndef GTAP_THREAD_CUH
#define GTAP_THREAD_CUH

#if defined(GTAP_BLOCK_CUH)
#error "include either gtap_thread.cuh or gtap_block.cuh, not both"
#endif
#if !defined(GTAPGEN_TRANSLATED) && !defined(__GTAPCC__)
#error "this program uses #pragma gtap: build it with gtapcc (see README.md), not nvcc directly"
#endif

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#define GTAP_WORKER_MODE 1 /* GTAP_MODE_THREAD */
#define GTAP_WORKER_IS_THREAD 1
#include "gtap/config.h"
#include "gtap_gen.h"
#include "gtap/worker_thread.cuh"
#if defined(GTAP_DISTRIBUTED)
#include "inter_gpu/gpu/gpu_node_host.cuh" /* the GPU node: agent warp and host attach */
#endif
#include "gtap/host_api.cuh"

#endif /* GTAP_THREAD_CUH */
