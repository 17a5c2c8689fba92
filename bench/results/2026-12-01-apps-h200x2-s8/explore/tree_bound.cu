/* tree_bound.cu - bounds for the thread-level binary tree of 6.3 without a task runtime:
 * the same per-node work (apps/common/tree_work.h) as one thread per node,
 * (a) all 2^(D+1)-1 nodes in one launch, no dependencies: the GPU's throughput bound;
 * (b) one launch per level, leaves first: the tree's dependencies with a perfect
 *     level-synchronous schedule (plus ~21 launch gaps).
 * Usage: tree_bound D COMPUTE MEM [REPEAT [WARPS_PER_SM]]; prints the medians in ms.
 * WARPS_PER_SM (8, 16, 24, 32...) caps residency with unused dynamic shared memory. */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "tree_work.h"

__global__ void nodes_kernel(const double *in, double *out, uint32_t first, uint32_t count, int mem, int comp)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[first + i] = tw_work(in, first + i, mem, comp, 0, 1);
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return fprintf(stderr, "usage: tree_bound D COMPUTE MEM [REPEAT]\n"), 2;
    int D = atoi(argv[1]), comp = atoi(argv[2]), mem = atoi(argv[3]), rep = argc > 4 ? atoi(argv[4]) : 7;
    int wps = argc > 5 ? atoi(argv[5]) : 0;
    size_t smem = 0;
    if (wps > 0) {
        int per_sm = wps / 8; /* blocks of 256 threads */
        smem = (size_t)(227 * 1024) / per_sm - 1024;
        cudaFuncSetAttribute(nodes_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    }
    int fit = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, nodes_kernel, 256, smem);
    uint32_t nodes = (2u << D) - 1;
    std::vector<double> h(TREE_INPUT_N);
    for (uint32_t i = 0; i < TREE_INPUT_N; i++)
        h[i] = (double)(tw_hash32(i) % 2000001u) / 1e6 - 1.0;
    double *in, *out;
    cudaMalloc(&in, TREE_INPUT_N * 8);
    cudaMalloc(&out, (size_t)nodes * 8);
    cudaMemcpy(in, h.data(), TREE_INPUT_N * 8, cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> flat, levels;
    for (int r = 0; r <= rep; r++) {
        float ms;
        cudaEventRecord(a);
        nodes_kernel<<<(nodes + 255) / 256, 256, smem>>>(in, out, 0, nodes, mem, comp);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        if (r)
            flat.push_back(ms);
        cudaEventRecord(a);
        for (int l = D; l >= 0; l--) {
            uint32_t first = (1u << l) - 1, count = 1u << l;
            nodes_kernel<<<(count + 255) / 256, 256, smem>>>(in, out, first, count, mem, comp);
        }
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        if (r)
            levels.push_back(ms);
    }
    cudaError_t e = cudaGetLastError();
    printf("tree_bound D=%d compute=%d mem=%d warps/SM=%d: all nodes at once %.3f ms, level by level %.3f ms (%s)\n", D, comp,
           mem, fit * 8, median(flat), median(levels), cudaGetErrorString(e));
    return e != cudaSuccess;
}
