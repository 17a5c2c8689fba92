/* binary_tree.cu - hand-compiled full binary tree of the paper's section 6.3.1, thread- or
 * block-level (-DHC_BLOCK): every node is a task; inner nodes spawn both children, join,
 * then do their own work. Checks every node's output against the CPU. */
#include <random>
#include <vector>

#include "handcomp.h"
#include "tree_work.h"

__device__ const double *g_input;
__device__ double *g_out;

#if defined(HC_BLOCK)
#define TW_FIRST ((int)threadIdx.x)
#define TW_STRIDE ((int)blockDim.x)
#define TW_SPAWNER (threadIdx.x == 0)
#else
#define TW_FIRST 0
#define TW_STRIDE 1
#define TW_SPAWNER 1
#endif

/* #pragma gtap function
 * __device__ void tree_work(int node, int height, int mem_ops, int compute_iters) {
 *   if (height == 0) { double v = work(node); g_out[node] = v; return; }
 *   [if (threadIdx.x == 0) {]  task tree_work(2node+1,...); task tree_work(2node+2,...); [}]
 *   taskwait;
 *   double own = work(node); g_out[node] = own;
 * } */
enum { GTAPGEN_FN_tree_work = 0 };
struct gtapgen_tree_work_data {
    int node, height, mem_ops, compute_iters;
};

GTAP_TASK_FN void gtapgen_tree_work(gtap_worker *w, gtap_task t)
{
    struct gtapgen_tree_work_data *__restrict__ self = (struct gtapgen_tree_work_data *)gtap_task_data(w, t);
    switch (gtap_task_state(w, t)) {
    case 0:
        if (self->height == 0) {
            double v = tw_work(g_input, (uint32_t)self->node, self->mem_ops, self->compute_iters, TW_FIRST, TW_STRIDE);
            if (TW_SPAWNER)
                g_out[self->node] = v;
            return;
        }
        if (TW_SPAWNER) {
            for (int k = 1; k <= 2; k++) {
                struct gtapgen_tree_work_data *c = (struct gtapgen_tree_work_data *)gtap_task_spawn(
                    w, t, GTAPGEN_FN_tree_work, sizeof *c, 0, NULL);
                c->node = self->node * 2 + k;
                c->height = self->height - 1;
                c->mem_ops = self->mem_ops;
                c->compute_iters = self->compute_iters;
            }
        }
        if (gtap_task_join(w, t, 1, 0))
            return;
        [[fallthrough]];
    case 1: {
        double own = tw_work(g_input, (uint32_t)self->node, self->mem_ops, self->compute_iters, TW_FIRST, TW_STRIDE);
        if (TW_SPAWNER)
            g_out[self->node] = own;
        return;
    }
    default:
        gtap_task_bad_state(w, t);
        return;
    }
}

GTAP_TASK_FN void gtapgen_dispatch(gtap_worker *w, unsigned fn, gtap_task t)
{
    if (fn == GTAPGEN_FN_tree_work)
        gtapgen_tree_work(w, t);
    else
        gtap_task_bad_state(w, t);
}

static const gtap_function_desc gtapgen_functions[] = {
    {"tree_work", sizeof(struct gtapgen_tree_work_data), alignof(struct gtapgen_tree_work_data), 0,
     GTAP_FN_MIGRATABLE | GTAP_FN_HAS_TASKWAIT, 0x77u},
};
const gtap_program_desc gtapgen_program = {GTAP_GEN_INTERFACE_VERSION, 1, sizeof(struct gtapgen_tree_work_data),
                                           alignof(struct gtapgen_tree_work_data), 0, 1, 0x78u, gtapgen_functions};

__global__ void exec_kernel(int height, int mem_ops, int compute_iters)
{
    struct gtapgen_tree_work_data *r =
        (struct gtapgen_tree_work_data *)gtap_entry_begin(GTAPGEN_FN_tree_work, sizeof *r, 0);
    if (r) {
        r->node = 0;
        r->height = height;
        r->mem_ops = mem_ops;
        r->compute_iters = compute_iters;
    }
    gtap_entry_run();
}

int main(int argc, char **argv)
{
    /* binary_tree bench D MEM COMPUTE REPS: timed runs, output checked on the first. */
    const int bench = argc > 1 && strcmp(argv[1], "bench") == 0;
    if (bench) {
        argv++;
        argc--;
    }
    int height = argc > 1 ? atoi(argv[1]) : 12;
    int mem_ops = argc > 2 ? atoi(argv[2]) : 16;
    int compute_iters = argc > 3 ? atoi(argv[3]) : 16;
    int repeat = argc > 4 ? atoi(argv[4]) : 2;
    const size_t nodes = ((size_t)1 << (height + 1)) - 1;
    std::vector<double> in(TREE_INPUT_N), out(nodes);
    std::mt19937_64 rng(0xC0FFEE);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto &x : in)
        x = dist(rng);
    double init_ms = 0;
    size_t bytes = 0;
    HC_CHECK(hc_init_timed(&init_ms, &bytes) == 0, "initialization failed");
    if (bench)
        printf("init_ms %.3f device_bytes %zu\n", init_ms, bytes);
    double *d_in = NULL, *d_out = NULL;
    HC_CHECK(cudaMalloc((void **)&d_in, in.size() * sizeof(double)) == cudaSuccess, "cudaMalloc");
    HC_CHECK(cudaMalloc((void **)&d_out, nodes * sizeof(double)) == cudaSuccess, "cudaMalloc");
    cudaMemcpy(d_in, in.data(), in.size() * sizeof(double), cudaMemcpyHostToDevice);
    HC_STORE(g_input, d_in);
    HC_STORE(g_out, d_out);
#if defined(HC_BLOCK)
    const int first = 0, stride = GTAP_BLOCK_SIZE;
#else
    const int first = 0, stride = 1;
#endif
    for (int rep = 0; rep < repeat; rep++) {
        cudaMemset(d_out, 0xff, nodes * sizeof(double)); /* poison: NaN everywhere */
        double kms, wms;
        HC_TIMED_LAUNCH(kms, wms, exec_kernel, height, mem_ops, compute_iters);
        if (bench)
            printf("run %d D %d kernel_ms %.4f wall_ms %.4f\n", rep, height, kms, wms);
        cudaMemcpy(out.data(), d_out, nodes * sizeof(double), cudaMemcpyDeviceToHost);
        for (size_t i = 0; i < nodes && (!bench || rep == 0); i++) {
            double expect = tw_work(in.data(), (uint32_t)i, mem_ops, compute_iters, first, stride);
            HC_CHECK(out[i] == expect, "run %d: node %zu = %.17g, expected %.17g", rep, i, out[i], expect);
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    HC_CHECK(hc_finish() == 0, "finalize failed");
    printf("PASS binary tree D=%d (%zu nodes, %s-level) x%d\n", height, nodes, HC_GPU ? (
#if defined(HC_BLOCK)
        "block"
#else
        "thread"
#endif
        ) : "host", repeat);
    return 0;
}
