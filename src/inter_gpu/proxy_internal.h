/* proxy_internal.h - the proxy thread's state, shared by proxy.c (the loop, messages,
 * stealing, termination), proxy_cmd.c (the main thread's commands) and proxy_report.c
 * (statistics, watchdog). Only the proxy thread touches it. Not installed. */
#ifndef GTAP_PROXY_INTERNAL_H
#define GTAP_PROXY_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "dist_internal.h"
#include "gtap/rtt_hist.h"
#include "gtap/wire.h"
#include "mailbox.h"
#include "protocol.h"
#include "termination.h"

/* Run states of the proxy (docs/dist.md T5). A run ends for this rank when its node
 * leaves it; control messages of an older run that arrive later are recognized by their
 * run number (every message carries it) and answered or dropped. */
enum { RS_OUTSIDE = 1, RS_RUNNING };

static inline const char *rs_str(int rs)
{
    switch (rs) {
    case RS_OUTSIDE: return "outside a run";
    case RS_RUNNING: return "running";
    default: return "?";
    }
}

typedef struct sendbuf { MPI_Request req; uint8_t *buf; } sendbuf;
typedef struct netmsg { uint64_t due_ns; int src; uint8_t *buf; int len; } netmsg;
typedef struct inmsg { unsigned kind; uint32_t arg, bytes; uint8_t *data; } inmsg;
typedef struct agg { uint8_t *buf; gtap_wire_writer w; } agg;
typedef struct gather { MPI_Request req; gtap_dist_stats mine, *all; uint32_t epoch; } gather;

#define VEC(T) struct { T *v; int n, cap; }
#define VEC_PUSH(vec, x)                                                                       \
    do {                                                                                       \
        if ((vec).n == (vec).cap) {                                                            \
            int nc_ = (vec).cap ? (vec).cap * 2 : 16;                                          \
            void *nv_ = realloc((vec).v, (size_t)nc_ * sizeof *(vec).v);                       \
            if (!nv_)                                                                          \
                gtap_dist_fatal("out of host memory in the proxy");                            \
            (vec).v = nv_;                                                                     \
            (vec).cap = nc_;                                                                   \
        }                                                                                      \
        (vec).v[(vec).n++] = (x);                                                              \
    } while (0)

struct proxy {
    gtap_dist_job *g;
    int rank, size;
    /* node */
    gtap_node_region *region;
    gtap_mbox inbox, outbox;           /* producer / consumer */
    int no_taskwait;
    VEC(inmsg) inq;                    /* inbox messages waiting for room, FIFO */
    int inq_head;
    /* run */
    int rs;
    uint32_t epoch;                    /* last RUN_BEGIN */
    uint32_t stop_epoch;               /* latest run known to be over */
    uint32_t stop_delivered;           /* latest STOP posted to the node */
    uint64_t t_term_wall;
    uint32_t term_mode;
    int safra_on;
    gtap_safra safra;
    uint64_t next_wave_ns;
    gtap_thief thief;
    gtap_victim_side owed;
    gtap_victims victims;
    int *victims_local;                /* the host's ranks that are not direct peers */
    uint8_t *direct;                   /* [size]: 1 = a direct peer (N10), the proxy never steals from it */
    uint64_t next_steal_ns;
    uint32_t rtt_hist[GTAP_RTT_BUCKETS]; /* this run's steal round trips (gtap/rtt_hist.h) */
    uint64_t rtt_n;
    uint64_t direct_sent_seen, direct_received_seen; /* N10 counters already in Safra's count */
    uint64_t moved_in_job, direct_in_job; /* rank 0: tasks moved in the job's runs (tests) */
    VEC(netmsg) deferred;              /* messages of a run the node has not begun */
    VEC(netmsg) delayed;               /* delay injection (GTAP_DIST_DELAY_SEED) */
    VEC(sendbuf) sends;
    agg *aggs;                         /* [size]: results waiting to go to each origin */
    VEC(gather *) gathers;             /* per-run statistics being gathered, in run order
                                          (each allocated alone: MPI holds its buffers) */
    gtap_dist_stats st;
    uint64_t run_begin_ns, seg0, idle0;
    uint64_t owed_since[GTAP_PROTO_MAX_OWED]; /* when each owed export request arrived */
    /* host command in progress */
    gtap_dist_cmd *cmd;
    MPI_Request cmd_req;
    int cmd_phase;
    size_t cmd_off;
    char *cmd_ids;
    /* watchdog */
    uint64_t last_progress_ns, last_segments, *seen_progress;
    int progressed;
    int ever_attached;
    uint64_t rng;
    int quit;
};


extern struct proxy gtap_proxy_state;
#define P gtap_proxy_state

/* proxy.c */
void gtap_proxy_send(int dst, unsigned kind, uint32_t epoch, uint32_t arg0, uint32_t arg1,
                     const void *payload, uint32_t plen);
void gtap_proxy_request_dumps(double wait_s);
/* proxy_report.c */
void gtap_proxy_dump_state(int requested_by);
int gtap_proxy_gather_step(void);
void gtap_proxy_check_job_migration(void);
void gtap_proxy_watchdog_step(void);
/* proxy_cmd.c */
int gtap_proxy_command_step(void);

#endif /* GTAP_PROXY_INTERNAL_H */
