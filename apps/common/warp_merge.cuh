/* warp_merge.cuh - merging two sorted int runs with one warp by merge path, the device code
 * that the warp-task sorts share (apps/mergesort/mergesort_warp.cu, apps/cilksort/
 * cilksort_warp.cu). Plain __device__ functions over a lane index: a program's
 * `#pragma gtap function warp` task calls them on all 32 lanes at once. Include after
 * gtap_thread.cuh (the stage is sized by GTAP_BLOCK_SIZE). Also compiles for
 * `gtapcc --target=host`, whose simulated warp provides the collectives.
 *
 * The merge (wm_merge) walks the output in tiles of WM_TILE = 32 x WM_K = 256 elements. A
 * tile reads at most WM_TILE elements of each run from where it starts: that window goes,
 * coalesced (lane x loads elements x + 32m through L2, __ldcg), into registers while the warp
 * merges the tile before, then into the warp's stage in shared memory. Lane l owns the
 * WM_K = 8 consecutive outputs [8l, 8l + 8) of the tile; it finds where they start in both
 * runs by a merge-path binary search in the stage (at most 9 steps), reads its at most 8
 * elements of each run from the stage, merges them in registers with a bitonic network
 * (no data-dependent register index, so nothing goes to local memory) and stores 32
 * contiguous bytes: two 16-byte stores, since tiles start where dst is 16-byte aligned.
 * Why this shape (measured on an H200, merging level by level 8-32 M elements and in the two
 * apps):
 *  - searching and merging straight from global memory, the lanes' dependent loads cost a
 *    round trip each: through L2 the merge was 1.5x slower than with L1-cached loads, and
 *    mergesort_warp 1.8x slower (86 against 47 ms for 10^7); the stage gives the searches
 *    shared-memory latency while every global load stays coalesced and through L2 (the
 *    inputs were written by other warps, possibly on other SMs, before the join that
 *    started the task);
 *  - loading the next window during the current tile's merge took cilksort_warp of 10^8 from
 *    41.5 to 39.2 ms;
 *  - the stage is 2 KB per warp, 16 KB per 256-thread block beside the runtime's 23 KB: a
 *    second tile's window would pass the 48 KB of static shared memory a block may have;
 *  - WM_K = 8 against 16 (measured without the stage, one warp per pair of runs): 72
 *    instead of 123 registers and 1.5x the throughput; 8 is also the smallest K whose lane
 *    stores fill a 32-byte sector.
 *
 * Ties: merge path takes a's element first, the same rule in every search, so pieces and
 * lanes cut the output consistently. Inside a lane, slots beyond its run hold INT_MAX; the
 * network then returns the run's values in order even when the run itself holds INT_MAX
 * (an INT_MAX pad and an INT_MAX element are the same value).
 */
#ifndef WARP_MERGE_CUH
#define WARP_MERGE_CUH

#include <limits.h>
#include <stdint.h>

#if !defined(GTAP_BLOCK_SIZE)
#error "include warp_merge.cuh after gtap_thread.cuh"
#endif

#define WM_LANES 32
#define WM_K 8 /* outputs per lane per tile: a multiple of 4 (int4 stores), a power of two */
#define WM_TILE (WM_LANES * WM_K)
#define WM_STAGE_INTS (2 * WM_TILE) /* a warp's stage: a tile's window of a, then of b */
#define WM_FULL_MASK 0xffffffffu

#if (WM_K % 4) != 0 || (WM_K & (WM_K - 1)) != 0
#error "WM_K must be a power of two and a multiple of 4"
#endif

#if defined(__CUDA_ARCH__)
#define WM_UNROLL _Pragma("unroll")
#else
#define WM_UNROLL
#endif

/* One piece of a merge cut by wm_cut: merges a[a_off, a_off + na) and b[b_off, b_off + nb)
 * into dst[a_off + b_off, ...). */
typedef struct wm_piece {
    int a_off, na, b_off, nb;
} wm_piece;

/* Merge path: how many of the first d outputs of merging a and b come from a (a first on
 * ties), searched in [lo, hi], where max(0, d - nb) <= lo and hi <= min(d, na) (nb, na the
 * lengths). Reads a[lo, hi) and b[d - hi, d - lo) through L2. One lane. */
static __device__ __forceinline__ int wm_path(const int *a, const int *b, int d, int lo, int hi)
{
    while (lo < hi) {
        const int mid = lo + ((hi - lo) >> 1);
        if (__ldcg(a + mid) <= __ldcg(b + (d - 1 - mid)))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* wm_path over the whole of a[0, na) and b[0, nb). */
static __device__ __forceinline__ int wm_path_full(const int *a, int na, const int *b, int nb, int d)
{
    return wm_path(a, b, d, d > nb ? d - nb : 0, d < na ? d : na);
}

/* Replaces v[0, WM_K) with the WM_K smallest of v and w, sorted; v and w sorted ascending.
 * min(v[k], w[K-1-k]) keeps the K smallest as a bitonic sequence (ascending, then
 * descending), which a bitonic merge sorts. One lane; every index a constant once unrolled,
 * so both arrays stay in registers. */
static __device__ __forceinline__ void wm_merge_regs(int *v, const int *w)
{
    WM_UNROLL
    for (int k = 0; k < WM_K; k++)
        v[k] = min(v[k], w[WM_K - 1 - k]);
    WM_UNROLL
    for (int j = WM_K / 2; j > 0; j >>= 1) {
        WM_UNROLL
        for (int k = 0; k < WM_K; k++) {
            if ((k & j) == 0) {
                const int lo = min(v[k], v[k + j]), hi = max(v[k], v[k + j]);
                v[k] = lo;
                v[k + j] = hi;
            }
        }
    }
}

/* Stores v[0, cnt) at p, cnt <= WM_K; a full run (cnt == WM_K) must start 16-byte aligned,
 * and goes out as int4 stores on the GPU. One lane. */
static __device__ __forceinline__ void wm_store(int *p, const int *v, int cnt)
{
#if defined(__CUDA_ARCH__)
    if (cnt == WM_K) {
        WM_UNROLL
        for (int q = 0; q < WM_K / 4; q++)
            reinterpret_cast<int4 *>(p)[q] = make_int4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
        return;
    }
#endif
    WM_UNROLL
    for (int k = 0; k < WM_K; k++)
        if (k < cnt)
            p[k] = v[k];
}

/* x clamped to [0, n]. */
static __device__ __forceinline__ int wm_clamp(long long x, int n)
{
    return x < 0 ? 0 : x > n ? n : (int)x;
}

/* wm_path over a warp's stage (shared memory): how many of the first d outputs come from
 * a, searched in [lo, hi] (as wm_path). One lane. */
static __device__ __forceinline__ int wm_path_staged(const int *a, const int *b, int d, int lo, int hi)
{
    while (lo < hi) {
        const int mid = lo + ((hi - lo) >> 1);
        if (a[mid] <= b[d - 1 - mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The calling warp's stage for wm_merge: WM_STAGE_INTS ints of shared memory for each warp
 * of a block. A thread-level block has at most GTAP_BLOCK_SIZE threads (gtap_launch), and a
 * warp runs one warp task at a time; wm_merge holds nothing in it across calls, so a task
 * may use it in any segment. On the host target `__shared__` is `static`: one stage, for the
 * one simulated warp. */
static __device__ __forceinline__ int *wm_warp_stage(void)
{
    __shared__ int stage[GTAP_BLOCK_SIZE / WM_LANES][WM_STAGE_INTS];
    return stage[threadIdx.x / WM_LANES];
}

/* Loads a tile's window of each run into registers, coalesced: lane x holds elements
 * x + 32m of a[0, min(WM_TILE, na)) in va[m] and of b[0, min(WM_TILE, nb)) in vb[m].
 * One lane's part of a warp-wide load; through L2. */
static __device__ __forceinline__ void wm_fetch(int *va, int *vb, const int *a, int na, const int *b, int nb, int lane)
{
    WM_UNROLL
    for (int m = 0; m < WM_K; m++) {
        const int x = lane + WM_LANES * m;
        va[m] = x < na ? __ldcg(a + x) : 0;
        vb[m] = x < nb ? __ldcg(b + x) : 0;
    }
}

/* Merges a[0, na) and b[0, nb) (each sorted ascending; na + nb < 2^31) into dst[0, na + nb),
 * which overlaps neither; stage: the warp's WM_STAGE_INTS ints of shared memory
 * (wm_warp_stage()). Called by all 32 lanes of a warp together, with the same arguments and
 * lane = the caller's lane (0..31); every shuffle and __syncwarp has the full mask, and the
 * loop's trip count is the same on every lane. Reads a and b through L2, writes dst.
 * A tile reads at most WM_TILE elements of each run from where it starts. The warp loads
 * that window into registers (coalesced) while it merges the tile before, stores it in the
 * stage, and searches and merges from there. */
static __device__ inline void wm_merge(const int *a, int na, const int *b, int nb, int *dst, int *stage, int lane)
{
    const int n = na + nb;
    /* the first tile starts `skew` elements before dst, so that every later lane run starts
     * 16-byte aligned (tiles and runs are multiples of 4 elements) */
    const int skew = (int)(((uintptr_t)dst / sizeof(int)) % 4);
    int *const sa = stage, *const sb = stage + WM_TILE;
    int va[WM_K], vb[WM_K];
    wm_fetch(va, vb, a, na, b, nb, lane);
    int a0 = 0; /* outputs before the tile that came from a; the rest came from b */
    for (long long t = -skew; t < n; t += WM_TILE) {
        const int tbeg = t > 0 ? (int)t : 0, b0 = tbeg - a0, ra = na - a0, rb = nb - b0;
        __syncwarp(); /* every lane is done reading the previous tile's window */
        WM_UNROLL
        for (int m = 0; m < WM_K; m++) {
            const int x = lane + WM_LANES * m;
            if (x < ra)
                sa[x] = va[m];
            if (x < rb)
                sb[x] = vb[m];
        }
        __syncwarp(); /* the window is visible to every lane */
        const int beg = wm_clamp(t + (long long)lane * WM_K, n);
        const int end = wm_clamp(t + (long long)(lane + 1) * WM_K, n);
        /* the lane's end in a: at most `end - tbeg` (<= WM_TILE) outputs past the tile start */
        const int d = end - tbeg;
        const int iend = a0 + wm_path_staged(sa, sb, d, d > rb ? d - rb : 0, d < ra ? d : ra);
        /* the lane's start is the previous lane's end; the next tile starts where the last
         * lane ends: its window is on its way while this tile merges */
        int ibeg = __shfl_up_sync(WM_FULL_MASK, iend, 1);
        if (lane == 0)
            ibeg = a0;
        const int a1 = __shfl_sync(WM_FULL_MASK, iend, WM_LANES - 1);
        if (t + WM_TILE < n) {
            const int b1 = (int)(t + WM_TILE) - a1;
            wm_fetch(va, vb, a + a1, na - a1, b + b1, nb - b1, lane);
        }
        const int la = iend - ibeg, jbeg = beg - ibeg, lb = (end - iend) - jbeg;
        int v[WM_K], w[WM_K];
        WM_UNROLL
        for (int k = 0; k < WM_K; k++) {
            v[k] = k < la ? sa[ibeg - a0 + k] : INT_MAX;
            w[k] = k < lb ? sb[jbeg - b0 + k] : INT_MAX;
        }
        wm_merge_regs(v, w);
        wm_store(dst + beg, v, end - beg);
        a0 = a1;
    }
}

/* Cuts the merge of a[0, na) and b[0, nb) into `pieces` (1..32) of equal output length, give
 * or take one, at merge-path splits that the lanes search in parallel (one each): lane p
 * gets piece p, lanes from `pieces` on an empty piece. Called by all 32 lanes together, with
 * the same arguments. Reads a and b through L2. */
static __device__ inline wm_piece wm_cut(const int *a, int na, const int *b, int nb, int pieces, int lane)
{
    const int n = na + nb;
    const int dend = lane < pieces ? (int)((long long)n * (lane + 1) / pieces) : n;
    const int iend = wm_path_full(a, na, b, nb, dend);
    int dbeg = __shfl_up_sync(WM_FULL_MASK, dend, 1), ibeg = __shfl_up_sync(WM_FULL_MASK, iend, 1);
    if (lane == 0)
        dbeg = ibeg = 0;
    wm_piece p;
    p.a_off = ibeg;
    p.na = iend - ibeg;
    p.b_off = dbeg - ibeg;
    p.nb = (dend - iend) - p.b_off;
    return p;
}

#endif /* WARP_MERGE_CUH */
