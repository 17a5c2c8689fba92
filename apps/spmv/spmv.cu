/* spmv.cu - sparse matrix-vector product y = A x as tasks (the paper's SpMV example):
 * spmv_range(b, e) halves the row range until at most 16 rows remain, then spawns one
 * spmv_row(i) per row (detached tasks, -fgtap-no-taskwait). Thread-level: one thread per
 * row, a sequential dot product. -DAPP_BLOCK (with GTAP_BLOCK_SIZE): a row's entries strided
 * over the block and a shared-memory tree reduction. x = 1 (as the paper). Matrix: --input
 * (Matrix Market, SNAP, binary CSR) or a random n x n matrix with 1..--nnz-max entries per
 * row (app_input.h). Checked against a CPU product (relative error 1e-12 of sum |a_ij x_j|).
 */
#include <math.h>
#include <vector>

#if defined(APP_BLOCK)
#include "gtap_block.cuh"
#define SPMV_FIRST ((int)threadIdx.x)
#define SPMV_STRIDE ((int)blockDim.x)
#define SPMV_LEADER (threadIdx.x == 0)
#else
#include "gtap_thread.cuh"
#define SPMV_FIRST 0
#define SPMV_STRIDE 1
#define SPMV_LEADER 1
#endif
#include "gtap_app.cuh"
#include "app_graph.h"

#define SPMV_RANGE_CUTOFF 16

__device__ const int *g_row;
__device__ const int *g_col;
__device__ const double *g_val;
__device__ const double *g_x;
__device__ double *g_y;

#pragma gtap function
__device__ void spmv_row(int i)
{
    double s = 0.0;
    const int end = g_row[i + 1];
    for (int e = g_row[i] + SPMV_FIRST; e < end; e += SPMV_STRIDE)
        s += g_val[e] * g_x[g_col[e]];
#if defined(APP_BLOCK)
    __shared__ double partial[GTAP_BLOCK_SIZE];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int w = GTAP_BLOCK_SIZE / 2; w > 0; w >>= 1) {
        if ((int)threadIdx.x < w)
            partial[threadIdx.x] += partial[threadIdx.x + w];
        __syncthreads();
    }
    s = partial[0];
    __syncthreads(); /* partial[] is reused by the block's next task */
#endif
    if (SPMV_LEADER)
        g_y[i] = s;
}

#pragma gtap function
__device__ void spmv_range(int begin, int end)
{
    if (end - begin > SPMV_RANGE_CUTOFF) {
        const int mid = begin + (end - begin) / 2;
        if (SPMV_LEADER) {
#pragma gtap task
            spmv_range(begin, mid);
#pragma gtap task
            spmv_range(mid, end);
        }
        return;
    }
    for (int i = begin + SPMV_FIRST; i < end; i += SPMV_STRIDE) {
#pragma gtap task
        spmv_row(i);
    }
}

__global__ void spmv_kernel(int rows)
{
#pragma gtap entry
    spmv_range(0, rows);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    app_cli_init(&c, "spmv", APP_GTAP_IMPL, 100000);
    static const char *const keys[] = {"nnz-max", APP_GRAPH_KEYS, NULL};
    int rc = app_cli_parse(&c, argc, argv, keys,
                           "--n is the number of rows of the random matrix; [--nnz-max 599] [--seed 42]\n"
                           "       or [--input PATH (.mtx, SNAP .txt, .csr)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (c.n < 1 || c.n > 0x7fffffffll) {
        fprintf(stderr, "spmv: --n must be in [1, 2^31)\n");
        return 2;
    }
    app_require_device(&c);
    app_csr a;
    if (app_matrix_setup(&c, &a))
        return 1;
    const int rows = a.nrows;
    std::vector<double> x((size_t)a.ncols, 1.0), y((size_t)rows), ref((size_t)rows);
    int *d_row = NULL, *d_col = NULL;
    double *d_val = NULL, *d_x = NULL, *d_y = NULL;
    const size_t nz = (size_t)(a.nnz ? a.nnz : 1);
    if (cudaMalloc(&d_row, ((size_t)rows + 1) * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d_col, nz * sizeof(int)) != cudaSuccess || cudaMalloc(&d_val, nz * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_x, x.size() * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&d_y, (size_t)rows * sizeof(double)) != cudaSuccess) {
        fprintf(stderr, "spmv: cannot allocate device memory\n");
        return 1;
    }
    cudaMemcpy(d_row, a.row, ((size_t)rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, a.col, (size_t)a.nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, a.val, (size_t)a.nnz * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpyToSymbol(g_row, &d_row, sizeof d_row);
    cudaMemcpyToSymbol(g_col, &d_col, sizeof d_col);
    cudaMemcpyToSymbol(g_val, &d_val, sizeof d_val);
    cudaMemcpyToSymbol(g_x, &d_x, sizeof d_x);
    cudaMemcpyToSymbol(g_y, &d_y, sizeof d_y);
    if (app_gtap_init(&c))
        return 1;
    app_banner(&c);
    rc = app_gtap_run(
        &c, &stats, [&](int) { cudaMemset(d_y, 0xff, (size_t)rows * sizeof(double)); /* NaN */ },
        [&] { return gtap_launch(spmv_kernel, rows); });
    if (rc)
        return 1;
    cudaMemcpy(y.data(), d_y, (size_t)rows * sizeof(double), cudaMemcpyDeviceToHost);
    app_check_t check = APP_CHECK_SKIPPED;
    double sum = 0.0;
    for (int i = 0; i < rows; i++)
        sum += y[i];
    if (c.check) {
        long long bad = 0;
        app_spmv_reference(&a, x.data(), ref.data());
        for (int i = 0; i < rows; i++) {
            double mag = 0.0;
            for (int e = a.row[i]; e < a.row[i + 1]; e++)
                mag += fabs(a.val[e] * x[a.col[e]]);
            if (!(fabs(y[i] - ref[i]) <= 1e-12 * mag + 1e-300) && bad++ < 5)
                fprintf(c.out, "spmv: y[%d] = %.17g, expected %.17g\n", i, y[i], ref[i]);
        }
        check = bad ? APP_CHECK_FAIL : APP_CHECK_PASS;
    }
    char answer[96];
    snprintf(answer, sizeof answer, "rows=%d;nnz=%lld;sum=%.6e", rows, a.nnz, sum);
    cudaFree(d_row);
    cudaFree(d_col);
    cudaFree(d_val);
    cudaFree(d_x);
    cudaFree(d_y);
    app_csr_free(&a);
    if (gtap_finalize() != cudaSuccess)
        return 1;
    return app_report(&c, &stats, check, answer);
}
