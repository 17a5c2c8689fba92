// sha1_bound.cu - the compute bound of a UTS node on this GPU: every lane of a full grid
// spawns children in a chain (uts_rng_spawn, one SHA-1 block) and decides each one's child
// count (uts_num_children), with no tasks, no memory traffic and no divergence. Its rate,
// nodes/s, is what a UTS run could reach if scheduling cost nothing; bench/uts/run.sh
// divides the task program's rate by it.
// Usage: uts_sha1_bound PRESET [nodes_per_lane=4096]   (CMake target uts_sha1_bound)
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "uts.h"

__global__ void chain_kernel(uts_params p, int per_lane, unsigned long long *sink)
{
    uts_state s;
    uts_rng_init(&s, p.seed + (int)(blockIdx.x * blockDim.x + threadIdx.x));
    unsigned acc = 0;
    for (int i = 0; i < per_lane; i++) {
        uts_state c;
        uts_rng_spawn(&s, i, &c);
        acc += (unsigned)uts_num_children(&p, &c, 1 + (i & 7));
        s = c;
    }
    if (acc == 0xffffffffu) // never: keeps the chain alive without a store per lane
        atomicAdd(sink, 1ull);
}

int main(int argc, char **argv)
{
    const uts_preset *pr = uts_find_preset(argc > 1 ? argv[1] : "T1XXL");
    int per_lane = argc > 2 ? atoi(argv[2]) : 4096;
    if (!pr || per_lane <= 0) {
        fprintf(stderr, "usage: uts_sha1_bound PRESET [nodes_per_lane > 0]\n");
        return 2;
    }
    int sms = 0, best = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    unsigned long long *sink;
    cudaMalloc(&sink, sizeof *sink);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    // the grid that keeps the most lanes busy: resident blocks of 256 threads
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&best, chain_kernel, 256, 0);
    int blocks = best * sms;
    double rates[5];
    for (int r = 0; r < 6; r++) {
        cudaEventRecord(a);
        chain_kernel<<<blocks, 256>>>(pr->p, per_lane, sink);
        cudaEventRecord(b);
        if (cudaEventSynchronize(b) != cudaSuccess) {
            fprintf(stderr, "uts_sha1_bound: %s\n", cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (r > 0) // the first launch warms up
            rates[r - 1] = (double)blocks * 256 * per_lane / (ms * 1e-3);
    }
    for (int i = 1; i < 5; i++) // insertion sort for the median
        for (int j = i; j > 0 && rates[j] < rates[j - 1]; j--) {
            double t = rates[j]; rates[j] = rates[j - 1]; rates[j - 1] = t;
        }
    printf("uts_sha1_bound %s: %d blocks x 256 lanes, %d nodes per lane: %.1f Mnodes/s (median of 5)\n",
           pr->name, blocks, per_lane, rates[2] / 1e6);
    return 0;
}
