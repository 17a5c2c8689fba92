/* stats.c - per-run statistics (GTAP_STATS=1): what the scheduler did, summed over workers. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "host_internal.h"

void gtap_host_stats_maybe_print(void)
{
    const gtap_dev_state *s = &gtap_rt.state;
    gtap_worker_stats *w;
    unsigned long long batches = 0, tasks = 0, steals = 0, attempts = 0, slow = 0, used = 0, resumed = 0,
                       spreads = 0, early = 0, topups = 0;

    if (!gtap_rt.initialized || !gtap_host_env_ll("GTAP_STATS", 0))
        return;
    w = (gtap_worker_stats *)malloc((size_t)s->max_workers * sizeof *w);
    if (!w)
        return;
    if (cudaMemcpy(w, s->stats, (size_t)s->max_workers * sizeof *w, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "gtap: stats: cannot read device statistics\n");
        (void)cudaGetLastError();
        free(w);
        return;
    }
    for (uint32_t i = 0; i < s->max_workers; i++) {
        batches += w[i].batches;
        tasks += w[i].tasks;
        steals += w[i].steals;
        attempts += w[i].steal_attempts;
        slow += w[i].pool_slow;
        used += w[i].records_used;
        resumed += w[i].resumed_batches;
        spreads += w[i].spreads;
        early += w[i].early_publishes;
        topups += w[i].topup_steals;
    }
    free(w);
    fprintf(stderr,
            "gtap: stats: %llu task segments in %llu iterations (%.2f per iteration; %llu batches of "
            "resumed tasks; %llu spread to idle warps; %llu published early; %llu "
            "steals in place of a partial batch of resumed tasks), %llu steals of %llu claims, %llu slow "
            "allocations; %llu of %u task records used (%.1f MiB); initialization %.3f ms, %.1f MiB of "
            "device memory\n",
            tasks, batches, batches ? (double)tasks / batches : 0.0, resumed, spreads, early, topups, steals, attempts,
            slow, used, s->num_records, used * (double)s->record_stride / 1048576.0, gtap_rt.init_ms,
            gtap_rt.device_bytes / 1048576.0);
}
