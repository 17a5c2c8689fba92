/* mailbox.c - node-interface region set-up and message-kind names (rings: mailbox.h). */
#include <string.h>

#include "mailbox.h"

int gtap_node_region_init(void *mem, uint32_t ring_slots, uint32_t rank, uint32_t nranks,
                          uint64_t program_hash, uint32_t flags)
{
    gtap_node_region *r = (gtap_node_region *)mem;
    if (ring_slots < 2 * GTAP_NODE_MAX_MESSAGE_SLOTS || (ring_slots & (ring_slots - 1)) ||
        ring_slots > (1u << 20))
        return -1;
    memset(r, 0, GTAP_NODE_REGION_HEADER_BYTES);
    r->magic = GTAP_NODE_MAGIC;
    r->version = GTAP_NODE_IFACE_VERSION;
    r->slot_bytes = GTAP_NODE_SLOT_BYTES;
    r->ring_slots = ring_slots;
    r->max_message_slots = GTAP_NODE_MAX_MESSAGE_SLOTS;
    r->rank = rank;
    r->nranks = nranks;
    r->flags = flags;
    r->program_hash = program_hash;
    r->inbox_offset = GTAP_NODE_REGION_HEADER_BYTES;
    r->outbox_offset = GTAP_NODE_REGION_HEADER_BYTES + (uint64_t)ring_slots * GTAP_NODE_SLOT_BYTES;
    r->total_bytes = gtap_node_region_bytes(ring_slots);
    return 0;
}

const char *gtap_node_msg_kind_str(unsigned kind)
{
    switch (kind) {
    case GTAP_NODE_MSG_PAD: return "PAD";
    case GTAP_NODE_MSG_STOP: return "STOP";
    case GTAP_NODE_MSG_EXPORT_REQUEST: return "EXPORT_REQUEST";
    case GTAP_NODE_MSG_IMPORT: return "IMPORT";
    case GTAP_NODE_MSG_RESULTS: return "RESULTS";
    case GTAP_NODE_MSG_RUN_BEGIN: return "RUN_BEGIN";
    case GTAP_NODE_MSG_RUN_END: return "RUN_END";
    case GTAP_NODE_MSG_EXPORTED: return "EXPORTED";
    case GTAP_NODE_MSG_COMPLETION: return "COMPLETION";
    case GTAP_NODE_MSG_ROOT_DONE: return "ROOT_DONE";
    case GTAP_NODE_MSG_ERROR: return "ERROR";
    default: return "?";
    }
}
