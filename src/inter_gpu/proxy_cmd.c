/* proxy_cmd.c - the main thread's commands, run by the proxy between runs: attaching and
 * detaching the node (with the one-GPU-per-rank check), gtap_replicate, reductions,
 * barriers, statistics and finalization, all as nonblocking collectives so the proxy keeps
 * answering steal requests while it waits. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy_internal.h"

/* ---- host commands (only between runs) ------------------------------------------------- */

static void finish_command(int status)
{
    pthread_mutex_lock(&P.g->mu);
    P.cmd->status = status;
    P.cmd->done = 1;
    P.g->cmd = NULL;
    pthread_cond_broadcast(&P.g->cv);
    pthread_mutex_unlock(&P.g->mu);
    P.cmd = NULL;
    P.cmd_phase = 0;
}

#define ID_BYTES 128
#define REPLICATE_CHUNK (1u << 30)

static int start_replicate_chunk(void)
{
    gtap_dist_cmd *c = P.cmd;
    size_t n = c->bytes - P.cmd_off;
    if (n > REPLICATE_CHUNK)
        n = REPLICATE_CHUNK;
    GTAP_MPI_CHECK(MPI_Ibcast((char *)c->buf + P.cmd_off, (int)n, MPI_BYTE, 0, P.g->comm, &P.cmd_req));
    P.cmd_off += n;
    return 1;
}

static int attach_finish(void)
{
    gtap_dist_cmd *c = P.cmd;
    int dup = -1, status = 0;
    for (int i = 0; i < P.size && dup < 0; i++) {
        const char *a = P.cmd_ids + (size_t)i * ID_BYTES;
        if (!a[0])
            continue;
        for (int j = i + 1; j < P.size; j++) {
            if (strcmp(a, P.cmd_ids + (size_t)j * ID_BYTES) == 0) {
                dup = i;
                if (P.rank == 0)
                    fprintf(stderr, "gtap: error: ranks %d and %d use the same GPU (%s): run one rank "
                                    "per GPU (srun --gpus-per-task=1, or as many ranks per host as GPUs)\n",
                            i, j, a);
                break;
            }
        }
    }
    free(P.cmd_ids);
    P.cmd_ids = NULL;
    if (dup >= 0)
        status = GTAP_DIST_ERR_DEVICE;
    if (status == 0) {
        P.region = c->region;
        P.no_taskwait = (int)c->desc.no_taskwait;
        gtap_mbox_bind_producer(&P.inbox, P.region, GTAP_MBOX_INBOX);
        gtap_mbox_bind_consumer(&P.outbox, P.region, GTAP_MBOX_OUTBOX);
        P.region->status.epoch = P.epoch; /* N5: run numbers continue across attachments */
        P.ever_attached = 1;
        snprintf(P.g->device, sizeof P.g->device, "%s", c->device);
        if (c->desc.wide) {
            /* A GPU empties thousands of workers between two polls of a sleepy proxy, and a
             * 32-task steal feeds a few warps: poll about every microsecond and ask for as
             * many tasks as a message holds, unless the environment says otherwise. One
             * request in flight, not four: with the opening reserve the first steal brings
             * the largest tasks of the run, and every further 512-task export while the
             * victim ramps up only sent work back and forth (docs/dist.md, "A wide node's
             * proxy"). */
            if (!getenv("GTAP_DIST_PROXY_SLEEP_US") && P.g->cfg.proxy_sleep_us > 2)
                P.g->cfg.proxy_sleep_us = 2;
            if (!getenv("GTAP_DIST_MAX_INFLIGHT"))
                P.g->cfg.max_inflight = 1;
            if (!getenv("GTAP_DIST_STEAL_BATCH") && P.g->cfg.steal_batch < 512)
                P.g->cfg.steal_batch = 512;
            /* A GPU's run can be a few milliseconds: a thief that backed off for 1.3 ms
             * after a dozen "nothing"s of a victim still ramping up missed most of it. */
            if (!getenv("GTAP_DIST_STEAL_BACKOFF_MAX_US") && P.g->cfg.steal_backoff_max_ns > 100000)
                P.g->cfg.steal_backoff_max_ns = 100000;
        }
    }
    return status;
}

/* N10: the node steals from these ranks of its host itself; the proxy's victims are the
 * host's other ranks and the remote ones (docs/steal.md S2). */
static void set_direct_peers(const int *ranks, int n)
{
    if (!P.direct && !(P.direct = (uint8_t *)calloc((size_t)P.size, 1)))
        gtap_dist_fatal("out of host memory in the proxy");
    if (!P.victims_local && !(P.victims_local = (int *)calloc((size_t)P.size, sizeof(int))))
        gtap_dist_fatal("out of host memory in the proxy");
    memset(P.direct, 0, (size_t)P.size);
    for (int i = 0; i < n; i++)
        if (ranks[i] >= 0 && ranks[i] < P.size)
            P.direct[ranks[i]] = 1;
    P.victims.nlocal = 0;
    for (int i = 0; i < P.g->nlocal; i++)
        if (!P.direct[P.g->local_peers[i]])
            P.victims_local[P.victims.nlocal++] = P.g->local_peers[i];
    P.victims.local = P.victims_local;
}

int gtap_proxy_command_step(void)
{
    int flag = 0;
    /* S7: between runs, and with every request of ours answered, so that after the last
     * command (the finalize barrier) no runtime message is in flight */
    if (P.rs != RS_OUTSIDE || P.thief.n || P.gathers.n)
        return 0;
    if (!P.cmd) {
        pthread_mutex_lock(&P.g->mu);
        P.cmd = P.g->cmd;
        pthread_mutex_unlock(&P.g->mu);
        if (!P.cmd)
            return 0;
        P.cmd_phase = 1;
        switch (P.cmd->kind) {
        case GTAP_CMD_ATTACH:
            if (P.region) {
                finish_command(GTAP_DIST_ERR_STATE);
                return 1;
            }
            P.cmd_ids = (char *)calloc((size_t)P.size, ID_BYTES);
            if (!P.cmd_ids)
                gtap_dist_fatal("out of host memory in the proxy");
            snprintf(P.cmd_ids + (size_t)P.rank * ID_BYTES, ID_BYTES, "%s", P.cmd->device_id);
            GTAP_MPI_CHECK(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, P.cmd_ids, ID_BYTES, MPI_BYTE,
                                          P.g->comm, &P.cmd_req));
            return 1;
        case GTAP_CMD_DETACH:
            set_direct_peers(NULL, 0); /* a node attached later steals through us again */
            P.region = NULL;
            finish_command(0);
            return 1;
        case GTAP_CMD_REPLICATE:
            if (P.rank == 0 && P.cmd->buf != P.cmd->src && P.cmd->bytes)
                memmove(P.cmd->buf, P.cmd->src, P.cmd->bytes);
            P.cmd_off = 0;
            if (P.cmd->bytes == 0) {
                finish_command(0);
                return 1;
            }
            return start_replicate_chunk();
        case GTAP_CMD_ALLREDUCE:
            GTAP_MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, P.cmd->buf, P.cmd->count, P.cmd->f64 ? MPI_DOUBLE : MPI_UINT64_T,
                                          P.cmd->op == GTAP_DIST_MAX ? MPI_MAX : MPI_SUM, P.g->comm, &P.cmd_req));
            return 1;
        case GTAP_CMD_STATS:
            GTAP_MPI_CHECK(MPI_Igather(&P.g->last_stats, (int)sizeof P.st, MPI_BYTE,
                                       P.rank == 0 ? P.cmd->buf : NULL, (int)sizeof P.st, MPI_BYTE, 0,
                                       P.g->comm, &P.cmd_req));
            if (P.rank == 0 && !P.cmd->buf)
                gtap_dist_fatal("gtap_dist_stats_gather(NULL) on rank 0");
            return 1;
        case GTAP_CMD_DIRECT_PEERS:
            set_direct_peers((const int *)P.cmd->buf, P.cmd->count);
            finish_command(0);
            return 1;
        case GTAP_CMD_BARRIER:
        case GTAP_CMD_FINALIZE:
            GTAP_MPI_CHECK(MPI_Ibarrier(P.g->comm, &P.cmd_req));
            return 1;
        default:
            finish_command(GTAP_DIST_ERR_ARG);
            return 1;
        }
    }
    GTAP_MPI_CHECK(MPI_Test(&P.cmd_req, &flag, MPI_STATUS_IGNORE));
    if (!flag)
        return 0;
    switch (P.cmd->kind) {
    case GTAP_CMD_ATTACH:
        finish_command(attach_finish());
        break;
    case GTAP_CMD_REPLICATE:
        if (P.cmd_off < P.cmd->bytes)
            return start_replicate_chunk();
        finish_command(0);
        break;
    case GTAP_CMD_FINALIZE:
        gtap_proxy_check_job_migration();
        if (P.region && P.rank == 0)
            fprintf(stderr, "gtap: warning: gtap_dist_finalize() before gtap_finalize()\n");
        if (!P.ever_attached && P.size > 1 && P.rank == 0)
            fprintf(stderr, "gtap: warning: no node runtime joined the distributed layer (a program "
                            "built without GTAP_DISTRIBUTED, e.g. not linked with gtap_dist_gpu?): "
                            "every rank ran its launches alone\n");
        P.quit = 1;
        finish_command(0);
        break;
    default:
        finish_command(0);
    }
    return 1;
}

