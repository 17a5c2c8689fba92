// Paper Program 5: parallel graph traversal with block-level workers, on a generated graph
// (a 2-D grid with random shortcuts), checked against a CPU BFS.
#include "gtap_block.cuh"
#include "../test_common.cuh"

#include <queue>
#include <vector>

__device__ int *g_depth;
__device__ int *g_row_offsets;
__device__ int *g_col_indices;

// Assume the graph is stored in CSR (Compressed Sparse Row) format.
#pragma gtap function
__device__ void bfs(int v) {
    int dv = g_depth[v];
    int row_start = g_row_offsets[v];
    int row_end = g_row_offsets[v + 1];
    for (int e = row_start + threadIdx.x; e < row_end; e += blockDim.x) {
        int u = g_col_indices[e];
        int old = atomicMin(&g_depth[u], dv + 1);
        if (old > dv + 1) {
            #pragma gtap task
            bfs(u);
        }
    }
}

__global__ void execute_kernel(int source) {
    if (blockIdx.x == 0 && threadIdx.x == 0) g_depth[source] = 0;
    #pragma gtap entry
    bfs(source);
}

int main() {
    TEST_REQUIRE_DEVICE();
    const int side = 200, n = side * side;
    std::vector<std::vector<int>> adj(n);
    unsigned s = 7;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            int v = y * side + x;
            if (x + 1 < side) { adj[v].push_back(v + 1); adj[v + 1].push_back(v); }
            if (y + 1 < side) { adj[v].push_back(v + side); adj[v + side].push_back(v); }
            s = s * 1103515245u + 12345u;
            if ((s >> 16) % 50 == 0) { int w = (int)((s >> 4) % n); adj[v].push_back(w); adj[w].push_back(v); }
        }
    std::vector<int> row(n + 1, 0), col;
    for (int v = 0; v < n; v++) { row[v + 1] = row[v] + (int)adj[v].size(); col.insert(col.end(), adj[v].begin(), adj[v].end()); }
    std::vector<int> depth(n, 1 << 30);
    int *d_depth, *d_row, *d_col;
    TEST_CUDA(cudaMalloc(&d_depth, n * sizeof(int)));
    TEST_CUDA(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    TEST_CUDA(cudaMalloc(&d_col, col.size() * sizeof(int)));
    TEST_CUDA(cudaMemcpy(d_depth, depth.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    TEST_CUDA(cudaMemcpy(d_row, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    TEST_CUDA(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
    TEST_CUDA(cudaMemcpyToSymbol(g_depth, &d_depth, sizeof d_depth));
    TEST_CUDA(cudaMemcpyToSymbol(g_row_offsets, &d_row, sizeof d_row));
    TEST_CUDA(cudaMemcpyToSymbol(g_col_indices, &d_col, sizeof d_col));
    gtap_block_config config{ .grid_size = 264, .max_tasks_per_block = 150000, };
    TEST_CUDA(gtap_initialize(config));
    TEST_CUDA(gtap_launch(execute_kernel, 0));
    TEST_CUDA(gtap_synchronize());
    TEST_CUDA(cudaMemcpy(depth.data(), d_depth, n * sizeof(int), cudaMemcpyDeviceToHost));
    gtap_finalize();
    std::vector<int> ref(n, 1 << 30);
    std::queue<int> q;
    ref[0] = 0;
    q.push(0);
    while (!q.empty()) {
        int v = q.front(); q.pop();
        for (int u : adj[v]) if (ref[u] > ref[v] + 1) { ref[u] = ref[v] + 1; q.push(u); }
    }
    int errors = 0;
    for (int v = 0; v < n; v++) errors += depth[v] != ref[v];
    return test_report("vertices with a wrong depth", errors, 0);
}
