/* cuda_runtime.h (host target) - the subset of CUDA that task programs use, on the CPU.
 *
 * gtapcc --target=host compiles a translated CUDA program as C++ with this directory first
 * on the include path, so the program's own `#include <cuda_runtime.h>` lands here. Kernels
 * become ordinary functions run once by one thread (threadIdx = blockIdx = 0, blockDim =
 * gridDim = 1), device memory is host memory, and atomics are plain read-modify-writes.
 * A block-level task runs on a simulated block of GTAP_BLOCK_SIZE threads
 * (gtap_host_block.h): there threadIdx and blockDim are the simulated thread's and
 * __syncthreads() is a real barrier; the threads switch only at barriers, so the atomics
 * stay plain read-modify-writes.
 */
#ifndef GTAP_HOST_CUDA_RUNTIME_H
#define GTAP_HOST_CUDA_RUNTIME_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define __host__
#define __device__
#define __global__
#define __shared__ static
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __threadfence() ((void)0)
#define __threadfence_block() ((void)0)
#define __threadfence_system() ((void)0)
#define __trap() abort()
#define __nanosleep(ns) ((void)(ns))

struct dim3 {
    unsigned x, y, z;
#ifdef __cplusplus
    dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
#endif
};
typedef struct dim3 dim3;
/* threadIdx, blockDim, __syncthreads() and the other block barriers: the simulated block. */
#include "gtap_host_block.h"
static const struct gtap_host_uint3 blockIdx = {0, 0, 0};
static const struct gtap_host_uint3 gridDim = {1, 1, 1};
static const int warpSize = 32;

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorLaunchFailure = 719,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorNoDevice = 100,
    cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

typedef struct gtap_host_event { struct timespec ts; } *cudaEvent_t;
typedef void *cudaStream_t;

static inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}
static inline const char *cudaGetErrorName(cudaError_t e) { return cudaGetErrorString(e); }

/* The task runtime (host gtap_thread.cuh) reports its errors through the synchronizing
 * calls, like a failed kernel on a GPU would. */
typedef cudaError_t (*gtap_host_sync_hook_fn)(void);
static gtap_host_sync_hook_fn gtap_host_sync_hook_ptr;
static inline void gtap_host_set_sync_hook(gtap_host_sync_hook_fn f) { gtap_host_sync_hook_ptr = f; }
static inline cudaError_t gtap_host_sync_status(void)
{
    return gtap_host_sync_hook_ptr ? gtap_host_sync_hook_ptr() : cudaSuccess;
}
static inline cudaError_t cudaGetLastError(void) { return gtap_host_sync_status(); }
static inline cudaError_t cudaPeekAtLastError(void) { return gtap_host_sync_status(); }
static inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidValue; }
static inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }

/* The "device" of the host target: one CPU thread. */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock;
    int multiProcessorCount, maxThreadsPerBlock, maxThreadsPerMultiProcessor, warpSize;
    int major, minor, clockRate;
};
typedef struct cudaDeviceProp cudaDeviceProp;
static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    if (dev != 0)
        return cudaErrorInvalidValue;
    memset(p, 0, sizeof *p);
    strcpy(p->name, "CPU (gtap host target, reference executor)");
    p->multiProcessorCount = 1;
    p->maxThreadsPerBlock = 1;
    p->maxThreadsPerMultiProcessor = 1;
    p->warpSize = 32;
    return cudaSuccess;
}
static inline cudaError_t cudaDeviceSynchronize(void) { return gtap_host_sync_status(); }
static inline cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return gtap_host_sync_status(); }

static inline cudaError_t cudaMalloc(void **p, size_t n)
{
    *p = calloc(1, n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaMallocHost(void **p, size_t n) { return cudaMalloc(p, n); }
#define cudaMemAttachGlobal 1u
#define cudaMemAttachHost 2u
/* Managed memory is host memory too: one address space. */
static inline cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags)
{
    (void)flags;
    return cudaMalloc(p, n);
}
static inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaFreeHost(void *p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k)
{
    (void)k;
    memmove(d, s, n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k,
                                          cudaStream_t st)
{
    (void)st;
    return cudaMemcpy(d, s, n, k);
}
static inline cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return cudaSuccess; }

#ifdef __cplusplus
template <class T>
static inline cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T>
static inline cudaError_t cudaMallocManaged(T **p, size_t n, unsigned flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)p, n, flags);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n, size_t off = 0,
                                             enum cudaMemcpyKind k = cudaMemcpyHostToDevice)
{
    (void)k;
    memcpy((char *)&sym + off, src, n);
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                               enum cudaMemcpyKind k = cudaMemcpyDeviceToHost)
{
    (void)k;
    memcpy(dst, (const char *)&sym + off, n);
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaGetSymbolAddress(void **p, const T &sym)
{
    *p = (void *)&sym;
    return cudaSuccess;
}
#endif

static inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = (cudaEvent_t)calloc(1, sizeof **e);
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0)
{
    (void)s;
    clock_gettime(CLOCK_MONOTONIC, &e->ts);
    return cudaSuccess;
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }
static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)((b->ts.tv_sec - a->ts.tv_sec) * 1e3 + (b->ts.tv_nsec - a->ts.tv_nsec) / 1e6);
    return cudaSuccess;
}

/* Atomics: the host target runs one thread, so these are plain read-modify-writes. */
#ifdef __cplusplus
template <class T> static inline T atomicAdd(T *a, T v) { T o = *a; *a = o + v; return o; }
template <class T> static inline T atomicSub(T *a, T v) { T o = *a; *a = o - v; return o; }
template <class T> static inline T atomicExch(T *a, T v) { T o = *a; *a = v; return o; }
template <class T> static inline T atomicMin(T *a, T v) { T o = *a; if (v < o) *a = v; return o; }
template <class T> static inline T atomicMax(T *a, T v) { T o = *a; if (v > o) *a = v; return o; }
template <class T> static inline T atomicAnd(T *a, T v) { T o = *a; *a = o & v; return o; }
template <class T> static inline T atomicOr(T *a, T v) { T o = *a; *a = o | v; return o; }
template <class T> static inline T atomicXor(T *a, T v) { T o = *a; *a = o ^ v; return o; }
template <class T> static inline T atomicCAS(T *a, T c, T v) { T o = *a; if (o == c) *a = v; return o; }
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
static inline unsigned atomicInc(unsigned *a, unsigned m) { unsigned o = *a; *a = o >= m ? 0 : o + 1; return o; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
#endif

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline unsigned __brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
static inline long long __double_as_longlong(double d) { long long r; memcpy(&r, &d, 8); return r; }
static inline double __longlong_as_double(long long l) { double r; memcpy(&r, &l, 8); return r; }
static inline int __float_as_int(float f) { int r; memcpy(&r, &f, 4); return r; }
static inline float __int_as_float(int i) { float r; memcpy(&r, &i, 4); return r; }
static inline unsigned __float_as_uint(float f) { unsigned r; memcpy(&r, &f, 4); return r; }
static inline float __uint_as_float(unsigned i) { float r; memcpy(&r, &i, 4); return r; }
static inline long long clock64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

#endif /* GTAP_HOST_CUDA_RUNTIME_H */
