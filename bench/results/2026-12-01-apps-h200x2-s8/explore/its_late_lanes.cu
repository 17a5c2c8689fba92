/* its_late_lanes.cu - do lanes of a warp that reach the same work loop at different times run it
 * together? A: all 32 lanes start the loop at once. B: lanes 16-31 first run a short task,
 * then (per-lane task loop) the same loop. C: lanes 16-31 only the short task.
 * If B ~ A, independent thread scheduling runs the late lanes with the early ones. */
#include <cstdio>
#include <cstdint>
__device__ __forceinline__ uint32_t xs(uint32_t x) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; }
/* The FMA loop of the tree's per-node work; heavy() is the same loop behind a call. */
__device__ __forceinline__ uint32_t heavy_inl(uint32_t seed, int iters)
{
    uint32_t mix = seed;
    for (int it = 0; it < iters; it++) {
        double x = (double)xs(seed + (uint32_t)it * 747796405u);
        double y = fma(x, 1.0000001192092896, 0.9999999403953552);
        mix ^= (uint32_t)__double_as_longlong(y);
    }
    return mix;
}
__device__ __noinline__ uint32_t heavy(uint32_t seed, int iters) { return heavy_inl(seed, iters); }
__global__ void k(const int *kinds, const int *ntasks, int iters, uint32_t *out, int inl)
{
    int lane = threadIdx.x & 31;
    uint32_t acc = 0;
    int n = ntasks[lane];
    for (int i = 0; i < n; i++) { /* a per-lane task loop: kinds[] only known at run time */
        int kind = kinds[lane * 4 + i];
        if (kind == 0)
            acc += xs(lane + i); /* the short task */
        else
            acc += inl ? heavy_inl(blockIdx.x * 1024 + threadIdx.x + i, iters) : heavy(blockIdx.x * 1024 + threadIdx.x + i, iters);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
int main()
{
    uint32_t *out;
    cudaMalloc(&out, 132 * 8 * 512 * 4);
    int *kinds, *ntasks;
    cudaMalloc(&kinds, 3 * 32 * 4 * sizeof(int));
    cudaMalloc(&ntasks, 3 * 32 * sizeof(int));
    int hk[3][32 * 4] = {}, hn[3][32];
    for (int m = 0; m < 3; m++)
        for (int l = 0; l < 32; l++) {
            if (m == 0 || l < 16) { hk[m][l * 4] = 1; hn[m][l] = 1; }            /* A: heavy */
            else if (m == 1) { hk[m][l * 4] = 0; hk[m][l * 4 + 1] = 1; hn[m][l] = 2; } /* B: short, heavy */
            else { hk[m][l * 4] = 0; hn[m][l] = 1; }                             /* C: short */
        }
    cudaMemcpy(kinds, hk, sizeof hk, cudaMemcpyHostToDevice);
    cudaMemcpy(ntasks, hn, sizeof hn, cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int inl = 0; inl < 2; inl++)
        for (int wps = 4; wps <= 16; wps *= 4)
            for (int mode = 0; mode < 3; mode++) {
                float best = 1e9;
                for (int r = 0; r < 5; r++) {
                    cudaEventRecord(a);
                    k<<<132 * 2, wps * 16>>>(kinds + mode * 128, ntasks + mode * 32, 1 << 16, out, inl);
                    cudaEventRecord(b);
                    cudaEventSynchronize(b);
                    float ms;
                    cudaEventElapsedTime(&ms, a, b);
                    if (ms < best)
                        best = ms;
                }
                printf("inline=%d warps/SM=%d mode %c: %.3f ms\n", inl, wps, "ABC"[mode], best);
            }
    return 0;
}
