// Golden test: if(...) and final(...) on task (docs/compiler.md, "if and final"). fib gets a
// serial clone in place (it spawns only itself); walk spawns visit, defined after it, so its
// state machine and its clone go to the end of the file; nothing spawns count with a clause
// and it gets no clone. The clause over 'k' reads the renamed local that lives in the task data.
#include "gtap_thread.cuh"

__device__ int d_cutoff;
__device__ int d_result;

#pragma gtap function
__device__ int fib(int n) {
    if (n < 2) return n;
    int a, b;
    #pragma gtap task if(n > d_cutoff) queue(0)
    a = fib(n - 1);
    #pragma gtap task if(n > d_cutoff)
    b = fib(n - 2);
    #pragma gtap taskwait
    return a + b;
}

__device__ void visit(int i);

#pragma gtap function
__device__ int walk(int depth) {
    int total = 0;
    for (int k = 0; k < 2; k++) {
        #pragma gtap task final(depth < 3 && k == 0)
        visit(depth * 2 + k);
        #pragma gtap task final(depth < 2)
        total = fib(depth);
        #pragma gtap taskwait
    }
    { int k = total; total = k + 1; }
    return total;
}

#pragma gtap function
__device__ void visit(int i) {
    if (i > 4) {
        #pragma gtap task
        visit(i / 2);
    }
}

#pragma gtap function
__device__ int count(int n) {
    int c;
    #pragma gtap task if(n > 1)
    c = walk(n);
    #pragma gtap taskwait
    return c;
}

__global__ void k(int n) {
    #pragma gtap entry
    d_result = count(n);
}
