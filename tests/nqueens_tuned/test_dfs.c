/* test_dfs.c - the leaf DFS of nqt_search.h on its own. Every board n = 1..13 must
 * give its known count (A000170) run whole, and n = 4..12 also run in random budgets of 1..40
 * steps with random splits (nqt_dfs_split) whose pieces are run the same way, from a stack of
 * pending pieces: what the GPU program does with its leaf segments and hand-overs. Prints PASS,
 * or FAIL lines naming the board and seed. */
#include <stdio.h>
#include <stdlib.h>

#include "nqt_search.h"

/* A DFS and its stack, pending on the work list. */
typedef struct piece {
    nqt_dfs s;
    uint32_t stack[NQT_STACK_DEPTH];
    uint32_t weight;
} piece;

static unsigned rnd_state;
static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 16) % n;
}

/* Solutions of the n x n board from the subtrees at depth (weights applied); budget 0: every
 * DFS runs whole, else random budgets and splits. */
static unsigned long long count(int n, int depth, int budgeted)
{
    const long long k = nqt_prefixes(n, depth, NULL);
    nqt_prefix *pre = (nqt_prefix *)malloc((size_t)(k ? k : 1) * sizeof *pre);
    piece *work = (piece *)malloc(4096 * sizeof *work);
    if (!pre || !work) {
        printf("FAIL: out of memory\n");
        exit(1);
    }
    nqt_prefixes(n, depth, pre);
    unsigned long long total = 0;
    for (long long i = 0; i < k; i++) {
        int pending = 1;
        nqt_dfs_begin(&work[0].s, n, depth, pre[i].cols, pre[i].left, pre[i].right, pre[i].avail);
        work[0].weight = pre[i].weight;
        while (pending) {
            piece *p = &work[pending - 1];
            const uint32_t budget = budgeted ? 1 + rnd(40) : 0xffffffffu;
            if (nqt_dfs_run(&p->s, p->stack, 1, budget)) {
                total += p->s.count * p->weight;
                pending--;
                continue;
            }
            int row;
            uint32_t c, l, r, a;
            if (budgeted && pending < 4096 && rnd(3) == 0 &&
                nqt_dfs_split(&p->s, p->stack, 1, &row, &c, &l, &r, &a)) {
                piece *q = &work[pending++];
                nqt_dfs_begin(&q->s, n, row, c, l, r, a);
                q->weight = p->weight;
            }
        }
    }
    free(work);
    free(pre);
    return total;
}

int main(void)
{
    int bad = 0;
    for (int n = 1; n <= 13; n++) {
        const unsigned long long got = count(n, 1, 0);
        if (got != nqt_known[n]) {
            printf("FAIL: n = %d whole: %llu, expected %llu\n", n, got, nqt_known[n]);
            bad = 1;
        }
    }
    for (int n = 4; n <= 12; n++)
        for (unsigned seed = 1; seed <= 3; seed++) {
            rnd_state = seed * 7919u + (unsigned)n;
            const unsigned long long got = count(n, n < 6 ? 1 : 2, 1);
            if (got != nqt_known[n]) {
                printf("FAIL: n = %d seed %u, budgets and splits: %llu, expected %llu\n", n, seed, got,
                       nqt_known[n]);
                bad = 1;
            }
        }
    if (!bad)
        printf("PASS: the DFS counts every board n = 1..13 whole and n = 4..12 in random budgets and "
               "splits\n");
    return bad;
}
