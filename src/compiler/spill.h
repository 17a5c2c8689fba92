/* spill.h - which locals of a task function live in its task data (spilling), and the
 * checks on locals (addresses taken across a taskwait, results read too early). The rule is
 * stated at the top of analyze.c; spill.c implements it for one task function at a time. */
#ifndef GTAPCC_SPILL_H
#define GTAPCC_SPILL_H

#include "model.h"

void gtapcc_collect_locals(unit *u, taskfn *fn);
void gtapcc_decide_spills(unit *u, taskfn *fn);
void gtapcc_find_assigned_params(taskfn *fn);
void gtapcc_check_addresses(unit *u, taskfn *fn);
void gtapcc_check_early_reads(unit *u, taskfn *fn);
int gtapcc_type_is_local(CXType ty);

/* Shared with analyze.c. */
int gtapcc_has_attr(CXCursor c, enum CXCursorKind attr);
int gtapcc_dst_root_local(const tree *t, int n, int *bad_p);

#endif /* GTAPCC_SPILL_H */
