/* gtap/wire.h - the versioned little-endian format of migrating task records and of their
 * results (docs/wire.md is the specification; this header is its only implementation of
 * the layout). The same bytes travel node -> proxy (outbox), proxy -> proxy (MPI) and
 * proxy -> node (inbox) without being re-encoded, so a GPU node writes them directly.
 *
 * Batch  = header (24 B) + `count` entries, each a multiple of 8 bytes long.
 *   header: u32 magic "GTWR" | u16 version | u16 kind | u32 count | u32 bytes (whole batch)
 *           | u64 program_hash
 * Task entry (kind TASKS)   = 32 B header + payload padded with zeros to 8 bytes:
 *   u16 fn | u16 state | u16 queue | u16 flags | u32 payload_bytes | u32 result_bytes
 *   | u32 origin_rank | u32 hops | u64 origin_task
 * Result entry (kind RESULTS) = 24 B header + result padded with zeros to 8 bytes:
 *   u64 origin_task | u32 result_bytes | u32 flags | u32 runner_rank | u32 reserved
 *
 * Integers are little-endian; payload and result bytes are the task data / return value in
 * the memory representation of the program (the start-up check guarantees that every rank
 * runs the same program on the same ABI). Functions here are inline so GPU code can use them.
 */
#ifndef GTAP_WIRE_H
#define GTAP_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define GTAP_WIRE_FN static inline __host__ __device__
#else
#define GTAP_WIRE_FN static inline
#endif

#define GTAP_WIRE_MAGIC 0x52575447u /* "GTWR" in memory order */
#define GTAP_WIRE_VERSION 1u
#define GTAP_WIRE_BATCH_HEADER_BYTES 24u
#define GTAP_WIRE_TASK_HEADER_BYTES 32u
#define GTAP_WIRE_RESULT_HEADER_BYTES 24u
#define GTAP_WIRE_MAX_PAYLOAD 65536u /* sanity bound on one record's task data */

enum gtap_wire_kind { GTAP_WIRE_TASKS = 1, GTAP_WIRE_RESULTS = 2 };

/* task entry flags */
#define GTAP_WIRE_TASK_COMPLETION 0x1u /* the origin keeps a stub and waits for a result entry */
#define GTAP_WIRE_TASK_KNOWN_FLAGS 0x1u
/* result entry flags */
#define GTAP_WIRE_RESULT_DETACHED 0x1u /* a task on the runner detached children (see dist.md T2) */
#define GTAP_WIRE_RESULT_KNOWN_FLAGS 0x1u

/* Status of the decoding functions (0 = success). */
enum gtap_wire_status {
    GTAP_WIRE_OK = 0,
    GTAP_WIRE_ERR_MAGIC = 1,     /* not a batch */
    GTAP_WIRE_ERR_VERSION = 2,   /* a batch of another format version */
    GTAP_WIRE_ERR_KIND = 3,      /* not the expected kind */
    GTAP_WIRE_ERR_TRUNCATED = 4, /* fewer bytes than the header or an entry says */
    GTAP_WIRE_ERR_HASH = 5,      /* encoded by another program */
    GTAP_WIRE_ERR_ENTRY = 6,     /* an entry field is out of range */
    GTAP_WIRE_ERR_SPACE = 7      /* encoding: the buffer is too small */
};

/* A decoded task entry; payload points into the batch. */
typedef struct gtap_wire_task {
    uint16_t fn, state, queue, flags;
    uint32_t payload_bytes, result_bytes;
    uint32_t origin_rank, hops;
    uint64_t origin_task;
    const void *payload;
} gtap_wire_task;

/* A decoded result entry; result points into the batch. */
typedef struct gtap_wire_result {
    uint64_t origin_task;
    uint32_t result_bytes, flags;
    uint32_t runner_rank;
    const void *result;
} gtap_wire_result;

/* ---- little-endian scalars ----------------------------------------------------------- */
GTAP_WIRE_FN void gtap_wire_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
GTAP_WIRE_FN void gtap_wire_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
GTAP_WIRE_FN void gtap_wire_put64(uint8_t *p, uint64_t v)
{
    gtap_wire_put32(p, (uint32_t)v);
    gtap_wire_put32(p + 4, (uint32_t)(v >> 32));
}
GTAP_WIRE_FN uint16_t gtap_wire_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
GTAP_WIRE_FN uint32_t gtap_wire_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
GTAP_WIRE_FN uint64_t gtap_wire_get64(const uint8_t *p)
{
    return (uint64_t)gtap_wire_get32(p) | ((uint64_t)gtap_wire_get32(p + 4) << 32);
}
GTAP_WIRE_FN uint32_t gtap_wire_pad8(uint32_t n) { return (n + 7u) & ~7u; }

/* Bytes of one task entry with payload_bytes of task data / one result entry. */
GTAP_WIRE_FN uint32_t gtap_wire_task_bytes(uint32_t payload_bytes)
{
    return GTAP_WIRE_TASK_HEADER_BYTES + gtap_wire_pad8(payload_bytes);
}
GTAP_WIRE_FN uint32_t gtap_wire_result_bytes(uint32_t result_bytes)
{
    return GTAP_WIRE_RESULT_HEADER_BYTES + gtap_wire_pad8(result_bytes);
}

/* ---- encoding: begin a batch, append entries, finish ---------------------------------- *
 * A batch is built in place in buf[0, cap). gtap_wire_batch_begin writes the header with
 * count 0; each append checks space and returns GTAP_WIRE_ERR_SPACE (leaving the batch
 * unchanged) when the entry does not fit. The header's count and bytes are kept current,
 * so the batch is valid after every successful append. */
typedef struct gtap_wire_writer {
    uint8_t *buf;
    uint32_t cap, used, count;
} gtap_wire_writer;

GTAP_WIRE_FN int gtap_wire_batch_begin(gtap_wire_writer *w, void *buf, uint32_t cap, unsigned kind,
                                       uint64_t program_hash)
{
    w->buf = (uint8_t *)buf;
    w->cap = cap;
    w->used = 0;
    w->count = 0;
    if (cap < GTAP_WIRE_BATCH_HEADER_BYTES)
        return GTAP_WIRE_ERR_SPACE;
    gtap_wire_put32(w->buf, GTAP_WIRE_MAGIC);
    gtap_wire_put16(w->buf + 4, (uint16_t)GTAP_WIRE_VERSION);
    gtap_wire_put16(w->buf + 6, (uint16_t)kind);
    gtap_wire_put32(w->buf + 8, 0);
    gtap_wire_put32(w->buf + 12, GTAP_WIRE_BATCH_HEADER_BYTES);
    gtap_wire_put64(w->buf + 16, program_hash);
    w->used = GTAP_WIRE_BATCH_HEADER_BYTES;
    return GTAP_WIRE_OK;
}

GTAP_WIRE_FN void gtap_wire_batch_update(gtap_wire_writer *w)
{
    gtap_wire_put32(w->buf + 8, w->count);
    gtap_wire_put32(w->buf + 12, w->used);
}

/* Appends a task entry; t->payload supplies payload_bytes bytes. */
GTAP_WIRE_FN int gtap_wire_put_task(gtap_wire_writer *w, const gtap_wire_task *t)
{
    uint32_t n = gtap_wire_task_bytes(t->payload_bytes);
    uint8_t *p;
    if (t->payload_bytes > GTAP_WIRE_MAX_PAYLOAD || w->used + n > w->cap || w->used + n < w->used)
        return GTAP_WIRE_ERR_SPACE;
    p = w->buf + w->used;
    gtap_wire_put16(p, t->fn);
    gtap_wire_put16(p + 2, t->state);
    gtap_wire_put16(p + 4, t->queue);
    gtap_wire_put16(p + 6, t->flags);
    gtap_wire_put32(p + 8, t->payload_bytes);
    gtap_wire_put32(p + 12, t->result_bytes);
    gtap_wire_put32(p + 16, t->origin_rank);
    gtap_wire_put32(p + 20, t->hops);
    gtap_wire_put64(p + 24, t->origin_task);
    if (t->payload_bytes)
        memcpy(p + GTAP_WIRE_TASK_HEADER_BYTES, t->payload, t->payload_bytes);
    memset(p + GTAP_WIRE_TASK_HEADER_BYTES + t->payload_bytes, 0,
           gtap_wire_pad8(t->payload_bytes) - t->payload_bytes);
    w->used += n;
    w->count++;
    gtap_wire_batch_update(w);
    return GTAP_WIRE_OK;
}

/* Appends a result entry; r->result supplies result_bytes bytes. */
GTAP_WIRE_FN int gtap_wire_put_result(gtap_wire_writer *w, const gtap_wire_result *r)
{
    uint32_t n = gtap_wire_result_bytes(r->result_bytes);
    uint8_t *p;
    if (r->result_bytes > GTAP_WIRE_MAX_PAYLOAD || w->used + n > w->cap || w->used + n < w->used)
        return GTAP_WIRE_ERR_SPACE;
    p = w->buf + w->used;
    gtap_wire_put64(p, r->origin_task);
    gtap_wire_put32(p + 8, r->result_bytes);
    gtap_wire_put32(p + 12, r->flags);
    gtap_wire_put32(p + 16, r->runner_rank);
    gtap_wire_put32(p + 20, 0);
    if (r->result_bytes)
        memcpy(p + GTAP_WIRE_RESULT_HEADER_BYTES, r->result, r->result_bytes);
    memset(p + GTAP_WIRE_RESULT_HEADER_BYTES + r->result_bytes, 0,
           gtap_wire_pad8(r->result_bytes) - r->result_bytes);
    w->used += n;
    w->count++;
    gtap_wire_batch_update(w);
    return GTAP_WIRE_OK;
}

/* ---- decoding ------------------------------------------------------------------------ *
 * gtap_wire_batch_open checks the header of the len bytes at buf (magic, version, kind,
 * program hash, declared size <= len) and every entry's bounds, and returns the entry
 * count; then gtap_wire_next_task / gtap_wire_next_result walk the entries. */
typedef struct gtap_wire_reader {
    const uint8_t *buf;
    uint32_t bytes, pos, count, index;
    unsigned kind;
} gtap_wire_reader;

GTAP_WIRE_FN int gtap_wire_batch_open(gtap_wire_reader *r, const void *buf, size_t len,
                                      unsigned expect_kind, uint64_t program_hash)
{
    const uint8_t *p = (const uint8_t *)buf;
    uint32_t pos, i;
    r->buf = p;
    r->bytes = r->pos = r->count = r->index = 0;
    r->kind = 0;
    if (len < 8)
        return len >= 4 && gtap_wire_get32(p) != GTAP_WIRE_MAGIC ? GTAP_WIRE_ERR_MAGIC
                                                                  : GTAP_WIRE_ERR_TRUNCATED;
    if (gtap_wire_get32(p) != GTAP_WIRE_MAGIC)
        return GTAP_WIRE_ERR_MAGIC;
    if (gtap_wire_get16(p + 4) != GTAP_WIRE_VERSION)
        return GTAP_WIRE_ERR_VERSION;
    if (len < GTAP_WIRE_BATCH_HEADER_BYTES)
        return GTAP_WIRE_ERR_TRUNCATED;
    r->kind = gtap_wire_get16(p + 6);
    if (r->kind != expect_kind)
        return GTAP_WIRE_ERR_KIND;
    r->count = gtap_wire_get32(p + 8);
    r->bytes = gtap_wire_get32(p + 12);
    if (r->bytes < GTAP_WIRE_BATCH_HEADER_BYTES || r->bytes > len)
        return GTAP_WIRE_ERR_TRUNCATED;
    if (gtap_wire_get64(p + 16) != program_hash)
        return GTAP_WIRE_ERR_HASH;
    /* walk the entries once so that the iterators below need no checks */
    pos = GTAP_WIRE_BATCH_HEADER_BYTES;
    for (i = 0; i < r->count; i++) {
        uint32_t hdr = expect_kind == GTAP_WIRE_TASKS ? GTAP_WIRE_TASK_HEADER_BYTES
                                                      : GTAP_WIRE_RESULT_HEADER_BYTES;
        uint32_t n, flags;
        if (r->bytes - pos < hdr)
            return GTAP_WIRE_ERR_TRUNCATED;
        n = gtap_wire_get32(p + pos + 8); /* payload_bytes / result_bytes */
        flags = expect_kind == GTAP_WIRE_TASKS ? gtap_wire_get16(p + pos + 6) : gtap_wire_get32(p + pos + 12);
        if (n > GTAP_WIRE_MAX_PAYLOAD)
            return GTAP_WIRE_ERR_ENTRY;
        if (flags & ~(expect_kind == GTAP_WIRE_TASKS ? GTAP_WIRE_TASK_KNOWN_FLAGS
                                                      : GTAP_WIRE_RESULT_KNOWN_FLAGS))
            return GTAP_WIRE_ERR_ENTRY;
        if (r->bytes - pos - hdr < gtap_wire_pad8(n))
            return GTAP_WIRE_ERR_TRUNCATED;
        pos += hdr + gtap_wire_pad8(n);
    }
    if (pos != r->bytes)
        return GTAP_WIRE_ERR_ENTRY; /* trailing bytes the count does not account for */
    r->pos = GTAP_WIRE_BATCH_HEADER_BYTES;
    return GTAP_WIRE_OK;
}

/* Next entry of an opened batch; 0 when there is none left. */
GTAP_WIRE_FN int gtap_wire_next_task(gtap_wire_reader *r, gtap_wire_task *t)
{
    const uint8_t *p;
    if (r->index >= r->count || r->kind != GTAP_WIRE_TASKS)
        return 0;
    p = r->buf + r->pos;
    t->fn = gtap_wire_get16(p);
    t->state = gtap_wire_get16(p + 2);
    t->queue = gtap_wire_get16(p + 4);
    t->flags = gtap_wire_get16(p + 6);
    t->payload_bytes = gtap_wire_get32(p + 8);
    t->result_bytes = gtap_wire_get32(p + 12);
    t->origin_rank = gtap_wire_get32(p + 16);
    t->hops = gtap_wire_get32(p + 20);
    t->origin_task = gtap_wire_get64(p + 24);
    t->payload = p + GTAP_WIRE_TASK_HEADER_BYTES;
    r->pos += gtap_wire_task_bytes(t->payload_bytes);
    r->index++;
    return 1;
}

GTAP_WIRE_FN int gtap_wire_next_result(gtap_wire_reader *r, gtap_wire_result *res)
{
    const uint8_t *p;
    if (r->index >= r->count || r->kind != GTAP_WIRE_RESULTS)
        return 0;
    p = r->buf + r->pos;
    res->origin_task = gtap_wire_get64(p);
    res->result_bytes = gtap_wire_get32(p + 8);
    res->flags = gtap_wire_get32(p + 12);
    res->runner_rank = gtap_wire_get32(p + 16);
    res->result = p + GTAP_WIRE_RESULT_HEADER_BYTES;
    r->pos += gtap_wire_result_bytes(res->result_bytes);
    r->index++;
    return 1;
}

#ifdef __cplusplus
extern "C" {
#endif
/* Human-readable name of a gtap_wire_status (wire.c). */
const char *gtap_wire_status_str(int status);
#ifdef __cplusplus
}
#endif

#endif /* GTAP_WIRE_H */
