// Launch latency floor: an empty kernel of the runtime's launch shape, timed like the apps
// (CUDA events around the launch), median of 101.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
__global__ void empty_kernel(int *p) { if (p && threadIdx.x == 1234567) *p = 1; }
__global__ void atomic_exit_kernel(int *p) { if ((threadIdx.x & 31) == 0) atomicAdd(p, 1); }
int main(int argc, char **argv) {
    int grids[] = {1, 8, 66, 132, 264, 528};
    int *d; cudaMalloc(&d, 4);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int k = 0; k < 2; k++)
    for (int g : grids) {
        std::vector<float> t;
        for (int r = 0; r < 101; r++) {
            cudaEventRecord(a);
            if (k == 0) empty_kernel<<<g, 256>>>(nullptr); else atomic_exit_kernel<<<g, 256>>>(d);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        printf("%s grid %d x 256: median %.4f ms\n", k ? "atomic-per-warp" : "empty", g, t[50]);
    }
    return 0;
}
