/* test_wire.c - the wire format (gtap/wire.h): round trips (block_threads and the 16-bit
 * hops included), and refusal of a wrong version (version 1 among them), kind, program hash,
 * granularity, truncated input and malformed entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtap/wire.h"

static int failures;
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
            failures++;                                                                \
        }                                                                              \
    } while (0)

#define HASH 0x0123456789abcdefull

static uint32_t build_tasks(uint8_t *buf, uint32_t cap, int n)
{
    gtap_wire_writer w;
    CHECK(gtap_wire_batch_begin(&w, buf, cap, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
    for (int i = 0; i < n; i++) {
        uint8_t payload[64];
        gtap_wire_task t;
        memset(&t, 0, sizeof t);
        for (int j = 0; j < (int)sizeof payload; j++)
            payload[j] = (uint8_t)(i * 7 + j);
        t.fn = (uint16_t)(i % 3);
        t.state = (uint16_t)i;
        t.queue = (uint16_t)(i % 2);
        t.flags = i % 2 ? GTAP_WIRE_TASK_COMPLETION : 0;
        t.payload_bytes = (uint32_t)(i * 5 % 61); /* odd sizes exercise the padding */
        t.result_bytes = 8;
        t.origin_rank = (uint32_t)(i + 100);
        t.hops = (uint32_t)i;
        t.block_threads = i % 2 ? 64u : GTAP_WIRE_THREAD_LEVEL; /* only the field's round trip */
        t.origin_task = 0xfeedface00000000ull | (uint64_t)i;
        t.payload = payload;
        CHECK(gtap_wire_put_task(&w, &t) == GTAP_WIRE_OK);
    }
    return w.used;
}

static void test_task_round_trip(void)
{
    uint8_t buf[8192];
    uint32_t used = build_tasks(buf, sizeof buf, 20);
    gtap_wire_reader r;
    gtap_wire_task t;
    int i = 0;
    CHECK(used % 8 == 0);
    CHECK(gtap_wire_batch_open(&r, buf, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
    CHECK(r.count == 20);
    while (gtap_wire_next_task(&r, &t)) {
        const uint8_t *p = (const uint8_t *)t.payload;
        CHECK(t.fn == i % 3 && t.state == i && t.queue == i % 2);
        CHECK(t.flags == (i % 2 ? GTAP_WIRE_TASK_COMPLETION : 0));
        CHECK(t.payload_bytes == (uint32_t)(i * 5 % 61) && t.result_bytes == 8);
        CHECK(t.origin_rank == (uint32_t)(i + 100) && t.hops == (uint32_t)i);
        CHECK(t.block_threads == (i % 2 ? 64u : GTAP_WIRE_THREAD_LEVEL));
        CHECK(t.origin_task == (0xfeedface00000000ull | (uint64_t)i));
        for (uint32_t j = 0; j < t.payload_bytes; j++)
            CHECK(p[j] == (uint8_t)(i * 7 + (int)j));
        i++;
    }
    CHECK(i == 20);
    /* the layout is little-endian and fixed: spot-check bytes of the first entry */
    CHECK(buf[0] == 'G' && buf[1] == 'T' && buf[2] == 'W' && buf[3] == 'R');
    CHECK(buf[4] == GTAP_WIRE_VERSION && buf[5] == 0 && buf[6] == GTAP_WIRE_TASKS);
    CHECK(buf[16] == 0xef && buf[23] == 0x01); /* program hash, LE */
    CHECK(buf[24 + 16] == 100);                 /* origin_rank of entry 0 */
    {   /* entry 1 (block_threads 64, hops 1) starts after entry 0's header (payload 0 bytes) */
        const uint8_t *e1 = buf + GTAP_WIRE_BATCH_HEADER_BYTES + GTAP_WIRE_TASK_HEADER_BYTES;
        CHECK(e1[20] == 1 && e1[21] == 0); /* hops, u16 LE */
        CHECK(e1[22] == 64 && e1[23] == 0); /* block_threads, u16 LE */
    }
}

/* hops is 16 bits on the wire: it saturates instead of wrapping; block_threads must fit. */
static void test_task_limits(void)
{
    uint8_t buf[256];
    gtap_wire_writer w;
    gtap_wire_reader r;
    gtap_wire_task t, back;
    memset(&t, 0, sizeof t);
    t.hops = 70000;
    t.block_threads = 1024;
    CHECK(gtap_wire_batch_begin(&w, buf, sizeof buf, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
    CHECK(gtap_wire_put_task(&w, &t) == GTAP_WIRE_OK);
    CHECK(gtap_wire_batch_open(&r, buf, w.used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
    CHECK(gtap_wire_next_task(&r, &back) && back.hops == GTAP_WIRE_MAX_HOPS && back.block_threads == 1024);
    t.block_threads = 0x10000;
    CHECK(gtap_wire_put_task(&w, &t) == GTAP_WIRE_ERR_ENTRY && w.count == 1);
}

static void test_result_round_trip(void)
{
    uint8_t buf[4096];
    gtap_wire_writer w;
    gtap_wire_reader r;
    gtap_wire_result res;
    long long v;
    int i = 0;
    gtap_wire_batch_begin(&w, buf, sizeof buf, GTAP_WIRE_RESULTS, HASH);
    for (int k = 0; k < 10; k++) {
        v = 1000000007LL * k;
        res.origin_task = (uint64_t)k << 32 | 5;
        res.result_bytes = k == 3 ? 0 : sizeof v; /* a void task */
        res.flags = k == 7 ? GTAP_WIRE_RESULT_DETACHED : 0;
        res.runner_rank = 9;
        res.result = &v;
        CHECK(gtap_wire_put_result(&w, &res) == GTAP_WIRE_OK);
    }
    CHECK(gtap_wire_batch_open(&r, buf, w.used, GTAP_WIRE_RESULTS, HASH) == GTAP_WIRE_OK);
    while (gtap_wire_next_result(&r, &res)) {
        CHECK(res.origin_task == ((uint64_t)i << 32 | 5));
        CHECK(res.flags == (i == 7 ? GTAP_WIRE_RESULT_DETACHED : 0u) && res.runner_rank == 9);
        if (i != 3) {
            memcpy(&v, res.result, sizeof v);
            CHECK(res.result_bytes == sizeof v && v == 1000000007LL * i);
        } else {
            CHECK(res.result_bytes == 0);
        }
        i++;
    }
    CHECK(i == 10);
    /* a result batch is not a task batch */
    CHECK(gtap_wire_batch_open(&r, buf, w.used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_KIND);
}

static void test_refusals(void)
{
    uint8_t buf[8192], bad[8192];
    uint32_t used = build_tasks(buf, sizeof buf, 5);
    gtap_wire_reader r;
    /* version mismatch: a later one, version 2 (block_threads per node, not per task) and
     * version 1 (no block_threads, 32-bit hops) */
    memcpy(bad, buf, used);
    bad[4] = GTAP_WIRE_VERSION + 1;
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_VERSION);
    CHECK(GTAP_WIRE_VERSION == 3);
    for (uint16_t old = 1; old <= 2; old++) {
        gtap_wire_put16(bad + GTAP_WIRE_BATCH_OFF_VERSION, old);
        CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_VERSION);
    }
    /* granularity: a receiver refuses tasks laid out for another kind of worker */
    {
        gtap_wire_task t;
        int n = 0, thread_ok = 0, block_ok = 0;
        CHECK(gtap_wire_batch_open(&r, buf, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
        while (gtap_wire_next_task(&r, &t)) { /* entries alternate thread-level / 64 threads */
            int is_block = n % 2;
            thread_ok += gtap_wire_task_check_granularity(&t, GTAP_WIRE_THREAD_LEVEL) == GTAP_WIRE_OK;
            block_ok += gtap_wire_task_check_granularity(&t, 64) == GTAP_WIRE_OK;
            CHECK(gtap_wire_task_check_granularity(&t, is_block ? GTAP_WIRE_THREAD_LEVEL : 64) ==
                  GTAP_WIRE_ERR_GRANULARITY);
            CHECK(gtap_wire_task_check_granularity(&t, is_block ? 32 : 64) == GTAP_WIRE_ERR_GRANULARITY);
            n++;
        }
        CHECK(n == 5 && thread_ok == 3 && block_ok == 2);
        CHECK(strstr(gtap_wire_status_str(GTAP_WIRE_ERR_GRANULARITY), "granularity") != NULL);
        /* the granularity a node gives a function: a thread-level node's warp tasks are 32 wide,
         * a block-level node has no warp tasks of its own (every task runs on its block) */
        CHECK(gtap_wire_task_threads(GTAP_WIRE_THREAD_LEVEL, 0) == GTAP_WIRE_THREAD_LEVEL);
        CHECK(gtap_wire_task_threads(GTAP_WIRE_THREAD_LEVEL, 1) == GTAP_WIRE_WARP_TASK);
        CHECK(gtap_wire_task_threads(64, 0) == 64 && gtap_wire_task_threads(64, 1) == 64);
    }
    /* not a batch */
    memcpy(bad, buf, used);
    bad[0] = 'X';
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_MAGIC);
    /* another program */
    CHECK(gtap_wire_batch_open(&r, buf, used, GTAP_WIRE_TASKS, HASH ^ 1) == GTAP_WIRE_ERR_HASH);
    /* every truncation is refused */
    for (uint32_t len = 0; len < used; len++) {
        int st = gtap_wire_batch_open(&r, buf, len, GTAP_WIRE_TASKS, HASH);
        CHECK(st == GTAP_WIRE_ERR_TRUNCATED || (len < 4 && st != GTAP_WIRE_OK));
    }
    /* a count that claims more entries than the bytes hold */
    memcpy(bad, buf, used);
    gtap_wire_put32(bad + 8, 6);
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_TRUNCATED);
    /* a count that leaves bytes unaccounted for */
    memcpy(bad, buf, used);
    gtap_wire_put32(bad + 8, 4);
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_ENTRY);
    /* unknown flag bits in an entry */
    memcpy(bad, buf, used);
    gtap_wire_put16(bad + GTAP_WIRE_BATCH_HEADER_BYTES + 6, 0x8000);
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_ENTRY);
    /* an absurd payload length */
    memcpy(bad, buf, used);
    gtap_wire_put32(bad + GTAP_WIRE_BATCH_HEADER_BYTES + 8, 0x7fffffff);
    CHECK(gtap_wire_batch_open(&r, bad, used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_ENTRY);
    /* encoding into too small a buffer fails without damaging the batch */
    {
        gtap_wire_writer w;
        gtap_wire_task t;
        uint8_t small[64], pl[40] = {0};
        memset(&t, 0, sizeof t);
        t.payload_bytes = sizeof pl;
        t.payload = pl;
        CHECK(gtap_wire_batch_begin(&w, small, sizeof small, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
        CHECK(gtap_wire_put_task(&w, &t) == GTAP_WIRE_ERR_SPACE);
        CHECK(gtap_wire_batch_open(&r, small, w.used, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK && r.count == 0);
        CHECK(gtap_wire_batch_begin(&w, small, 8, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_ERR_SPACE);
    }
    CHECK(strcmp(gtap_wire_status_str(GTAP_WIRE_ERR_VERSION), "wire format version mismatch") == 0);
}

/* The word view (what the GPU node stores and loads) is the byte layout the encoders write
 * and the decoders read, on this little-endian host: headers, and the fields the node picks
 * out of a header word. */
static void test_word_view(void)
{
    uint8_t buf[256];
    uint64_t words[4];
    gtap_wire_writer w;
    gtap_wire_task t;
    gtap_wire_result res;
    uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint32_t one = 1;
    uint64_t h0;
    if (*(const uint8_t *)&one != 1) {
        printf("skip: the word view is for little-endian targets\n");
        return;
    }
    memset(&t, 0, sizeof t);
    t.fn = 0x1234;
    t.state = 0xfffe;
    t.queue = 3;
    t.flags = GTAP_WIRE_TASK_COMPLETION;
    t.payload_bytes = sizeof payload;
    t.result_bytes = 0x10203;
    t.origin_rank = 0xa0b0c0d0u;
    t.hops = 7;
    t.block_threads = 256;
    t.origin_task = 0x0102030405060708ull;
    t.payload = payload;
    CHECK(gtap_wire_batch_begin(&w, buf, sizeof buf, GTAP_WIRE_TASKS, HASH) == GTAP_WIRE_OK);
    CHECK(gtap_wire_put_task(&w, &t) == GTAP_WIRE_OK);
    gtap_wire_task_header_words(words, &t);
    CHECK(memcmp(words, buf + GTAP_WIRE_BATCH_HEADER_BYTES, GTAP_WIRE_TASK_HEADER_BYTES) == 0);
    memcpy(&h0, buf + GTAP_WIRE_BATCH_HEADER_BYTES, sizeof h0);
    CHECK(GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_FN, 16) == t.fn);
    CHECK(GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_STATE, 16) == t.state);
    CHECK(GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_QUEUE, 16) == t.queue);
    CHECK(GTAP_WIRE_WORD_FIELD(h0, GTAP_WIRE_TASK_OFF_FLAGS, 16) == t.flags);
    {   /* word 2: origin_rank | hops | block_threads, as the GPU node reads them */
        uint64_t h2;
        const gtap_wire_task_header *th = (const gtap_wire_task_header *)(buf + GTAP_WIRE_BATCH_HEADER_BYTES);
        memcpy(&h2, buf + GTAP_WIRE_BATCH_HEADER_BYTES + 8 * GTAP_WIRE_WORD(GTAP_WIRE_TASK_OFF_BLOCK_THREADS),
               sizeof h2);
        CHECK(GTAP_WIRE_WORD_FIELD(h2, GTAP_WIRE_TASK_OFF_ORIGIN_RANK, 32) == t.origin_rank);
        CHECK(GTAP_WIRE_WORD_FIELD(h2, GTAP_WIRE_TASK_OFF_HOPS, 16) == t.hops);
        CHECK(GTAP_WIRE_WORD_FIELD(h2, GTAP_WIRE_TASK_OFF_BLOCK_THREADS, 16) == t.block_threads);
        CHECK(th->block_threads == 256 && th->hops == 7);
    }

    memset(&res, 0, sizeof res);
    res.origin_task = 0x1122334455667788ull;
    res.result_bytes = 4;
    res.flags = GTAP_WIRE_RESULT_DETACHED;
    res.runner_rank = 5;
    res.result = payload;
    CHECK(gtap_wire_batch_begin(&w, buf, sizeof buf, GTAP_WIRE_RESULTS, HASH) == GTAP_WIRE_OK);
    CHECK(gtap_wire_put_result(&w, &res) == GTAP_WIRE_OK);
    gtap_wire_result_header_words(words, &res);
    CHECK(memcmp(words, buf + GTAP_WIRE_BATCH_HEADER_BYTES, GTAP_WIRE_RESULT_HEADER_BYTES) == 0);
}

int main(void)
{
    test_task_round_trip();
    test_task_limits();
    test_result_round_trip();
    test_refusals();
    test_word_view();
    if (failures) {
        printf("FAIL: %d wire-format checks failed\n", failures);
        return 1;
    }
    printf("PASS: wire format\n");
    return 0;
}
