/* test_mailbox.c - the node-interface rings (mailbox.h, gtap/node_iface.h N1-N3): layout,
 * single-thread behaviour (full ring, PAD at the wrap, oversized messages) and a
 * two-thread producer/consumer stress with random message sizes checked byte for byte. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mailbox.h"

static int failures;
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
            failures++;                                                                \
        }                                                                              \
    } while (0)

static gtap_node_region *new_region(uint32_t slots)
{
    void *mem = NULL;
    if (posix_memalign(&mem, 4096, (size_t)gtap_node_region_bytes(slots)) != 0)
        return NULL;
    if (gtap_node_region_init(mem, slots, 3, 8, 0x1234, 0) != 0) {
        free(mem);
        return NULL;
    }
    return (gtap_node_region *)mem;
}

static void test_layout(void)
{
    gtap_node_region *r = new_region(512);
    CHECK(r != NULL);
    CHECK(r->magic == GTAP_NODE_MAGIC && r->version == GTAP_NODE_IFACE_VERSION);
    CHECK(r->inbox_offset == 1024 && r->outbox_offset == 1024 + 512 * 256);
    CHECK(r->total_bytes == 1024 + 2 * 512 * 256);
    CHECK(r->rank == 3 && r->nranks == 8 && r->program_hash == 0x1234);
    CHECK(gtap_node_region_init(r, 100, 0, 1, 0, 0) != 0); /* not a power of two */
    CHECK(gtap_node_region_init(r, 256, 0, 1, 0, 0) != 0); /* smaller than 2 x max message */
    CHECK(GTAP_NODE_MAX_MESSAGE_BYTES == 65520);
    free(r);
}

static void test_single_thread(void)
{
    gtap_node_region *r = new_region(512);
    gtap_mbox p, c;
    const gtap_node_msg_header *h;
    uint8_t big[GTAP_NODE_MAX_MESSAGE_BYTES + 1];
    int posted = 0;
    memset(big, 0xab, sizeof big);
    gtap_mbox_bind_producer(&p, r, GTAP_MBOX_INBOX);
    gtap_mbox_bind_consumer(&c, r, GTAP_MBOX_INBOX);
    CHECK(gtap_mbox_peek(&c) == NULL);
    CHECK(gtap_mbox_drained(&p));
    /* too large for one message */
    CHECK(gtap_mbox_reserve(&p, GTAP_NODE_MSG_IMPORT, 0, GTAP_NODE_MAX_MESSAGE_BYTES + 1) == NULL);
    /* fill the ring with 240-byte messages (one slot each) until it refuses */
    while (gtap_mbox_post(&p, GTAP_NODE_MSG_RESULTS, (uint32_t)posted, big, 240) == 0)
        posted++;
    CHECK(posted == 512);
    CHECK(!gtap_mbox_drained(&p));
    /* consume half, then a 3-slot message must wrap with a PAD */
    for (int i = 0; i < 511; i++) {
        h = gtap_mbox_peek(&c);
        CHECK(h && h->kind == GTAP_NODE_MSG_RESULTS && h->arg == (uint32_t)i && h->nslots == 1);
        gtap_mbox_pop(&c, h);
    }
    /* tail at slot 512 = index 0 again: 1 slot in use; a 600-byte message needs 3 slots */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_IMPORT, 77, big, 600) == 0);
    h = gtap_mbox_peek(&c);
    CHECK(h && h->arg == 511);
    gtap_mbox_pop(&c, h);
    h = gtap_mbox_peek(&c);
    CHECK(h && h->kind == GTAP_NODE_MSG_IMPORT && h->arg == 77 && h->bytes == 600 && h->nslots == 3);
    gtap_mbox_pop(&c, h);
    /* now at 515 (index 3): two 253-slot messages fit, a third does not */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_IMPORT, 1, big, 252 * 256) == 0); /* slots 3..255 */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_IMPORT, 2, big, 252 * 256) == 0); /* slots 256..508 */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_IMPORT, 3, big, 252 * 256) != 0); /* full */
    h = gtap_mbox_peek(&c);
    CHECK(h && h->arg == 1 && h->nslots == 253 && memcmp(h + 1, big, h->bytes) == 0);
    gtap_mbox_pop(&c, h);
    /* the third would straddle the end: a PAD fills slots 509..511, it starts at index 0 */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_IMPORT, 3, big, 252 * 256) == 0);
    CHECK(r->inbox.tail == 515 + 253 + 253 + 3 + 253);
    h = gtap_mbox_peek(&c);
    CHECK(h && h->arg == 2);
    gtap_mbox_pop(&c, h);
    h = gtap_mbox_peek(&c); /* skips the PAD */
    CHECK(h && h->arg == 3 && (const uint8_t *)h == (const uint8_t *)r + r->inbox_offset);
    CHECK(h && memcmp(h + 1, big, h->bytes) == 0);
    gtap_mbox_pop(&c, h);
    CHECK(gtap_mbox_drained(&p) && gtap_mbox_peek(&c) == NULL);
    /* a corrupt header is detected */
    CHECK(gtap_mbox_post(&p, GTAP_NODE_MSG_STOP, 1, NULL, 0) == 0);
    ((gtap_node_msg_header *)gtap_mbox_slot(&c, c.pos))->nslots = 999;
    CHECK(gtap_mbox_peek(&c) == NULL && c.corrupt);
    free(r);
}

/* Two threads: the producer posts N messages of pseudo-random sizes and contents; the
 * consumer checks each. Exercises N1-N3 under real concurrency. */
#define STRESS_MSGS 200000
typedef struct stress { gtap_node_region *r; int bad; } stress;

static uint32_t msg_size(uint32_t i) { return (i * 2654435761u >> 7) % 3000; }

static void *producer(void *arg)
{
    stress *s = (stress *)arg;
    gtap_mbox p;
    uint8_t buf[4096];
    gtap_mbox_bind_producer(&p, s->r, GTAP_MBOX_OUTBOX);
    for (uint32_t i = 0; i < STRESS_MSGS; i++) {
        uint32_t n = msg_size(i);
        for (uint32_t j = 0; j < n; j++)
            buf[j] = (uint8_t)(i + j);
        while (gtap_mbox_post(&p, GTAP_NODE_MSG_COMPLETION, i, buf, n) != 0)
            ; /* full: spin until the consumer frees slots */
    }
    return NULL;
}

static void *consumer(void *arg)
{
    stress *s = (stress *)arg;
    gtap_mbox c;
    gtap_mbox_bind_consumer(&c, s->r, GTAP_MBOX_OUTBOX);
    for (uint32_t i = 0; i < STRESS_MSGS;) {
        const gtap_node_msg_header *h = gtap_mbox_peek(&c);
        const uint8_t *p;
        if (!h) {
            if (c.corrupt) {
                s->bad++;
                return NULL;
            }
            continue;
        }
        p = (const uint8_t *)(h + 1);
        if (h->arg != i || h->bytes != msg_size(i))
            s->bad++;
        for (uint32_t j = 0; j < h->bytes; j++)
            if (p[j] != (uint8_t)(i + j)) {
                s->bad++;
                break;
            }
        gtap_mbox_pop(&c, h);
        i++;
    }
    return NULL;
}

static void test_two_threads(void)
{
    stress s = {new_region(512), 0};
    pthread_t a, b;
    pthread_create(&a, NULL, producer, &s);
    pthread_create(&b, NULL, consumer, &s);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    CHECK(s.bad == 0);
    CHECK(s.r->outbox.head == s.r->outbox.tail);
    free(s.r);
}

int main(void)
{
    test_layout();
    test_single_thread();
    test_two_threads();
    if (failures) {
        printf("FAIL: %d mailbox checks failed\n", failures);
        return 1;
    }
    printf("PASS: mailbox rings\n");
    return 0;
}
