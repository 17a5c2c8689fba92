// failtest.cu - test-only: one rank fails in a chosen way while the others run fib(n); the
// whole job must end with a non-zero status and a message naming the rank, within seconds.
// Usage: failtest MODE RANK [n=27]
//   abort  rank RANK calls abort() just before its launch
//   exit   rank RANK returns 3 from main just before its launch (no gtap_dist_finalize)
//   task   every task that runs on rank RANK spawns into queue(5): a task-runtime error
//   hang   rank RANK sleeps instead of launching (run with GTAP_WATCHDOG_S)
//   spin   tasks on rank RANK never finish (run with GTAP_WATCHDOG_S)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gtap_thread.cuh"
#include "gtap_dist.h"

__device__ long long d_result;
__device__ int g_fail_here;

#pragma gtap function
__device__ long long fib(int n) {
    if (n < 2) return n;
    long long a, b;
    int q = g_fail_here == 1 ? 5 : 0;
    while (*(volatile int *)&g_fail_here == 2) { } // spin: a task that never returns
    #pragma gtap task queue(q)
    a = fib(n - 1);
    #pragma gtap task
    b = fib(n - 2);
    #pragma gtap taskwait
    return a + b;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = fib(n);
}

int main(int argc, char **argv) {
    if (gtap_init_distributed(&argc, &argv) != 0) return 1;
    const char *mode = argc > 1 ? argv[1] : "abort";
    int victim = argc > 2 ? atoi(argv[2]) : 1, n = argc > 3 ? atoi(argv[3]) : 27;
    int me = gtap_dist_rank();
    if (gtap_initialize() != cudaSuccess) return 1;
    int flag = me != victim ? 0 : strcmp(mode, "task") == 0 ? 1 : strcmp(mode, "spin") == 0 ? 2 : 0;
    cudaMemcpyToSymbol(g_fail_here, &flag, sizeof flag);
    if (me == victim && strcmp(mode, "abort") == 0) abort();
    if (me == victim && strcmp(mode, "exit") == 0) return 3;
    if (me == victim && strcmp(mode, "hang") == 0) sleep(600);
    gtap_launch(k, n);
    cudaError_t e = gtap_synchronize();
    if (me == 0) printf("run ended: %s\n", cudaGetErrorString(e));
    gtap_finalize();
    gtap_dist_finalize();
    return e == cudaSuccess ? 0 : 1;
}
