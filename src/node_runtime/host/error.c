/* error.c - turns the device's error record into one message that names the limit, the
 * value that hit it, and the knob that raises it. */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "host_internal.h"
#include "gtap/debug_rules.h"

const char *gtap_host_fn_name(int fn)
{
    const gtap_program_desc *p = gtap_rt.prog;
    if (p && fn >= 0 && (uint32_t)fn < p->num_functions && p->functions[fn].name)
        return p->functions[fn].name;
    return "?";
}

void gtap_host_report_error(void)
{
    volatile gtap_error_record *e = gtap_rt.error_host;
    const gtap_config_t *c = &gtap_rt.cfg;
    const gtap_dev_state *s = &gtap_rt.state;
    const char *unit = c->mode == GTAP_MODE_THREAD ? "warp" : "block";
    long long v, lim;
    int worker, lane, fn;

    if (!e || e->code == 0 || e->reported)
        return;
    e->reported = 1;
    v = e->value;
    lim = e->limit;
    worker = e->worker;
    lane = e->lane;
    fn = e->fn;
    fflush(stdout);
    switch (e->code) {
    case GTAP_ERR_POOL_EXHAUSTED:
        fprintf(stderr, "gtap: error: task pool exhausted: all %lld task records of %s %d are in use "
                "(spawning %s; each %s owns %u records of %u bytes). ", lim, unit, worker, gtap_host_fn_name(fn),
                unit, s->records_per_worker, s->record_stride);
        if (gtap_rt.records_limited_by_memory)
            fprintf(stderr, "GTAP_MAX_TASK_MEMORY=%llu bytes capped them; raise it.\n",
                    (unsigned long long)c->max_task_memory);
        else
            fprintf(stderr, "Raise %s (now %d).\n", c->tasks_knob, c->max_tasks_per_worker);
        break;
    case GTAP_ERR_DEQUE_FULL:
        fprintf(stderr, "gtap: error: deque full: %s %d holds %lld pending tasks, its capacity is %lld "
                "(%s=%d", unit, worker, v, lim, c->tasks_knob, c->max_tasks_per_worker);
        if (c->mode == GTAP_MODE_THREAD && c->num_queues > 1)
            fprintf(stderr, " / GTAP_NUM_QUEUES=%d", c->num_queues);
        fprintf(stderr, ", rounded up to a power of two); raise %s.\n", c->tasks_knob);
        break;
    case GTAP_ERR_TOO_MANY_CHILDREN:
        fprintf(stderr, "gtap: error: a task of %s spawned %lld children without a taskwait; the limit "
                "is GTAP_MAX_CHILD_TASKS=%lld; raise it.\n", gtap_host_fn_name(fn), v, lim);
        break;
    case GTAP_ERR_DATA_TOO_LARGE:
        fprintf(stderr, "gtap: error: task data of %s is %lld bytes but a task record holds %lld; "
                "rebuild with a larger GTAP_MAX_TASK_DATA_SIZE.\n", gtap_host_fn_name(fn), v, lim);
        break;
    case GTAP_ERR_BAD_QUEUE:
        fprintf(stderr, "gtap: error: queue(%lld) in %s is outside [0, %lld); raise GTAP_NUM_QUEUES or "
                "fix the queue expression (%s %d, lane %d).\n", v, gtap_host_fn_name(fn), lim, unit, worker, lane);
        break;
    case GTAP_ERR_BAD_STATE:
        fprintf(stderr, "gtap: error: a task of %s (function id %d, record %lld) resumed in unknown state "
                "%lld on %s %d, lane %d (runtime or compiler bug; please report it).\n", gtap_host_fn_name(fn), fn, lim, v,
                unit, worker, lane);
        break;
    case GTAP_ERR_LAUNCH_MISMATCH:
        fprintf(stderr, "gtap: error: the task kernel was launched with %lld %ss but gtap_initialize() "
                "sized the runtime for %lld (grid %d x block %d, set by %s and GTAP_BLOCK_SIZE); launch "
                "with gtap_launch() or <<<GTAP_GRID_SIZE, GTAP_BLOCK_SIZE>>>.\n", v, unit, lim,
                c->grid_size, c->block_size, c->grid_size_knob);
        break;
    case GTAP_ERR_TASKWAIT_NO_JOIN:
        fprintf(stderr, "gtap: error: taskwait executed in %s, but the program was built with "
                "GTAP_ASSUME_NO_TASKWAIT (-fgtap-no-taskwait); remove that option.\n", gtap_host_fn_name(fn));
        break;
    case GTAP_ERR_DIVERGENT_JOIN:
        if (c->mode == GTAP_MODE_THREAD) /* a warp task function (docs/design.md W3) */
            fprintf(stderr, "gtap: error: in warp task %s a taskwait was not reached by every lane of warp %d "
                    "(%lld of %lld lanes); a warp task's taskwait must be reached by all 32 lanes together "
                    "(not under a lane-dependent branch, and not after some lanes returned).\n",
                    gtap_host_fn_name(fn), worker, v, lim);
        else
            fprintf(stderr, "gtap: error: in %s a taskwait was not reached by every thread of block %d "
                    "(%lld of %lld threads); block-level taskwait must be reached by the whole block.\n",
                    gtap_host_fn_name(fn), worker, v, lim);
        break;
    case GTAP_ERR_BLOCK_SIZE:
        fprintf(stderr, "gtap: error: the task kernel was launched with %lld threads per block, and the "
                "program was compiled for GTAP_BLOCK_SIZE=%lld. Block mode needs a multiple of 32 of at most "
                "GTAP_BLOCK_SIZE (exactly it in distributed builds); thread mode needs gtap_launch() (which "
                "provides shared memory) for larger blocks.\n", v, lim);
        break;
    case GTAP_ERR_DEBUG_CHECK: { /* fields packed by gtap/debug.cuh */
        char where[64], text[512];
        snprintf(where, sizeof where, "%s %d %s %d", unit, worker, c->mode == GTAP_MODE_THREAD ? "lane" : "thread",
                 lane);
        gtap_debug_describe(text, sizeof text, (int)GTAP_DEBUG_UNPACK_LO(lim), GTAP_DEBUG_UNPACK_LO(v),
                            GTAP_DEBUG_UNPACK_HI(v), GTAP_DEBUG_UNPACK_HI(lim), fn >= 0 ? gtap_host_fn_name(fn) : NULL, where);
        fprintf(stderr, "gtap: error: %s\n", text);
        break;
    }
    default:
        fprintf(stderr, "gtap: error: device error code %d (value %lld, limit %lld)\n", (int)e->code,
                v, lim);
        break;
    }
}

int gtap_host_check(void)
{
    if (!gtap_rt.error_host || gtap_rt.error_host->code == 0)
        return cudaSuccess;
    gtap_host_report_error();
    return cudaErrorLaunchFailure;
}
