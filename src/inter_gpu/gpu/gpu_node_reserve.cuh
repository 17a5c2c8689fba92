/* inter_gpu/gpu/gpu_node_reserve.cuh - the opening reserve (GTAP_DIST_OPENING_RESERVE,
 * docs/dist.md "The opening reserve"): on the rank that starts the root, the agent keeps the
 * run's first and largest tasks for the other ranks' first steals.
 */
#ifndef GTAP_GPU_NODE_RESERVE_CUH
#define GTAP_GPU_NODE_RESERVE_CUH

#include "inter_gpu/gpu/gpu_node_queue.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"
#include "inter_gpu/gpu/gpu_node_status.cuh"

/* At a run's start the rank that holds the root has all the work and every other rank none,
 * and the first steal request from another rank arrives after ~0.5 ms, when the GPU's own
 * warps have split the root's descendants over 67,584 lanes and every task left to steal
 * is a ~160-node subtree. So on that rank the local thieves leave warp 0 (the root's) alone
 * at first (gtap_nh_reserved) and the agent takes the first tasks warp 0 publishes - its
 * oldest, the largest of the run: in a binary tree warp 0 keeps 32 of the 64 tasks of
 * level 6 and publishes the other 32, half the tree - into a reserve of at most
 * reserve_max tasks. The reserve closes when full or after GTAP_GN_RESERVE_TAKE_NS; the
 * next exports ship it before anything else, a (size - 1)-th of it each and, with
 * GTAP_DIST_RESERVE_ALONE, nothing else (gtap_gn_export). What no thief asked for within
 * GTAP_GN_RESERVE_KEEP_NS, or once every local worker is idle, goes to the agent's deque
 * for the local workers. Warp-collective; returns 1 if it took or released tasks. */
GTAP_GN_COLD uint32_t gtap_gn_reserve_step(gtap_gn_agent *a, gtap_node_sh *sh, uint32_t lane, uint64_t now)
{
    const uint32_t nq = (uint32_t)gtap_dev.num_queues;
    uint32_t did = 0;
    if (a->reserving) {
        for (uint32_t tries = 0; tries < 8 && a->reserve_n < gtap_gn.reserve_max; tries++) {
            for (uint32_t q = 0; q < nq && a->reserve_n < gtap_gn.reserve_max; q++) {
                const uint32_t want = gtap_gn.reserve_max - a->reserve_n;
                uint32_t my = GTAP_NO_TASK;
                /* half of warp 0's published tasks, its oldest (the steal end) */
                const uint32_t k = gtap_worker_node_steal(sh, 0, q, want < 32 ? want : 32, lane, &my);
                if (k == 0)
                    continue;
                a->holds++; /* active += 1 by the steal */
                if (lane < k)
                    gtap_gn.reserve[a->reserve_n + lane] = my | (q << 28);
                a->reserve_n += k;
                did = 1;
            }
        }
        if (a->reserve_n >= gtap_gn.reserve_max || now - a->t_begin > GTAP_GN_RESERVE_TAKE_NS) {
            a->reserving = 0;
            if (lane == 0) /* the local thieves may steal from warp 0 again (a hint, relaxed) */
                gtap_st_relaxed_u32(&gtap_nh.words->reserve_closed, a->launch_tag);
        }
    }
    const uint32_t left = a->reserve_n - a->reserve_pos;
    if (left && !a->reserving &&
        (now - a->t_begin > GTAP_GN_RESERVE_KEEP_NS || gtap_gn_active_workers(a, lane) <= 0)) {
        if (lane == 0)
            for (uint32_t i = a->reserve_pos; i < a->reserve_n; i++)
                gtap_gn_push(a, sh, gtap_gn.reserve[i] >> 28, gtap_gn.reserve[i] & 0x0fffffffu);
        a->reserve_pos = a->reserve_n;
        a->holds = __shfl_sync(GTAP_GN_FULL, a->holds, 0);
        gtap_worker_node_publish(sh, a->w, lane);
        did = 1;
    }
    __syncwarp();
    return did;
}

#endif /* GTAP_GPU_NODE_RESERVE_CUH */
