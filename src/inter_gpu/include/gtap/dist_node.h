/* gtap/dist_node.h - what a node runtime (the GPU runtime's host code, or the CPU reference
 * executor of the host target) calls to join the distributed layer. User programs do not.
 *
 * The node runtime allocates a region (gtap/node_iface.h) where both it and the proxy can
 * reach it - mapped pinned host memory for a GPU, gtap_dist_region_alloc_host() for a CPU
 * node -, initializes it with gtap_dist_region_prepare(), and attaches it. From then on the
 * proxy thread serves the region; the node talks to it only through the rings and the
 * status/control blocks. Called by the main thread, outside runs.
 */
#ifndef GTAP_DIST_NODE_H
#define GTAP_DIST_NODE_H

#include <stddef.h>
#include <stdint.h>

#include "gtap/node_iface.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Describes the node to the proxy. Strings are copied. */
typedef struct gtap_dist_node_desc {
    const char *device;    /* for messages, e.g. "GPU 1 (NVIDIA H200, 0000:19:00.0)" or "CPU" */
    const char *device_id; /* unique id of the device (GPU UUID); "" = not exclusive (CPU) */
    uint32_t no_taskwait;  /* built with GTAP_ASSUME_NO_TASKWAIT: no parent links, Safra */
    uint32_t wide;         /* thousands of workers (a GPU): the proxy polls without sleeping
                              long and keeps more, larger steals in flight (docs/dist.md) */
} gtap_dist_node_desc;

/* Ring slots per ring the distributed layer wants (GTAP_DIST_RING_SLOTS, default 2048). */
uint32_t gtap_dist_ring_slots(void);

/* GTAP_DIST_QUIET_AGENT_SM (0 or 1, default 1): in a job of several ranks, the worker warps
 * that share the agent's SM (but warp 0) sit out each run. */
int gtap_dist_quiet_agent_sm(void);

/* GTAP_DIST_OPENING_RESERVE (0..512, default 32; 0 = off): tasks the GPU node that starts
 * the root keeps from the root's first generations for the other ranks' first steals. */
uint32_t gtap_dist_opening_reserve(void);

/* GTAP_DIST_RESERVE_ALONE (0 or 1, default 1): an export that ships reserved tasks ships
 * nothing else. */
int gtap_dist_reserve_alone(void);

/* Initializes a region of gtap_node_region_bytes(ring_slots) bytes at mem for this rank. */
int gtap_dist_region_prepare(void *mem, uint32_t ring_slots, uint32_t no_taskwait);

/* Allocates and prepares a region in ordinary host memory (CPU nodes); NULL on failure. */
gtap_node_region *gtap_dist_region_alloc_host(uint32_t no_taskwait);
void gtap_dist_region_free_host(gtap_node_region *r);

/* Collective. Hands the region to this rank's proxy. Checks that no two ranks attach the
 * same device_id (one GPU per rank). Returns 0, GTAP_DIST_ERR_STATE when the distributed
 * layer is not active or a node is attached, GTAP_DIST_ERR_DEVICE on a shared GPU. */
int gtap_dist_attach_node(gtap_node_region *region, const gtap_dist_node_desc *desc);

/* The other ranks of this host (as GTAP_DIST_FAKE_NODE_SIZE pretends, for tests), in
 * ascending order: sets *ranks (owned by the layer) and returns how many. */
int gtap_dist_host_peers(const int **ranks);

/* After attaching, outside runs: the ranks[0..n) of this host that the node steals from
 * directly (node_iface.h N10); the proxy then steals only from the others. Not collective;
 * every rank says it of its own peers. Detaching forgets the list. */
int gtap_dist_set_direct_peers(const int *ranks, int n);

/* Takes the region back from the proxy (after the last run). */
int gtap_dist_detach_node(void);

/* 1 when gtap_init_distributed was called and failed: a node must then refuse to start
 * (the program ignored the error; running every rank alone would be wrong). */
int gtap_dist_init_failed(void);

/* 1 when the MPI library said (MPIX_Query_cuda_support) that it accepts device buffers;
 * a GPU node stages records through pinned host memory otherwise. */
int gtap_dist_mpi_cuda_aware(void);

/* The program hash ranks agreed on at start-up (what nodes put in wire batches). */
uint64_t gtap_dist_program_hash(void);

/* Ends the whole job after a failure of this rank's node that the node could not report
 * through its region (e.g. the GPU kernel died): prints "gtap: rank R (host H, <device>):
 * <cause>; aborting the job" and calls MPI_Abort (docs/dist.md F1). Does not return. */
void gtap_dist_node_fatal(const char *cause)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* GTAP_DIST_NODE_H */
