/* bfs_result.h - the result of every BFS program (bfs.cu, bfs_batched.cu, bfs_cpu.c): the
 * vertices its depths reach, the deepest level, their comparison with the CPU queue BFS and
 * the answer line (C and C++; header-only; needs app_cli.h and app_input.h). */
#ifndef BFS_RESULT_H
#define BFS_RESULT_H

#include "app_cli.h"
#include "app_input.h"

/* Writes "vertices=V;edges=E;reached=R;depth=D" into answer (cap bytes) from depth[0, nrows)
 * (APP_BFS_INF: not reached); with c->check also compares every depth with the CPU queue BFS
 * from source, printing the first five differences on c->out. ref: nrows ints of scratch.
 * Returns the check's outcome (APP_CHECK_SKIPPED without c->check). */
static inline app_check_t bfs_result(const app_cli *c, const app_csr *g, int source, const int *depth, int *ref,
                                     char *answer, size_t cap)
{
    int reached = 0, deepest = 0;
    for (int v = 0; v < g->nrows; v++)
        if (depth[v] != APP_BFS_INF) {
            reached++;
            deepest = depth[v] > deepest ? depth[v] : deepest;
        }
    app_check_t check = APP_CHECK_SKIPPED;
    if (c->check) {
        long long bad = 0;
        app_bfs_reference(g, source, ref);
        for (int v = 0; v < g->nrows; v++)
            if (depth[v] != ref[v] && bad++ < 5)
                fprintf(c->out, "%s: depth[%d] = %d, expected %d\n", c->app, v, depth[v], ref[v]);
        check = bad ? APP_CHECK_FAIL : APP_CHECK_PASS;
    }
    snprintf(answer, cap, "vertices=%d;edges=%lld;reached=%d;depth=%d", g->nrows, g->nnz, reached, deepest);
    return check;
}

#endif /* BFS_RESULT_H */
