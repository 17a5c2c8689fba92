/* test_protocol.c - protocol bookkeeping (protocol.h): header round trip, the STOP tree
 * reaches every rank exactly once, victim choice prefers node-local ranks and never picks
 * this rank, request tables. */
#include <stdio.h>
#include <string.h>

#include "protocol.h"

static int failures;
#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond);                    \
            failures++;                                                                \
        }                                                                              \
    } while (0)

int main(void)
{
    uint8_t buf[64];
    gtap_proto_header h = {GTAP_PROTO_TOKEN, 7, 3, 1, 0x1122334455667788ull}, g;
    gtap_proto_encode(buf, &h);
    CHECK(gtap_proto_decode(buf, 32, &g) == 0);
    CHECK(g.kind == h.kind && g.epoch == 7 && g.arg0 == 3 && g.arg1 == 1 && g.progress == h.progress);
    CHECK(gtap_proto_decode(buf, 31, &g) != 0);
    buf[4] = 9;
    CHECK(gtap_proto_decode(buf, 32, &g) != 0);

    for (int size = 1; size <= 300; size++) {
        int seen[300] = {0}, kids[32];
        int frontier[300], nf = 1;
        frontier[0] = 0;
        seen[0] = 1;
        for (int i = 0; i < nf; i++) {
            int nk = gtap_proto_tree_children(frontier[i], size, kids);
            for (int k = 0; k < nk; k++) {
                CHECK(kids[k] > 0 && kids[k] < size && !seen[kids[k]]);
                seen[kids[k]]++;
                frontier[nf++] = kids[k];
            }
        }
        CHECK(nf == size);
    }

    {
        int local[] = {1, 2, 3}, remote[] = {4, 5, 6, 7};
        gtap_victims v;
        int nloc = 0;
        memset(&v, 0, sizeof v);
        v.local = local;
        v.nlocal = 3;
        v.remote = remote;
        v.nremote = 4;
        v.rng = 12345;
        v.last = -1;
        for (int i = 0; i < 6; i++) { /* first 2 x nlocal failures: local only */
            int x = gtap_victims_pick(&v);
            CHECK(x >= 1 && x <= 3);
            gtap_victims_result(&v, 0);
        }
        for (int i = 0; i < 1000; i++) {
            int x = gtap_victims_pick(&v);
            CHECK(x >= 1 && x <= 7);
            nloc += x <= 3;
        }
        CHECK(nloc > 150 && nloc < 350); /* about one in four */
        gtap_victims_result(&v, 1);
        CHECK(v.fails == 0);
        v.nlocal = 0;
        v.nremote = 0;
        CHECK(gtap_victims_pick(&v) == -1);
    }

    {
        gtap_thief t;
        gtap_victim_side vs;
        gtap_owed o;
        uint32_t a, b, nr[100];
        memset(&t, 0, sizeof t);
        memset(&vs, 0, sizeof vs);
        a = gtap_thief_add(&t, 3, 0);
        b = gtap_thief_add(&t, 5, 0);
        CHECK(a != b && t.n == 2);
        CHECK(gtap_thief_remove(&t, 5, a) != 0); /* wrong victim */
        CHECK(gtap_thief_remove(&t, 3, a) == 0 && t.n == 1);
        CHECK(gtap_thief_remove(&t, 5, b) == 0 && t.n == 0);
        for (int i = 0; i < 100; i++)
            CHECK(gtap_victim_push(&vs, i, (uint32_t)(1000 + i), 1, &nr[i]) == 0);
        CHECK(gtap_victim_pop(&vs, nr[1], &o) != 0); /* out of order */
        for (int i = 0; i < 100; i++) {
            CHECK(gtap_victim_pop(&vs, nr[i], &o) == 0 && o.thief == i && o.thief_req == (uint32_t)(1000 + i));
        }
        CHECK(vs.count == 0);
        gtap_victim_free(&vs);
    }
    if (failures) {
        printf("FAIL: %d protocol checks failed\n", failures);
        return 1;
    }
    printf("PASS: protocol bookkeeping\n");
    return 0;
}
