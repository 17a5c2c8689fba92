/* inter_gpu/gpu/gpu_node_host.cuh - the host half of the GPU node: picks the rank's GPU,
 * allocates the node-interface region in mapped pinned host memory and the agent's device
 * tables, installs them in the program's __constant__ memory (gtap_nh, gtap_gn), and hands
 * the region to the proxy (gtap/dist_node.h). Called by the host API (host_api.cuh) in
 * GTAP_DISTRIBUTED builds; a program that never calls gtap_init_distributed attaches
 * nothing and runs exactly the single-GPU runtime.
 */
#ifndef GTAP_GPU_NODE_HOST_CUH
#define GTAP_GPU_NODE_HOST_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtap/host.h"
#include "gtap/dist_node.h"
#include "gtap_dist.h"
#include "inter_gpu/gpu/gpu_node.cuh"
#if defined(GTAP_HAVE_NCCL)
#include <nccl.h>
#endif

/* Done-ring capacity (finished imported tasks waiting for the agent). */
#define GTAP_GNODE_DONE_RING (1u << 16)

typedef struct gtap_gnode_host {
    int attached;
    int shared;               /* other ranks of this job use this GPU too (GTAP_DIST_SHARE_GPU) */
    int launched;             /* this process has launched a run */
    gtap_node_region *region; /* host address */
    void *dev[16];            /* device allocations (10 today) */
    int ndev;
} gtap_gnode_host;

static gtap_gnode_host gtap_gnode_h;

/* GTAP_DIST_SHARE_GPU=1: several ranks may use one GPU (docs/dist.md, configuration). */
static inline int gtap_gnode_share_gpu(void)
{
    const char *share = getenv("GTAP_DIST_SHARE_GPU");
    return share && atoi(share) != 0;
}

/* Before the runtime allocates anything: the rank's GPU (gtap_dist_device_index), and under
 * GTAP_DIST_SHARE_GPU its share of the default grid (c->grid_size). Returns 0, or a CUDA
 * error code after printing why. */
static inline int gtap_gnode_select_device(gtap_config_t *c)
{
    int n = 0;
    if (gtap_dist_init_failed()) {
        fprintf(stderr, "gtap: error: gtap_init_distributed() failed; the node runtime does not start\n");
        return (int)cudaErrorInitializationError;
    }
    if (!gtap_dist_active())
        return 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "gtap: error: rank %d sees no GPU (%s)\n", gtap_dist_rank(),
                e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return e != cudaSuccess ? (int)e : (int)cudaErrorNoDevice;
    }
    const int dev = gtap_dist_device_index(n);
    e = cudaSetDevice(dev);
    if (e != cudaSuccess) {
        fprintf(stderr, "gtap: error: rank %d cannot use GPU %d: %s\n", gtap_dist_rank(), dev, cudaGetErrorString(e));
        return (int)e;
    }
    /* GTAP_DIST_SHARE_GPU=1: the ranks of a host that share this GPU (local ranks congruent
     * to dev modulo n) split its default grid, so that their persistent kernels are resident
     * side by side under MPS instead of each waiting for SMs the others hold. */
    const int sharing = gtap_gnode_share_gpu() ? (gtap_dist_local_size() - dev + n - 1) / n : 1;
    if (sharing > 1 && c->grid_is_default)
        c->grid_size = c->grid_size / sharing > 0 ? c->grid_size / sharing : 1;
    gtap_gnode_h.shared = sharing > 1;
    return 0;
}

/* Before this process's first run, when other ranks share its GPU: every rank finishes what it
 * queued on the GPU (the program's own set-up kernels) and waits for the others
 * (gtap_dist_barrier), so that no rank's persistent kernel is resident while another rank's
 * set-up still needs the GPU. A run ends only when every rank's node is passive, and a set-up
 * kernel whose blocks do not fit beside another rank's persistent kernel (or a change of a
 * device-wide setting that waits for the GPU to be idle) would wait for that run, which waits
 * for this rank: a hang. Later runs start without it (T5). Returns 0, or a CUDA error code
 * after a message. */
static inline int gtap_gnode_before_launch(void)
{
    if (gtap_gnode_h.launched || !gtap_gnode_h.attached)
        return 0;
    gtap_gnode_h.launched = 1;
    if (!gtap_gnode_h.shared)
        return 0;
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "gtap: error: rank %d: the work queued before its first run failed: %s\n", gtap_dist_rank(),
                cudaGetErrorString(e));
        return (int)e;
    }
    return gtap_dist_barrier() != 0 ? (int)cudaErrorUnknown : 0;
}

static inline void *gtap_gnode_dev_alloc(size_t bytes, int zero, cudaError_t *err)
{
    void *p = NULL;
    if (*err != cudaSuccess)
        return NULL;
    if (gtap_gnode_h.ndev == (int)(sizeof gtap_gnode_h.dev / sizeof gtap_gnode_h.dev[0])) {
        *err = cudaErrorMemoryAllocation; /* more tables than this list holds: a bug here */
        return NULL;
    }
    *err = cudaMalloc(&p, bytes ? bytes : 16);
    if (*err == cudaSuccess && zero)
        *err = cudaMemset(p, 0, bytes ? bytes : 16);
    if (*err == cudaSuccess)
        gtap_gnode_h.dev[gtap_gnode_h.ndev++] = p;
    return p;
}

static inline void gtap_gnode_release(void)
{
    for (int i = 0; i < gtap_gnode_h.ndev; i++)
        cudaFree(gtap_gnode_h.dev[i]);
    gtap_gnode_h.ndev = 0;
    if (gtap_gnode_h.region)
        cudaFreeHost(gtap_gnode_h.region);
    gtap_gnode_h.region = NULL;
    gtap_node_hooks_dev nh;
    memset(&nh, 0, sizeof nh);
    cudaMemcpyToSymbol(gtap_nh, &nh, sizeof nh);
}

/* Direct steals within a host (allocates with gtap_gnode_dev_alloc above). */
#include "inter_gpu/gpu/gpu_node_direct_host.cuh"

static inline void gtap_gnode_detach(void);

/* After the runtime is allocated: attaches this GPU as the rank's node. Returns 0 (also
 * when the program is not distributed), or an error code after printing why. */
static inline int gtap_gnode_attach(const gtap_dev_state *st, const gtap_config_t *c)
{
    if (!gtap_dist_active())
        return 0;
    /* The agent is worker GTAP_AGENT_WORKER (1): a warp, or in block mode a block. */
    if (c->mode == GTAP_MODE_THREAD && (long long)c->grid_size * c->block_size < 64) {
        fprintf(stderr, "gtap: error: a distributed node needs at least 2 warps (one is the agent); grid %d x "
                        "block %d (GTAP_GRID_SIZE)\n", c->grid_size, c->block_size);
        return (int)cudaErrorInvalidConfiguration;
    }
    if (c->mode == GTAP_MODE_BLOCK && c->grid_size < 2) {
        fprintf(stderr, "gtap: error: a distributed node of block-level workers needs at least 2 blocks (one is the "
                        "agent); grid %d (GTAP_GRID_SIZE)\n", c->grid_size);
        return (int)cudaErrorInvalidConfiguration;
    }
    gtap_host_watch_stop(); /* the distributed layer's watchdog (F4) watches an attached node */
    const gtap_program_desc *prog = &gtapgen_program;
    cudaError_t err = cudaSuccess;
    uint32_t slots = gtap_dist_ring_slots();
    size_t bytes = (size_t)gtap_node_region_bytes(slots);
    void *region = NULL;
    err = cudaHostAlloc(&region, bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    if (err != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot allocate the node interface (%zu bytes of pinned memory): %s\n", bytes,
                cudaGetErrorString(err));
        return (int)err;
    }
    gtap_gnode_h.region = (gtap_node_region *)region;
    if (gtap_dist_region_prepare(region, slots, (uint32_t)c->assume_no_taskwait) != 0) {
        gtap_gnode_release();
        return (int)cudaErrorInvalidValue;
    }
    void *dregion = NULL;
    err = cudaHostGetDevicePointer(&dregion, region, 0);

    /* the agent's tables */
    const size_t nrec = (size_t)st->num_records + 1;
    gtap_gnode_dev g;
    memset(&g, 0, sizeof g);
    g.region = (gtap_node_region *)dregion;
    g.inbox_slots = (unsigned char *)dregion + gtap_gnode_h.region->inbox_offset;
    g.outbox_slots = (unsigned char *)dregion + gtap_gnode_h.region->outbox_offset;
    g.ring_slots = slots;
    g.rank = gtap_gnode_h.region->rank;
    g.hash = gtap_gnode_h.region->program_hash;
    g.num_functions = prog->num_functions;
    g.profile = getenv("GTAP_DIST_AGENT_PROFILE") != NULL;
    g.reserve_max = gtap_dist_size() > 1 ? gtap_dist_opening_reserve() : 0u;
    g.reserve_alone = (uint32_t)gtap_dist_reserve_alone();
    g.result_stride = (prog->max_result_size + 7u) & ~7u;
    if (g.result_stride == 0)
        g.result_stride = 8;
    gtap_gnode_fn fns[256];
    if (nrec >= (1u << 28)) { /* the agent's backlog packs id | queue << 28 (gpu_node_queue.cuh) */
        fprintf(stderr, "gtap: error: a distributed run supports fewer than 2^28 task records (%zu); "
                "lower GTAP_MAX_TASKS_PER_WARP or the grid size\n", nrec);
        gtap_gnode_release();
        return (int)cudaErrorInvalidValue;
    }
    if (prog->num_functions > 256) {
        fprintf(stderr, "gtap: error: a distributed program may have at most 256 task functions (%u)\n",
                prog->num_functions);
        gtap_gnode_release();
        return (int)cudaErrorInvalidValue;
    }
    for (uint32_t i = 0; i < prog->num_functions; i++) {
        fns[i].data_size = prog->functions[i].data_size;
        fns[i].result_size = prog->functions[i].result_size;
        fns[i].flags = prog->functions[i].flags;
        fns[i].pad = 0;
    }
    gtap_gnode_fn *dfns = (gtap_gnode_fn *)gtap_gnode_dev_alloc(sizeof fns, 0, &err);
    if (err == cudaSuccess)
        err = cudaMemcpy(dfns, fns, sizeof fns, cudaMemcpyHostToDevice);
    g.fns = dfns;
    g.origins = (gtap_gnode_origin *)gtap_gnode_dev_alloc(nrec * sizeof(gtap_gnode_origin), 0, &err);
    g.results = (unsigned char *)gtap_gnode_dev_alloc(nrec * g.result_stride, 0, &err);
    g.stub_seq = (uint32_t *)gtap_gnode_dev_alloc(nrec * sizeof(uint32_t), 1, &err);
    g.backlog = (uint32_t *)gtap_gnode_dev_alloc(nrec * sizeof(uint32_t), 0, &err);
    g.in_buf = (unsigned char *)gtap_gnode_dev_alloc(GTAP_GNODE_BUF_BYTES, 1, &err);
    g.out_buf = (unsigned char *)gtap_gnode_dev_alloc(GTAP_GNODE_BUF_BYTES, 1, &err);
    g.reserve = (uint32_t *)gtap_gnode_dev_alloc(GTAP_GN_RESERVE_CAP * sizeof(uint32_t), 0, &err);

    gtap_node_hooks_dev nh;
    memset(&nh, 0, sizeof nh);
    nh.attached = 1;
    nh.holds_root = gtap_dist_rank() == 0;
    nh.quiet_agent_sm = gtap_dist_size() > 1 && gtap_dist_quiet_agent_sm();
    nh.opening_reserve = nh.holds_root && g.reserve_max != 0;
    nh.done_mask = GTAP_GNODE_DONE_RING - 1;
    nh.done_ring = (uint32_t *)gtap_gnode_dev_alloc(GTAP_GNODE_DONE_RING * sizeof(uint32_t), 1, &err);
    nh.words = (gtap_node_words *)gtap_gnode_dev_alloc(sizeof(gtap_node_words), 1, &err);
    if (err == cudaSuccess)
        err = cudaMemcpyToSymbol(gtap_gn, &g, sizeof g);
    if (err == cudaSuccess)
        err = cudaMemcpyToSymbol(gtap_nh, &nh, sizeof nh);
    if (err != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot set up the GPU node (%zu task records): %s\n", nrec,
                cudaGetErrorString(err));
        gtap_gnode_release();
        return (int)err;
    }

    /* describe the GPU for messages and the one-GPU-per-rank check */
    int dev = 0;
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&p, dev);
    char name[256], uuid[64];
    snprintf(name, sizeof name, "GPU %d (%s, %04x:%02x:%02x.0)", dev, p.name, p.pciDomainID, p.pciBusID,
             p.pciDeviceID);
    int k = snprintf(uuid, sizeof uuid, "GPU-");
    for (int i = 0; i < 16; i++)
        k += snprintf(uuid + k, sizeof uuid - (size_t)k, "%02x", (unsigned char)p.uuid.bytes[i]);
    gtap_dist_node_desc desc;
    desc.device = name;
    /* GTAP_DIST_SHARE_GPU=1: several ranks per GPU (protocol tests). Without MPS the
     * persistent kernels of the ranks time-slice the GPU instead of running side by side. */
    desc.device_id = gtap_gnode_share_gpu() ? "" : uuid;
    desc.no_taskwait = (uint32_t)c->assume_no_taskwait;
    desc.wide = 1;
    gtap_gnode_h.region->status.idle = 1; /* not in a run: nothing to give (N4) */
    int rc = gtap_dist_attach_node(gtap_gnode_h.region, &desc);
    if (rc != 0) {
        gtap_gnode_release();
        return (int)cudaErrorInvalidDevice;
    }
    gtap_gnode_h.attached = 1;
    rc = gtap_gnode_direct_setup(&g, dev, name);
    if (rc == 0)
        rc = (int)cudaMemcpyToSymbol(gtap_gn, &g, sizeof g);
    if (rc != 0) {
        gtap_gnode_detach();
        return rc;
    }
    return 0;
}

#if defined(GTAP_HAVE_NCCL)
/* The NCCL communicator of gtap_replicate (device buffers), made at its first call. */
static struct {
    int state;               /* 0: not tried; 1: ready; -1: staging through host memory */
    ncclComm_t comm;
    cudaStream_t stream;
} gtap_gnode_nccl;

/* Collective (inside gtap_replicate): rank 0 decides whether NCCL is used (not with
 * GTAP_DIST_REPLICATE=mpi, or when it cannot make an id) and broadcasts the id over MPI;
 * every rank then joins the communicator, and a rank that could not makes all of them stage
 * through host memory instead, so that no rank waits in a broadcast the others skip. */
static inline int gtap_gnode_nccl_ready(void)
{
    if (gtap_gnode_nccl.state)
        return gtap_gnode_nccl.state > 0;
    gtap_gnode_nccl.state = -1;
    struct {
        int32_t use;
        int32_t pad;
        ncclUniqueId id;
    } msg;
    memset(&msg, 0, sizeof msg);
    if (gtap_dist_rank() == 0) {
        const char *how = getenv("GTAP_DIST_REPLICATE");
        msg.use = !(how && strcmp(how, "mpi") == 0) && ncclGetUniqueId(&msg.id) == ncclSuccess;
    }
    if (gtap_replicate(&msg, &msg, sizeof msg) != 0 || !msg.use)
        return 0;
    ncclResult_t r = ncclCommInitRank(&gtap_gnode_nccl.comm, gtap_dist_size(), msg.id, gtap_dist_rank());
    uint64_t bad = r != ncclSuccess ||
                   cudaStreamCreateWithFlags(&gtap_gnode_nccl.stream, cudaStreamNonBlocking) != cudaSuccess;
    if (bad)
        fprintf(stderr, "gtap: rank %d: NCCL unavailable for gtap_replicate (%s); staging through host memory\n",
                gtap_dist_rank(), r != ncclSuccess ? ncclGetErrorString(r) : "no CUDA stream");
    if (gtap_dist_allreduce_u64(&bad, 1, GTAP_DIST_MAX) != 0)
        bad = 1;
    if (bad) {
        if (r == ncclSuccess)
            ncclCommDestroy(gtap_gnode_nccl.comm);
        return 0;
    }
    gtap_gnode_nccl.state = 1;
    return 1;
}
#endif

/* gtap_finalize: gives the region back to ... nobody (the proxy stops serving it). */
static inline void gtap_gnode_detach(void)
{
#if defined(GTAP_HAVE_NCCL)
    if (gtap_gnode_nccl.state > 0) {
        ncclCommDestroy(gtap_gnode_nccl.comm);
        cudaStreamDestroy(gtap_gnode_nccl.stream);
    }
    gtap_gnode_nccl.state = 0;
#endif
    if (!gtap_gnode_h.attached)
        return;
    gtap_gnode_direct_release();
    gtap_dist_detach_node();
    gtap_gnode_h.attached = 0;
    gtap_gnode_h.launched = 0; /* a node attached again syncs before its first run again */
    gtap_gnode_release();
}

/* After a failed run on an attached node: the other ranks cannot finish without this one,
 * so the whole job ends (docs/dist.md F1). The runtime printed the cause already.
 * kernel_failed: the kernel died (a CUDA error), not a task-runtime error. */
static inline void gtap_gnode_run_failed(const char *what, int kernel_failed)
{
    if (!gtap_gnode_h.attached)
        return;
    if (!kernel_failed || gtap_gnode_dh.nopened == 0) {
        gtap_dist_node_fatal(what);
        return;
    }
    /* The agent writes into the GPU memory of its direct peers (N10): a peer process that
     * died mid-run freed it, and this rank's kernel then fails on an illegal address before
     * the launcher has reported the death. Name the peers, so that the message leads there. */
    char msg[512];
    snprintf(msg, sizeof msg, "%s (this rank's agent writes into the GPU memory of its direct-steal peers, "
             "rank(s) %s: if one of them died, that ended this run)", what, gtap_gnode_dh.ranks);
    gtap_dist_node_fatal(msg);
}

/* gtap_replicate for GPU programs: device buffers (cudaMalloc, or cudaGetSymbolAddress of a
 * __device__ variable) go from rank 0's GPU to every GPU with an NCCL broadcast (NVLink
 * between the GPUs of a host) when the build found NCCL; otherwise, or with
 * GTAP_DIST_REPLICATE=mpi, they are staged through pinned host memory around the host
 * broadcast, since the MPI libraries this project meets are not CUDA-aware (docs/dist.md,
 * "MPI"). Host buffers go as before. Collective, like gtap_replicate. The macro below
 * makes the program's calls use it. */
static inline int gtap_gnode_replicate(void *dst, const void *src, size_t bytes)
{
    cudaPointerAttributes at;
    memset(&at, 0, sizeof at);
    int on_device = bytes && cudaPointerGetAttributes(&at, dst) == cudaSuccess &&
                    (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged);
    (void)cudaGetLastError(); /* an unregistered host pointer is not an error here */
    if (!on_device)
        return gtap_replicate(dst, src, bytes);
    if (!gtap_dist_active()) /* one process: a copy */
        return dst == src || cudaMemcpy(dst, src, bytes, cudaMemcpyDefault) == cudaSuccess ? 0 : GTAP_DIST_ERR_ARG;
#if defined(GTAP_HAVE_NCCL)
    if (gtap_gnode_nccl_ready()) {
        ncclResult_t r = ncclBroadcast(gtap_dist_rank() == 0 ? src : dst, dst, bytes, ncclChar, 0, gtap_gnode_nccl.comm,
                                       gtap_gnode_nccl.stream);
        cudaError_t e = r == ncclSuccess ? cudaStreamSynchronize(gtap_gnode_nccl.stream) : cudaSuccess;
        if (r != ncclSuccess || e != cudaSuccess) {
            char why[256];
            snprintf(why, sizeof why, "gtap_replicate: the NCCL broadcast of %zu bytes failed: %s", bytes,
                     r != ncclSuccess ? ncclGetErrorString(r) : cudaGetErrorString(e));
            gtap_dist_node_fatal(why); /* the others are in it too */
        }
        return 0;
    }
#endif
    void *staging = NULL;
    if (cudaMallocHost(&staging, bytes) != cudaSuccess) {
        fprintf(stderr, "gtap: error: gtap_replicate: cannot stage %zu bytes in pinned host memory\n", bytes);
        gtap_dist_node_fatal("gtap_replicate: out of pinned host memory"); /* the others are in it too */
    }
    if (gtap_dist_rank() == 0 && cudaMemcpy(staging, src, bytes, cudaMemcpyDefault) != cudaSuccess)
        gtap_dist_node_fatal("gtap_replicate: cannot read the source buffer on rank 0");
    int rc = gtap_replicate(staging, staging, bytes);
    if (rc == 0 && cudaMemcpy(dst, staging, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        gtap_dist_node_fatal("gtap_replicate: cannot write the destination buffer");
    cudaFreeHost(staging);
    return rc;
}
#define gtap_replicate gtap_gnode_replicate

#endif /* GTAP_GPU_NODE_HOST_CUH */
