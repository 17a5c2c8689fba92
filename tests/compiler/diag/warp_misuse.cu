#include "gtap_thread.cuh"
#pragma gtap function
__device__ int leaf(int n) { return n; }

#pragma gtap function warp
__device__ int w(int n) {
    int r = 0;
    if (gtap_warp_lane() == 0) {
        #pragma gtap task
        r = leaf(n);
        #pragma gtap taskwait
    }
    for (int i = threadIdx.x; i < n; i += 32) {
        #pragma gtap task
        r = leaf(i);
        #pragma gtap taskwait
    }
    #pragma gtap task if(n > 3)
    r = leaf(n);
    #pragma gtap taskwait
    return r;
}

#pragma gtap function warp return_thread(32)
__device__ int w2(int n) { return n; }

#pragma gtap function warp worker_size(warp)
__device__ int w3(int n) { return n; }

#pragma gtap function
__device__ int sub(int n) {
    int c = 0;
    #pragma gtap task
    c = w(n);
    #pragma gtap taskwait
    return c;
}

#pragma gtap function
__device__ int t(int n) {
    int a = 0, b = 0;
    #pragma gtap task if(n > 1)
    a = w(n);
    #pragma gtap task final(n < 4)
    b = sub(n);
    #pragma gtap taskwait
    return a + b + w(n);
}


// Warp task functions (docs/compiler.md): a taskwait under a lane-dependent condition, a
// result lane out of range, two worker sizes, a direct call, if(...) inside a warp function
// and on a spawn of one, and a serial (final) subtree that reaches one.
// EXPECT: warp_misuse.cu:27:28: error: duplicate worker size ('warp' or worker_size(...))
// EXPECT: warp_misuse.cu:24:14: error: return_thread(32) of a warp task function must name a lane, 0 to 31
// EXPECT: warp_misuse.cu:11:22: error: taskwait in warp task function 'w' under a condition that depends on the lane ('gtap_warp_lane' at line 8)
// EXPECT: warp_misuse.cu:16:22: error: taskwait in warp task function 'w' under a condition that depends on the lane ('threadIdx' at line 13)
// EXPECT: warp_misuse.cu:47:20: error: task function 'w' is called without '#pragma gtap task'
// EXPECT: warp_misuse.cu:18:23: error: 'if(...)' is not supported in warp task functions
// EXPECT: warp_misuse.cu:42:23: error: 'if(...)' on a spawn of warp task function 'w': a warp task needs the whole warp and has no serial form
// EXPECT: warp_misuse.cu:33:18: error: 'sub' runs serially under if(...) or final(...), but spawns warp task function 'w', which has no serial form
