/* gtap_block.cuh - GTaP with block-level workers: each task runs on a whole thread block
 * of GTAP_BLOCK_SIZE threads (use threadIdx / blockDim / __syncthreads inside tasks).
 * Include it in a CUDA program that uses `#pragma gtap` and build it with gtapcc.
 */
#ifndef GTAP_BLOCK_CUH
#define GTAP_BLOCK_CUH

#if defined(GTAP_THREAD_CUH)
#error "include either gtap_thread.cuh or gtap_block.cuh, not both"
#endif
#if !defined(GTAPGEN_TRANSLATED) && !defined(__GTAPCC__)
#error "this program uses #pragma gtap: build it with gtapcc (see README.md), not nvcc directly"
#endif

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#define GTAP_WORKER_MODE 2 /* GTAP_MODE_BLOCK */
#define GTAP_WORKER_IS_BLOCK 1
#include "gtap/config.h"
#include "gtap_gen.h"
#include "gtap/worker_block.cuh"
#if defined(GTAP_DISTRIBUTED)
#include "inter_gpu/gpu/gpu_node_host.cuh" /* the GPU node: agent block and host attach */
/* Threads per task of this program's workers, for the start-up check of the distributed
 * layer (docs/wire.md, block_threads; F3). */
extern "C" __attribute__((weak)) const uint32_t gtap_worker_block_threads = GTAP_BLOCK_SIZE;
#endif
#include "gtap/host_api.cuh"

#endif /* GTAP_BLOCK_CUH */
