/* gtap_dist.h - the distributed (multi-GPU, multi-node) GTaP API: one MPI rank per GPU.
 *
 *   int main(int argc, char **argv) {
 *       if (gtap_init_distributed(&argc, &argv) != 0) return 1;   // before gtap_initialize
 *       gtap_initialize();  ...  gtap_launch(k, n);  gtap_synchronize();
 *       if (gtap_dist_rank() == 0) print the entry's result;       // valid on rank 0 only
 *       gtap_finalize();
 *       return gtap_dist_finalize();
 *   }
 *
 * Rank 0 runs the entry (root) task; the other ranks' launches start empty and take work by
 * stealing it, and every rank's gtap_synchronize() returns when the whole job's task graph
 * is done. Code around the launch runs on every rank; the entry's result variable is
 * written on rank 0 only (other ranks keep its previous value). Globals written by tasks
 * are per rank: a task writes them on the rank where it runs (docs/dist.md, "What moves").
 * A program that does not call gtap_init_distributed runs exactly the single-GPU runtime.
 *
 * All functions are called by the program's main thread. Functions marked "collective" must
 * be called by every rank in the same order (as MPI collectives). Status: 0 on success,
 * else a GTAP_DIST_ERR_* code (gtap_dist_status_str); the message was printed already.
 * Environment variables: docs/dist.md, "Configuration".
 */
#ifndef GTAP_DIST_H
#define GTAP_DIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gtap_dist_status {
    GTAP_DIST_OK = 0,
    GTAP_DIST_ERR_MPI = 1,      /* an MPI call failed */
    GTAP_DIST_ERR_MISMATCH = 2, /* ranks run different programs / builds (program hash) */
    GTAP_DIST_ERR_DEVICE = 3,   /* two ranks on one GPU, or no GPU for a rank */
    GTAP_DIST_ERR_STATE = 4,    /* called before init, twice, or during a run */
    GTAP_DIST_ERR_NOMEM = 5,
    GTAP_DIST_ERR_ARG = 6,      /* an invalid argument or environment value */
    GTAP_DIST_ERR_THREAD = 7    /* MPI does not provide MPI_THREAD_SERIALIZED */
};

/* Collective. Initializes MPI (unless the program did; then it must provide at least
 * MPI_THREAD_SERIALIZED), checks that every rank runs the same program (program hash, wire
 * and interface versions, ABI) and starts this rank's proxy thread. argc/argv may be NULL. */
int gtap_init_distributed(int *argc, char ***argv);

/* Collective. Stops the proxy and finalizes MPI if gtap_init_distributed initialized it.
 * Call after gtap_finalize(). Returns 0. A rank that exits without calling it ends the job. */
int gtap_dist_finalize(void);

/* 1 between a successful gtap_init_distributed and gtap_dist_finalize, else 0. */
int gtap_dist_active(void);

/* This rank, the number of ranks, and the rank's index / count on its host (the node-local
 * rank honours SLURM_LOCALID and OMPI_COMM_WORLD_LOCAL_RANK). 0 / 1 when not active. */
int gtap_dist_rank(void);
int gtap_dist_size(void);
int gtap_dist_local_rank(void);
int gtap_dist_local_size(void);

/* The GPU this rank uses among the num_visible devices it sees (CUDA_VISIBLE_DEVICES
 * applied): local_rank % num_visible, or 0 when Slurm binds one GPU per task. */
int gtap_dist_device_index(int num_visible);

/* Collective. Copies `bytes` bytes at src on rank 0 into dst on every rank (dst may equal
 * src). On the host target dst/src are host memory. GPU builds (gtap_thread.cuh with
 * GTAP_DISTRIBUTED) also accept device pointers - cudaMalloc'ed, or cudaGetSymbolAddress of
 * a __device__ variable (`&var` on the host is the host shadow, not the device copy) - and
 * stage them through pinned host memory. Use it for read-only input data that tasks reach
 * through pointers or globals. */
int gtap_replicate(void *dst, const void *src, size_t bytes);

/* Collective. In-place sum (op 0) or maximum (op 1) over all ranks of count values. */
int gtap_dist_allreduce_u64(uint64_t *values, int count, int op);
/* The same for doubles (MPI's sum: every rank gets the same value, in an order MPI picks). */
int gtap_dist_allreduce_f64(double *values, int count, int op);
#define GTAP_DIST_SUM 0
#define GTAP_DIST_MAX 1

/* Collective. Waits until every rank reached it. */
int gtap_dist_barrier(void);

/* Per-rank statistics of the last completed run (GTAP_STATS=1 prints them). Times in ns. */
typedef struct gtap_dist_stats {
    uint64_t rank;
    uint64_t steals_attempted;  /* steal requests this rank sent */
    uint64_t steals_succeeded;  /* ... answered with at least one task */
    uint64_t requests_served;   /* requests this rank answered with tasks (as a victim) */
    uint64_t requests_received; /* requests this rank received */
    uint64_t declined_not_running; /* ... answered "busy" at once: not in that run (yet), or stopping */
    uint64_t declined_owed_full;   /* ... answered "busy" at once: GTAP_PROTO_MAX_OWED already owed */
    uint64_t declined_passive;     /* ... answered "nothing" at once: the node was idle */
    uint64_t node_exports_refused; /* ... answered "nothing" by the node: it was short of work */
    uint64_t node_exports_empty;   /* ... answered "nothing" by the node: it found no task to give */
    uint64_t node_export_ns;    /* time the node spent answering export requests */
    uint64_t export_wait_ns, export_wait_max_ns; /* request received to the node's answer (sum, max) */
    uint64_t tasks_in, tasks_out;     /* task records imported / exported */
    uint64_t bytes_in, bytes_out;     /* task batch bytes received / sent */
    uint64_t results_in, results_out; /* remote-join result entries received / sent */
    uint64_t msgs_sent, msgs_received;/* runtime MPI messages */
    uint64_t segments;          /* task segments this rank executed */
    uint64_t idle_ns;           /* time the node was idle inside the run */
    uint64_t first_work_ns;     /* run start to first segment (0: no work at all) */
    uint64_t run_ns;            /* run start to run end on this rank */
    uint64_t stop_latency_ns;   /* termination decided (rank 0) to this rank leaving the run */
    uint64_t termination_mode;  /* 1 = root completion, 2 = Safra token */
    uint64_t safra_waves;       /* token waves rank 0 started */
    /* round trips of the proxy's steals that brought tasks: request sent to reply received (ns) */
    uint64_t steal_rtt_n, steal_rtt_p50_ns, steal_rtt_p99_ns;
    /* direct steals within a host (GPU nodes, no proxy on the way; docs/dist.md): counted by
     * the node, round trips of those that brought tasks from the thief's request posted to
     * its reply read */
    uint64_t direct_steals_attempted, direct_steals_succeeded, direct_requests_received;
    uint64_t direct_tasks_in, direct_tasks_out, direct_results_in, direct_results_out;
    uint64_t direct_rtt_n, direct_rtt_p50_ns, direct_rtt_p99_ns;
} gtap_dist_stats;

/* Collective. Copies every rank's statistics of the last run into all[0..size) on rank 0
 * (all may be NULL on other ranks). */
int gtap_dist_stats_gather(gtap_dist_stats *all);

/* Name of a status code. */
const char *gtap_dist_status_str(int status);

#ifdef __cplusplus
}
#endif

#endif /* GTAP_DIST_H */
