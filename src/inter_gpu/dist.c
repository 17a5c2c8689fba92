/* dist.c - the distributed layer's public API: start-up (MPI, node-local ranks, the
 * same-program check, the proxy thread), finalization, and the host commands (attach,
 * replicate, reductions, statistics) that the main thread hands to the proxy. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include "dist_internal.h"
#include "gtap/wire.h"
#include "mailbox.h"

gtap_dist_job gtap_dist_g = {.rank = 0, .size = 1, .local_size = 1};

/* The program descriptor gtapcc emits (gtap_gen.h); weak so that the library also links
 * into programs without task functions (tests), which then have hash 0. */
extern const gtap_program_desc gtapgen_program __attribute__((weak));
/* Threads per task of a block-level program: defined (weak) by the runtime header of
 * block-level workers; absent in thread-level programs, which are then 0
 * (GTAP_WIRE_THREAD_LEVEL). Compared at start-up (F3) and stated in every task record. */
extern const uint32_t gtap_worker_block_threads __attribute__((weak));

const char *gtap_dist_status_str(int status)
{
    switch (status) {
    case GTAP_DIST_OK: return "success";
    case GTAP_DIST_ERR_MPI: return "MPI error";
    case GTAP_DIST_ERR_MISMATCH: return "ranks run different programs";
    case GTAP_DIST_ERR_DEVICE: return "GPU assignment error";
    case GTAP_DIST_ERR_STATE: return "distributed layer not in the right state";
    case GTAP_DIST_ERR_NOMEM: return "out of host memory";
    case GTAP_DIST_ERR_ARG: return "invalid argument";
    case GTAP_DIST_ERR_THREAD: return "MPI does not provide MPI_THREAD_SERIALIZED";
    default: return "unknown status";
    }
}

static long long env_ll(const char *name, long long dflt, long long lo, long long hi, int *bad)
{
    const char *s = getenv(name);
    char *end;
    long long v;
    if (!s || !*s)
        return dflt;
    errno = 0;
    v = strtoll(s, &end, 0);
    if (errno || *end || v < lo || v > hi) {
        if (gtap_dist_g.rank == 0)
            fprintf(stderr, "gtap: error: %s=%s is not an integer in [%lld, %lld]\n", name, s, lo, hi);
        *bad = 1;
        return dflt;
    }
    return v;
}

static int read_config(gtap_dist_config *c)
{
    int bad = 0;
    const char *w = getenv("GTAP_WATCHDOG_S");
    c->max_inflight = (int)env_ll("GTAP_DIST_MAX_INFLIGHT", 2, 1, 16, &bad);
    c->steal_batch = (int)env_ll("GTAP_DIST_STEAL_BATCH", 32, 1, 4096, &bad);
    c->stats = (int)env_ll("GTAP_STATS", 0, 0, 1000, &bad) != 0;
    c->delay_seed = (uint64_t)env_ll("GTAP_DIST_DELAY_SEED", 0, 0, 1ll << 62, &bad);
    c->delay_max_us = (uint32_t)env_ll("GTAP_DIST_DELAY_MAX_US", 300, 1, 10000000, &bad);
    c->proxy_sleep_us = (uint32_t)env_ll("GTAP_DIST_PROXY_SLEEP_US", 50, 0, 100000, &bad);
    c->quiet_agent_sm = (int)env_ll("GTAP_DIST_QUIET_AGENT_SM", 1, 0, 1, &bad);
    c->opening_reserve = (uint32_t)env_ll("GTAP_DIST_OPENING_RESERVE", 32, 0, 512, &bad);
    c->reserve_alone = (int)env_ll("GTAP_DIST_RESERVE_ALONE", 1, 0, 1, &bad);
    c->ring_slots = (uint32_t)env_ll("GTAP_DIST_RING_SLOTS", GTAP_NODE_DEFAULT_RING_SLOTS,
                                     2 * GTAP_NODE_MAX_MESSAGE_SLOTS, 1 << 20, &bad);
    if (c->ring_slots & (c->ring_slots - 1)) {
        if (gtap_dist_g.rank == 0)
            fprintf(stderr, "gtap: error: GTAP_DIST_RING_SLOTS=%u is not a power of two\n", c->ring_slots);
        bad = 1;
    }
    c->fake_node_size = (int)env_ll("GTAP_DIST_FAKE_NODE_SIZE", 0, 0, 1 << 20, &bad);
    c->steal_backoff_ns = 1000ull * (uint64_t)env_ll("GTAP_DIST_STEAL_BACKOFF_US", 20, 0, 1000000, &bad);
    c->steal_backoff_max_ns = 1000ull * (uint64_t)env_ll("GTAP_DIST_STEAL_BACKOFF_MAX_US", 0, 0, 100000000, &bad);
    if (c->steal_backoff_max_ns == 0)
        c->steal_backoff_max_ns = c->steal_backoff_ns << 6;
    c->slow_request_ns = 1000ull * (uint64_t)env_ll("GTAP_DIST_SLOW_REQUEST_US", 2000, 1, 1000000000, &bad);
    c->require_migration = (int)env_ll("GTAP_DIST_TEST_REQUIRE_MIGRATION", 0, 0, 2, &bad);
    c->require_direct = (int)env_ll("GTAP_DIST_TEST_REQUIRE_DIRECT", 0, 0, 2, &bad);
    c->watchdog_s = 0;
    if (w && *w) {
        char *end;
        c->watchdog_s = strtod(w, &end);
        if (*end || c->watchdog_s < 0) {
            if (gtap_dist_g.rank == 0)
                fprintf(stderr, "gtap: error: GTAP_WATCHDOG_S=%s is not a number of seconds\n", w);
            bad = 1;
        }
    }
    return bad ? GTAP_DIST_ERR_ARG : 0;
}

/* The node-local rank: from the launcher if it says (SLURM_LOCALID, Open MPI, MPICH/Hydra),
 * else the rank in MPI_COMM_TYPE_SHARED. */
static int launcher_local_rank(int fallback)
{
    static const char *vars[] = {"SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                 "PMI_LOCAL_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *s = getenv(vars[i]);
        char *end;
        long v;
        if (!s || !*s)
            continue;
        v = strtol(s, &end, 10);
        if (!*end && v >= 0 && v < 1 << 20)
            return (int)v;
    }
    return fallback;
}

/* What every rank must agree on (compared with rank 0's; docs/dist.md F3). */
typedef struct startup_id {
    uint64_t program_hash;
    uint32_t wire_version, iface_version, gen_version, abi;
    uint32_t have_program;
    uint32_t block_threads; /* threads per task: 0 = thread-level workers (docs/wire.md) */
} startup_id;

/* "thread-level workers" or "block-level workers (N threads per task)". */
static const char *granularity_str(uint32_t block_threads, char *buf, size_t n)
{
    if (block_threads == GTAP_WIRE_THREAD_LEVEL)
        snprintf(buf, n, "thread-level workers");
    else
        snprintf(buf, n, "block-level workers (%u threads per task)", block_threads);
    return buf;
}

static int check_same_program(void)
{
    gtap_dist_job *g = &gtap_dist_g;
    startup_id me, *all = NULL;
    int status = 0, bad = 0;
    const char *perturb = getenv("GTAP_DIST_TEST_PERTURB_HASH_RANK"); /* test-only */
    memset(&me, 0, sizeof me);
    me.have_program = g->prog != NULL;
    me.program_hash = g->program_hash;
    if (perturb && *perturb && atoi(perturb) == g->rank)
        me.program_hash ^= 0x5a5a5a5a00000001ull;
    me.wire_version = GTAP_WIRE_VERSION;
    me.block_threads = &gtap_worker_block_threads ? gtap_worker_block_threads : GTAP_WIRE_THREAD_LEVEL;
    me.iface_version = GTAP_NODE_IFACE_VERSION;
    me.gen_version = GTAP_GEN_INTERFACE_VERSION;
    me.abi = (uint32_t)sizeof(void *) | ((uint32_t)(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) << 8);
    all = (startup_id *)calloc((size_t)g->size, sizeof *all);
    if (!all)
        return GTAP_DIST_ERR_NOMEM;
    GTAP_MPI_CHECK_GOTO(MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, g->comm),
                        status, out);
    for (int r = 1; r < g->size; r++) {
        char gr[64], g0[64];
        if (memcmp(&all[r], &all[0], sizeof me) == 0)
            continue;
        if (g->rank == 0 && bad < 8)
            fprintf(stderr,
                    "gtap: error: rank %d runs a different program than rank 0: program hash "
                    "0x%016llx vs 0x%016llx, %s vs %s, wire format %u vs %u, node interface %u vs %u, "
                    "ABI 0x%x vs 0x%x. Every rank must run the same binary.\n",
                    r, (unsigned long long)all[r].program_hash, (unsigned long long)all[0].program_hash,
                    granularity_str(all[r].block_threads, gr, sizeof gr),
                    granularity_str(all[0].block_threads, g0, sizeof g0), all[r].wire_version,
                    all[0].wire_version, all[r].iface_version, all[0].iface_version, all[r].abi, all[0].abi);
        bad++;
    }
    if (bad) {
        if (g->rank == 0)
            fprintf(stderr, "gtap: error: %d of %d ranks differ from rank 0 (program hash check); "
                            "the job does not start\n", bad, g->size);
        status = GTAP_DIST_ERR_MISMATCH;
    }
out:
    free(all);
    return status;
}

/* Node-local and remote peers (GTAP_DIST_FAKE_NODE_SIZE splits one host for tests). */
static int find_peers(void)
{
    gtap_dist_job *g = &gtap_dist_g;
    MPI_Comm local = MPI_COMM_NULL;
    int status = 0, lsize = 1, lrank = 0, *lranks = NULL, *is_local = NULL;
    if (g->cfg.fake_node_size > 0) {
        GTAP_MPI_CHECK_GOTO(MPI_Comm_split(g->comm, g->rank / g->cfg.fake_node_size, g->rank, &local),
                            status, out);
    } else {
        GTAP_MPI_CHECK_GOTO(MPI_Comm_split_type(g->comm, MPI_COMM_TYPE_SHARED, g->rank, MPI_INFO_NULL, &local),
                            status, out);
    }
    GTAP_MPI_CHECK_GOTO(MPI_Comm_size(local, &lsize), status, out);
    GTAP_MPI_CHECK_GOTO(MPI_Comm_rank(local, &lrank), status, out);
    lranks = (int *)calloc((size_t)lsize, sizeof *lranks);
    is_local = (int *)calloc((size_t)g->size, sizeof *is_local);
    g->local_peers = (int *)calloc((size_t)g->size, sizeof(int));
    g->remote_peers = (int *)calloc((size_t)g->size, sizeof(int));
    if (!lranks || !is_local || !g->local_peers || !g->remote_peers) {
        status = GTAP_DIST_ERR_NOMEM;
        goto out;
    }
    GTAP_MPI_CHECK_GOTO(MPI_Allgather(&g->rank, 1, MPI_INT, lranks, 1, MPI_INT, local), status, out);
    for (int i = 0; i < lsize; i++)
        is_local[lranks[i]] = 1;
    g->nlocal = g->nremote = 0;
    for (int r = 0; r < g->size; r++) {
        if (r == g->rank)
            continue;
        if (is_local[r])
            g->local_peers[g->nlocal++] = r;
        else
            g->remote_peers[g->nremote++] = r;
    }
    g->local_size = lsize;
    g->local_rank = g->cfg.fake_node_size > 0 ? lrank : launcher_local_rank(lrank);
out:
    if (local != MPI_COMM_NULL)
        MPI_Comm_free(&local);
    free(lranks);
    free(is_local);
    return status;
}

int gtap_init_distributed(int *argc, char ***argv)
{
    gtap_dist_job *g = &gtap_dist_g;
    int already = 0, provided = 0, status = 0;
    if (g->active || g->owns_mpi) {
        fprintf(stderr, "gtap: error: gtap_init_distributed() called twice\n");
        return GTAP_DIST_ERR_STATE;
    }
    MPI_Initialized(&already);
    if (already) {
        MPI_Query_thread(&provided);
    } else {
        int want = getenv("GTAP_DIST_MPI_THREAD_MULTIPLE") ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED;
        if (MPI_Init_thread(argc, argv, want, &provided) != MPI_SUCCESS) {
            fprintf(stderr, "gtap: error: MPI_Init_thread failed\n");
            g->failed_init = 1;
            return GTAP_DIST_ERR_MPI;
        }
        g->owns_mpi = 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g->size);
    gethostname(g->host, sizeof g->host - 1);
    if (provided < MPI_THREAD_SERIALIZED) {
        if (g->rank == 0)
            fprintf(stderr, "gtap: error: the MPI library provides thread level %d; the proxy "
                            "thread needs MPI_THREAD_SERIALIZED\n", provided);
        status = GTAP_DIST_ERR_THREAD;
        goto fail;
    }
    GTAP_MPI_CHECK_GOTO(MPI_Comm_dup(MPI_COMM_WORLD, &g->comm), status, fail);
    GTAP_MPI_CHECK_GOTO(MPI_Comm_set_errhandler(g->comm, MPI_ERRORS_RETURN), status, fail);
    g->prog = &gtapgen_program ? &gtapgen_program : NULL;
    g->program_hash = g->prog ? g->prog->program_hash : 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    g->cuda_aware = MPIX_Query_cuda_support();
#endif
    /* every rank reads the same environment in practice; a bad value fails everywhere */
    status = read_config(&g->cfg);
    if (status)
        goto fail;
    status = find_peers();
    if (status)
        goto fail;
    status = check_same_program();
    if (status)
        goto fail;
    if (pthread_mutex_init(&g->mu, NULL) || pthread_cond_init(&g->cv, NULL)) {
        status = GTAP_DIST_ERR_NOMEM;
        goto fail;
    }
    g->active = 1;
    gtap_dist_failure_install();
    if (pthread_create(&g->thread, NULL, gtap_proxy_main, NULL) != 0) {
        g->active = 0;
        fprintf(stderr, "gtap: error: cannot start the proxy thread\n");
        status = GTAP_DIST_ERR_NOMEM;
        goto fail;
    }
    g->thread_started = 1;
    return 0;
fail:
    g->failed_init = 1;
    if (g->owns_mpi) {
        MPI_Finalize();
        g->owns_mpi = 0;
    }
    g->rank = 0;
    g->size = 1;
    return status;
}

int gtap_dist_active(void) { return gtap_dist_g.active; }
int gtap_dist_init_failed(void) { return gtap_dist_g.failed_init; }
int gtap_dist_rank(void) { return gtap_dist_g.active ? gtap_dist_g.rank : 0; }
int gtap_dist_size(void) { return gtap_dist_g.active ? gtap_dist_g.size : 1; }
int gtap_dist_local_rank(void) { return gtap_dist_g.active ? gtap_dist_g.local_rank : 0; }
int gtap_dist_local_size(void) { return gtap_dist_g.active ? gtap_dist_g.local_size : 1; }
uint64_t gtap_dist_program_hash(void) { return gtap_dist_g.program_hash; }
int gtap_dist_mpi_cuda_aware(void) { return gtap_dist_g.cuda_aware; }
int gtap_dist_quiet_agent_sm(void) { return gtap_dist_g.cfg.quiet_agent_sm; }
uint32_t gtap_dist_opening_reserve(void) { return gtap_dist_g.cfg.opening_reserve; }
int gtap_dist_reserve_alone(void) { return gtap_dist_g.cfg.reserve_alone; }
uint32_t gtap_dist_ring_slots(void) { return gtap_dist_g.cfg.ring_slots ? gtap_dist_g.cfg.ring_slots : GTAP_NODE_DEFAULT_RING_SLOTS; }

int gtap_dist_device_index(int num_visible)
{
    if (num_visible <= 1)
        return 0;
    return gtap_dist_local_rank() % num_visible;
}

/* Hands a command to the proxy and waits for it (main thread). */
static int run_command(gtap_dist_cmd *c)
{
    gtap_dist_job *g = &gtap_dist_g;
    if (!g->active) {
        fprintf(stderr, "gtap: error: the distributed layer is not initialized "
                        "(call gtap_init_distributed first)\n");
        return GTAP_DIST_ERR_STATE;
    }
    pthread_mutex_lock(&g->mu);
    while (g->cmd) /* one command at a time */
        pthread_cond_wait(&g->cv, &g->mu);
    c->done = 0;
    g->cmd = c;
    while (!c->done)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
    return c->status;
}

int gtap_replicate(void *dst, const void *src, size_t bytes)
{
    gtap_dist_cmd c;
    if (!gtap_dist_g.active) { /* single process: a copy */
        if (dst != src && bytes)
            memmove(dst, src, bytes);
        return 0;
    }
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_REPLICATE;
    c.buf = dst;
    c.src = src;
    c.bytes = bytes;
    return run_command(&c);
}

static int allreduce(void *values, int count, int op, int f64)
{
    gtap_dist_cmd c;
    if (count < 0 || (op != GTAP_DIST_SUM && op != GTAP_DIST_MAX))
        return GTAP_DIST_ERR_ARG;
    if (!gtap_dist_g.active)
        return 0;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_ALLREDUCE;
    c.buf = values;
    c.count = count;
    c.op = op;
    c.f64 = f64;
    return run_command(&c);
}

int gtap_dist_allreduce_u64(uint64_t *values, int count, int op)
{
    return allreduce(values, count, op, 0);
}

int gtap_dist_allreduce_f64(double *values, int count, int op)
{
    return allreduce(values, count, op, 1);
}

int gtap_dist_host_peers(const int **ranks)
{
    *ranks = gtap_dist_g.active ? gtap_dist_g.local_peers : NULL;
    return gtap_dist_g.active ? gtap_dist_g.nlocal : 0;
}

int gtap_dist_set_direct_peers(const int *ranks, int n)
{
    gtap_dist_cmd c;
    if (n < 0 || (n > 0 && !ranks))
        return GTAP_DIST_ERR_ARG;
    if (!gtap_dist_g.active)
        return 0;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_DIRECT_PEERS;
    c.buf = (void *)ranks;
    c.count = n;
    return run_command(&c);
}

int gtap_dist_barrier(void)
{
    gtap_dist_cmd c;
    if (!gtap_dist_g.active)
        return 0;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_BARRIER;
    return run_command(&c);
}

int gtap_dist_stats_gather(gtap_dist_stats *all)
{
    gtap_dist_cmd c;
    if (!gtap_dist_g.active) {
        if (all)
            memset(all, 0, sizeof *all);
        return 0;
    }
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_STATS;
    c.buf = all;
    return run_command(&c);
}

int gtap_dist_region_prepare(void *mem, uint32_t ring_slots, uint32_t no_taskwait)
{
    gtap_dist_job *g = &gtap_dist_g;
    if (gtap_node_region_init(mem, ring_slots, (uint32_t)g->rank, (uint32_t)g->size, g->program_hash,
                              no_taskwait ? GTAP_NODE_REGION_NO_TASKWAIT : 0) != 0)
        return GTAP_DIST_ERR_ARG;
    return 0;
}

gtap_node_region *gtap_dist_region_alloc_host(uint32_t no_taskwait)
{
    uint32_t slots = gtap_dist_ring_slots();
    void *mem = NULL;
    if (posix_memalign(&mem, 4096, (size_t)gtap_node_region_bytes(slots)) != 0)
        return NULL;
    if (gtap_dist_region_prepare(mem, slots, no_taskwait) != 0) {
        free(mem);
        return NULL;
    }
    return (gtap_node_region *)mem;
}

void gtap_dist_region_free_host(gtap_node_region *r) { free(r); }

void gtap_dist_node_fatal(const char *cause)
{
    gtap_dist_fatal("%s", cause);
}

int gtap_dist_attach_node(gtap_node_region *region, const gtap_dist_node_desc *desc)
{
    gtap_dist_cmd c;
    if (!gtap_dist_g.active) {
        fprintf(stderr, "gtap: error: %s\n", gtap_dist_g.failed_init
                            ? "gtap_init_distributed() failed; the node runtime does not start"
                            : "the distributed layer is not initialized");
        return GTAP_DIST_ERR_STATE;
    }
    if (!region || region->magic != GTAP_NODE_MAGIC || region->version != GTAP_NODE_IFACE_VERSION)
        return GTAP_DIST_ERR_ARG;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_ATTACH;
    c.region = region;
    snprintf(c.device, sizeof c.device, "%s", desc && desc->device ? desc->device : "?");
    snprintf(c.device_id, sizeof c.device_id, "%s", desc && desc->device_id ? desc->device_id : "");
    c.desc.device = c.device;
    c.desc.device_id = c.device_id;
    c.desc.no_taskwait = desc ? desc->no_taskwait : 0;
    c.desc.wide = desc ? desc->wide : 0;
    return run_command(&c);
}

int gtap_dist_detach_node(void)
{
    gtap_dist_cmd c;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_DETACH;
    return run_command(&c);
}

int gtap_dist_finalize(void)
{
    gtap_dist_job *g = &gtap_dist_g;
    gtap_dist_cmd c;
    int status;
    if (!g->active)
        return g->failed_init ? GTAP_DIST_ERR_STATE : 0;
    memset(&c, 0, sizeof c);
    c.kind = GTAP_CMD_FINALIZE;
    status = run_command(&c);
    pthread_join(g->thread, NULL);
    g->thread_started = 0;
    g->active = 0;
    MPI_Comm_free(&g->comm);
    if (g->owns_mpi) {
        MPI_Finalize();
        g->owns_mpi = 0;
    }
    free(g->local_peers);
    free(g->remote_peers);
    g->local_peers = g->remote_peers = NULL;
    return status;
}
