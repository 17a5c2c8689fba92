// collectives.cu - test: gtap_replicate, reductions, barrier, statistics gathering, several
// runs, and a node detached and attached again between runs (run numbers continue).
// Tasks sum a table that only rank 0 filled before gtap_replicate, so wherever a task runs
// it must see the replicated data.
#include <stdio.h>
#include <stdlib.h>
#include "gtap_thread.cuh"
#include "gtap_dist.h"

#define TABLE 4096
__device__ long long d_table[TABLE];
__device__ long long d_result;

#pragma gtap function
__device__ long long tsum(int lo, int hi) {
    if (hi - lo <= 16) {
        long long s = 0;
        for (int i = lo; i < hi; i++) s += d_table[i];
        return s;
    }
    long long a, b;
    int mid = (lo + hi) / 2;
    #pragma gtap task
    a = tsum(lo, mid);
    #pragma gtap task
    b = tsum(mid, hi);
    #pragma gtap taskwait
    return a + b;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = tsum(0, n);
}

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL: rank %d: %s\n", me, #c); fails++; } } while (0)

static int one_run(int me, long long want, int reps) {
    for (int r = 0; r < reps; r++) {
        long long got = -1;
        cudaMemcpyToSymbol(d_result, &got, sizeof got);
        // many small runs: each sums the table 64 times over so that tasks migrate
        gtap_launch(k, TABLE);
        if (gtap_synchronize() != cudaSuccess) return 1;
        cudaMemcpyFromSymbol(&got, d_result, sizeof got);
        if (me == 0 && got != want) { printf("FAIL: sum = %lld, expected %lld\n", got, want); return 1; }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int me = gtap_dist_rank(), n = gtap_dist_size();
    long long want = 0;
    static long long host[TABLE];
    for (int i = 0; i < TABLE; i++) {
        host[i] = me == 0 ? (long long)i * i % 1000003 : -7; // only rank 0 has the real data
        if (me == 0) want += host[i];
    }
    cudaMemcpyToSymbol(d_table, host, sizeof host);
    CHECK(gtap_replicate(&d_table, &d_table, sizeof host) == 0);
    CHECK(gtap_replicate(host, host, 0) == 0); // zero bytes: a no-op everywhere
    uint64_t v[3] = {1, (uint64_t)me, (uint64_t)me};
    CHECK(gtap_dist_allreduce_u64(v, 2, GTAP_DIST_SUM) == 0);
    CHECK(v[0] == (uint64_t)n && v[1] == (uint64_t)n * (n - 1) / 2);
    CHECK(gtap_dist_allreduce_u64(&v[2], 1, GTAP_DIST_MAX) == 0 && v[2] == (uint64_t)(n - 1));
    double f[2] = {0.5 * me, -1.25 * me}; // exact in any order
    CHECK(gtap_dist_allreduce_f64(f, 1, GTAP_DIST_SUM) == 0 && f[0] == 0.25 * n * (n - 1));
    CHECK(gtap_dist_allreduce_f64(&f[1], 1, GTAP_DIST_MAX) == 0 && f[1] == 0.0);
    CHECK(gtap_dist_allreduce_f64(f, 1, 7) == GTAP_DIST_ERR_ARG);
    CHECK(gtap_dist_barrier() == 0);
    CHECK(gtap_dist_device_index(1) == 0 && gtap_dist_device_index(n) == gtap_dist_local_rank() % n);
    CHECK(gtap_dist_local_size() >= 1 && gtap_dist_local_rank() < gtap_dist_local_size());

    if (gtap_initialize() != cudaSuccess) return 1;
    if (one_run(me, want, 20)) fails++;
    gtap_dist_stats *all = (gtap_dist_stats *)calloc((size_t)n, sizeof *all);
    CHECK(gtap_dist_stats_gather(me == 0 ? all : NULL) == 0);
    if (me == 0)
        for (int r = 0; r < n; r++) CHECK(all[r].rank == (uint64_t)r && all[r].termination_mode == 1);
    // detach and attach the node again (gtap_finalize + gtap_initialize): runs continue
    CHECK(gtap_finalize() == cudaSuccess);
    if (gtap_initialize() != cudaSuccess) return 1;
    if (one_run(me, want, 20)) fails++;
    CHECK(gtap_finalize() == cudaSuccess);
    free(all);
    if (me == 0 && !fails) printf("PASS: collectives, replicate and re-attach on %d rank(s)\n", n);
    gtap_dist_finalize();
    return fails ? 1 : 0;
}
