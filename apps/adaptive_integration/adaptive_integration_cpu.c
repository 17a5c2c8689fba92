/* adaptive_integration_cpu.c - CPU baselines of the adaptive quadrature: the same recursion,
 * rules and answer as the GPU programs (ai_common.h). OpenMP (-fopenmp): a task per half with
 * the half's result shared, a taskwait, the sum - as the GPU programs; sequential: the same
 * recursion. --rule simple (default: adaptive_integration's three-sample rule) or composite
 * (adaptive_integration_block's 512-panel rule, its 32 shares summed in order), so each GPU
 * program has a baseline with its own leaves. */
#include <string.h>

#include "app_cpu.h"
#include "ai_common.h"

typedef struct ai_cpu {
    ai_params p;
    int rule;
    ai_result result;
    ai_failure fail; /* OpenMP: written once by the first failing task (critical) */
} ai_cpu;

static ai_result integrate(ai_cpu *x, double a, double b, int depth)
{
    int failed;
#pragma omp atomic read
    failed = x->fail.failed;
    if (failed)
        return ai_result_make(0.0, 0);
    ai_rule r = ai_rule_cpu(&x->p, x->rule, 32, a, b);
    const int step = ai_decide(r, a, b, depth, &x->p);
    if (step == AI_STEP_LEAF)
        return ai_result_make(r.estimate, 1);
    if (step != AI_STEP_SPLIT) {
#pragma omp critical(ai_fail)
        if (!x->fail.failed) {
            x->fail.depth = depth;
            x->fail.a = a;
            x->fail.b = b;
#pragma omp atomic write
            x->fail.failed = step;
        }
        return ai_result_make(0.0, 0);
    }
    ai_result left, right;
    const double m = ai_mid(a, b);
#pragma omp task shared(left)
    left = integrate(x, a, m, depth + 1);
#pragma omp task shared(right)
    right = integrate(x, m, b, depth + 1);
#pragma omp taskwait
    return ai_result_add(left, right);
}

static void reset(void *p, int run)
{
    ai_cpu *x = (ai_cpu *)p;
    (void)run;
    memset(&x->fail, 0, sizeof x->fail);
    x->result = ai_result_make(0.0, 0);
}

static void body(void *p)
{
    ai_cpu *x = (ai_cpu *)p;
    x->result = integrate(x, x->p.lo, x->p.hi, 0);
}

int main(int argc, char **argv)
{
    static app_stats stats;
    app_cli c;
    ai_cpu x;
    app_cli_init(&c, "adaptive_integration", APP_CPU_IMPL, 0);
    static const char *const keys[] = {AI_OPTION_KEYS, "rule", NULL};
    int rc = app_cli_parse(&c, argc, argv, keys, AI_USAGE "\n       [--rule simple|composite (default simple)]");
    if (rc)
        return rc < 0 ? 0 : rc;
    if (ai_options_read(&c, &x.p))
        return 2;
    const char *rule = app_opt_str(&c, "rule", "simple");
    if (strcmp(rule, "simple") != 0 && strcmp(rule, "composite") != 0) {
        fprintf(stderr, "adaptive_integration: --rule %s: the rule must be simple or composite\n", rule);
        return 2;
    }
    x.rule = strcmp(rule, "simple") == 0 ? AI_RULE_SIMPLE : AI_RULE_COMPOSITE;
    ai_options_param(&c, &x.p);
    app_param(&c, "rule=%s", rule);
    app_cpu_init(&c);
    app_banner(&c);
    app_cpu_run(&c, &stats, reset, body, &x);
    if (x.fail.failed) {
        ai_report_failure(&c, &x.p, &x.fail);
        return 1;
    }
    app_check_t check = APP_CHECK_SKIPPED;
    if (c.check)
        check = ai_check(&x.p, x.rule, 32, x.result, c.out) ? APP_CHECK_FAIL : APP_CHECK_PASS;
    char answer[96];
    ai_answer(answer, sizeof answer, x.result);
    return app_report(&c, &stats, check, answer);
}
