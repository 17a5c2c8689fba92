#include "gtap_thread.cuh"
#pragma gtap function
__device__ int leaf(int n) { return n; }

static __device__ int my_lane(void) { return (int)(threadIdx.x & 31u); }

#pragma gtap function warp
__device__ int w(int n) {
    const int lane = (int)gtap_warp_lane();
    int half = lane / 2, other = 0, r = 0;
    other = half + n;
    int uniform = n * 2;
    if (uniform > 3) {              // fine: uniform
        #pragma gtap task
        r = leaf(n);
        #pragma gtap taskwait
    }
    while (other < 40) {            // lane-dependent through two locals
        #pragma gtap task
        r = leaf(other);
        #pragma gtap taskwait
        other += 32;
    }
    if (my_lane() < n) {            // through a call: not seen (the runtime catches it)
        #pragma gtap task
        r = leaf(n);
        #pragma gtap taskwait
    }
    return r + half;
}

// The lane followed through locals: 'other' is assigned from 'half', which holds lane / 2, so
// the while loop may run a different number of times on each lane. A uniform condition is
// fine; a lane read through a call is not followed (the runtime fails that run, W3).
// EXPECT: warp_lane_var.cu:21:22: error: taskwait in warp task function 'w' under a condition that depends on the lane ('other', which holds a lane-dependent value at line 18)
