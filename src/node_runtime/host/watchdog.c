/* watchdog.c - the single-GPU watchdog (GTAP_WATCHDOG_S) and progress report (GTAP_PROGRESS),
 * docs/debug.md WD1-WD5.
 *
 * With either knob set, gtap_initialize starts a host thread that reads the workers' state
 * words, progress counters and (GTAP_WATCH_TASKS builds) segment words (gtap/watch.cuh) every
 * 0.1 s, with copies on a non-blocking stream of its own that run beside the task kernel. It
 * needs nothing from the program: a launch waited for with gtap_synchronize,
 * cudaDeviceSynchronize or a stream is watched alike (WD5), so are paper-style <<<...>>>
 * launches. With both knobs off there is no thread and nothing is read.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gtap/host.h"
#include "host_internal.h"

/* How often the words are read (and the watchdog's clock looked at). */
#define WATCH_READ_NS 100000000L
/* Workers listed by name in the watchdog's report; the rest are counted. */
#define WATCH_LIST_MAX 16

/* The knobs (GTAP_WATCHDOG_S, GTAP_PROGRESS), read by gtap_initialize; 0 = off. */
static double watchdog_s, progress_s;

/* The watching thread and what it reads; all zero while no thread runs. */
typedef struct watch_state {
    pthread_t thread;
    pthread_mutex_t lock;        /* guards stop */
    int stop, started;
    cudaStream_t stream;         /* non-blocking: its copies run beside the kernel */
    uint32_t workers;
    size_t nwords;               /* segment words (GTAP_WATCH_TASKS builds), else 0 */
    unsigned long long *state;   /* pinned copies of the workers' state words */
    gtap_worker_stats *stats;    /* of their counters */
    unsigned long long *words;   /* of the segment words */
    gtap_deque *deques;          /* of the deques (read when the watchdog fires) */
    unsigned long long *seen;    /* each state word and progress counter as it last changed: */
    double *since;               /*   [2 * workers]; then each segment word: [nwords] */
} watch_state;

static watch_state watch;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A number of seconds >= 0 (0 or unset: off). Returns 0, or -1 after a message. */
static int env_seconds(const char *name, double *out)
{
    const char *v = getenv(name);
    char *end = NULL;
    *out = 0;
    if (!v || !*v)
        return 0;
    const double x = strtod(v, &end);
    if (end == v || *end || !(x >= 0) || x > 1e9) {
        fprintf(stderr, "gtap: error: %s=%s is not a number of seconds (0 turns it off)\n", name, v);
        return -1;
    }
    *out = x;
    return 0;
}

int gtap_host_watch_parse(void)
{
    if (env_seconds("GTAP_WATCHDOG_S", &watchdog_s) || env_seconds("GTAP_PROGRESS", &progress_s))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

size_t gtap_host_watch_words(const gtap_dev_state *s)
{
    return (size_t)s->max_workers * (s->mode == GTAP_MODE_THREAD ? 32u : 1u);
}

/* Segment words per worker (32 lanes or one block); called only when there are any. */
static uint32_t slots_per_worker(void)
{
    return (uint32_t)(watch.nwords / watch.workers);
}

/* When segment word k last changed: seen[] and since[] hold the state words, the progress
 * counters, then the segment words. */
static double word_since(size_t k)
{
    return watch.since[2 * (size_t)watch.workers + k];
}

static uint32_t word_fn(unsigned long long word)
{
    return (uint32_t)(word & 0xffffffffu) - 1u; /* valid when the low half is not 0 */
}

static int word_in_task(unsigned long long word)
{
    return (word & 0xffffffffu) != 0;
}

/* Copies the words and counters (and with deques, the deques and control words) as they are
 * now. The kernel may be writing them: every word is a snapshot of its own (WD4). */
static cudaError_t read_device(int deques, gtap_ctl *ctl)
{
    const gtap_dev_state *s = &gtap_rt.state;
    cudaError_t e = cudaMemcpyAsync(watch.state, s->watch_worker, watch.workers * sizeof *watch.state,
                                    cudaMemcpyDeviceToHost, watch.stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(watch.stats, s->stats, watch.workers * sizeof *watch.stats, cudaMemcpyDeviceToHost,
                            watch.stream);
    if (e == cudaSuccess && watch.nwords)
        e = cudaMemcpyAsync(watch.words, s->watch, watch.nwords * sizeof *watch.words, cudaMemcpyDeviceToHost,
                            watch.stream);
    if (e == cudaSuccess && deques)
        e = cudaMemcpyAsync(watch.deques, s->deques, (size_t)watch.workers * s->num_queues * sizeof *watch.deques,
                            cudaMemcpyDeviceToHost, watch.stream);
    if (e == cudaSuccess && ctl)
        e = cudaMemcpyAsync(ctl, s->ctl, sizeof *ctl, cudaMemcpyDeviceToHost, watch.stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(watch.stream);
    return e;
}

/* Notes one value's change on the host's clock (the device's timer has no known relation
 * to it). */
static int note(size_t k, unsigned long long v, double t)
{
    if (v == watch.seen[k])
        return 0;
    watch.seen[k] = v;
    watch.since[k] = t;
    return 1;
}

/* Notes every change (WD1-WD3). Returns whether anything changed; counts the workers in the
 * scheduler loop, the busy ones and the lanes (blocks) in a segment (segment words only). */
static int note_all(double t, uint32_t *running, uint32_t *busy, uint32_t *in_task)
{
    int changed = 0;
    *running = *busy = *in_task = 0;
    for (uint32_t w = 0; w < watch.workers; w++) {
        *running += watch.state[w] != GTAP_WATCH_LEFT;
        *busy += watch.state[w] == GTAP_WATCH_BUSY;
        changed |= note(w, watch.state[w], t);
        changed |= note(watch.workers + w, watch.stats[w].tasks, t);
    }
    for (size_t k = 0; k < watch.nwords; k++) {
        *in_task += word_in_task(watch.words[k]);
        changed |= note(2 * (size_t)watch.workers + k, watch.words[k], t);
    }
    return changed;
}

/* Segments the workers reported (WD2: every 16th iteration, so up to 15 behind each). */
static unsigned long long reported_segments(void)
{
    unsigned long long sum = 0;
    for (uint32_t w = 0; w < watch.workers; w++)
        sum += watch.stats[w].tasks;
    return sum;
}

/* Since when worker w has reported no progress (host clock). */
static double quiet_since(uint32_t w)
{
    const double a = watch.since[w], b = watch.since[watch.workers + w];
    return a > b ? a : b;
}

/* The segment word of worker w that has named its function longest; -1 if none does. */
static long long oldest_slot(uint32_t w)
{
    if (!watch.nwords)
        return -1;
    const uint32_t per = slots_per_worker();
    long long best = -1;
    for (uint32_t k = w * per; k < (w + 1) * per; k++)
        if (word_in_task(watch.words[k]) && (best < 0 || word_since(k) < word_since((size_t)best)))
            best = k;
    return best;
}

/* Tasks waiting in worker w's deques (every EPAQ queue), as its counters show them. */
static long long deque_size(uint32_t w)
{
    const gtap_dev_state *s = &gtap_rt.state;
    long long n = 0;
    if (s->sched == GTAP_SCHED_GQ)
        return 0; /* one global queue, not per worker */
    for (int q = 0; q < s->num_queues; q++) {
        const gtap_deque *d = &watch.deques[(size_t)w * s->num_queues + q];
        n += s->sched == GTAP_SCHED_CL ? (long long)(int32_t)(d->bottom - d->head) : (long long)(uint32_t)d->meta;
    }
    return n;
}

/* The watchdog fired: say what every worker is doing, then end the process. A task that does
 * not return keeps the kernel running, and nothing else would end it. */
static void watchdog_fire(double t, double quiet_s)
{
    const gtap_dev_state *s = &gtap_rt.state;
    const int thread_mode = s->mode == GTAP_MODE_THREAD;
    const char *unit = thread_mode ? "warp" : "block";
    gtap_ctl ctl;
    memset(&ctl, 0, sizeof ctl);
    fflush(stdout);
    gtap_host_report_error(); /* a device error first, if the run was aborting */
    fprintf(stderr, "gtap: error: watchdog: no progress for %.1f s (GTAP_WATCHDOG_S=%g)\n", quiet_s, watchdog_s);
    if (read_device(1, &ctl) != cudaSuccess) {
        fprintf(stderr, "gtap: watchdog: the device state cannot be read\n");
    } else {
        uint32_t running, busy, in_task, holding = 0, listed = 0;
        long long oldest_worker = -1, oldest = -1;
        note_all(t, &running, &busy, &in_task);
        for (uint32_t w = 0; w < watch.workers; w++) {
            if (watch.state[w] == GTAP_WATCH_LEFT)
                continue;
            const int is_busy = watch.state[w] == GTAP_WATCH_BUSY;
            const long long k = oldest_slot(w);
            const long long queued = deque_size(w);
            holding += queued != 0;
            if (is_busy && (oldest_worker < 0 || quiet_since(w) < quiet_since((uint32_t)oldest_worker)))
                oldest_worker = w;
            if (k >= 0 && (oldest < 0 || word_since((size_t)k) < word_since((size_t)oldest)))
                oldest = k;
            if (!is_busy && !queued)
                continue;
            if (listed++ >= WATCH_LIST_MAX)
                continue;
            fprintf(stderr, "gtap: watchdog:   %s %u: %s, %lld queued, %llu segments reported, none for at least "
                    "%.1f s", unit, w, is_busy ? "busy" : "idle", queued, (unsigned long long)watch.stats[w].tasks,
                    t - quiet_since(w));
            if (k >= 0) {
                fprintf(stderr, "; in %s", gtap_host_fn_name((int)word_fn(watch.words[k])));
                if (thread_mode)
                    fprintf(stderr, " (lane %lld)", k % 32);
            }
            fprintf(stderr, "\n");
        }
        if (listed > WATCH_LIST_MAX)
            fprintf(stderr, "gtap: watchdog:   (%u more %ss busy or holding tasks)\n", listed - WATCH_LIST_MAX, unit);
        fprintf(stderr, "gtap: watchdog: %u %ss in the scheduler loop, %u busy, %u hold queued tasks; about %llu "
                "segments run; active count %d, run state %s\n", running, unit, busy, holding, reported_segments(),
                ctl.active, ctl.terminate == GTAP_RUN ? "running" : ctl.terminate == GTAP_RUN_DONE ? "done" : "aborting");
        if (oldest >= 0)
            fprintf(stderr, "gtap: watchdog: the oldest running task is %s on %s %llu, for at least %.1f s "
                    "(a task that does not return, or one longer than GTAP_WATCHDOG_S?)\n",
                    gtap_host_fn_name((int)word_fn(watch.words[oldest])), unit,
                    (unsigned long long)(oldest / slots_per_worker()), t - word_since((size_t)oldest));
        else if (oldest_worker >= 0)
            fprintf(stderr, "gtap: watchdog: %s %lld has been busy without progress for at least %.1f s: a task "
                    "that does not return, or %s longer than GTAP_WATCHDOG_S / 16 (a build with "
                    "-DGTAP_WATCH_TASKS=1 names the task of every %s)\n", unit, oldest_worker,
                    t - quiet_since((uint32_t)oldest_worker), thread_mode ? "iterations" : "segments",
                    thread_mode ? "lane" : "block");
        else
            fprintf(stderr, "gtap: watchdog: no worker is busy: the workers wait for tasks that never come "
                    "(a lost task or a runtime bug: please report it)\n");
    }
    fprintf(stderr, "gtap: the run failed; exiting with status 1\n");
    fflush(stderr);
    _exit(1); /* exit handlers would wait for the kernel */
}

static int should_stop(void)
{
    pthread_mutex_lock(&watch.lock);
    const int stop = watch.stop;
    pthread_mutex_unlock(&watch.lock);
    return stop;
}

/* WD5: a launch is watched from the first state word a worker writes until every worker has
 * left the loop; the clocks start again with each launch. */
static void *watch_main(void *arg)
{
    (void)arg;
    const struct timespec nap = {0, WATCH_READ_NS};
    int was_running = 0;
    double t0 = 0, last_change = 0, last_report = 0;
    unsigned long long last_segments = 0;
    while (!should_stop()) {
        nanosleep(&nap, NULL);
        if (read_device(0, NULL) != cudaSuccess)
            break; /* a faulted context: the program's own wait reports it */
        const double t = now_s();
        uint32_t running, busy, in_task;
        const int changed = note_all(t, &running, &busy, &in_task);
        if (!running) {
            was_running = 0;
            continue;
        }
        if (!was_running) {
            was_running = 1;
            t0 = last_change = last_report = t;
            last_segments = 0;
        }
        if (changed)
            last_change = t;
        if (progress_s > 0 && t - last_report >= progress_s) {
            const unsigned long long segments = reported_segments();
            const unsigned long long delta = segments > last_segments ? segments - last_segments : 0;
            fprintf(stderr, "gtap: progress: %.1f s: about %llu task segments (%.3g per second), %u of %u %ss "
                    "busy\n", t - t0, segments, delta / (t - last_report), busy, running,
                    gtap_rt.state.mode == GTAP_MODE_THREAD ? "warp" : "block");
            last_segments = segments;
            last_report = t;
        }
        if (watchdog_s > 0 && t - last_change >= watchdog_s)
            watchdog_fire(t, t - last_change);
    }
    return NULL;
}

int gtap_host_watch_start(void)
{
    const gtap_dev_state *s = &gtap_rt.state;
    if (watchdog_s <= 0 && progress_s <= 0)
        return cudaSuccess;
    watch.workers = s->max_workers;
    watch.nwords = s->watch ? gtap_host_watch_words(s) : 0;
    const size_t nseen = 2 * (size_t)watch.workers + watch.nwords;
    cudaError_t e = cudaStreamCreateWithFlags(&watch.stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaMallocHost((void **)&watch.state, watch.workers * sizeof *watch.state);
    if (e == cudaSuccess)
        e = cudaMallocHost((void **)&watch.stats, watch.workers * sizeof *watch.stats);
    if (e == cudaSuccess && watch.nwords)
        e = cudaMallocHost((void **)&watch.words, watch.nwords * sizeof *watch.words);
    if (e == cudaSuccess)
        e = cudaMallocHost((void **)&watch.deques, (size_t)watch.workers * s->num_queues * sizeof *watch.deques);
    if (e == cudaSuccess) {
        watch.seen = (unsigned long long *)calloc(nseen, sizeof *watch.seen);
        watch.since = (double *)calloc(nseen, sizeof *watch.since);
        if (!watch.seen || !watch.since)
            e = cudaErrorMemoryAllocation;
        else
            for (uint32_t w = 0; w < watch.workers; w++)
                watch.seen[w] = GTAP_WATCH_LEFT; /* as gtap_reset left them */
    }
    if (e == cudaSuccess) {
        pthread_mutex_init(&watch.lock, NULL);
        if (pthread_create(&watch.thread, NULL, watch_main, NULL) != 0)
            e = cudaErrorUnknown;
        else
            watch.started = 1;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "gtap: error: cannot start the watchdog (GTAP_WATCHDOG_S / GTAP_PROGRESS): %s\n",
                cudaGetErrorString(e));
        gtap_host_watch_stop();
    }
    return e;
}

void gtap_host_watch_stop(void)
{
    if (watch.started) {
        pthread_mutex_lock(&watch.lock);
        watch.stop = 1;
        pthread_mutex_unlock(&watch.lock);
        pthread_join(watch.thread, NULL);
        pthread_mutex_destroy(&watch.lock);
    }
    void *pinned[] = {watch.state, watch.stats, watch.words, watch.deques};
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
        if (pinned[i])
            cudaFreeHost(pinned[i]);
    if (watch.stream)
        cudaStreamDestroy(watch.stream);
    free(watch.seen);
    free(watch.since);
    memset(&watch, 0, sizeof watch);
}
