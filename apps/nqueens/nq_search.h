/* nq_search.h - the sequential N-Queens search below the task cutoff, shared by the GPU
 * program (device code) and the OpenMP / sequential baselines (C), so that every
 * implementation does the same serial work: bitmask backtracking with an explicit stack;
 * the last row adds the number of free columns instead of placing each queen. */
#ifndef NQ_SEARCH_H
#define NQ_SEARCH_H

#include <stdint.h>

#if !defined(__CUDACC__) && !defined(GTAP_TARGET_HOST)
#define NQ_FN static inline
#define NQ_POPC(x) __builtin_popcount(x)
#else
#define NQ_FN static __host__ __device__ __forceinline__
#if defined(__CUDA_ARCH__)
#define NQ_POPC(x) __popc(x)
#else
#define NQ_POPC(x) __builtin_popcount(x)
#endif
#endif

#define NQ_MAX_N 32

/* A000170: solutions for n = 0..20. */
static const unsigned long long nq_known[] = {1ull, 1ull, 0ull, 0ull, 2ull, 10ull, 4ull, 40ull, 92ull, 352ull,
                                              724ull, 2680ull, 14200ull, 73712ull, 365596ull, 2279184ull,
                                              14772512ull, 95815104ull, 666090624ull, 4968057848ull,
                                              39029188884ull};

/* Solutions that complete the partial placement (row, cols, left, right) on an n x n board
 * (1 <= n <= 32, row <= n): cols/left/right are the attacked columns. */
NQ_FN unsigned long long nq_count(int n, int row, uint32_t cols, uint32_t left, uint32_t right)
{
    const uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1u;
    uint32_t st_avail[NQ_MAX_N], st_cols[NQ_MAX_N], st_left[NQ_MAX_N], st_right[NQ_MAX_N];
    unsigned long long count = 0;
    int d = 0;
    if (row >= n)
        return 1;
    uint32_t avail = mask & ~(cols | left | right);
    for (;;) {
        if (row + d + 1 == n) { /* last row: every free column is a solution */
            count += (unsigned)NQ_POPC(avail);
            avail = 0;
        }
        if (avail == 0) {
            if (d == 0)
                break;
            d--;
            avail = st_avail[d];
            cols = st_cols[d];
            left = st_left[d];
            right = st_right[d];
            continue;
        }
        const uint32_t p = avail & (0u - avail);
        avail ^= p;
        st_avail[d] = avail;
        st_cols[d] = cols;
        st_left[d] = left;
        st_right[d] = right;
        d++;
        cols |= p;
        left = (left | p) << 1;
        right = (right | p) >> 1;
        avail = mask & ~(cols | left | right);
    }
    return count;
}

#endif /* NQ_SEARCH_H */
