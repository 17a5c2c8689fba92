/* termination.c - the Safra token state machine (termination.h); root completion is
 * decided in proxy.c from the node's ROOT_DONE. */
#include <string.h>

#include "termination.h"

void gtap_safra_reset(gtap_safra *s, int rank, int nranks)
{
    memset(s, 0, sizeof *s);
    s->rank = rank;
    s->nranks = nranks;
}

int gtap_safra_token_arrived(gtap_safra *s, int64_t q, int black, uint32_t wave)
{
    if (s->has_token)
        return -1;
    s->has_token = 1;
    s->token_q = q;
    s->token_black = black;
    s->wave = wave;
    return 0;
}

int gtap_safra_passive_step(gtap_safra *s, int64_t *q, int *black, uint32_t *wave)
{
    if (s->nranks == 1)
        return s->count == 0 ? GTAP_SAFRA_TERMINATED : GTAP_SAFRA_NONE;
    if (s->rank != 0) {
        if (!s->has_token)
            return GTAP_SAFRA_NONE;
        *q = s->token_q + s->count;
        *black = s->token_black || s->black;
        *wave = s->wave;
        s->has_token = 0;
        s->black = 0; /* whitened by passing the token */
        return GTAP_SAFRA_SEND;
    }
    if (s->has_token) {
        /* the wave came back: rank 0 is passive now, its own count closes the sum */
        s->has_token = 0;
        s->wave_out = 0;
        if (!s->token_black && !s->black && s->token_q + s->count == 0)
            return GTAP_SAFRA_TERMINATED;
    }
    if (s->wave_out)
        return GTAP_SAFRA_NONE;
    /* start a wave: rank 0 turns white, the token starts white with q = 0 */
    s->black = 0;
    s->wave_out = 1;
    s->wave = ++s->waves;
    *q = 0;
    *black = 0;
    *wave = s->wave;
    return GTAP_SAFRA_SEND;
}
