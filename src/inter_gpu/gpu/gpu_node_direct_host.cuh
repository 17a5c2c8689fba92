/* inter_gpu/gpu/gpu_node_direct_host.cuh - the host half of direct steals within a host
 * (gtap/node_iface.h N10, docs/dist.md "Direct steals within a host"): each rank allocates
 * one ring per other rank of its host in its GPU's memory, the ranks exchange CUDA IPC
 * handles, and every pair that can reach each other's rings (the same GPU, or peer access
 * between two GPUs) and both want to (GTAP_DIST_DIRECT) steals directly; the proxy steals
 * only from the others. Included by gpu_node_host.cuh.
 */
#ifndef GTAP_GPU_NODE_DIRECT_HOST_CUH
#define GTAP_GPU_NODE_DIRECT_HOST_CUH

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtap/dist_node.h"
#include "gtap_dist.h"
#include "inter_gpu/gpu/gpu_node_state.cuh"

/* Direct peers per rank: the first 64 other ranks of its host (a bitmap word each). */
#define GTAP_GNODE_DIRECT_MAX 64

/* What a rank tells the others (as u64 words, gathered with a sum-allreduce). */
enum { GTAP_GNODE_DX_FLAGS, GTAP_GNODE_DX_HANDLE, GTAP_GNODE_DX_UUID = GTAP_GNODE_DX_HANDLE + 8,
       GTAP_GNODE_DX_WORDS = GTAP_GNODE_DX_UUID + 2 };
#define GTAP_GNODE_DX_OFFERS 0x1ull /* GTAP_DIST_DIRECT=1 and its rings are exported */
#define GTAP_GNODE_DX_FAILED 0x2ull /* a bad GTAP_DIST_DIRECT or a failed allocation: every rank stops */

typedef struct gtap_gnode_direct_host {
    void *opened[GTAP_GNODE_DIRECT_MAX]; /* peers' ring buffers mapped here (cudaIpcOpenMemHandle) */
    int nopened;
    char ranks[256];                     /* their ranks, "1, 3", for the message of a failed run */
} gtap_gnode_direct_host;

static gtap_gnode_direct_host gtap_gnode_dh;

/* GTAP_DIST_DIRECT: 1 (default) = steal directly from the GPUs of this host that allow it;
 * 0 = through the proxies only. Returns -1 after printing an error on another value. */
static inline int gtap_gnode_direct_wanted(void)
{
    const char *v = getenv("GTAP_DIST_DIRECT");
    if (!v || !*v)
        return 1;
    if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)
        return v[0] == '1';
    fprintf(stderr, "gtap: error: GTAP_DIST_DIRECT=%s is not 0 (steal through the proxies only) or 1 (directly "
                    "within a host, the default)\n", v);
    return -1;
}

/* The position of rank `me` in the ascending list of the host's ranks other than `other`
 * (which is where `other` keeps its ring from `me`), given peers = the host's ranks other
 * than me, ascending. */
static inline int gtap_gnode_direct_slot(const int *peers, int npeers, int me, int other)
{
    int k = 0;
    for (int i = 0; i < npeers; i++)
        k += peers[i] != other && peers[i] < me;
    return k;
}

/* The local device index of the GPU with this UUID, or -1 if this process does not see it. */
static inline int gtap_gnode_device_of(const uint64_t uuid[2])
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return -1;
    for (int d = 0; d < n; d++) {
        cudaDeviceProp p;
        uint64_t u[2];
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
            continue;
        memcpy(u, p.uuid.bytes, sizeof u);
        if (u[0] == uuid[0] && u[1] == uuid[1])
            return d;
    }
    return -1;
}

/* Collective (every rank of the job, after attaching). Sets up the direct rings and fills
 * g->direct / g->ndirect / g->rtt_hist / g->stats; prints, with GTAP_STATS, which path
 * each peer of the host takes. Returns 0 or a CUDA error code after printing why. */
static inline int gtap_gnode_direct_setup(gtap_gnode_dev *g, int dev, const char *device_name)
{
    const int want = gtap_gnode_direct_wanted();
    const int me = gtap_dist_rank(), size = gtap_dist_size();
    const int *peers = NULL;
    int npeers = gtap_dist_host_peers(&peers);
    if (npeers > GTAP_GNODE_DIRECT_MAX)
        npeers = GTAP_GNODE_DIRECT_MAX; /* the others go through the proxy */
    const char *stats = getenv("GTAP_STATS");
    g->stats = stats && atoi(stats) != 0;
    cudaError_t err = cudaSuccess;
    unsigned char *rings = NULL;
    uint64_t *dx = (uint64_t *)calloc((size_t)size * GTAP_GNODE_DX_WORDS, sizeof(uint64_t));
    uint64_t *opened = (uint64_t *)calloc((size_t)size, sizeof(uint64_t));
    int *direct_ranks = (int *)calloc((size_t)(npeers > 0 ? npeers : 1), sizeof(int));
    const char **why = (const char **)calloc((size_t)(npeers > 0 ? npeers : 1), sizeof(char *));
    void **mapped = (void **)calloc((size_t)(npeers > 0 ? npeers : 1), sizeof(void *));
    gtap_gn_direct_peer *table = (gtap_gn_direct_peer *)calloc((size_t)(npeers > 0 ? npeers : 1), sizeof *table);
    if (!dx || !opened || !direct_ranks || !why || !mapped || !table) {
        fprintf(stderr, "gtap: error: out of host memory setting up direct steals\n");
        gtap_dist_node_fatal("out of host memory"); /* the others wait in the exchange */
    }
    /* round 1: who offers rings, and where (a sum-allreduce of everyone's own words) */
    uint64_t *mine = dx + (size_t)me * GTAP_GNODE_DX_WORDS;
    if (want == 1 && npeers > 0) {
        rings = (unsigned char *)gtap_gnode_dev_alloc((size_t)npeers * GTAP_GN_DIRECT_RING_BYTES, 1, &err);
        cudaIpcMemHandle_t h;
        if (err == cudaSuccess && cudaIpcGetMemHandle(&h, rings) == cudaSuccess) {
            memcpy(&mine[GTAP_GNODE_DX_HANDLE], &h, sizeof h);
            mine[GTAP_GNODE_DX_FLAGS] = GTAP_GNODE_DX_OFFERS;
        }
        (void)cudaGetLastError();
    }
    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    cudaGetDeviceProperties(&p, dev);
    memcpy(&mine[GTAP_GNODE_DX_UUID], p.uuid.bytes, 16);
    static_assert(sizeof(cudaIpcMemHandle_t) <= 8 * sizeof(uint64_t), "IPC handle words");
    if (want < 0 || err != cudaSuccess)
        mine[GTAP_GNODE_DX_FLAGS] = GTAP_GNODE_DX_FAILED;
    int rc = gtap_dist_allreduce_u64(dx, size * GTAP_GNODE_DX_WORDS, GTAP_DIST_SUM);
    int failed = -1; /* a rank that failed: every rank stops, not just that one */
    for (int r = 0; r < size && failed < 0; r++)
        if (dx[(size_t)r * GTAP_GNODE_DX_WORDS + GTAP_GNODE_DX_FLAGS] & GTAP_GNODE_DX_FAILED)
            failed = r;
    if (rc != 0 || failed >= 0) {
        free(dx), free(opened), free(direct_ranks), free(why), free(mapped), free(table);
        if (failed >= 0 && failed != me)
            fprintf(stderr, "gtap: error: rank %d: rank %d could not set up direct steals (its message is above)\n",
                    me, failed);
        return (int)(err != cudaSuccess ? err : cudaErrorInvalidValue);
    }
    /* map the peers' rings we can reach */
    for (int k = 0; k < npeers; k++) {
        const int j = peers[k];
        const uint64_t *theirs = dx + (size_t)j * GTAP_GNODE_DX_WORDS;
        if (want != 1) {
            why[k] = "GTAP_DIST_DIRECT=0 here";
            continue;
        }
        if (!(theirs[GTAP_GNODE_DX_FLAGS] & GTAP_GNODE_DX_OFFERS)) {
            why[k] = "it does not steal directly (GTAP_DIST_DIRECT=0 there, or its rings failed)";
            continue;
        }
        const int d = gtap_gnode_device_of(&theirs[GTAP_GNODE_DX_UUID]);
        int access = d == dev;
        if (d < 0) {
            why[k] = "its GPU is not visible to this process (CUDA_VISIBLE_DEVICES, or srun --gpu-bind)";
            continue;
        }
        if (!access && (cudaDeviceCanAccessPeer(&access, dev, d) != cudaSuccess || !access)) {
            (void)cudaGetLastError();
            why[k] = "no peer access between the two GPUs";
            continue;
        }
        cudaIpcMemHandle_t h;
        memcpy(&h, &theirs[GTAP_GNODE_DX_HANDLE], sizeof h);
        if (cudaIpcOpenMemHandle(&mapped[k], h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
            (void)cudaGetLastError();
            mapped[k] = NULL;
            why[k] = "cudaIpcOpenMemHandle failed";
            continue;
        }
        opened[me] |= 1ull << k;
    }
    /* round 2: a pair steals directly only if both ends mapped the other's rings */
    rc = gtap_dist_allreduce_u64(opened, size, GTAP_DIST_SUM);
    int ndirect = 0;
    for (int k = 0; k < npeers; k++) {
        const int j = peers[k];
        if (!mapped[k])
            continue;
        const int my_slot_there = gtap_gnode_direct_slot(peers, npeers, me, j);
        if (rc != 0 || my_slot_there >= GTAP_GNODE_DIRECT_MAX || !(opened[j] >> my_slot_there & 1ull)) {
            cudaIpcCloseMemHandle(mapped[k]);
            mapped[k] = NULL;
            why[k] = "it cannot reach this GPU's rings";
            continue;
        }
        gtap_gn_direct_peer *t = &table[ndirect];
        unsigned char *in = rings + (size_t)k * GTAP_GN_DIRECT_RING_BYTES; /* from j, in our memory */
        unsigned char *out = (unsigned char *)mapped[k] + (size_t)my_slot_there * GTAP_GN_DIRECT_RING_BYTES;
        t->rank = (uint32_t)j;
        t->in.slots = in + GTAP_GN_DIRECT_CTL_BYTES;
        t->in.head = (uint64_t *)in;
        t->in.tail = (uint64_t *)(in + 128);
        t->in.n = GTAP_GN_DIRECT_SLOTS;
        t->out.slots = out + GTAP_GN_DIRECT_CTL_BYTES;
        t->out.head = (uint64_t *)out;
        t->out.tail = (uint64_t *)(out + 128);
        t->out.n = GTAP_GN_DIRECT_SLOTS;
        direct_ranks[ndirect++] = j;
        gtap_gnode_dh.opened[gtap_gnode_dh.nopened++] = mapped[k];
        const size_t used = strlen(gtap_gnode_dh.ranks);
        snprintf(gtap_gnode_dh.ranks + used, sizeof gtap_gnode_dh.ranks - used, "%s%d", used ? ", " : "", j);
        why[k] = gtap_gnode_device_of(&dx[(size_t)j * GTAP_GNODE_DX_WORDS + GTAP_GNODE_DX_UUID]) == dev
                     ? "the same GPU (CUDA IPC)"
                     : "peer access (CUDA IPC)";
    }
    if (ndirect) {
        g->direct = (gtap_gn_direct_peer *)gtap_gnode_dev_alloc((size_t)ndirect * sizeof *table, 0, &err);
        if (err == cudaSuccess)
            err = cudaMemcpy(g->direct, table, (size_t)ndirect * sizeof *table, cudaMemcpyHostToDevice);
        g->rtt_hist = (uint32_t *)gtap_gnode_dev_alloc(GTAP_RTT_BUCKETS * sizeof(uint32_t), 1, &err);
        g->ndirect = (uint32_t)ndirect;
    }
    if (err == cudaSuccess && gtap_dist_set_direct_peers(direct_ranks, ndirect) != 0)
        err = cudaErrorInvalidValue;
    if (g->stats && err == cudaSuccess) {
        char line[2048];
        int n = snprintf(line, sizeof line, "gtap: rank %d (%s): %d rank(s) of this host, %d of other hosts;", me,
                         device_name, npeers, size - 1 - npeers);
        for (int k = 0; k < npeers && n < (int)sizeof line - 128; k++)
            n += snprintf(line + n, sizeof line - (size_t)n, " rank %d %s%s", peers[k],
                          mapped[k] ? "direct: " : "through the proxy: ", why[k]);
        fprintf(stderr, "%s\n", line);
    }
    free(dx), free(opened), free(direct_ranks), free(why), free(mapped), free(table);
    if (err != cudaSuccess)
        fprintf(stderr, "gtap: error: rank %d: cannot set up direct steals: %s\n", me, cudaGetErrorString(err));
    return (int)err;
}

/* Before the rings go (gtap_finalize; every rank): no peer writes them any more once every
 * rank has left its last run, which the barrier makes sure of; then the mappings close. */
static inline void gtap_gnode_direct_release(void)
{
    gtap_dist_barrier();
    for (int i = 0; i < gtap_gnode_dh.nopened; i++)
        cudaIpcCloseMemHandle(gtap_gnode_dh.opened[i]);
    gtap_gnode_dh.nopened = 0;
    gtap_gnode_dh.ranks[0] = 0;
}

#endif /* GTAP_GPU_NODE_DIRECT_HOST_CUH */
