// final(...) in a program that never waits (-fgtap-no-taskwait, like N-Queens): detached
// children, and under final(true) the whole subtree has run when the spawn statement ends
// (checked through the leaves it marks); a spawned subtree has not (R1).
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ unsigned long long d_leaves;
__device__ int d_marked[1 << 12];   // leaf index -> marked
__device__ int d_bad;

#pragma gtap function
__device__ void walk(int first_leaf, int depth, int final_depth) {
    if (depth == 0) {
        d_marked[first_leaf] = 1;
        atomicAdd(&d_leaves, 1ull);
        return;
    }
    const int half = 1 << (depth - 1);
    for (int side = 0; side < 2; side++) {
        const int first = first_leaf + side * half;
        #pragma gtap task final(depth - 1 <= final_depth)
        walk(first, depth - 1, final_depth);
        // the subtree's first and last leaf: both marked when it ran undeferred, neither when not
        const int want = depth - 1 <= final_depth;
        if (d_marked[first] != want || d_marked[first + half - 1] != want)
            atomicAdd(&d_bad, 1);
    }
}

__global__ void k(int depth, int final_depth) {
    #pragma gtap entry
    walk(0, depth, final_depth);
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    const int depth = 12, finals[3] = {-1, 4, 11};
    int bad = 0;
    for (int f = 0; f < 3; f++) {
        static const int zero_marks[1 << 12] = {0};
        unsigned long long zero = 0, leaves;
        int zero_bad = 0, in_graph;
        TEST_CUDA(cudaMemcpyToSymbol(d_marked, zero_marks, sizeof zero_marks));
        TEST_CUDA(cudaMemcpyToSymbol(d_leaves, &zero, sizeof zero));
        TEST_CUDA(cudaMemcpyToSymbol(d_bad, &zero_bad, sizeof zero_bad));
        TEST_CUDA(gtap_launch(k, depth, finals[f]));
        TEST_CUDA(gtap_synchronize());
        TEST_CUDA(cudaMemcpyFromSymbol(&leaves, d_leaves, sizeof leaves));
        TEST_CUDA(cudaMemcpyFromSymbol(&in_graph, d_bad, sizeof in_graph));
        char what[80];
        snprintf(what, sizeof what, "final(depth <= %d): leaves", finals[f]);
        bad |= test_report(what, (long long)leaves, 1ll << depth);
        snprintf(what, sizeof what, "final(depth <= %d): subtrees at the wrong time", finals[f]);
        bad |= test_report(what, in_graph, 0);
    }
    gtap_finalize();
    return bad;
}
