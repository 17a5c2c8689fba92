/* adaptive_integration.cu - adaptive quadrature of cos(frequency x) (the upstream GTaP example),
 * thread-level workers: one task per interval; it compares the trapezoid on the interval with
 * those on its halves (three samples, ai_common.h), returns the extrapolated estimate when
 * they agree within the tolerance, else spawns its two halves and returns their sum. Checked
 * against the same recursion on the CPU and against the closed form. */
#include "gtap_thread.cuh"
#include "gtap_app.cuh"
#include "ai_run.cuh"

/* The task data is the three parameters and the two children's results: the rule's
 * temporaries are not const locals of the task function (a const local with an initializer
 * cannot be split and would be spilled into the record). */
#pragma gtap function
__device__ ai_result integrate(double a, double b, int depth)
{
    if (ai_failed())
        return ai_result_make(0.0, 0);
    ai_rule r;
    r = ai_rule_simple(a, b, g_ai.frequency);
    int step;
    step = ai_decide(r, a, b, depth, &g_ai);
    if (step == AI_STEP_LEAF)
        return ai_result_make(r.estimate, 1);
    if (step != AI_STEP_SPLIT) {
        ai_fail(step, a, b, depth);
        return ai_result_make(0.0, 0);
    }
    ai_result left, right;
#pragma gtap task
    left = integrate(a, ai_mid(a, b), depth + 1);
#pragma gtap task
    right = integrate(ai_mid(a, b), b, depth + 1);
#pragma gtap taskwait
    return ai_result_add(left, right);
}

__global__ void integrate_kernel(double lo, double hi)
{
#pragma gtap entry
    g_ai_result = integrate(lo, hi, 0);
}

int main(int argc, char **argv)
{
    return ai_main(argc, argv, "adaptive_integration", AI_RULE_SIMPLE, 1,
                   [](const ai_params &p) { return gtap_launch(integrate_kernel, p.lo, p.hi); });
}
