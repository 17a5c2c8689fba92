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
 *   | u32 origin_rank | u16 hops | u16 block_threads | u64 origin_task
 * Result entry (kind RESULTS) = 24 B header + result padded with zeros to 8 bytes:
 *   u64 origin_task | u32 result_bytes | u32 flags | u32 runner_rank | u32 reserved
 *
 * Integers are little-endian; payload and result bytes are the task data / return value in
 * the memory representation of the program (the start-up check guarantees that every rank
 * runs the same program on the same ABI). Functions here are inline so GPU code can use them.
 * Every field's offset is defined once below (GTAP_WIRE_*_OFF_*); the byte-wise encoders and
 * decoders use them, and so does the GPU node, which moves whole 8-byte words (the word view).
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
#if defined(__cplusplus)
#define GTAP_WIRE_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define GTAP_WIRE_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#define GTAP_WIRE_MAGIC 0x52575447u /* "GTWR" in memory order */
#define GTAP_WIRE_VERSION 3u /* 3: block_threads is per task (warp tasks: 32); 2: block_threads, 16-bit hops */
#define GTAP_WIRE_BATCH_HEADER_BYTES 24u
#define GTAP_WIRE_TASK_HEADER_BYTES 32u
#define GTAP_WIRE_RESULT_HEADER_BYTES 24u
#define GTAP_WIRE_MAX_PAYLOAD 65536u /* sanity bound on one record's task data */
#define GTAP_WIRE_MAX_HOPS 0xffffu    /* hops saturates here (a statistic) */
/* block_threads of a thread-level task (one thread runs it); a block-level task states its
 * block size (GTAP_BLOCK_SIZE: the task data holds that many copies of each spilled local), a
 * warp task of a thread-level program GTAP_WIRE_WARP_TASK (32 copies). */
#define GTAP_WIRE_THREAD_LEVEL 0u
#define GTAP_WIRE_WARP_TASK 32u

enum gtap_wire_kind { GTAP_WIRE_TASKS = 1, GTAP_WIRE_RESULTS = 2 };

/* task entry flags */
#define GTAP_WIRE_TASK_COMPLETION 0x1u /* the origin keeps a stub and waits for a result entry */
#define GTAP_WIRE_TASK_KNOWN_FLAGS 0x1u
/* result entry flags */
#define GTAP_WIRE_RESULT_DETACHED 0x1u /* a task on the runner detached children (see dist.md T2) */
#define GTAP_WIRE_RESULT_KNOWN_FLAGS 0x1u

/* ---- the layout: byte offsets of every header field (docs/wire.md's tables) ---------- */
#define GTAP_WIRE_BATCH_OFF_MAGIC 0u
#define GTAP_WIRE_BATCH_OFF_VERSION 4u /* u16 */
#define GTAP_WIRE_BATCH_OFF_KIND 6u    /* u16 */
#define GTAP_WIRE_BATCH_OFF_COUNT 8u
#define GTAP_WIRE_BATCH_OFF_BYTES 12u
#define GTAP_WIRE_BATCH_OFF_HASH 16u   /* u64 */
#define GTAP_WIRE_TASK_OFF_FN 0u       /* u16 */
#define GTAP_WIRE_TASK_OFF_STATE 2u    /* u16 */
#define GTAP_WIRE_TASK_OFF_QUEUE 4u    /* u16 */
#define GTAP_WIRE_TASK_OFF_FLAGS 6u    /* u16 */
#define GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES 8u
#define GTAP_WIRE_TASK_OFF_RESULT_BYTES 12u
#define GTAP_WIRE_TASK_OFF_ORIGIN_RANK 16u
#define GTAP_WIRE_TASK_OFF_HOPS 20u          /* u16 */
#define GTAP_WIRE_TASK_OFF_BLOCK_THREADS 22u /* u16 */
#define GTAP_WIRE_TASK_OFF_ORIGIN_TASK 24u /* u64 */
#define GTAP_WIRE_RESULT_OFF_ORIGIN_TASK 0u /* u64 */
#define GTAP_WIRE_RESULT_OFF_RESULT_BYTES 8u
#define GTAP_WIRE_RESULT_OFF_FLAGS 12u
#define GTAP_WIRE_RESULT_OFF_RUNNER_RANK 16u
#define GTAP_WIRE_RESULT_OFF_RESERVED 20u
/* Both entry kinds state the size of their variable part (payload_bytes, result_bytes) here,
 * which is how a reader skips an entry without knowing its kind's other fields. */
#define GTAP_WIRE_ENTRY_OFF_SIZE 8u

/* ---- the word view: the headers as a little-endian machine sees them in memory ----------- *
 * A reader or writer on a little-endian target whose batch starts 8-aligned (entries keep
 * that alignment) may load and store the headers as native words; the GPU node does, with
 * one 8-byte access where the byte-wise functions below take eight. The structs are that
 * view, field for field; the checks below hold them, and the word helpers, to the offsets
 * above. Field f sits in the 8-byte word GTAP_WIRE_WORD(f's offset), at bit
 * GTAP_WIRE_SHIFT(f's offset); no field crosses a word. */
typedef struct gtap_wire_batch_header {
    uint32_t magic;
    uint16_t version, kind;
    uint32_t count, bytes;
    uint64_t program_hash;
} gtap_wire_batch_header;

typedef struct gtap_wire_task_header {
    uint16_t fn, state, queue, flags;
    uint32_t payload_bytes, result_bytes;
    uint32_t origin_rank;
    uint16_t hops, block_threads;
    uint64_t origin_task;
} gtap_wire_task_header;

typedef struct gtap_wire_result_header {
    uint64_t origin_task;
    uint32_t result_bytes, flags;
    uint32_t runner_rank, reserved;
} gtap_wire_result_header;

#define GTAP_WIRE_WORD(off) ((off) / 8u)
#define GTAP_WIRE_SHIFT(off) (8u * ((off) % 8u))
/* The field of `bits` bits at byte offset off, out of the 8-byte word that holds it. */
#define GTAP_WIRE_WORD_FIELD(word, off, bits) \
    ((uint32_t)((uint64_t)(word) >> GTAP_WIRE_SHIFT(off)) & (uint32_t)((1ull << (bits)) - 1ull))

/* Field of struct T at offset OFF, SIZE bytes: where the offsets say, and inside one word. */
#define GTAP_WIRE_CHECK_FIELD(T, field, OFF, SIZE)                                                  \
    GTAP_WIRE_STATIC_ASSERT(offsetof(T, field) == (OFF) && sizeof(((T *)0)->field) == (SIZE) &&     \
                                (OFF) % 8u + (SIZE) <= 8u,                                          \
                            "wire.h: " #T "." #field " disagrees with its offset or crosses a word")
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, magic, GTAP_WIRE_BATCH_OFF_MAGIC, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, version, GTAP_WIRE_BATCH_OFF_VERSION, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, kind, GTAP_WIRE_BATCH_OFF_KIND, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, count, GTAP_WIRE_BATCH_OFF_COUNT, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, bytes, GTAP_WIRE_BATCH_OFF_BYTES, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_batch_header, program_hash, GTAP_WIRE_BATCH_OFF_HASH, 8u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, fn, GTAP_WIRE_TASK_OFF_FN, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, state, GTAP_WIRE_TASK_OFF_STATE, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, queue, GTAP_WIRE_TASK_OFF_QUEUE, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, flags, GTAP_WIRE_TASK_OFF_FLAGS, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, payload_bytes, GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, result_bytes, GTAP_WIRE_TASK_OFF_RESULT_BYTES, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, origin_rank, GTAP_WIRE_TASK_OFF_ORIGIN_RANK, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, hops, GTAP_WIRE_TASK_OFF_HOPS, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, block_threads, GTAP_WIRE_TASK_OFF_BLOCK_THREADS, 2u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_task_header, origin_task, GTAP_WIRE_TASK_OFF_ORIGIN_TASK, 8u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_result_header, origin_task, GTAP_WIRE_RESULT_OFF_ORIGIN_TASK, 8u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_result_header, result_bytes, GTAP_WIRE_RESULT_OFF_RESULT_BYTES, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_result_header, flags, GTAP_WIRE_RESULT_OFF_FLAGS, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_result_header, runner_rank, GTAP_WIRE_RESULT_OFF_RUNNER_RANK, 4u);
GTAP_WIRE_CHECK_FIELD(gtap_wire_result_header, reserved, GTAP_WIRE_RESULT_OFF_RESERVED, 4u);
GTAP_WIRE_STATIC_ASSERT(sizeof(gtap_wire_batch_header) == GTAP_WIRE_BATCH_HEADER_BYTES &&
                            sizeof(gtap_wire_task_header) == GTAP_WIRE_TASK_HEADER_BYTES &&
                            sizeof(gtap_wire_result_header) == GTAP_WIRE_RESULT_HEADER_BYTES,
                        "wire.h: a header struct's size differs from the format's");
GTAP_WIRE_STATIC_ASSERT(GTAP_WIRE_BATCH_HEADER_BYTES % 8u == 0 && GTAP_WIRE_TASK_HEADER_BYTES % 8u == 0 &&
                            GTAP_WIRE_RESULT_HEADER_BYTES % 8u == 0,
                        "wire.h: entries must stay 8-aligned for the word view");
GTAP_WIRE_STATIC_ASSERT(GTAP_WIRE_ENTRY_OFF_SIZE == GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES &&
                            GTAP_WIRE_ENTRY_OFF_SIZE == GTAP_WIRE_RESULT_OFF_RESULT_BYTES,
                        "wire.h: both entry kinds state their size at GTAP_WIRE_ENTRY_OFF_SIZE");
/* gtap_wire_task_header_words / gtap_wire_result_header_words build each word from the
 * fields that share it: these are the groups they assume. */
GTAP_WIRE_STATIC_ASSERT(GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_FN) == 0 && GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_STATE) == 0 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_QUEUE) == 0 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_FLAGS) == 0 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES) == 1 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_RESULT_BYTES) == 1 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_ORIGIN_RANK) == 2 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_HOPS) == 2 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_BLOCK_THREADS) == 2 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_ORIGIN_TASK) == 3,
                        "wire.h: the task header's words hold other fields than gtap_wire_task_header_words writes");
GTAP_WIRE_STATIC_ASSERT(GTAP_WIRE_WORD(GTAP_WIRE_RESULT_OFF_ORIGIN_TASK) == 0 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_RESULT_OFF_RESULT_BYTES) == 1 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_RESULT_OFF_FLAGS) == 1 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_RESULT_OFF_RUNNER_RANK) == 2 &&
                            GTAP_WIRE_WORD(GTAP_WIRE_RESULT_OFF_RESERVED) == 2,
                        "wire.h: the result header's words hold other fields than gtap_wire_result_header_words writes");

/* Status of the decoding functions (0 = success). */
enum gtap_wire_status {
    GTAP_WIRE_OK = 0,
    GTAP_WIRE_ERR_MAGIC = 1,     /* not a batch */
    GTAP_WIRE_ERR_VERSION = 2,   /* a batch of another format version */
    GTAP_WIRE_ERR_KIND = 3,      /* not the expected kind */
    GTAP_WIRE_ERR_TRUNCATED = 4, /* fewer bytes than the header or an entry says */
    GTAP_WIRE_ERR_HASH = 5,      /* encoded by another program */
    GTAP_WIRE_ERR_ENTRY = 6,     /* an entry field is out of range */
    GTAP_WIRE_ERR_SPACE = 7,     /* encoding: the buffer is too small */
    GTAP_WIRE_ERR_GRANULARITY = 8 /* a task of another granularity (block_threads) */
};

/* A decoded task entry; payload points into the batch. hops is encoded in 16 bits,
 * saturating at GTAP_WIRE_MAX_HOPS. block_threads: GTAP_WIRE_THREAD_LEVEL, or the block size
 * of a block-level task (at most 65535). */
typedef struct gtap_wire_task {
    uint16_t fn, state, queue, flags;
    uint32_t payload_bytes, result_bytes;
    uint32_t origin_rank, hops;
    uint32_t block_threads;
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
GTAP_WIRE_FN uint16_t gtap_wire_hops16(uint32_t hops)
{
    return (uint16_t)(hops < GTAP_WIRE_MAX_HOPS ? hops : GTAP_WIRE_MAX_HOPS);
}

/* Bytes of one task entry with payload_bytes of task data / one result entry. */
GTAP_WIRE_FN uint32_t gtap_wire_task_bytes(uint32_t payload_bytes)
{
    return GTAP_WIRE_TASK_HEADER_BYTES + gtap_wire_pad8(payload_bytes);
}
GTAP_WIRE_FN uint32_t gtap_wire_result_bytes(uint32_t result_bytes)
{
    return GTAP_WIRE_RESULT_HEADER_BYTES + gtap_wire_pad8(result_bytes);
}

/* ---- the word view: headers as 8-byte words (writers on little-endian targets) --------- *
 * The header of a task / result entry as the words w[0..3] / w[0..2] of an 8-aligned entry:
 * the same bytes gtap_wire_put_task / gtap_wire_put_result write (t->payload, r->result are
 * not used). For the GPU node, which stores whole words. */
GTAP_WIRE_FN void gtap_wire_task_header_words(uint64_t *w, const gtap_wire_task *t)
{
    w[0] = (uint64_t)t->fn << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_FN) |
           (uint64_t)t->state << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_STATE) |
           (uint64_t)t->queue << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_QUEUE) |
           (uint64_t)t->flags << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_FLAGS);
    w[1] = (uint64_t)t->payload_bytes << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES) |
           (uint64_t)t->result_bytes << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_RESULT_BYTES);
    w[2] = (uint64_t)t->origin_rank << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_ORIGIN_RANK) |
           (uint64_t)gtap_wire_hops16(t->hops) << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_HOPS) |
           (uint64_t)(uint16_t)t->block_threads << GTAP_WIRE_SHIFT(GTAP_WIRE_TASK_OFF_BLOCK_THREADS);
    w[3] = t->origin_task;
}

GTAP_WIRE_FN void gtap_wire_result_header_words(uint64_t *w, const gtap_wire_result *r)
{
    w[0] = r->origin_task;
    w[1] = (uint64_t)r->result_bytes << GTAP_WIRE_SHIFT(GTAP_WIRE_RESULT_OFF_RESULT_BYTES) |
           (uint64_t)r->flags << GTAP_WIRE_SHIFT(GTAP_WIRE_RESULT_OFF_FLAGS);
    w[2] = (uint64_t)r->runner_rank << GTAP_WIRE_SHIFT(GTAP_WIRE_RESULT_OFF_RUNNER_RANK); /* reserved: 0 */
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
    gtap_wire_put32(w->buf + GTAP_WIRE_BATCH_OFF_MAGIC, GTAP_WIRE_MAGIC);
    gtap_wire_put16(w->buf + GTAP_WIRE_BATCH_OFF_VERSION, (uint16_t)GTAP_WIRE_VERSION);
    gtap_wire_put16(w->buf + GTAP_WIRE_BATCH_OFF_KIND, (uint16_t)kind);
    gtap_wire_put32(w->buf + GTAP_WIRE_BATCH_OFF_COUNT, 0);
    gtap_wire_put32(w->buf + GTAP_WIRE_BATCH_OFF_BYTES, GTAP_WIRE_BATCH_HEADER_BYTES);
    gtap_wire_put64(w->buf + GTAP_WIRE_BATCH_OFF_HASH, program_hash);
    w->used = GTAP_WIRE_BATCH_HEADER_BYTES;
    return GTAP_WIRE_OK;
}

GTAP_WIRE_FN void gtap_wire_batch_update(gtap_wire_writer *w)
{
    gtap_wire_put32(w->buf + GTAP_WIRE_BATCH_OFF_COUNT, w->count);
    gtap_wire_put32(w->buf + GTAP_WIRE_BATCH_OFF_BYTES, w->used);
}

/* Appends a task entry; t->payload supplies payload_bytes bytes. GTAP_WIRE_ERR_ENTRY (batch
 * unchanged) for a block_threads that does not fit its 16 bits. */
GTAP_WIRE_FN int gtap_wire_put_task(gtap_wire_writer *w, const gtap_wire_task *t)
{
    uint32_t n = gtap_wire_task_bytes(t->payload_bytes);
    uint8_t *p;
    if (t->payload_bytes > GTAP_WIRE_MAX_PAYLOAD || w->used + n > w->cap || w->used + n < w->used)
        return GTAP_WIRE_ERR_SPACE;
    if (t->block_threads > 0xffffu)
        return GTAP_WIRE_ERR_ENTRY;
    p = w->buf + w->used;
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_FN, t->fn);
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_STATE, t->state);
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_QUEUE, t->queue);
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_FLAGS, t->flags);
    gtap_wire_put32(p + GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES, t->payload_bytes);
    gtap_wire_put32(p + GTAP_WIRE_TASK_OFF_RESULT_BYTES, t->result_bytes);
    gtap_wire_put32(p + GTAP_WIRE_TASK_OFF_ORIGIN_RANK, t->origin_rank);
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_HOPS, gtap_wire_hops16(t->hops));
    gtap_wire_put16(p + GTAP_WIRE_TASK_OFF_BLOCK_THREADS, (uint16_t)t->block_threads);
    gtap_wire_put64(p + GTAP_WIRE_TASK_OFF_ORIGIN_TASK, t->origin_task);
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
    gtap_wire_put64(p + GTAP_WIRE_RESULT_OFF_ORIGIN_TASK, r->origin_task);
    gtap_wire_put32(p + GTAP_WIRE_RESULT_OFF_RESULT_BYTES, r->result_bytes);
    gtap_wire_put32(p + GTAP_WIRE_RESULT_OFF_FLAGS, r->flags);
    gtap_wire_put32(p + GTAP_WIRE_RESULT_OFF_RUNNER_RANK, r->runner_rank);
    gtap_wire_put32(p + GTAP_WIRE_RESULT_OFF_RESERVED, 0);
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
    if (len < GTAP_WIRE_BATCH_OFF_COUNT) /* not even magic, version and kind */
        return len >= GTAP_WIRE_BATCH_OFF_VERSION && gtap_wire_get32(p + GTAP_WIRE_BATCH_OFF_MAGIC) != GTAP_WIRE_MAGIC
                   ? GTAP_WIRE_ERR_MAGIC
                   : GTAP_WIRE_ERR_TRUNCATED;
    if (gtap_wire_get32(p + GTAP_WIRE_BATCH_OFF_MAGIC) != GTAP_WIRE_MAGIC)
        return GTAP_WIRE_ERR_MAGIC;
    if (gtap_wire_get16(p + GTAP_WIRE_BATCH_OFF_VERSION) != GTAP_WIRE_VERSION)
        return GTAP_WIRE_ERR_VERSION;
    if (len < GTAP_WIRE_BATCH_HEADER_BYTES)
        return GTAP_WIRE_ERR_TRUNCATED;
    r->kind = gtap_wire_get16(p + GTAP_WIRE_BATCH_OFF_KIND);
    if (r->kind != expect_kind)
        return GTAP_WIRE_ERR_KIND;
    r->count = gtap_wire_get32(p + GTAP_WIRE_BATCH_OFF_COUNT);
    r->bytes = gtap_wire_get32(p + GTAP_WIRE_BATCH_OFF_BYTES);
    if (r->bytes < GTAP_WIRE_BATCH_HEADER_BYTES || r->bytes > len)
        return GTAP_WIRE_ERR_TRUNCATED;
    if (gtap_wire_get64(p + GTAP_WIRE_BATCH_OFF_HASH) != program_hash)
        return GTAP_WIRE_ERR_HASH;
    /* walk the entries once so that the iterators below need no checks */
    pos = GTAP_WIRE_BATCH_HEADER_BYTES;
    for (i = 0; i < r->count; i++) {
        uint32_t hdr = expect_kind == GTAP_WIRE_TASKS ? GTAP_WIRE_TASK_HEADER_BYTES
                                                      : GTAP_WIRE_RESULT_HEADER_BYTES;
        uint32_t n, flags;
        if (r->bytes - pos < hdr)
            return GTAP_WIRE_ERR_TRUNCATED;
        n = gtap_wire_get32(p + pos + GTAP_WIRE_ENTRY_OFF_SIZE); /* payload_bytes / result_bytes */
        flags = expect_kind == GTAP_WIRE_TASKS ? gtap_wire_get16(p + pos + GTAP_WIRE_TASK_OFF_FLAGS)
                                               : gtap_wire_get32(p + pos + GTAP_WIRE_RESULT_OFF_FLAGS);
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
    t->fn = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_FN);
    t->state = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_STATE);
    t->queue = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_QUEUE);
    t->flags = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_FLAGS);
    t->payload_bytes = gtap_wire_get32(p + GTAP_WIRE_TASK_OFF_PAYLOAD_BYTES);
    t->result_bytes = gtap_wire_get32(p + GTAP_WIRE_TASK_OFF_RESULT_BYTES);
    t->origin_rank = gtap_wire_get32(p + GTAP_WIRE_TASK_OFF_ORIGIN_RANK);
    t->hops = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_HOPS);
    t->block_threads = gtap_wire_get16(p + GTAP_WIRE_TASK_OFF_BLOCK_THREADS);
    t->origin_task = gtap_wire_get64(p + GTAP_WIRE_TASK_OFF_ORIGIN_TASK);
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
    res->origin_task = gtap_wire_get64(p + GTAP_WIRE_RESULT_OFF_ORIGIN_TASK);
    res->result_bytes = gtap_wire_get32(p + GTAP_WIRE_RESULT_OFF_RESULT_BYTES);
    res->flags = gtap_wire_get32(p + GTAP_WIRE_RESULT_OFF_FLAGS);
    res->runner_rank = gtap_wire_get32(p + GTAP_WIRE_RESULT_OFF_RUNNER_RANK);
    res->result = p + GTAP_WIRE_RESULT_HEADER_BYTES;
    r->pos += gtap_wire_result_bytes(res->result_bytes);
    r->index++;
    return 1;
}

/* block_threads of a task of function kind `warp_fn` (the function's GTAP_FN_WARP flag) on a
 * node whose workers are `node_threads` wide (GTAP_WIRE_THREAD_LEVEL or its block size): a
 * thread-level node's warp tasks run on 32 threads. */
GTAP_WIRE_FN uint32_t gtap_wire_task_threads(uint32_t node_threads, int warp_fn)
{
    return node_threads == GTAP_WIRE_THREAD_LEVEL && warp_fn ? GTAP_WIRE_WARP_TASK : node_threads;
}

/* The receiver's granularity check (docs/wire.md, "Checks on receipt"): a task runs on the
 * kind of worker its record was laid out for (thread-level: one copy of each spilled local;
 * a warp task: 32; block-level: block_threads copies), so a node refuses a task entry of
 * another granularity than the one it gives that function (`mine`, gtap_wire_task_threads).
 * Returns GTAP_WIRE_OK or GTAP_WIRE_ERR_GRANULARITY; the caller names both in its error
 * (docs/dist.md F1). */
GTAP_WIRE_FN int gtap_wire_task_check_granularity(const gtap_wire_task *t, uint32_t mine)
{
    return t->block_threads == mine ? GTAP_WIRE_OK : GTAP_WIRE_ERR_GRANULARITY;
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
