/* gtap_thread_gq.cuh - the paper's ablation header name: gtap_thread.cuh built with GTAP_SCHED_GLOBAL_QUEUE. */
#ifndef GTAP_SCHED_GLOBAL_QUEUE
#define GTAP_SCHED_GLOBAL_QUEUE 1
#endif
#include <gtap_thread.cuh> /* the include path: the host target's header in host-target builds */
