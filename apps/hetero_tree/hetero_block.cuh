/* hetero_block.cuh - what the block-level heterogeneous trees (hetero_tree_block.cu,
 * apps/dist/hetero.cu) share: the XOR of a leaf's per-thread shares over the block. Include
 * after the block-level runtime header (GTAP_BLOCK_SIZE). */
#ifndef HETERO_BLOCK_CUH
#define HETERO_BLOCK_CUH

#include <stdint.h>

/* The XOR of v over the block, in thread 0 (other threads: a partial value). The whole block
 * calls it. */
static __device__ __forceinline__ uint32_t het_block_xor(uint32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    v = __reduce_xor_sync(0xffffffffu, v); /* one REDUX per warp */
#else
    for (int lanes = 16; lanes > 0; lanes >>= 1)
        v ^= __shfl_xor_sync(0xffffffffu, v, lanes);
#endif
#if GTAP_BLOCK_SIZE > 32
    __shared__ uint32_t warp_xor[GTAP_BLOCK_SIZE / 32];
    /* the previous leaf's reads of warp_xor are done before this leaf's writes */
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
        warp_xor[threadIdx.x >> 5] = v;
    /* publishes every warp's partial value to thread 0 */
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < GTAP_BLOCK_SIZE / 32; w++)
            v ^= warp_xor[w];
#endif
    return v;
}

#endif /* HETERO_BLOCK_CUH */
