/* gtap/atomics.cuh - the few memory-ordering operations the runtime uses, named for their
 * PTX semantics (GPU scope unless the name says otherwise). Every shared-metadata access in
 * the runtime goes through these, so the ordering argument of each protocol can be read off
 * the call sites (docs/join.md, docs/deque.md, docs/termination.md).
 *
 * "relaxed" operations are strong (morally strong at GPU scope, so they bypass a stale L1)
 * but order nothing; "acquire"/"release" order as in the PTX memory model.
 */
#ifndef GTAP_ATOMICS_CUH
#define GTAP_ATOMICS_CUH

#include <stdint.h>

#define GTAP_DEV static __device__ __forceinline__

GTAP_DEV uint32_t gtap_ld_relaxed_u32(const void *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV uint64_t gtap_ld_relaxed_u64(const void *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV uint32_t gtap_ld_acquire_u32(const void *p)
{
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV uint64_t gtap_ld_acquire_u64(const void *p)
{
    uint64_t v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV void gtap_st_relaxed_u32(void *p, uint32_t v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GTAP_DEV void gtap_st_release_u32(void *p, uint32_t v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GTAP_DEV void gtap_st_release_u64(void *p, uint64_t v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* fence.acq_rel.gpu: orders this thread's earlier accesses before its later ones for every
 * observer at GPU scope; both the release half of "write then publish" and the acquire half
 * of "observe then read". */
GTAP_DEV void gtap_fence_acq_rel(void)
{
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/* fence.sc.gpu: the store-load ordering Chase-Lev's pop and steal need. */
GTAP_DEV void gtap_fence_sc(void)
{
    asm volatile("fence.sc.gpu;" ::: "memory");
}

GTAP_DEV int32_t gtap_atomic_add_acq_rel_i32(int32_t *p, int32_t v)
{
    int32_t old;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

GTAP_DEV int32_t gtap_atomic_add_relaxed_i32(int32_t *p, int32_t v)
{
    int32_t old;
    asm volatile("atom.relaxed.gpu.global.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

GTAP_DEV uint64_t gtap_atomic_cas_relaxed_u64(uint64_t *p, uint64_t expected, uint64_t desired)
{
    uint64_t old;
    asm volatile("atom.relaxed.gpu.global.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(old) : "l"(p), "l"(expected), "l"(desired) : "memory");
    return old;
}

GTAP_DEV uint32_t gtap_atomic_cas_relaxed_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
    uint32_t old;
    asm volatile("atom.relaxed.gpu.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
    return old;
}

GTAP_DEV uint64_t gtap_atomic_and_release_u64(uint64_t *p, uint64_t v)
{
    uint64_t old;
    asm volatile("atom.release.gpu.global.and.b64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

/* Bit updates nobody waits for (no result: the warp does not stall on the L2 round trip). */
GTAP_DEV void gtap_red_or_relaxed_u64(void *p, uint64_t v)
{
    asm volatile("red.relaxed.gpu.global.or.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

GTAP_DEV void gtap_red_and_relaxed_u64(void *p, uint64_t v)
{
    asm volatile("red.relaxed.gpu.global.and.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* ---- System scope: memory the host also reads and writes (mapped pinned memory, e.g. the
 * distributed layer's mailboxes). Relaxed loads at .sys scope are never served from a stale
 * cached copy. */

GTAP_DEV uint64_t gtap_ld_acquire_sys_u64(const void *p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV uint32_t gtap_ld_relaxed_sys_u32(const void *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GTAP_DEV void gtap_st_release_sys_u64(void *p, uint64_t v)
{
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GTAP_DEV void gtap_st_release_sys_u32(void *p, uint32_t v)
{
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GTAP_DEV void gtap_st_relaxed_sys_u32(void *p, uint32_t v)
{
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GTAP_DEV void gtap_st_relaxed_sys_u64(void *p, uint64_t v)
{
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* 16 bytes at once. */
GTAP_DEV uint4 gtap_ld_relaxed_sys_v4(const void *p)
{
    uint4 v;
    asm volatile("ld.relaxed.sys.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}

GTAP_DEV void gtap_st_relaxed_sys_v4(void *p, uint4 v)
{
    asm volatile("st.relaxed.sys.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w)
                 : "memory");
}

/* Nanoseconds of the GPU's global timer (coarse, comparable across SMs). */
GTAP_DEV uint64_t gtap_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

GTAP_DEV uint32_t gtap_lane_id(void)
{
    uint32_t l;
    asm("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

GTAP_DEV uint32_t gtap_lanemask_lt(void)
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

#endif /* GTAP_ATOMICS_CUH */
