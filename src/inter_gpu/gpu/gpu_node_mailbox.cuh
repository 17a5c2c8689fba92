/* inter_gpu/gpu/gpu_node_mailbox.cuh - the agent's side of the rings (gtap/node_iface.h
 * N1-N3): copies between device memory and ring slots, producing into a ring (the outbox,
 * or a direct peer's ring) and consuming from one (the inbox, or a ring a direct peer
 * produces into). All warp-collective.
 */
#ifndef GTAP_GPU_NODE_MAILBOX_CUH
#define GTAP_GPU_NODE_MAILBOX_CUH

#include "inter_gpu/gpu/gpu_node_state.cuh"

/* ---- copies between device memory and the mapped rings ------------------------------------- */

/* Loads each lane keeps in flight before it stores them. A loop of load-then-store waits a
 * full round trip per 16-byte word (1-2 us over PCIe, about 1 us from L2 on a GPU whose
 * workers saturate the memory system): ~130 round trips per lane for a 64 KiB message,
 * which was most of an export's or an import's time. */
#define GTAP_GN_COPY_DEPTH 8u

/* dst[0, chunks) = the 16-byte words at sys_src (mapped host memory). Warp-collective. */
GTAP_DEV void gtap_gn_copy_in(uint4 *dst, const unsigned char *sys_src, uint32_t chunks, uint32_t lane)
{
    for (uint32_t base = lane; base < chunks; base += 32 * GTAP_GN_COPY_DEPTH) {
        uint4 v[GTAP_GN_COPY_DEPTH];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                v[k] = gtap_ld_relaxed_sys_v4(sys_src + 16 * (base + 32 * k));
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                dst[base + 32 * k] = v[k];
    }
}

/* The 16-byte words src[0, chunks) to sys_dst (mapped host memory). Warp-collective. */
GTAP_DEV void gtap_gn_copy_out(unsigned char *sys_dst, const uint4 *src, uint32_t chunks, uint32_t lane)
{
    for (uint32_t base = lane; base < chunks; base += 32 * GTAP_GN_COPY_DEPTH) {
        uint4 v[GTAP_GN_COPY_DEPTH];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                v[k] = src[base + 32 * k];
#pragma unroll
        for (uint32_t k = 0; k < GTAP_GN_COPY_DEPTH; k++)
            if (base + 32 * k < chunks)
                gtap_st_relaxed_sys_v4(sys_dst + 16 * (base + 32 * k), v[k]);
    }
}

/* ---- producing (N1, N2): warp-collective -------------------------------------------------- */

/* Slots a message of `bytes` payload bytes takes at the ring's current position, the PAD
 * before it (a message never wraps) included. */
GTAP_DEV uint32_t gtap_gn_tx_span(const gtap_gn_tx *t, uint32_t bytes)
{
    const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + bytes + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
    const uint32_t at = (uint32_t)(t->pos & (t->n - 1));
    return (at + need > t->n ? t->n - at : 0) + need;
}

/* Are there span + keep free slots? Reads the consumer's head (acquire: it finished reading
 * the slots before it published that head, N3) only when the last one read says no. */
GTAP_DEV int gtap_gn_tx_room(gtap_gn_tx *t, uint32_t lane, uint32_t span, uint32_t keep)
{
    if (t->pos + span + keep - t->head_seen <= t->n)
        return 1;
    uint64_t h = 0;
    if (lane == 0)
        h = gtap_ld_acquire_sys_u64(t->head);
    t->head_seen = __shfl_sync(GTAP_GN_FULL, (unsigned long long)h, 0);
    return t->pos + span + keep - t->head_seen <= t->n;
}

/* Writes one message whose payload (bytes, in device memory at payload) is copied into the
 * slots by all lanes, then publishes the tail; the caller made sure there is room. */
GTAP_DEV void gtap_gn_tx_write(gtap_gn_tx *t, uint32_t lane, unsigned kind, uint32_t arg,
                               const unsigned char *payload, uint32_t bytes)
{
    const uint32_t n = t->n;
    const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + bytes + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
    const uint32_t at = (uint32_t)(t->pos & (n - 1));
    const uint32_t pad = at + need > n ? n - at : 0;
    if (pad && lane == 0) {
        unsigned char *ps = t->slots + (size_t)at * GTAP_NODE_SLOT_BYTES;
        gtap_st_relaxed_sys_v4(ps, make_uint4(GTAP_NODE_MSG_PAD | (pad << 16), 0u, 0u, t->seq));
    }
    if (pad)
        t->seq++;
    unsigned char *slot = t->slots + (size_t)((t->pos + pad) & (n - 1)) * GTAP_NODE_SLOT_BYTES;
    if (lane == 0)
        gtap_st_relaxed_sys_v4(slot, make_uint4(kind | (need << 16), bytes, arg, t->seq));
    t->seq++;
    const uint32_t chunks = (bytes + 15) / 16;
    gtap_gn_copy_out(slot + GTAP_NODE_MSG_HEADER_BYTES, (const uint4 *)payload, chunks, lane);
    __threadfence_system(); /* every lane: its slot stores before the tail below */
    __syncwarp();
    t->pos += pad + need;
    if (lane == 0) {
        __threadfence_system(); /* the other lanes' stores, observed through the barrier */
        gtap_st_release_sys_u64(t->tail, t->pos); /* N1: the slots are written */
    }
}

/* Posts one message, waiting for room: the consumer (the proxy, or a peer's agent for a
 * reply, which always finds room: GTAP_GN_DIRECT_REPLY_SLOTS) drains independently. */
GTAP_GN_COLD void gtap_gn_tx_post(gtap_gn_tx *t, uint32_t lane, unsigned kind, uint32_t arg,
                                  const unsigned char *payload, uint32_t bytes)
{
    const uint32_t span = gtap_gn_tx_span(t, bytes);
    uint32_t sleep_ns = 100;
    __syncwarp(); /* lane 0's writes of the payload are visible to every lane */
    while (!gtap_gn_tx_room(t, lane, span, 0)) {
        __nanosleep(sleep_ns);
        sleep_ns = sleep_ns < 20000 ? sleep_ns * 2 : sleep_ns;
    }
    gtap_gn_tx_write(t, lane, kind, arg, payload, bytes);
}

/* Posts one message to the proxy (the outbox). */
GTAP_DEV void gtap_gn_post(gtap_gn_agent *a, uint32_t lane, unsigned kind, uint32_t arg,
                           const unsigned char *payload, uint32_t bytes)
{
    gtap_gn_tx_post(&a->out, lane, kind, arg, payload, bytes);
}

/* ---- consuming (N1-N3): warp-collective ---------------------------------------------------- */

/* The next message, copied into gtap_gn.in_buf; returns its kind (0: none, -1: malformed).
 * The message stays owned until gtap_gn_rx_pop. */
GTAP_GN_COLD int gtap_gn_rx_next(gtap_gn_rx *r, uint32_t lane, uint32_t *arg, uint32_t *bytes, uint32_t *nslots)
{
    const uint32_t n = r->n;
    for (;;) {
        if (r->pos == r->tail_seen) {
            uint64_t t = 0;
            if (lane == 0)
                t = gtap_ld_acquire_sys_u64(r->tail); /* N1: slots up to t are written */
            r->tail_seen = __shfl_sync(GTAP_GN_FULL, (unsigned long long)t, 0);
            if (r->pos == r->tail_seen)
                return 0;
        }
        const unsigned char *slot = r->slots + (size_t)(r->pos & (n - 1)) * GTAP_NODE_SLOT_BYTES;
        uint4 h = make_uint4(0, 0, 0, 0);
        if (lane == 0)
            h = gtap_ld_relaxed_sys_v4(slot);
        h.x = __shfl_sync(GTAP_GN_FULL, h.x, 0);
        h.y = __shfl_sync(GTAP_GN_FULL, h.y, 0);
        h.z = __shfl_sync(GTAP_GN_FULL, h.z, 0);
        const uint32_t kind = h.x & 0xffffu, ns = h.x >> 16;
        const uint32_t need = (GTAP_NODE_MSG_HEADER_BYTES + h.y + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
        if (ns == 0 || ns > GTAP_NODE_MAX_MESSAGE_SLOTS || r->pos + ns > r->tail_seen ||
            (r->pos & (n - 1)) + ns > n || (kind != GTAP_NODE_MSG_PAD && need != ns))
            return -1;
        if (kind == GTAP_NODE_MSG_PAD) {
            r->pos += ns; /* published with the next pop */
            continue;
        }
        /* Every lane reads payload: each orders its reads after lane 0's acquire of tail,
         * which it learned through a shuffle (not a memory operation). */
        __threadfence_system();
        const uint32_t chunks = (h.y + 15) / 16;
        gtap_gn_copy_in((uint4 *)gtap_gn.in_buf, slot + GTAP_NODE_MSG_HEADER_BYTES, chunks, lane);
        __syncwarp(); /* in_buf is complete for lane 0, which parses it */
        *arg = h.z;
        *bytes = h.y;
        *nslots = ns;
        return (int)kind;
    }
}

/* Releases the message (N3: it was copied out). Before a head past IMPORT or RESULTS, the
 * caller has stored idle = 0 (N4); the release orders it. */
GTAP_DEV void gtap_gn_rx_pop(gtap_gn_rx *r, uint32_t lane, uint32_t nslots)
{
    r->pos += nslots;
    if (lane == 0)
        gtap_st_release_sys_u64(r->head, r->pos);
}

#endif /* GTAP_GPU_NODE_MAILBOX_CUH */
