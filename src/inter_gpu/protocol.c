/* protocol.c - proxy-to-proxy message headers and the steal protocol's bookkeeping. */
#include <stdlib.h>
#include <string.h>

#include "gtap/wire.h"
#include "protocol.h"

void gtap_proto_encode(uint8_t *out, const gtap_proto_header *h)
{
    gtap_wire_put32(out, GTAP_PROTO_MAGIC);
    gtap_wire_put16(out + 4, (uint16_t)GTAP_PROTO_VERSION);
    gtap_wire_put16(out + 6, h->kind);
    gtap_wire_put32(out + 8, h->epoch);
    gtap_wire_put32(out + 12, h->arg0);
    gtap_wire_put32(out + 16, h->arg1);
    gtap_wire_put32(out + 20, 0);
    gtap_wire_put64(out + 24, h->progress);
}

int gtap_proto_decode(const uint8_t *in, uint64_t len, gtap_proto_header *h)
{
    if (len < GTAP_PROTO_HEADER_BYTES || gtap_wire_get32(in) != GTAP_PROTO_MAGIC ||
        gtap_wire_get16(in + 4) != GTAP_PROTO_VERSION)
        return -1;
    h->kind = gtap_wire_get16(in + 6);
    h->epoch = gtap_wire_get32(in + 8);
    h->arg0 = gtap_wire_get32(in + 12);
    h->arg1 = gtap_wire_get32(in + 16);
    h->progress = gtap_wire_get64(in + 24);
    if (h->kind < GTAP_PROTO_STEAL_REQ || h->kind > GTAP_PROTO_DUMP)
        return -1;
    return 0;
}

const char *gtap_proto_kind_str(unsigned kind)
{
    switch (kind) {
    case GTAP_PROTO_STEAL_REQ: return "STEAL_REQ";
    case GTAP_PROTO_STEAL_REPLY: return "STEAL_REPLY";
    case GTAP_PROTO_RESULTS: return "RESULTS";
    case GTAP_PROTO_TOKEN: return "TOKEN";
    case GTAP_PROTO_STOP: return "STOP";
    case GTAP_PROTO_DUMP: return "DUMP";
    default: return "?";
    }
}

uint64_t gtap_proto_rand(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

static int pick_from(gtap_victims *v, const int *set, int n)
{
    int i = (int)(gtap_proto_rand(&v->rng) % (uint64_t)n);
    if (n > 1 && set[i] == v->last) /* avoid asking the same rank twice in a row */
        i = (i + 1 + (int)(gtap_proto_rand(&v->rng) % (uint64_t)(n - 1))) % n;
    return v->last = set[i];
}

int gtap_victims_pick(gtap_victims *v)
{
    if (v->nlocal == 0 && v->nremote == 0)
        return -1;
    if (v->nremote == 0)
        return pick_from(v, v->local, v->nlocal);
    if (v->nlocal == 0)
        return pick_from(v, v->remote, v->nremote);
    if (v->fails < 2u * (uint32_t)v->nlocal || gtap_proto_rand(&v->rng) % 4 == 0)
        return pick_from(v, v->local, v->nlocal);
    return pick_from(v, v->remote, v->nremote);
}

uint32_t gtap_thief_add(gtap_thief *t, int victim, uint64_t now_ns)
{
    gtap_inflight *r = &t->req[t->n++];
    r->id = ++t->next_id;
    r->victim = victim;
    r->sent_ns = now_ns;
    return r->id;
}

int gtap_thief_remove(gtap_thief *t, int victim, uint32_t id)
{
    for (int i = 0; i < t->n; i++) {
        if (t->req[i].id == id && t->req[i].victim == victim) {
            t->req[i] = t->req[--t->n];
            return 0;
        }
    }
    return -1;
}

int gtap_victim_push(gtap_victim_side *v, int thief, uint32_t thief_req, uint32_t epoch, uint32_t *node_req_p)
{
    gtap_owed *o;
    if (v->count == v->cap) {
        uint32_t ncap = v->cap ? v->cap * 2 : 64, i;
        gtap_owed *n = (gtap_owed *)malloc(ncap * sizeof *n);
        if (!n)
            return -1;
        for (i = 0; i < v->count; i++)
            n[i] = v->q[(v->head + i) % v->cap];
        free(v->q);
        v->q = n;
        v->cap = ncap;
        v->head = 0;
    }
    o = &v->q[(v->head + v->count) % v->cap];
    o->thief = thief;
    o->thief_req = thief_req;
    o->epoch = epoch;
    o->node_req = ++v->next_node_req;
    v->count++;
    *node_req_p = o->node_req;
    return 0;
}

int gtap_victim_pop(gtap_victim_side *v, uint32_t node_req, gtap_owed *out)
{
    if (v->count == 0 || v->q[v->head].node_req != node_req)
        return -1;
    *out = v->q[v->head];
    v->head = (v->head + 1) % v->cap;
    v->count--;
    return 0;
}

void gtap_victim_free(gtap_victim_side *v)
{
    free(v->q);
    memset(v, 0, sizeof *v);
}

int gtap_proto_tree_children(int rank, int size, int *out)
{
    int n = 0;
    for (int step = 1; step < size && n < 32; step <<= 1) {
        if (step <= rank)
            continue;
        if (rank + step < size)
            out[n++] = rank + step;
    }
    return n;
}
