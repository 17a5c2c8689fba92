/* warp.h - checks of worker sizes and warp task functions (warp.c). */
#ifndef GTAPCC_WARP_H
#define GTAPCC_WARP_H

#include "model.h"

/* Checks function directive d's worker size (warp, thread or block) and return_thread against
 * the program's mode (u->mode, set). */
void gtapcc_check_worker_size(unit *u, const directive *d);

/* Reports taskwait d of warp task function fn when a loop or branch around it has a
 * condition that depends on the lane: the lane API, threadIdx, or a local computed from them. */
void gtapcc_check_warp_taskwait(unit *u, const taskfn *fn, const directive *d);

#endif /* GTAPCC_WARP_H */
