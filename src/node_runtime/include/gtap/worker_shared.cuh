/* gtap/worker_shared.cuh - the per-warp scheduler state kept in shared memory (thread mode).
 * Only the owning warp touches it.
 */
#ifndef GTAP_WORKER_SHARED_CUH
#define GTAP_WORKER_SHARED_CUH

#include "gtap/pool.cuh"

typedef struct gtap_warp_sh {
    uint32_t tail[GTAP_MAX_NUM_QUEUES];       /* owner end of each queue (absolute position) */
    uint32_t head_cache[GTAP_MAX_NUM_QUEUES]; /* a recent value of each queue's steal end */
    int32_t spawned[GTAP_MAX_NUM_QUEUES];     /* entries written past tail this iteration */
    uint32_t xfer[32];                        /* lane-0-to-lanes hand-over (CL, GQ ablations) */
    uint32_t refresh;                         /* a spawn found head_cache stale */
    gtap_magazine mag;                        /* free record ids */
    unsigned long long pool_slow;             /* allocations that took the slow path */
} gtap_warp_sh;

#endif /* GTAP_WORKER_SHARED_CUH */
