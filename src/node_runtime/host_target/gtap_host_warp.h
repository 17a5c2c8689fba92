/* gtap_host_warp.h (host target) - CUDA's warp collectives for block-level programs and warp
 * task functions: the lanes of a simulated block's warp (threads 32w .. 32w+31,
 * gtap_host_block.h; a warp task runs on a block of 32) exchange values through a warp
 * barrier. Included by the host target's gtap_block.cuh, and by its gtap_thread.cuh in
 * programs with warp task functions: otherwise a thread-level task runs alone, one at a time,
 * with no warp whose lanes it could exchange values with (gtap_thread.cuh declares these
 * deleted).
 *
 * Supported: __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync (any trivially
 * copyable type of at most 8 bytes, width a power of two up to 32), __ballot_sync,
 * __any_sync, __all_sync, __activemask, __reduce_add_sync / __reduce_min_sync /
 * __reduce_max_sync (int, unsigned), __match_any_sync, __match_all_sync. Every lane named in
 * a collective's mask must reach it, and all of them must name the same mask (a lane that
 * never arrives, or a different mask, stops the segment with an error naming the
 * collective). Others (__reduce_and/or/xor_sync, the legacy collectives without _sync) are
 * not provided: a program that uses them does not compile for the host target.
 *
 * Outside a block-level task (kernel code around the entry) the caller is a warp of one
 * lane: a shuffle returns its own value, a ballot its own predicate.
 */
#ifndef GTAP_HOST_WARP_H
#define GTAP_HOST_WARP_H

#include <string.h>
#include <type_traits>

#include "gtap_host_block.h"

namespace gtap_host_warp {

template <class T> static inline uint64_t bits(T v)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "the host target shuffles trivially copyable values of at most 8 bytes");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}

template <class T> static inline T from_bits(uint64_t b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static inline uint32_t lane(void) { return gtap_hb_sim.cur % GTAP_HB_WARP; }

/* Lanes of the caller's warp that exist in the block (a block of n threads, n % 32 == 0 in
 * practice: config.h). */
static inline uint32_t present(void)
{
    const uint32_t base = gtap_hb_sim.cur - lane(), n = gtap_hb_sim.nthreads;
    return n - base >= GTAP_HB_WARP ? 0xffffffffu : (1u << (n - base)) - 1u;
}

/* Width of a shuffle: a power of two in 1..32 (CUDA leaves others undefined). */
static inline uint32_t check_width(int width)
{
    if (width < 1 || width > 32 || (width & (width - 1)))
        gtap_hb_fail(&gtap_hb_sim, "a shuffle of width %d (the width must be a power of two up to 32)", width);
    return width < 1 || width > 32 ? 32u : (uint32_t)width;
}

template <class T> static inline T shfl(unsigned mask, T var, uint32_t src, const char *what)
{
    if (!gtap_hb_sim.active)
        return var;
    return from_bits<T>(gtap_hb_arrive_warp(mask, GTAP_HB_SHFL, bits(var), src, what));
}

} // namespace gtap_host_warp

template <class T> static inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32)
{
    const uint32_t w = gtap_host_warp::check_width(width), l = gtap_host_warp::lane();
    return gtap_host_warp::shfl(mask, var, (l & ~(w - 1)) + ((uint32_t)src_lane & (w - 1)), "__shfl_sync");
}

template <class T> static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    const uint32_t w = gtap_host_warp::check_width(width), l = gtap_host_warp::lane();
    return gtap_host_warp::shfl(mask, var, (l & (w - 1)) >= delta ? l - delta : l, "__shfl_up_sync");
}

template <class T> static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)
{
    const uint32_t w = gtap_host_warp::check_width(width), l = gtap_host_warp::lane();
    return gtap_host_warp::shfl(mask, var, (l & (w - 1)) + delta < w ? l + delta : l, "__shfl_down_sync");
}

/* A source in a later group of `width` lanes gives the caller its own value (CUDA's rule). */
template <class T> static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32)
{
    const uint32_t w = gtap_host_warp::check_width(width), l = gtap_host_warp::lane();
    const uint32_t src = (l ^ (uint32_t)lane_mask) & 31u;
    return gtap_host_warp::shfl(mask, var, src < (l & ~(w - 1)) + w ? src : l, "__shfl_xor_sync");
}

static inline unsigned __ballot_sync(unsigned mask, int pred)
{
    if (!gtap_hb_sim.active)
        return (mask & 1u) && pred ? 1u : 0u;
    return (unsigned)gtap_hb_arrive_warp(mask, GTAP_HB_BALLOT, pred != 0, 0, "__ballot_sync");
}

static inline int __any_sync(unsigned mask, int pred)
{
    if (!gtap_hb_sim.active)
        return pred != 0;
    return gtap_hb_arrive_warp(mask, GTAP_HB_BALLOT, pred != 0, 0, "__any_sync") != 0;
}

static inline int __all_sync(unsigned mask, int pred)
{
    if (!gtap_hb_sim.active)
        return pred != 0;
    const uint32_t want = mask & gtap_host_warp::present();
    return gtap_hb_arrive_warp(mask, GTAP_HB_BALLOT, pred != 0, 0, "__all_sync") == want;
}

/* The lanes of the caller's warp that have not ended the segment. Threads switch only at
 * barriers, so "active" cannot mean "at this instruction" as on a GPU: code that passes
 * __activemask() to a collective inside a branch some lanes skip stops with an error. */
static inline unsigned __activemask(void)
{
    if (!gtap_hb_sim.active)
        return 1u;
    const uint32_t base = gtap_hb_sim.cur - gtap_host_warp::lane();
    unsigned m = 0;
    for (uint32_t l = 0; l < GTAP_HB_WARP && base + l < gtap_hb_sim.nthreads; l++)
        if (gtap_hb_sim.state[base + l] != GTAP_HB_DONE)
            m |= 1u << l;
    return m;
}

#define GTAP_HOST_REDUCE(name, op, T)                                                                      \
    static inline T name(unsigned mask, T value)                                                           \
    {                                                                                                      \
        if (!gtap_hb_sim.active)                                                                           \
            return value;                                                                                  \
        return (T)gtap_hb_arrive_warp(mask, op, (uint64_t)(int64_t)value, 0, #name); \
    }
GTAP_HOST_REDUCE(__reduce_add_sync, GTAP_HB_ADD, int)
GTAP_HOST_REDUCE(__reduce_add_sync, GTAP_HB_ADD, unsigned)
GTAP_HOST_REDUCE(__reduce_min_sync, GTAP_HB_MIN, int)
GTAP_HOST_REDUCE(__reduce_min_sync, GTAP_HB_MIN, unsigned)
GTAP_HOST_REDUCE(__reduce_max_sync, GTAP_HB_MAX, int)
GTAP_HOST_REDUCE(__reduce_max_sync, GTAP_HB_MAX, unsigned)
#undef GTAP_HOST_REDUCE

template <class T> static inline unsigned __match_any_sync(unsigned mask, T value)
{
    if (!gtap_hb_sim.active)
        return 1u;
    return (unsigned)gtap_hb_arrive_warp(mask, GTAP_HB_MATCH_ANY, gtap_host_warp::bits(value),
                                    0, "__match_any_sync");
}

template <class T> static inline unsigned __match_all_sync(unsigned mask, T value, int *pred)
{
    if (!gtap_hb_sim.active) {
        *pred = 1;
        return mask & 1u;
    }
    const uint32_t want = mask & gtap_host_warp::present();
    const unsigned m = (unsigned)gtap_hb_arrive_warp(mask, GTAP_HB_MATCH_ANY,
                                                gtap_host_warp::bits(value), 0, "__match_all_sync");
    *pred = m == want;
    return m == want ? want : 0u;
}

#endif /* GTAP_HOST_WARP_H */
