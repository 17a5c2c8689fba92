/* gtap/debug_rules.h - the invariants the debug tier (GTAP_DEBUG, docs/debug.md) checks, as one
 * table shared by the device checks (gtap/debug.cuh), the host's decoder of the device error
 * record (host/error.c) and the CPU reference executor (refexec/gtap_refexec.h), so that all
 * three report a failed check with the same line. Plain C; host and device.
 */
#ifndef GTAP_DEBUG_RULES_H
#define GTAP_DEBUG_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gtap/config.h" /* GTAP_STRESS turns GTAP_DEBUG on */

/* X(NAME, rule, doc, text): rule is the name the doc gives the invariant; text is a printf
 * format that consumes two long long arguments, the value observed and then an auxiliary
 * value (a text may use neither, one or both, in that order). */
#define GTAP_DEBUG_RULES(X)                                                                       \
    X(JOIN_NEGATIVE, "J3", "docs/join.md",                                                        \
      "a child's decrement would take its parent's join counter below zero (it is %lld)")         \
    X(ZOMBIE_TWICE, "J4", "docs/join.md", "a task that is a zombie already becomes one again")   \
    X(ZOMBIE_EMPTY, "J4", "docs/join.md",                                                         \
      "a task becomes a zombie holding %lld references (no child would ever free it)")           \
    X(RUN_ZOMBIE, "J6", "docs/join.md",                                                           \
      "a zombie (finished, waiting for its detached children) is about to run")                  \
    X(RUN_STATE, "J6", "docs/join.md",                                                            \
      "a task is about to run in state %lld, which no taskwait stores (states are below %lld)")  \
    X(RUN_BAD_ID, "J6", "docs/join.md", "a task about to run is no task record (there are %lld)") \
    X(RUN_FREED, "P6", "docs/pool.md", "a task about to run has a record that is free")            \
    X(QUEUE_SPAN, "D5", "docs/deque.md",                                                          \
      "a queue holds tail - head = %lld entries, outside [0, capacity %lld]")                    \
    X(QUEUE_INDEX, "D6", "docs/deque.md", "queue index %lld is outside [0, %lld)")                \
    X(POOL_BAD_ID, "P6", "docs/pool.md",                                                          \
      "a freed id is no pooled record (the pool holds ids below %lld; the root's is never freed)") \
    X(POOL_DOUBLE_FREE, "P6", "docs/pool.md", "a task record is freed twice (it is free already)") \
    X(POOL_ALLOC_LIVE, "P6", "docs/pool.md",                                                      \
      "a task record is handed out while it is in use (its id is in the pool twice)")

#define GTAP_DEBUG_RULE_ENUM_(name, rule, doc, text) GTAP_DBG_##name,
/* Which check failed: the device's error record carries it (GTAP_ERR_DEBUG_CHECK). */
enum gtap_debug_rule { GTAP_DBG_NONE = 0, GTAP_DEBUG_RULES(GTAP_DEBUG_RULE_ENUM_) GTAP_DBG_COUNT };
#undef GTAP_DEBUG_RULE_ENUM_

/* "No task" in a check's task argument (a queue's checks name none). */
#define GTAP_DEBUG_NO_TASK 0xffffffffu

/* The device error record of GTAP_ERR_DEBUG_CHECK reuses gtap_raise's fields:
 *   value = (observed as uint32) << 32 | task id      limit = (aux as uint32) << 32 | rule
 *   worker, lane, fn (the task's function id or -1), line (of the check) as for every error.
 * observed and aux are 32-bit signed values. */
#define GTAP_DEBUG_PACK(hi, lo) ((long long)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define GTAP_DEBUG_UNPACK_HI(v) ((long long)(int32_t)(uint32_t)((uint64_t)(v) >> 32))
#define GTAP_DEBUG_UNPACK_LO(v) ((uint32_t)(uint64_t)(v))

/* Writes the description of a failed check into buf (NUL-terminated, truncated to size):
 *   debug check failed: <rule> (<doc>): <text> (task <task>[ of <fn_name>], <where>)
 * task GTAP_DEBUG_NO_TASK leaves out the task; fn_name NULL leaves out " of ..."; where says
 * who detected it ("warp 3 lane 7", "block 2 thread 0", "host executor"). Host code only. */
static inline void gtap_debug_describe(char *buf, size_t size, int rule, uint32_t task, long long observed,
                                       long long aux, const char *fn_name, const char *where)
{
#define GTAP_DEBUG_RULE_ROW_(name, rule_, doc_, text_) {rule_, doc_, text_},
    static const struct {
        const char *rule, *doc, *text;
    } rows[] = {{"?", "docs/debug.md", "unknown check (value %lld, %lld)"}, GTAP_DEBUG_RULES(GTAP_DEBUG_RULE_ROW_)};
#undef GTAP_DEBUG_RULE_ROW_
    size_t n;
    int k;
    if (rule <= GTAP_DBG_NONE || rule >= GTAP_DBG_COUNT)
        rule = 0;
    k = snprintf(buf, size, "debug check failed: %s (%s): ", rows[rule].rule, rows[rule].doc);
    n = k > 0 && (size_t)k < size ? (size_t)k : size;
    k = snprintf(buf + n, size - n, rows[rule].text, observed, aux);
    n += k > 0 && (size_t)k < size - n ? (size_t)k : size - n;
    if (task == GTAP_DEBUG_NO_TASK)
        snprintf(buf + n, size - n, " (%s)", where);
    else if (fn_name)
        snprintf(buf + n, size - n, " (task %u of %s, %s)", task, fn_name, where);
    else
        snprintf(buf + n, size - n, " (task %u, %s)", task, where);
}

#endif /* GTAP_DEBUG_RULES_H */
