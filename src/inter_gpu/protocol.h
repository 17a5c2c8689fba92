/* protocol.h - messages between the proxies of different ranks (docs/steal.md): kinds, the
 * 32-byte header every message starts with, and the per-request state of the steal
 * protocol (victim choice, requests in flight, export requests a victim's node owes).
 * No MPI here: proxy.c sends and receives; this file only encodes, decodes and decides.
 */
#ifndef GTAP_PROTOCOL_H
#define GTAP_PROTOCOL_H

#include <stdint.h>

#define GTAP_PROTO_MAGIC 0x50445447u /* "GTDP" */
#define GTAP_PROTO_VERSION 1u
#define GTAP_PROTO_TAG 4711          /* the one MPI tag of runtime messages */
#define GTAP_PROTO_HEADER_BYTES 32u

/* Message kinds. [payload] */
enum gtap_proto_kind {
    GTAP_PROTO_STEAL_REQ = 1,   /* arg0 = request id, arg1 = max tasks | GTAP_PROTO_REQ_THIEF_IDLE; no payload */
    GTAP_PROTO_STEAL_REPLY = 2, /* arg0 = request id, arg1 = task count, or GTAP_PROTO_REPLY_BUSY;
                                   [wire task batch] if count > 0 */
    GTAP_PROTO_RESULTS = 3,     /* arg1 = entries; [wire result batch] */
    GTAP_PROTO_TOKEN = 4,       /* arg0 = wave, arg1 = black; [i64 q] (Safra) */
    GTAP_PROTO_STOP = 5,        /* arg0 = termination mode; [u64 decision time, ns] */
    GTAP_PROTO_DUMP = 6         /* arg0 = the rank whose watchdog fired; no payload: print this
                                 * rank's state, the job is about to end (docs/dist.md F4) */
};

/* STEAL_REPLY's arg1 when the victim's proxy could not ask its node (not in the request's
 * run yet, stopping, or GTAP_PROTO_MAX_OWED requests already owed): no tasks, but says
 * nothing about the victim's work, so the thief retries soon without backing off further. */
#define GTAP_PROTO_REPLY_BUSY 0x80000000u

/* STEAL_REQ's arg1 flag: the thief's node is idle (GTAP_NODE_EXPORT_THIEF_IDLE). */
#define GTAP_PROTO_REQ_THIEF_IDLE 0x80000000u

/* Decoded header. `progress` is the sender's node progress counter (segments executed),
 * which receivers' watchdogs use to see that the job as a whole is moving. */
typedef struct gtap_proto_header {
    uint16_t kind;
    uint32_t epoch;   /* run the message belongs to */
    uint32_t arg0, arg1;
    uint64_t progress;
} gtap_proto_header;

/* Writes / reads the 32-byte header (little-endian). decode returns -1 on a bad magic or
 * version or a buffer shorter than the header. */
void gtap_proto_encode(uint8_t *out, const gtap_proto_header *h);
int gtap_proto_decode(const uint8_t *in, uint64_t len, gtap_proto_header *h);
const char *gtap_proto_kind_str(unsigned kind);

/* ---- Victim choice: node-local ranks first, then random remote ranks ---------------- */
typedef struct gtap_victims {
    int *local;  int nlocal;  /* other ranks on this host */
    int *remote; int nremote; /* ranks on other hosts */
    uint32_t fails;           /* consecutive failed steals since the last success */
    uint64_t rng;             /* xorshift state */
    int last;
} gtap_victims;

/* Picks the next victim (never this rank); -1 when there is no other rank. Policy
 * (docs/steal.md S2): while fails < 2 * nlocal, a random local rank; afterwards three in
 * four picks go to a random remote rank (all picks, if there is no local rank). */
int gtap_victims_pick(gtap_victims *v);
static inline void gtap_victims_result(gtap_victims *v, int success) { v->fails = success ? 0 : v->fails + 1; }
uint64_t gtap_proto_rand(uint64_t *state);

/* ---- Requests this rank sent and has not had answered (thief side) --------------------- */
#define GTAP_PROTO_MAX_INFLIGHT 16
typedef struct gtap_inflight {
    uint32_t id;
    int victim;
    uint64_t sent_ns;
} gtap_inflight;

typedef struct gtap_thief {
    gtap_inflight req[GTAP_PROTO_MAX_INFLIGHT];
    int n;
    uint32_t next_id;
} gtap_thief;

/* Records a request; returns its id. The caller checks n < GTAP_PROTO_MAX_INFLIGHT. */
uint32_t gtap_thief_add(gtap_thief *t, int victim, uint64_t now_ns);
/* Removes the request (victim, id); returns 0, or -1 when there is no such request. */
int gtap_thief_remove(gtap_thief *t, int victim, uint32_t id);

/* ---- Export requests forwarded to this rank's node (victim side), answered in order ---- */
#define GTAP_PROTO_MAX_OWED 4 /* more requests are answered "nothing" at once (S3) */
typedef struct gtap_owed {
    int thief;
    uint32_t thief_req;  /* the thief's request id, echoed in the reply */
    uint32_t epoch;
    uint32_t node_req;   /* id given to the node's EXPORT_REQUEST */
} gtap_owed;

typedef struct gtap_victim_side {
    gtap_owed *q;
    uint32_t cap, head, count;
    uint32_t next_node_req;
} gtap_victim_side;

int gtap_victim_push(gtap_victim_side *v, int thief, uint32_t thief_req, uint32_t epoch, uint32_t *node_req_p);
/* Pops the oldest entry, which must carry node_req; returns -1 if it does not. */
int gtap_victim_pop(gtap_victim_side *v, uint32_t node_req, gtap_owed *out);
void gtap_victim_free(gtap_victim_side *v);

/* Binomial broadcast tree rooted at rank 0 (STOP): children of `rank` in a job of `size`
 * ranks, written to out (at most 32); returns how many. */
int gtap_proto_tree_children(int rank, int size, int *out);

#endif /* GTAP_PROTOCOL_H */
