// Golden test: what is spilled and what stays a register; a resume label inside a loop and
// a switch; same-named locals; a spawn of a later task function (deferred state machine).
#include "gtap_thread.cuh"

__device__ int g(int v);

#pragma gtap function
__device__ int f(int n) {
    int before_only = n * 2;        // used only before the join: register, split
    int across = n + 1;             // read after the join: spilled
    int r = before_only;
    for (int i = 0; i < n; i++) {   // i is read in the loop around the join: spilled
        int tmp = i * 3;            // fresh each iteration, dead at the join: register
        r += tmp;
        int x;
        #pragma gtap task
        x = g(i);
        #pragma gtap taskwait
        r += x;
    }
    switch (n) {
    case 1: {
        int x;                      // same name as the loop's x, other scope
        #pragma gtap task
        x = g(across);
        #pragma gtap taskwait
        r += x;
        break;
    }
    default:
        break;
    }
    return r + across;
}

#pragma gtap function
__device__ int g(int v) {
    return v * v;
}
