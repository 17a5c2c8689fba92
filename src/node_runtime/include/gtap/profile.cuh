/* gtap/profile.cuh - the built-in profiler's device side (GTAP_ENABLE_PROFILING or PROFILE):
 * one interval per scheduler iteration that ran tasks, [start, end) in %globaltimer ns with
 * the number of tasks, written by lane 0 / thread 0 into the worker's buffer of
 * GTAP_PROFILE_CAPACITY entries. Intervals beyond the capacity are counted, not stored, so
 * the host reports how many were dropped. Costs nothing when profiling is off.
 */
#ifndef GTAP_PROFILE_CUH
#define GTAP_PROFILE_CUH

#include "gtap/device.cuh"

#if defined(GTAP_ENABLE_PROFILING)

GTAP_DEV void gtap_profile_record(uint32_t worker, uint32_t *count, uint64_t t0, uint32_t tasks)
{
    uint32_t i = (*count)++;
    if (i < gtap_dev.profile_capacity) {
        gtap_profile_interval *p = &gtap_dev.profile[(size_t)worker * gtap_dev.profile_capacity + i];
        p->start_ns = t0;
        p->end_ns = gtap_globaltimer();
        p->tasks = tasks;
        p->kind = 0;
    }
}

/* rec: nonzero on the one thread that records for the worker. */
#define GTAP_PROFILE_DECL uint32_t gtap_prof_count = 0; uint64_t gtap_prof_t0 = 0
#define GTAP_PROFILE_BEGIN(rec) do { if (rec) gtap_prof_t0 = gtap_globaltimer(); } while (0)
#define GTAP_PROFILE_END(rec, worker, tasks) \
    do { if (rec) gtap_profile_record((worker), &gtap_prof_count, gtap_prof_t0, (tasks)); } while (0)
#define GTAP_PROFILE_FLUSH(rec, worker) \
    do { if (rec) gtap_dev.profile_count[(worker)] = gtap_prof_count; } while (0)

#else

#define GTAP_PROFILE_DECL do { } while (0)
#define GTAP_PROFILE_BEGIN(rec) do { } while (0)
#define GTAP_PROFILE_END(rec, worker, tasks) do { (void)(tasks); } while (0)
#define GTAP_PROFILE_FLUSH(rec, worker) do { } while (0)

#endif

#endif /* GTAP_PROFILE_CUH */
