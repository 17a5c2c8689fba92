/* inter_gpu/gpu/gpu_node.cuh - the GPU implementation of the node interface
 * (gtap/node_iface.h N1-N10), the agent warp of the persistent kernel: this header includes
 * its parts in order.
 *
 * Included (through gpu_node_host.cuh) by gtap_thread.cuh and gtap_block.cuh in
 * GTAP_DISTRIBUTED builds, after the scheduler: the agent uses the deques and the record
 * pool through the worker-node interface (gtap_node_sh, gtap_worker_node_*) of
 * gtap/worker_thread_node.cuh or gtap/worker_block_node.cuh, and the hooks of
 * gtap/node_hooks.cuh. The host half (region
 * allocation, attach, device selection) is gpu_node_host.cuh. docs/dist.md, "The GPU node",
 * is the prose version.
 *
 * The agent is worker GTAP_AGENT_WORKER (1) of the grid: that warp with thread-level
 * workers, warp 0 of that block with block-level ones. It runs no tasks; in a loop
 * (gpu_node_agent.cuh) it
 *   - reads the inbox (mapped pinned host memory, system-scope acquire of tail) and copies
 *     each message into device memory with wide loads before parsing it, since a PCIe round
 *     trip per byte would cost microseconds (gpu_node_mailbox.cuh);
 *   - EXPORT_REQUEST: steals from the workers' deques like a thief warp (the steal end holds
 *     the oldest tasks), encodes migratable records as a wire batch, turns records that owe
 *     a completion into stubs, frees the others, and posts EXPORTED. Records it may not
 *     ship (non-migratable function, the root) go to its own deque, where workers steal
 *     them back (gpu_node_export.cuh, gpu_node_queue.cuh);
 *   - IMPORT: allocates records from its own pool range, fills them, pushes them to its own
 *     deque (workers steal them) (gpu_node_import.cuh);
 *   - RESULTS (and results of tasks that came home): writes the result to the stub's
 *     destination and completes the stub like a local child (docs/join.md J1-J4), and
 *     drains the done ring (imported tasks that finished) into COMPLETION batches
 *     (gpu_node_results.cuh);
 *   - posts ROOT_DONE (rank 0) when the root finished, keeps status.idle (N4) and
 *     status.hungry (N9) (gpu_node_status.cuh), and ends the run on STOP by setting
 *     ctl->terminate;
 *   - on the rank that starts the root, keeps the run's first tasks for the other ranks
 *     (the opening reserve, gpu_node_reserve.cuh).
 * Work per record is spread over the lanes, 32 records a round (each lane encodes, fills,
 * completes or frees its own: one lane doing them all waited out a dependent memory access
 * per record, microseconds each on an SM whose workers saturate the memory system), and
 * every lane takes part in copies. Lane 0 makes the decisions, owns the agent's deque and
 * backlog, and shares what the other lanes need through shuffles, so the loop is
 * warp-uniform (every decision, the clock included, comes from lane 0 or from a warp vote:
 * lanes that disagree meet in different collective calls, which once corrupted an outbox
 * message).
 *
 * Active-count accounting: the agent owns `holds` increments of ctl->active: one while its
 * own deque has published entries or its backlog is not empty (as any worker holding
 * tasks), plus one per successful steal until the stolen tasks are shipped or re-queued.
 * With holds == 0 and ctl->active == 0 the node holds no task anywhere
 * (docs/termination.md), which is N4's "idle".
 */
#ifndef GTAP_GPU_NODE_CUH
#define GTAP_GPU_NODE_CUH

#include "inter_gpu/gpu/gpu_node_state.cuh"   /* device tables, per-run state, profile */
#include "inter_gpu/gpu/gpu_node_mailbox.cuh" /* copies to and from the rings; outbox, inbox */
#include "inter_gpu/gpu/gpu_node_queue.cuh"   /* the agent's own deque and backlog */
#include "inter_gpu/gpu/gpu_node_status.cuh"  /* idleness, hunger, counters */
#include "inter_gpu/gpu/gpu_node_batch.cuh"   /* wire batches in device memory */
#include "inter_gpu/gpu/gpu_node_export.cuh"  /* EXPORT_REQUEST */
#include "inter_gpu/gpu/gpu_node_import.cuh"  /* IMPORT */
#include "inter_gpu/gpu/gpu_node_results.cuh" /* RESULTS, the done ring */
#include "inter_gpu/gpu/gpu_node_reserve.cuh" /* the opening reserve */
#include "inter_gpu/gpu/gpu_node_agent.cuh"   /* the loop: gtap_gnode_agent */

#endif /* GTAP_GPU_NODE_CUH */
