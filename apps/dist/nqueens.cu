// nqueens.cu - N-Queens solutions, one task per board prefix down to a cutoff row, then a
// sequential bitboard search. Usage: nqueens [n=10] [cutoff=n-4] [runs=1].
#include "gtap_thread.cuh"
#include "dist_app.h"

__device__ long long d_result;

__host__ __device__ long long nq_seq(unsigned full, unsigned cols, unsigned d1, unsigned d2) {
    if (cols == full) return 1;
    long long s = 0;
    unsigned avail = full & ~(cols | d1 | d2);
    while (avail) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        s += nq_seq(full, cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
    }
    return s;
}

#pragma gtap function
__device__ long long nq(int n, int row, int cutoff, unsigned cols, unsigned d1, unsigned d2) {
    unsigned full = (1u << n) - 1;
    /* a full board (row == n) is one solution also when the cutoff lies past the last row */
    if (row >= cutoff || row == n) return nq_seq(full, cols, d1, d2);
    long long r[32];
    int k = 0;
    unsigned avail = full & ~(cols | d1 | d2);
    while (avail) {
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        #pragma gtap task
        r[k] = nq(n, row + 1, cutoff, cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
        k++;
    }
    #pragma gtap taskwait
    long long s = 0;
    for (int i = 0; i < k; i++) s += r[i];
    return s;
}

__global__ void nq_kernel(int n, int cutoff) {
    #pragma gtap entry
    d_result = nq(n, 0, cutoff, 0u, 0u, 0u);
}

static const long long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    2279184, 14772512, 95815104, 666090624, 4968057848LL, 39029188884LL};

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    int n = (int)app_arg(argc, argv, 1, "n", 10);
    int cutoff = (int)app_arg(argc, argv, 2, "cutoff", n > 4 ? n - 4 : 1);
    int runs = (int)app_arg(argc, argv, 3, "runs", 1), rc = 0;
    if (n < 1 || n > 20) { printf("FAIL: n must be in 1..20\n"); return 1; }
    APP_CUDA(gtap_initialize());
    for (int r = 0; r < runs && rc == 0; r++) {
        long long got = -1;
        APP_CUDA(cudaMemcpyToSymbol(d_result, &got, sizeof got));
        double t0 = app_now_ms();
        APP_CUDA(gtap_launch(nq_kernel, n, cutoff));
        APP_CUDA(gtap_synchronize());
        double ms = app_now_ms() - t0;
        APP_CUDA(cudaMemcpyFromSymbol(&got, d_result, sizeof got));
        char what[64];
        snprintf(what, sizeof what, "nqueens(%d, cutoff %d)", n, cutoff);
        rc = app_report(what, got, known[n], ms);
    }
    gtap_finalize();
    gtap_dist_finalize();
    return rc;
}
