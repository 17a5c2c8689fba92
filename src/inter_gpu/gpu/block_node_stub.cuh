/* inter_gpu/gpu/block_node_stub.cuh - block-level workers in a GTAP_DISTRIBUTED build: there is no
 * GPU node for them yet (docs/dist.md), so gtap_initialize() refuses to start one rank of a
 * distributed job, and runs the single-GPU runtime when the program is not distributed. */
#ifndef GTAP_BLOCK_NODE_STUB_CUH
#define GTAP_BLOCK_NODE_STUB_CUH

#include <stdio.h>

#include "gtap/dist_node.h"
#include "gtap_dist.h"

static inline int gtap_gnode_select_device(gtap_config_t *c)
{
    (void)c;
    if (gtap_dist_init_failed() || gtap_dist_active()) {
        fprintf(stderr, "gtap: error: distributed runs need thread-level workers (gtap_thread.cuh); "
                        "block-level workers have no GPU node yet (docs/dist.md)\n");
        return (int)cudaErrorNotSupported;
    }
    return 0;
}

static inline int gtap_gnode_attach(const gtap_dev_state *st, const gtap_config_t *c)
{
    (void)st;
    (void)c;
    return 0;
}

static inline void gtap_gnode_detach(void) {}
static inline void gtap_gnode_run_failed(const char *what) { (void)what; }

#endif /* GTAP_BLOCK_NODE_STUB_CUH */
