/* dist_internal.h - state shared by the files of the distributed layer: the job (set once
 * by gtap_init_distributed), the configuration, the host-command handshake between the main
 * thread and the proxy, and the MPI check macros. Not installed. */
#ifndef GTAP_DIST_INTERNAL_H
#define GTAP_DIST_INTERNAL_H

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "gtap/dist_node.h"
#include "gtap_dist.h"
#include "gtap_gen.h"

/* Configuration (environment; docs/dist.md "Configuration"). */
typedef struct gtap_dist_config {
    int max_inflight;        /* GTAP_DIST_MAX_INFLIGHT: steal requests in flight per rank (2) */
    int steal_batch;         /* GTAP_DIST_STEAL_BATCH: most tasks one steal takes (32) */
    double watchdog_s;       /* GTAP_WATCHDOG_S: 0 = off */
    int stats;               /* GTAP_STATS=1 */
    uint64_t delay_seed;     /* GTAP_DIST_DELAY_SEED: nonzero = inject random proxy delays */
    uint32_t delay_max_us;   /* GTAP_DIST_DELAY_MAX_US (300) */
    uint32_t proxy_sleep_us; /* GTAP_DIST_PROXY_SLEEP_US: longest idle sleep of the proxy (50) */
    uint32_t ring_slots;     /* GTAP_DIST_RING_SLOTS (2048) */
    int quiet_agent_sm;      /* GTAP_DIST_QUIET_AGENT_SM (1): workers beside the agent sit out */
    uint32_t opening_reserve;/* GTAP_DIST_OPENING_RESERVE (32): the root rank's reserve for first steals */
    int reserve_alone;       /* GTAP_DIST_RESERVE_ALONE (1): an export with reserved tasks ships only those */
    int fake_node_size;      /* GTAP_DIST_FAKE_NODE_SIZE: pretend hosts of this many ranks */
    uint64_t steal_backoff_ns; /* GTAP_DIST_STEAL_BACKOFF_US: first back-off after a failed steal */
    uint64_t steal_backoff_max_ns; /* GTAP_DIST_STEAL_BACKOFF_MAX_US: longest back-off (64 x the first;
                                      100 us for a GPU node) */
    uint64_t slow_request_ns;/* GTAP_DIST_SLOW_REQUEST_US (2000): an older request stops counting
                                against max_inflight */
    int require_direct;      /* GTAP_DIST_TEST_REQUIRE_DIRECT (tests): 1 = a run of several ranks in
                                which no task moved over a direct ring (N10) ends the job; 2 = the
                                job fails at its end if no task did in any run */
    int require_migration;   /* GTAP_DIST_TEST_REQUIRE_MIGRATION (tests; 2 = in the job, as above): a run of several ranks
                                that migrated no task ends the job with an error */
} gtap_dist_config;

/* Host commands: the main thread asks, the proxy (which owns MPI) performs. */
enum gtap_dist_cmd_kind {
    GTAP_CMD_ATTACH = 1, GTAP_CMD_DETACH, GTAP_CMD_REPLICATE, GTAP_CMD_ALLREDUCE,
    GTAP_CMD_BARRIER, GTAP_CMD_STATS, GTAP_CMD_FINALIZE, GTAP_CMD_DIRECT_PEERS
};

typedef struct gtap_dist_cmd {
    int kind;
    void *buf;               /* REPLICATE: dst; ALLREDUCE: values; STATS: out (rank 0) */
    const void *src;         /* REPLICATE: src (rank 0) */
    size_t bytes;            /* REPLICATE */
    int count, op;           /* ALLREDUCE; DIRECT_PEERS: count ranks in buf (int) */
    int f64;                 /* ALLREDUCE: the values are doubles, else uint64_t */
    gtap_node_region *region;/* ATTACH */
    gtap_dist_node_desc desc;/* ATTACH (strings point into the two arrays below) */
    char device[128], device_id[128];
    int status;              /* result, set by the proxy */
    int done;                /* set by the proxy under the mutex */
} gtap_dist_cmd;

typedef struct gtap_dist_job {
    int active;              /* init succeeded and finalize has not run */
    int failed_init;         /* init failed: attaching a node is refused */
    int owns_mpi;
    int rank, size, local_rank, local_size;
    MPI_Comm comm;           /* duplicate of MPI_COMM_WORLD: runtime traffic */
    int *local_peers, nlocal;
    int *remote_peers, nremote;
    char host[64];
    char device[128];        /* the attached node's description, for messages */
    uint64_t program_hash;
    const gtap_program_desc *prog;
    gtap_dist_config cfg;
    int cuda_aware;          /* MPIX_Query_cuda_support() */
    /* proxy thread and host commands */
    pthread_t thread;
    int thread_started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gtap_dist_cmd *cmd;      /* pending command, or NULL */
    gtap_dist_stats last_stats;
} gtap_dist_job;

extern gtap_dist_job gtap_dist_g;

/* proxy.c */
void *gtap_proxy_main(void *arg);

/* failure.c: print "gtap: rank R (host H, DEV): <message>; aborting the job" once and end
 * the whole job (MPI_Abort). Safe from any thread; does not return. */
void gtap_dist_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void gtap_dist_mpi_fatal(int rc, const char *call, const char *file, int line) __attribute__((noreturn));
/* Installs the fatal-signal and exit handlers (after init). */
void gtap_dist_failure_install(void);
/* Nonzero once a fatal error is being reported (others threads stand still). */
int gtap_dist_failing(void);

/* The one check macro for MPI calls: on failure, end the job with the call, the MPI error
 * string, rank, host and device. The _GOTO form records the status and jumps to a label
 * (initialization, where the caller reports instead). */
#define GTAP_MPI_CHECK(call)                                                                  \
    do {                                                                                      \
        int gtap_mpi_rc_ = (call);                                                            \
        if (gtap_mpi_rc_ != MPI_SUCCESS)                                                      \
            gtap_dist_mpi_fatal(gtap_mpi_rc_, #call, __FILE__, __LINE__);                     \
    } while (0)
#define GTAP_MPI_CHECK_GOTO(call, status_var, label)                                          \
    do {                                                                                      \
        int gtap_mpi_rc_ = (call);                                                            \
        if (gtap_mpi_rc_ != MPI_SUCCESS) {                                                    \
            char gtap_mpi_msg_[MPI_MAX_ERROR_STRING];                                         \
            int gtap_mpi_len_ = 0;                                                            \
            MPI_Error_string(gtap_mpi_rc_, gtap_mpi_msg_, &gtap_mpi_len_);                    \
            fprintf(stderr, "gtap: rank %d: %s failed: %s\n", gtap_dist_g.rank, #call,        \
                    gtap_mpi_msg_);                                                           \
            status_var = GTAP_DIST_ERR_MPI;                                                   \
            goto label;                                                                       \
        }                                                                                     \
    } while (0)

static inline uint64_t gtap_dist_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wall-clock time (CLOCK_REALTIME): comparable across processes of one host; across hosts
 * only as well as their clocks agree. Used for the stop latency statistic only. */
static inline uint64_t gtap_dist_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif /* GTAP_DIST_INTERNAL_H */
