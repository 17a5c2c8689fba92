/* gtap_thread_chaselev.cuh - the paper's ablation header name: gtap_thread.cuh built with GTAP_SCHED_CHASELEV. */
#ifndef GTAP_SCHED_CHASELEV
#define GTAP_SCHED_CHASELEV 1
#endif
#include <gtap_thread.cuh> /* the include path: the host target's header in host-target builds */
