/* inter_gpu/gpu/gpu_node_status.cuh - what the agent tells the proxy through the region's
 * status words: idleness (gtap/node_iface.h N4), hunger (N9) and the statistics counters.
 */
#ifndef GTAP_GPU_NODE_STATUS_CUH
#define GTAP_GPU_NODE_STATUS_CUH

#include "inter_gpu/gpu/gpu_node_state.cuh"

/* ---- idleness (N4) and counters ------------------------------------------------------------ */

GTAP_DEV void gtap_gn_set_idle(gtap_gn_agent *a, uint32_t lane, uint32_t idle, uint64_t now)
{
    if (a->idle == idle)
        return;
    a->idle = idle;
    if (idle) {
        a->idle_since = now;
        if (lane == 0) /* release: consumed inbox and published outbox before idle (N4) */
            gtap_st_release_sys_u32(&gtap_gn.region->status.idle, 1u);
    } else {
        a->idle_ns += now - a->idle_since;
        if (lane == 0) /* relaxed: the next inbox head release orders it (N4) */
            gtap_st_relaxed_sys_u32(&gtap_gn.region->status.idle, 0u);
    }
}

/* The statistics counters (relaxed, approximate). Sums the workers' task counters, which
 * they refresh every 16 iterations. */
GTAP_GN_COLD void gtap_gn_publish_counters(gtap_gn_agent *a, uint32_t lane, uint64_t now)
{
    unsigned long long seg = 0;
    /* 8 loads in flight per lane: one after another, the ~66 per lane took longer than the
     * interval between two calls on a busy GPU */
    for (uint32_t v0 = lane; v0 < a->nworkers; v0 += 32 * 8) {
        unsigned long long t[8];
#pragma unroll
        for (uint32_t k = 0; k < 8; k++)
            t[k] = v0 + 32 * k < a->nworkers ? gtap_ld_relaxed_u64(&gtap_dev.stats[v0 + 32 * k].tasks) : 0ull;
#pragma unroll
        for (uint32_t k = 0; k < 8; k++)
            seg += t[k];
    }
    for (int off = 16; off > 0; off /= 2)
        seg += __shfl_down_sync(GTAP_GN_FULL, seg, off);
    if (lane == 0) {
        gtap_node_status *s = &gtap_gn.region->status;
        /* statistics and watchdog progress: relaxed, approximate (node_iface.h) */
        gtap_st_relaxed_sys_u64(&s->segments, a->segments_base + seg);
        gtap_st_relaxed_sys_u64(&s->tasks_imported, a->imported);
        gtap_st_relaxed_sys_u64(&s->tasks_exported, a->exported);
        gtap_st_relaxed_sys_u64(&s->results_applied, a->results);
        gtap_st_relaxed_sys_u64(&s->export_ns, a->export_ns);
        gtap_st_relaxed_sys_u64(&s->exports_refused, a->exports_refused);
        gtap_st_relaxed_sys_u64(&s->exports_empty, a->exports_empty);
        gtap_st_relaxed_sys_u64(&s->first_work_ns, a->first_work_ns);
        gtap_st_relaxed_sys_u64(&s->idle_ns, a->idle_ns + (a->idle ? now - a->idle_since : 0));
    }
    a->last_publish = now;
}

/* ---- hunger (N9) -------------------------------------------------------------------------------- */

/* Workers (other than the agent) that hold tasks. Warp-uniform (lane 0 reads). */
GTAP_DEV int32_t gtap_gn_active_workers(gtap_gn_agent *a, uint32_t lane)
{
    int32_t act = lane == 0 ? (int32_t)gtap_ld_relaxed_u32(&gtap_dev.ctl->active) : 0;
    return __shfl_sync(GTAP_GN_FULL, act, 0) - (int32_t)a->holds;
}

/* As a thief: fewer than 3/4 of the workers hold tasks. As a victim the node gives nothing
 * below 1/2 (gtap_gn_export), so a node between the two both steals and gives, and work
 * does not bounce between two nodes that are both short of it. */
GTAP_DEV uint32_t gtap_gn_is_hungry(gtap_gn_agent *a, uint32_t lane)
{
    return gtap_gn_active_workers(a, lane) < (int32_t)(a->nworkers / 4 * 3);
}

/* Stores status.hungry when it changes. Warp-uniform. */
GTAP_DEV void gtap_gn_set_hungry(gtap_gn_agent *a, uint32_t lane, uint32_t hungry)
{
    if (hungry != a->hungry) {
        a->hungry = hungry;
        if (lane == 0) /* a hint: relaxed (N9) */
            gtap_st_relaxed_sys_u64(&gtap_gn.region->status.hungry, hungry);
    }
}

#endif /* GTAP_GPU_NODE_STATUS_CUH */
