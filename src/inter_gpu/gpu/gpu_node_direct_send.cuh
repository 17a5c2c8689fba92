/* inter_gpu/gpu/gpu_node_direct_send.cuh - what the agent sends straight to a direct peer
 * (gtap/node_iface.h N10, docs/dist.md "Direct steals within a host"): its rings, the
 * counters the proxy's Safra count needs (T3), and the results of imported tasks whose
 * origin is a direct peer. Receiving and stealing are in gpu_node_direct.cuh.
 */
#ifndef GTAP_GPU_NODE_DIRECT_SEND_CUH
#define GTAP_GPU_NODE_DIRECT_SEND_CUH

#include "inter_gpu/gpu/gpu_node_mailbox.cuh"
#include "inter_gpu/gpu/gpu_node_state.cuh"

/* The index of `rank` among the direct peers, or -1. Warp-uniform. */
GTAP_DEV int gtap_gn_direct_find(uint32_t rank, uint32_t lane)
{
    for (uint32_t base = 0; base < gtap_gn.ndirect; base += 32) {
        const uint32_t i = base + lane;
        const uint32_t hit = __ballot_sync(GTAP_GN_FULL, i < gtap_gn.ndirect && gtap_gn.direct[i].rank == rank);
        if (hit)
            return (int)(base + __ffs(hit) - 1);
    }
    return -1;
}

/* N10: the count of basic messages sent (before the message can be read) or received (after
 * idle = 0), for the proxy's Safra count. Lane 0 stores; release orders what came before. */
GTAP_DEV void gtap_gn_direct_count_sent(gtap_gn_agent *a, uint32_t lane)
{
    a->direct.basic_sent++;
    if (lane == 0)
        gtap_st_release_sys_u64(&gtap_gn.region->direct.basic_sent, a->direct.basic_sent);
}

GTAP_DEV void gtap_gn_direct_count_received(gtap_gn_agent *a, uint32_t lane)
{
    a->direct.basic_received++;
    if (lane == 0)
        gtap_st_release_sys_u64(&gtap_gn.region->direct.basic_received, a->direct.basic_received);
}

/* Writes a message to direct peer i if it leaves `keep` slots free (0 for a reply, which
 * always finds room: GTAP_GN_DIRECT_REPLY_SLOTS). `basic`: a task or result batch, counted
 * sent before the peer can read it (N10). Returns 1 if written. Warp-collective. */
GTAP_GN_COLD int gtap_gn_direct_post(gtap_gn_agent *a, uint32_t lane, uint32_t i, unsigned kind, uint32_t arg,
                                     const unsigned char *payload, uint32_t bytes, uint32_t keep, int basic)
{
    __syncwarp(); /* lane 0's last update of the peer's state and the payload */
    gtap_gn_tx t = gtap_gn.direct[i].out;
    /* a reply (keep 0) waits for room in gtap_gn_tx_post: the thief reads its ring whatever
     * it does; room only grows meanwhile, so a message that found room here still has it */
    const int room = keep == 0 || gtap_gn_tx_room(&t, lane, gtap_gn_tx_span(&t, bytes), keep);
    if (room) {
        if (basic)
            gtap_gn_direct_count_sent(a, lane);
        gtap_gn_tx_post(&t, lane, kind, arg, payload, bytes);
    }
    if (lane == 0)
        gtap_gn.direct[i].out = t; /* the position, or the head we read */
    __syncwarp();
    return room;
}

/* The result batch of `count` entries and `used` bytes in out_buf goes to its origin: to a
 * direct peer's ring if it has room beside a reply, else through the proxy (COMPLETION).
 * Warp-collective. */
GTAP_DEV void gtap_gn_send_results(gtap_gn_agent *a, uint32_t lane, uint32_t origin, uint32_t used, uint32_t count)
{
    const int i = gtap_gn.ndirect ? gtap_gn_direct_find(origin, lane) : -1;
    if (i >= 0 && gtap_gn_direct_post(a, lane, (uint32_t)i, GTAP_NODE_MSG_RESULTS, gtap_gn.rank, gtap_gn.out_buf, used,
                                      GTAP_GN_DIRECT_REPLY_SLOTS, 1)) {
        a->direct.results_out += count;
        return;
    }
    gtap_gn_post(a, lane, GTAP_NODE_MSG_COMPLETION, origin, gtap_gn.out_buf, used);
}

#endif /* GTAP_GPU_NODE_DIRECT_SEND_CUH */
