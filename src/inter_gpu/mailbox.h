/* mailbox.h - CPU side of the node-interface rings (gtap/node_iface.h N1-N3): one producer
 * and one consumer per ring, each keeping its own position and a cached copy of the other
 * side's counter. Used by the proxy (inbox producer, outbox consumer) and by the CPU
 * reference node (inbox consumer, outbox producer). A GPU node implements the same rules
 * with system-scope atomics (see docs/dist.md, "Node interface").
 *
 * Header-only (C and C++), GCC/Clang __atomic builtins on the plain uint64 fields of the
 * shared layout. A gtap_mbox is owned by one thread; none of these functions may be called
 * concurrently on the same gtap_mbox.
 */
#ifndef GTAP_MAILBOX_H
#define GTAP_MAILBOX_H

#include <stdint.h>
#include <string.h>

#include "gtap/node_iface.h"

typedef struct gtap_mbox {
    gtap_node_ring *ctl;
    uint8_t *slots;
    uint32_t nslots;        /* ring_slots, a power of two */
    uint32_t max_msg_slots;
    uint64_t pos;           /* producer: slots produced (local tail); consumer: slots consumed */
    uint64_t other;         /* cached value of the other side's counter */
    uint64_t reserved_end;  /* producer: tail after the reserved, uncommitted message */
    uint32_t seq;           /* next message sequence number (producer) */
    uint32_t corrupt;       /* consumer: a malformed header was seen (fatal for the caller) */
} gtap_mbox;

#define GTAP_MBOX_INBOX 0
#define GTAP_MBOX_OUTBOX 1

/* Binds m to the inbox or outbox of region r, at the ring's current counters. */
static inline void gtap_mbox_bind(gtap_mbox *m, gtap_node_region *r, int which)
{
    memset(m, 0, sizeof *m);
    m->ctl = which == GTAP_MBOX_INBOX ? &r->inbox : &r->outbox;
    m->slots = (uint8_t *)r + (which == GTAP_MBOX_INBOX ? r->inbox_offset : r->outbox_offset);
    m->nslots = r->ring_slots;
    m->max_msg_slots = r->max_message_slots;
}

static inline void gtap_mbox_bind_producer(gtap_mbox *m, gtap_node_region *r, int which)
{
    gtap_mbox_bind(m, r, which);
    /* acquire pairs with the consumer's release of head: our view of free slots */
    m->other = __atomic_load_n(&m->ctl->head, __ATOMIC_ACQUIRE);
    m->pos = m->reserved_end = __atomic_load_n(&m->ctl->tail, __ATOMIC_RELAXED);
}

static inline void gtap_mbox_bind_consumer(gtap_mbox *m, gtap_node_region *r, int which)
{
    gtap_mbox_bind(m, r, which);
    m->pos = __atomic_load_n(&m->ctl->head, __ATOMIC_RELAXED);
    /* acquire pairs with the producer's release of tail: the slots up to it are written */
    m->other = __atomic_load_n(&m->ctl->tail, __ATOMIC_ACQUIRE);
}

/* Slots a message with `bytes` payload bytes occupies. */
static inline uint32_t gtap_mbox_slots_for(uint32_t bytes)
{
    return (GTAP_NODE_MSG_HEADER_BYTES + bytes + GTAP_NODE_SLOT_BYTES - 1) / GTAP_NODE_SLOT_BYTES;
}

static inline gtap_node_msg_header *gtap_mbox_slot(gtap_mbox *m, uint64_t counter)
{
    return (gtap_node_msg_header *)(m->slots + (size_t)(counter & (m->nslots - 1)) * GTAP_NODE_SLOT_BYTES);
}

/* Producer: reserves room for a message of `bytes` payload bytes and writes its header.
 * Returns the payload area (contiguous, N2) to fill before gtap_mbox_commit, or NULL when
 * the ring has no room now (retry later) or bytes exceeds GTAP_NODE_MAX_MESSAGE_BYTES. At
 * most one reservation may be outstanding. */
static inline void *gtap_mbox_reserve(gtap_mbox *m, unsigned kind, uint32_t arg, uint32_t bytes)
{
    uint32_t need = gtap_mbox_slots_for(bytes);
    uint32_t at = (uint32_t)(m->pos & (m->nslots - 1));
    uint32_t pad = at + need > m->nslots ? m->nslots - at : 0;
    gtap_node_msg_header *h;
    if (bytes > GTAP_NODE_MAX_MESSAGE_BYTES || need > m->max_msg_slots)
        return NULL;
    if (m->pos + pad + need - m->other > m->nslots) {
        /* acquire pairs with the consumer's release of head (N1, N3) */
        m->other = __atomic_load_n(&m->ctl->head, __ATOMIC_ACQUIRE);
        if (m->pos + pad + need - m->other > m->nslots)
            return NULL;
    }
    if (pad) {
        h = gtap_mbox_slot(m, m->pos);
        h->kind = GTAP_NODE_MSG_PAD;
        h->nslots = (uint16_t)pad;
        h->bytes = 0;
        h->arg = 0;
        h->seq = m->seq++;
    }
    h = gtap_mbox_slot(m, m->pos + pad);
    h->kind = (uint16_t)kind;
    h->nslots = (uint16_t)need;
    h->bytes = bytes;
    h->arg = arg;
    h->seq = m->seq++;
    m->reserved_end = m->pos + pad + need;
    return (uint8_t *)h + GTAP_NODE_MSG_HEADER_BYTES;
}

/* Producer: publishes the reserved message (and its PAD, if any). */
static inline void gtap_mbox_commit(gtap_mbox *m)
{
    m->pos = m->reserved_end;
    /* release: the slots written above are visible before the new tail (N1) */
    __atomic_store_n(&m->ctl->tail, m->pos, __ATOMIC_RELEASE);
}

/* Producer: reserve + copy + commit. Returns 0 on success, -1 when there is no room now. */
static inline int gtap_mbox_post(gtap_mbox *m, unsigned kind, uint32_t arg, const void *payload,
                                 uint32_t bytes)
{
    void *p = gtap_mbox_reserve(m, kind, arg, bytes);
    if (!p)
        return -1;
    if (bytes)
        memcpy(p, payload, bytes);
    gtap_mbox_commit(m);
    return 0;
}

/* Producer: nonzero when the consumer has consumed everything published so far. */
static inline int gtap_mbox_drained(gtap_mbox *m)
{
    /* acquire pairs with the consumer's release of head (N4: read head before idle) */
    m->other = __atomic_load_n(&m->ctl->head, __ATOMIC_ACQUIRE);
    return m->other == m->pos;
}

/* Consumer: the next message, or NULL when the ring is empty (or malformed: m->corrupt is
 * then set). PAD messages are skipped. The message stays valid until gtap_mbox_pop. */
static inline const gtap_node_msg_header *gtap_mbox_peek(gtap_mbox *m)
{
    for (;;) {
        const gtap_node_msg_header *h;
        if (m->pos == m->other) {
            /* acquire pairs with the producer's release of tail (N1) */
            m->other = __atomic_load_n(&m->ctl->tail, __ATOMIC_ACQUIRE);
            if (m->pos == m->other)
                return NULL;
        }
        h = gtap_mbox_slot(m, m->pos);
        if (h->nslots == 0 || h->nslots > m->max_msg_slots || m->pos + h->nslots > m->other ||
            (m->pos & (m->nslots - 1)) + h->nslots > m->nslots ||
            (h->kind != GTAP_NODE_MSG_PAD && gtap_mbox_slots_for(h->bytes) != h->nslots)) {
            m->corrupt = 1;
            return NULL;
        }
        if (h->kind != GTAP_NODE_MSG_PAD)
            return h;
        m->pos += h->nslots; /* published with the next pop */
    }
}

/* Consumer: releases the message returned by the last gtap_mbox_peek. */
static inline void gtap_mbox_pop(gtap_mbox *m, const gtap_node_msg_header *h)
{
    m->pos += h->nslots;
    /* release: our reads of the slots happen before the producer may reuse them (N3) */
    __atomic_store_n(&m->ctl->head, m->pos, __ATOMIC_RELEASE);
}

/* Consumer: nonzero when a message may be waiting (a cheap check for polling loops). */
static inline int gtap_mbox_maybe_nonempty(gtap_mbox *m)
{
    return m->pos != m->other || __atomic_load_n(&m->ctl->tail, __ATOMIC_RELAXED) != m->pos;
}

#ifdef __cplusplus
extern "C" {
#endif
/* Initializes a region of gtap_node_region_bytes(ring_slots) bytes at mem (mailbox.c):
 * identity fields, zero counters and status. ring_slots must be a power of two and at
 * least 2 * GTAP_NODE_MAX_MESSAGE_SLOTS. Returns 0, or -1 for a bad ring_slots. */
int gtap_node_region_init(void *mem, uint32_t ring_slots, uint32_t rank, uint32_t nranks,
                          uint64_t program_hash, uint32_t flags);

/* Name of a message kind, for dumps. */
const char *gtap_node_msg_kind_str(unsigned kind);
#ifdef __cplusplus
}
#endif

#endif /* GTAP_MAILBOX_H */
