// if(...) and final(...) on task (docs/compiler.md, "if and final"), with queue(...): a child
// under if(false) or final(true) has run, with its whole subtree, when the spawn statement
// ends; a spawned child has not (R1: it never runs before its parent's segment returns), so
// each test below fails if a clause is ignored or inverted. Build with -DGTAP_NUM_QUEUES=3.
#include "gtap_thread.cuh"
#include "test_common.cuh"

__device__ int d_ran[32];             // leaf(i) ran
__device__ long long d_value[4096];   // tree(node, ...) finished with this value
__device__ int d_bad;                 // a check inside the task graph failed
__device__ long long d_result;

#pragma gtap function
__device__ int leaf(int i) {
    d_ran[i] = 1;
    return i * 3 + 1;
}

// Results through the assignment forms (array element, `T x = f()`), if() true and false
// mixed in one loop, each with a queue.
#pragma gtap function
__device__ long long mixed(int n) {
    int r[16];
    int bad = 0;
    for (int i = 0; i < n; i++) {
        #pragma gtap task if(i % 2 == 0) queue(i % 3)
        r[i] = leaf(i);
        bad += d_ran[i] != (i % 2); // odd i ran at once, even i not yet
    }
    #pragma gtap task queue(2) if(n < 0)
    int last = leaf(n);
    bad += d_ran[n] != 1;
    #pragma gtap taskwait
    long long s = last;
    for (int i = 0; i < n; i++)
        s += r[i];
    return bad ? -bad : s;
}

// final(): the whole subtree runs undeferred, its own taskwaits and queue(...) included.
#pragma gtap function
__device__ long long tree(unsigned node, int depth, int final_depth) {
    if (depth == 0) {
        d_value[node] = 1;
        return 1;
    }
    unsigned l = 2 * node + 1, r = 2 * node + 2;
    long long a, b;
    #pragma gtap task final(depth - 1 <= final_depth) queue(node % 3)
    a = tree(l, depth - 1, final_depth);
    long long want = depth - 1 <= final_depth ? (2ll << (depth - 1)) - 1 : 0;
    if (d_value[l] != want)
        atomicAdd(&d_bad, 1);
    #pragma gtap task queue(1)
    b = tree(r, depth - 1, final_depth);
    #pragma gtap taskwait queue(2)
    d_value[node] = a + b + 1;
    return a + b + 1;
}

// A struct result, a const-reference argument, a void callee and both clauses on one task.
struct range { int lo, hi; };
struct sums { long long sum, count; };

#pragma gtap function
__device__ void mark(int i) {
    d_ran[i] = 2;
}

#pragma gtap function
__device__ sums span(const range &rg, int serial_below) {
    if (rg.hi - rg.lo == 1) {
        #pragma gtap task if(rg.lo % 2) final(serial_below > 1000)
        mark(rg.lo);
        return sums{rg.lo, 1};
    }
    range left = {rg.lo, (rg.lo + rg.hi) / 2}, right = {(rg.lo + rg.hi) / 2, rg.hi};
    sums x, y;
    #pragma gtap task if(rg.hi - rg.lo > serial_below) final(false)
    x = span(left, serial_below);
    #pragma gtap task if(rg.hi - rg.lo > serial_below)
    y = span(right, serial_below);
    #pragma gtap taskwait
    return sums{x.sum + y.sum, x.count + y.count};
}

__global__ void mixed_kernel(int n) {
    #pragma gtap entry
    d_result = mixed(n);
}

__global__ void tree_kernel(int depth, int final_depth) {
    #pragma gtap entry
    d_result = tree(0, depth, final_depth);
}

// The root's result reaches only the entry's master thread (block 0, thread 0), so it goes
// straight to a __device__ variable rather than to a local the whole grid would then store.
__device__ sums d_span;
__global__ void span_kernel(int n, int serial_below) {
    #pragma gtap entry
    d_span = span(range{0, n}, serial_below);
}

static int clear_device(void) {
    static const int zero_ran[32] = {0};
    static const long long zero_value[4096] = {0};
    int zero = 0;
    TEST_CUDA(cudaMemcpyToSymbol(d_ran, zero_ran, sizeof zero_ran));
    TEST_CUDA(cudaMemcpyToSymbol(d_value, zero_value, sizeof zero_value));
    TEST_CUDA(cudaMemcpyToSymbol(d_bad, &zero, sizeof zero));
    return 0;
}

int main() {
    TEST_REQUIRE_DEVICE();
    TEST_CUDA(gtap_initialize());
    int bad = 0, ran[32], in_graph;
    long long h;

    const int n = 12;
    long long want = n * 3 + 1;
    for (int i = 0; i < n; i++)
        want += i * 3 + 1;
    if (clear_device()) return 1;
    TEST_CUDA(gtap_launch(mixed_kernel, n));
    TEST_CUDA(gtap_synchronize());
    TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
    bad |= test_report("mixed if(): sum (negative: children ran at the wrong time)", h, want);

    // final_depth -1: nothing final; 3: the lowest four levels; 9: everything below the root
    const int depth = 9, finals[3] = {-1, 3, 9};
    for (int f = 0; f < 3; f++) {
        if (clear_device()) return 1;
        TEST_CUDA(gtap_launch(tree_kernel, depth, finals[f]));
        TEST_CUDA(gtap_synchronize());
        TEST_CUDA(cudaMemcpyFromSymbol(&h, d_result, sizeof h));
        TEST_CUDA(cudaMemcpyFromSymbol(&in_graph, d_bad, sizeof in_graph));
        char what[96];
        snprintf(what, sizeof what, "final(depth <= %d): nodes", finals[f]);
        bad |= test_report(what, h, (2ll << depth) - 1);
        snprintf(what, sizeof what, "final(depth <= %d): subtrees at the wrong time", finals[f]);
        bad |= test_report(what, in_graph, 0);
    }

    // serial_below 4: ranges of 4 and less run serially; 1000: all; 0: none (leaves: if(lo % 2))
    const int serial_below[3] = {4, 1000, 0};
    for (int s = 0; s < 3; s++) {
        if (clear_device()) return 1;
        const sums unset = {-1, -1};
        sums got;
        TEST_CUDA(cudaMemcpyToSymbol(d_span, &unset, sizeof unset));
        TEST_CUDA(gtap_launch(span_kernel, 32, serial_below[s]));
        TEST_CUDA(gtap_synchronize());
        TEST_CUDA(cudaMemcpyFromSymbol(&got, d_span, sizeof got));
        h = got.sum * 1000 + got.count;
        TEST_CUDA(cudaMemcpyFromSymbol(ran, d_ran, sizeof ran));
        int marks = 0;
        for (int i = 0; i < 32; i++)
            marks += ran[i] == 2;
        bad |= test_report("span: sum * 1000 + count", h, (31 * 32 / 2) * 1000ll + 32);
        bad |= test_report("span: leaves marked", marks, 32);
    }
    gtap_finalize();
    return bad;
}
