/* inter_gpu/gpu/gpu_node_batch.cuh - wire batches (docs/wire.md) in the agent's device
 * buffers: checking a received batch's header, walking its entries, closing a batch being
 * built. Offsets and the word view come from gtap/wire.h, the only definition of the layout;
 * the GPU is little-endian like the format and the buffers are 8-aligned, so the agent moves
 * header fields as native words.
 */
#ifndef GTAP_GPU_NODE_BATCH_CUH
#define GTAP_GPU_NODE_BATCH_CUH

#include "inter_gpu/gpu/gpu_node_state.cuh"

/* What the agent's word accesses assume of the layout, beyond wire.h's own checks: */
static_assert(GTAP_WIRE_BATCH_HEADER_BYTES % 8u == 0 && GTAP_WIRE_TASK_HEADER_BYTES % 8u == 0 &&
                  GTAP_WIRE_RESULT_HEADER_BYTES % 8u == 0,
              "gpu_node: entries and payloads start 8-aligned (8-byte stores, gtap_gn_walk's words)");
static_assert(GTAP_WIRE_ENTRY_OFF_SIZE % 8u + 4u <= 8u,
              "gpu_node: an entry's size is a u32 inside one 8-byte word (gtap_gn_walk)");

/* Checks the header of the wire batch of `kind` that fills in_buf (as gtap_wire_batch_open;
 * the entries are checked as they are read). Warp-collective; returns 1 with the entry
 * count and the batch's byte count in every lane, or 0. */
GTAP_DEV int gtap_gn_batch_open(uint32_t kind, uint32_t lane, uint32_t *bytes, uint32_t *count)
{
    uint32_t good = 0, n = 0, b = *bytes;
    if (lane == 0 && b >= GTAP_WIRE_BATCH_HEADER_BYTES) {
        const gtap_wire_batch_header *h = (const gtap_wire_batch_header *)gtap_gn.in_buf;
        good = h->magic == GTAP_WIRE_MAGIC && h->version == GTAP_WIRE_VERSION && h->kind == kind &&
               h->bytes >= GTAP_WIRE_BATCH_HEADER_BYTES && h->bytes <= b && h->program_hash == gtap_gn.hash;
        n = h->count;
        b = h->bytes;
    }
    *count = __shfl_sync(GTAP_GN_FULL, n, 0);
    *bytes = __shfl_sync(GTAP_GN_FULL, b, 0);
    return (int)__shfl_sync(GTAP_GN_FULL, good, 0);
}

/* Writes the header of the batch of `kind` built in out_buf: count entries, used bytes. */
GTAP_DEV void gtap_gn_batch_close(uint32_t kind, uint32_t lane, uint32_t used, uint32_t count)
{
    if (lane == 0) {
        gtap_wire_writer wr;
        gtap_wire_batch_begin(&wr, gtap_gn.out_buf, used, kind, gtap_gn.hash);
        wr.used = used;
        wr.count = count;
        gtap_wire_batch_update(&wr);
    }
}

/* Copies bytes from 8-aligned src to dst as 8-byte words, the last one zero-padded (wire
 * entries pad payloads and results to 8 bytes with zeros). */
GTAP_DEV void gtap_gn_copy_padded(uint64_t *dst, const unsigned char *src, uint32_t bytes)
{
    const uint64_t *s = (const uint64_t *)src;
    for (uint32_t i = 0; i < bytes / 8; i++)
        dst[i] = s[i];
    if (bytes & 7u)
        dst[bytes / 8] = s[bytes / 8] & ((1ull << (8 * (bytes & 7u))) - 1ull);
}

/* Finds the offsets of the next n entries of a wire batch in buf[0, bytes), starting at
 * *pos, into xfer[0, n) (lane 0 writes them). Every entry is 8-aligned and states its
 * variable size at GTAP_WIRE_ENTRY_OFF_SIZE (payload or result bytes). The lanes load a
 * 256-byte window at once and the walk reads sizes from it by shuffles: one parallel load
 * per few entries instead of a dependent load per entry, which costs microseconds on an SM
 * whose workers saturate the memory system. Warp-collective; returns 0 on an entry that
 * overruns the batch. */
GTAP_DEV int gtap_gn_walk(const unsigned char *buf, uint32_t bytes, uint32_t *pos, uint32_t n, uint32_t header,
                          uint32_t lane, uint32_t *xfer)
{
    uint32_t p = *pos, win = p;
    uint64_t word = win + 8 * lane + 8 <= bytes ? *(const uint64_t *)(buf + win + 8 * lane) : 0ull;
    for (uint32_t j = 0; j < n; j++) {
        if (p > bytes || bytes - p < header)
            return 0;
        if (p + GTAP_WIRE_ENTRY_OFF_SIZE - win >= 8 * 32) { /* the size field is past the window: the next one */
            win = p;
            word = win + 8 * lane + 8 <= bytes ? *(const uint64_t *)(buf + win + 8 * lane) : 0ull;
        }
        const uint64_t sw = __shfl_sync(GTAP_GN_FULL, word, (p + GTAP_WIRE_ENTRY_OFF_SIZE - win) / 8);
        const uint32_t size = GTAP_WIRE_WORD_FIELD(sw, GTAP_WIRE_ENTRY_OFF_SIZE, 32);
        if (size > GTAP_WIRE_MAX_PAYLOAD || bytes - p - header < gtap_wire_pad8(size))
            return 0;
        if (lane == 0)
            xfer[j] = p;
        p += header + gtap_wire_pad8(size);
    }
    *pos = p;
    return 1;
}

#endif /* GTAP_GPU_NODE_BATCH_CUH */
