/* hetero_check_test.c - the heterogeneous tree's check (apps/hetero_tree/hetero_common.h)
 * catches what it must: a wrong leaf, recomputed or not; a reduction that lost or doubled a
 * leaf; a leaf that never ran. Also: the kind hash spreads leaves evenly over K kinds, the
 * kinds compute different values, and a block's per-thread partial values XOR to the
 * thread-level value (what the block-level programs rely on). */
#include <stdlib.h>

#include "hetero_common.h"

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

/* A correct run of o: leaf values and their sum. */
static uint64_t fill(const het_options *o, uint32_t *leaf_out)
{
    uint64_t sum = 0;
    for (long long j = 0; j < het_leaves(o->height); j++) {
        leaf_out[j] = het_leaf_value(het_first_leaf(o->height) + (uint32_t)j, o->seed, o->kinds, o->iters);
        sum += leaf_out[j];
    }
    return sum;
}

int main(void)
{
    FILE *quiet = fopen("/dev/null", "w");
    het_options o = {10, 4, 40, 9, 0, 1ll << 40};
    const long long leaves = het_leaves(o.height);
    uint32_t *leaf_out = (uint32_t *)malloc((size_t)leaves * sizeof *leaf_out);
    if (!quiet || !leaf_out)
        return 1;

    uint64_t sum = fill(&o, leaf_out);
    expect(het_check(&o, leaf_out, sum, quiet) == 0, "a correct run passes");
    expect(het_check(&o, leaf_out, sum + 1, quiet) > 0, "a wrong reduction fails");
    expect(het_check(&o, leaf_out, sum - leaf_out[5], quiet) > 0, "a reduction that lost a leaf fails");
    expect(het_check(&o, leaf_out, sum + leaf_out[5], quiet) > 0, "a reduction that counted a leaf twice fails");
    const uint32_t right_value = leaf_out[7];
    leaf_out[7] ^= 1u << 20;
    expect(het_check(&o, leaf_out, sum, quiet) > 0, "a wrong leaf fails (all recomputed)");
    expect(het_check(&o, leaf_out, sum - right_value + leaf_out[7], quiet) > 0,
           "a wrong leaf fails even when the reduction agrees with it");

    /* Sampled: a budget of about 1/100 of the work. A leaf between samples that is wrong in
     * both leaf_out and the reduction is invisible by design; one wrong in either is not. */
    o.check_budget = leaves * (o.iters + 16) / 100;
    sum = fill(&o, leaf_out);
    expect(het_check(&o, leaf_out, sum, quiet) == 0, "a correct run passes (sampled)");
    leaf_out[0] += 3;
    expect(het_check(&o, leaf_out, sum + 3, quiet) > 0, "a wrong sampled leaf fails");
    leaf_out[0] -= 3;
    leaf_out[leaves - 1] ^= 8;
    expect(het_check(&o, leaf_out, sum, quiet) > 0, "a wrong last leaf fails");
    sum = fill(&o, leaf_out);
    leaf_out[51] = 0xffffffffu; /* poison: the leaf never ran */
    expect(het_check(&o, leaf_out, sum - het_leaf_value(het_first_leaf(o.height) + 51, o.seed, o.kinds, o.iters), quiet) > 0,
           "a leaf that never ran fails (sampled)");

    /* the kinds: about even, and really different kernels */
    for (int kinds = 2; kinds <= 4; kinds += 2) {
        long long count[HET_MAX_KINDS] = {0};
        for (uint32_t node = 0; node < 1u << 16; node++)
            count[het_kind_of(node, 1, kinds)]++;
        for (int k = 0; k < kinds; k++)
            expect(count[k] > (1 << 16) / kinds * 9 / 10 && count[k] < (1 << 16) / kinds * 11 / 10,
                   "the kind hash spreads nodes evenly");
    }
    for (int a = 0; a < HET_MAX_KINDS; a++)
        for (int b = a + 1; b < HET_MAX_KINDS; b++)
            expect(het_kind_part(a, 12345u, 0, 64) != het_kind_part(b, 12345u, 0, 64),
                   "two kinds compute different values");
    expect(het_kind_of(777u, 1, 4) != het_kind_of(777u, 2, 4) || het_kind_of(778u, 1, 4) != het_kind_of(778u, 2, 4) ||
               het_kind_of(779u, 1, 4) != het_kind_of(779u, 2, 4),
           "the seed changes the kinds");

    /* a block's partial values: 32 or 64 threads' shares, the iterations a multiple or not,
     * fewer than the threads, none */
    static const int iter_counts[] = {1000, 1024, 33, 5, 0};
    for (int kind = 0; kind < HET_MAX_KINDS; kind++)
        for (int threads = 32; threads <= 64; threads *= 2)
            for (size_t i = 0; i < sizeof iter_counts / sizeof iter_counts[0]; i++) {
                const int iters = iter_counts[i];
                uint32_t x = 0;
                int covered = 0, next = 0;
                for (int t = 0; t < threads; t++) {
                    int begin, end;
                    het_share(iters, t, threads, &begin, &end);
                    covered += begin == next && end >= begin;
                    next = end;
                    x ^= het_kind_part(kind, 99u, begin, end);
                }
                expect(covered == threads && next == iters, "the shares cover the iterations once, in order");
                expect(x == het_kind_part(kind, 99u, 0, iters), "the shares' partial values XOR to the whole");
            }

    free(leaf_out);
    fclose(quiet);
    if (failures)
        return 1;
    printf("hetero_check_test: all checks passed\n");
    return 0;
}
