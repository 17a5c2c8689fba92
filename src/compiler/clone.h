/* clone.h - serial clones of task functions, the code that the if(...) and final(...)
 * clauses of `#pragma gtap task` run instead of a spawn (docs/compiler.md, "if and final").
 *
 * The serial clone of F is `gtapgen_F_serial`: F's own body as a plain recursive __device__
 * function, each `#pragma gtap task` a direct call of the callee's clone (the assignment form
 * keeps its assignment), each taskwait gone, queue(...), if(...) and final(...) ignored.
 * Only the task functions that an if/final path reaches get one, so programs without the
 * clauses translate exactly as before.
 */
#ifndef GTAPCC_CLONE_H
#define GTAPCC_CLONE_H

#include "model.h"

/* Checks where the clauses appear (not in block-level programs) and marks the task functions
 * that need a clone: the callee of every spawn with a clause, and every callee of a marked
 * function (its clone calls theirs). Reports errors; run once all spawns are known. */
void clone_plan(unit *u);

/* The clone's declaration (`static __device__ __noinline__ R gtapgen_F_serial(...);`), for
 * F's preamble, where F's parameter types are declared (caller frees). */
char *clone_prototype(const taskfn *fn);

/* The clone's definition, with #line directives pointing at F's body (caller frees). Returns
 * NULL after reporting an error. */
char *clone_definition(unit *u, taskfn *fn);

#endif /* GTAPCC_CLONE_H */
