/* termination.h - distributed termination detection (docs/dist.md T3; root completion, T1,
 * is decided in proxy.c): Dijkstra-Safra's token ring with message counters (EWD998), as a
 * pure state machine that proxy.c drives and tests/dist/test_safra.c checks against a model.
 *
 * "Basic" messages are those that can give a passive rank work: task batches (a steal
 * reply with >= 1 task) and result batches (remote join). Each rank counts them (sent -
 * received) and turns black when it receives one. The token travels 0 -> 1 -> ... -> n-1 ->
 * 0, each rank adding its count and blackening it if the rank is black; a rank passes the
 * token only while passive. Rank 0 declares termination when a wave returns white, rank 0
 * is white, and q + c0 == 0; otherwise it starts another wave.
 */
#ifndef GTAP_TERMINATION_H
#define GTAP_TERMINATION_H

#include <stdint.h>

typedef struct gtap_safra {
    int rank, nranks;
    int64_t count;      /* basic messages sent - received, this run */
    int black;          /* received a basic message since the token last left */
    int has_token;      /* holding the token */
    int64_t token_q;    /* the held token's sum */
    int token_black;
    uint32_t wave;      /* wave number of the held / last sent token */
    int wave_out;       /* rank 0: a token is travelling */
    uint32_t waves;     /* rank 0: waves started */
} gtap_safra;

enum { GTAP_SAFRA_NONE = 0, GTAP_SAFRA_SEND = 1, GTAP_SAFRA_TERMINATED = 2 };

void gtap_safra_reset(gtap_safra *s, int rank, int nranks);
static inline void gtap_safra_sent(gtap_safra *s) { s->count++; }
static inline void gtap_safra_received(gtap_safra *s) { s->count--; s->black = 1; }
/* Basic messages the node sent and received on its own (node_iface.h N10) since the last call. */
static inline void gtap_safra_counted(gtap_safra *s, uint64_t sent, uint64_t received)
{
    s->count += (int64_t)sent - (int64_t)received;
    if (received)
        s->black = 1;
}
/* The token arrived (from rank - 1). Returns -1 if this rank already holds one (a bug). */
int gtap_safra_token_arrived(gtap_safra *s, int64_t q, int black, uint32_t wave);

/* Called while this rank is passive (and, on rank 0, when detection is wanted). Returns
 * GTAP_SAFRA_SEND with the token (q, black, wave) to send to (rank + 1) % nranks, GTAP_SAFRA_TERMINATED
 * (rank 0 only), or GTAP_SAFRA_NONE. */
int gtap_safra_passive_step(gtap_safra *s, int64_t *q, int *black, uint32_t *wave);

#endif /* GTAP_TERMINATION_H */
