#include <cstdio>
#include <ctime>
__constant__ float cs[4096];
__device__ float sink;
static double now(){ timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e3+t.tv_nsec/1e6; }
__global__ void knoop(int) {}
__global__ void kp(int n) { if (n == 7) printf("never\n"); }
__global__ void kt(int n) { if (n == 7) __trap(); }
__global__ void kbig(int early, int n)
{
    __shared__ float sm[6096];
    if (early) return;
    float x = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 4000; i++) x = fmaf(x, cs[i], 1.0f);
    sm[threadIdx.x] = x;
    __syncthreads();
    x += __shfl_sync(0xffffffffu, sm[(threadIdx.x + 1) % blockDim.x], 3);
    unsigned m = __match_any_sync(0xffffffffu, (int)x);
    if (x == 12345.f && n == 7) printf("x %f %u\n", x, m);
    if (n == 99) __trap();
    sink = x;
}
__global__ void ksmall(int early, int n)
{
    __shared__ float sm[6096];
    if (early) return;
    sm[threadIdx.x] = n;
    __syncthreads();
    float x = sm[(threadIdx.x + 1) % blockDim.x];
    if (x == 12345.f && n == 7) printf("x %f\n", x);
    sink = x;
}
template <class F> static void timed(const char *what, F f)
{
    double t0 = now(); f(); double t1 = now(); cudaDeviceSynchronize(); double t2 = now();
    printf("%-28s launch %.3f ms total %.3f ms (%s)\n", what, t1 - t0, t2 - t0, cudaGetErrorString(cudaGetLastError()));
}
int main(int argc, char **argv)
{
    cudaFree(0);
    const char *mode = argc > 1 ? argv[1] : "early";
    timed("noop first", [] { knoop<<<1, 1>>>(0); });
    timed("noop second", [] { knoop<<<1, 1>>>(0); });
    if (mode[0] == 'e') timed("kbig early-exit first", [] { kbig<<<1, 1>>>(1, 0); });
    if (mode[0] == 'p') timed("printf kernel first", [] { kp<<<1, 1>>>(0); });
    if (mode[0] == 't') timed("trap kernel first", [] { kt<<<1, 1>>>(0); });
    if (mode[0] == 'a') { cudaFuncAttributes fa; timed("kbig attributes", [&] { cudaFuncGetAttributes(&fa, kbig); }); }
    timed("kbig full (264x256)", [] { kbig<<<264, 256>>>(0, 0); });
    timed("kbig full again", [] { kbig<<<264, 256>>>(0, 0); });
    if (mode[0] == 'e') timed("ksmall early-exit first", [] { ksmall<<<1, 1>>>(1, 0); });
    timed("ksmall full (264x256)", [] { ksmall<<<264, 256>>>(0, 0); });
    timed("ksmall full again", [] { ksmall<<<264, 256>>>(0, 0); });
    return 0;
}
