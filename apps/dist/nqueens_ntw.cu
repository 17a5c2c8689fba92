// nqueens_ntw.cu - N-Queens without taskwait (built with -fgtap-no-taskwait): every leaf
// adds to a per-rank counter, summed over ranks after the run. Nothing joins, so the run's
// end is found by the Safra token (docs/dist.md T3). Usage: nqueens_ntw [n=9] [runs=1].
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ unsigned long long d_count;

#pragma gtap function
__device__ void nqw(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
    unsigned full = (1u << n) - 1;
    if (row == n) { atomicAdd(&d_count, 1ULL); return; }
    unsigned avail = full & ~(cols | d1 | d2);
    while (avail) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        #pragma gtap task
        nqw(n, row + 1, cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
    }
}

__global__ void nqw_kernel(int n) {
    #pragma gtap entry
    nqw(n, 0, 0u, 0u, 0u);
}

static const long long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int n = (int)app_arg(argc, argv, 1, "n", 9), runs = (int)app_arg(argc, argv, 2, "runs", 1), rc = 0;
    if (n < 1 || n > 14) { printf("FAIL: n must be in 1..14\n"); return 1; }
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        unsigned long long zero = 0; uint64_t got = 0;
        APP_CUDA(cudaMemcpyToSymbol(d_count, &zero, sizeof zero));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(nqw_kernel, n));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_count, sizeof got));
        if (gtap_dist_allreduce_u64(&got, 1, GTAP_DIST_SUM) != 0) return 1;
        char what[64];
        snprintf(what, sizeof what, "nqueens_ntw(%d)", n);
        rc = app_report(what, (long long)got, known[n], ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
