/* adaptive_integration_block.cu - adaptive quadrature of cos(frequency x), block-level workers
 * (32-thread blocks): one task per interval; the block samples the composite trapezoids with
 * AI_BLOCK_PANELS and AI_BLOCK_PANELS / 2 panels together, each thread every 32nd point, the
 * shares summed by thread 0 in thread order (ai_common.h), which decides for the block; a
 * leaf returns the composite Simpson estimate, otherwise thread 0 spawns the two halves and
 * the block joins. Checked against the same recursion on the CPU and the closed form. */
#include "gtap_block.cuh"
#include "gtap_app.cuh"
#include "ai_run.cuh"

/* What a block decided for its interval (the same in every thread). */
struct ai_block_decision {
    int step;
    double estimate;
};

/* The block rule on [a, b] at `depth`, and the decision thread 0 took from it (a run that has
 * already failed stops here). The whole block calls it; every thread returns the same. */
static __device__ ai_block_decision ai_block_decide(double a, double b, int depth)
{
    __shared__ double fine_part[GTAP_BLOCK_SIZE], coarse_part[GTAP_BLOCK_SIZE];
    __shared__ ai_block_decision decision;
    double fine, coarse;
    ai_rule_composite_part(a, b, (int)threadIdx.x, GTAP_BLOCK_SIZE, g_ai.frequency, &fine, &coarse);
    /* the previous task's reads of decision (all threads) are done before thread 0 rewrites it */
    __syncthreads();
    fine_part[threadIdx.x] = fine;
    coarse_part[threadIdx.x] = coarse;
    /* publishes every thread's share to thread 0 */
    __syncthreads();
    if (threadIdx.x == 0) {
        const ai_rule r = ai_rule_composite_sum(a, b, fine_part, coarse_part, GTAP_BLOCK_SIZE);
        /* one thread reads the flag, so that the whole block takes the same branch */
        const int step = ai_decide(r, a, b, depth, &g_ai);
        if (ai_failed()) {
            decision.step = AI_STEP_FAIL_DEPTH; /* only stops this task: the run has failed */
        } else {
            decision.step = step;
            if (step != AI_STEP_LEAF && step != AI_STEP_SPLIT)
                ai_fail(step, a, b, depth);
        }
        decision.estimate = r.estimate;
    }
    /* publishes the decision to the block */
    __syncthreads();
    return decision;
}

#pragma gtap function
__device__ ai_result integrate_block(double a, double b, int depth)
{
    ai_block_decision d;
    d = ai_block_decide(a, b, depth);
    if (d.step == AI_STEP_LEAF)
        return ai_result_make(d.estimate, 1);
    if (d.step != AI_STEP_SPLIT)
        return ai_result_make(0.0, 0);
    /* the two results are the only locals across the taskwait: 32 bytes per thread */
    ai_result left = ai_result_make(0.0, 0), right = ai_result_make(0.0, 0);
    if (threadIdx.x == 0) {
#pragma gtap task
        left = integrate_block(a, ai_mid(a, b), depth + 1);
#pragma gtap task
        right = integrate_block(ai_mid(a, b), b, depth + 1);
    }
#pragma gtap taskwait
    return ai_result_add(left, right); /* thread 0's is the task's result */
}

__global__ void integrate_block_kernel(double lo, double hi)
{
#pragma gtap entry
    g_ai_result = integrate_block(lo, hi, 0);
}

int main(int argc, char **argv)
{
    return ai_main(argc, argv, "adaptive_integration_block", AI_RULE_COMPOSITE, GTAP_BLOCK_SIZE,
                   [](const ai_params &p) { return gtap_launch(integrate_block_kernel, p.lo, p.hi); });
}
