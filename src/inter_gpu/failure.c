/* failure.c - ending the whole job on any rank's failure, with one message that names the
 * rank, host, device and cause: fatal errors (node, MPI, protocol, watchdog), fatal
 * signals, and a rank that exits without gtap_dist_finalize(). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist_internal.h"

static int failing;              /* 0 -> 1 by the first fatal report (atomic) */
static struct sigaction old_actions[32];

int gtap_dist_failing(void)
{
    return __atomic_load_n(&failing, __ATOMIC_ACQUIRE);
}

static void write_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = write(2, s, n);
        if (k <= 0)
            return;
        s += k;
        n -= (size_t)k;
    }
}

static void abort_job(int code)
{
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code);
}

void gtap_dist_fatal(const char *fmt, ...)
{
    char msg[2048];
    int n;
    va_list ap;
    if (__atomic_exchange_n(&failing, 1, __ATOMIC_ACQ_REL)) {
        for (;;) /* another thread is ending the job */
            pause();
    }
    n = snprintf(msg, sizeof msg, "gtap: rank %d (host %s, %s): ", gtap_dist_g.rank,
                 gtap_dist_g.host[0] ? gtap_dist_g.host : "?",
                 gtap_dist_g.device[0] ? gtap_dist_g.device : "no node attached");
    va_start(ap, fmt);
    n += vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof msg - 40)
        n = (int)sizeof msg - 40;
    n += snprintf(msg + n, sizeof msg - (size_t)n, "; aborting the job\n");
    fflush(stdout);
    write_all(msg, (size_t)n);
    abort_job(1);
    __builtin_unreachable();
}

void gtap_dist_mpi_fatal(int rc, const char *call, const char *file, int line)
{
    char es[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, es, &len) != MPI_SUCCESS)
        snprintf(es, sizeof es, "error code %d", rc);
    gtap_dist_fatal("MPI error in %s (%s:%d): %s", call, file, line, es);
}

/* Async-signal-safe report of a fatal signal; the previous disposition then runs (Open MPI
 * or the default), which ends the process, and the launcher ends the job. */
static void on_signal(int sig)
{
    char msg[256];
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE"
                       : sig == SIGILL ? "SIGILL" : sig == SIGABRT ? "SIGABRT" : "signal";
    int n = 0;
    if (!__atomic_exchange_n(&failing, 1, __ATOMIC_ACQ_REL)) {
        /* hand-made formatting: snprintf is not async-signal-safe */
        const char *parts[] = {"gtap: rank ", NULL, " (host ", gtap_dist_g.host, ", ",
                               gtap_dist_g.device[0] ? gtap_dist_g.device : "no node attached",
                               "): fatal signal ", name, "; the job ends\n"};
        char num[16];
        int r = gtap_dist_g.rank, k = 0;
        char tmp[16];
        do { tmp[k++] = (char)('0' + r % 10); r /= 10; } while (r && k < 15);
        for (int i = 0; i < k; i++) num[i] = tmp[k - 1 - i];
        num[k] = 0;
        parts[1] = num;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            size_t l = strlen(parts[i]);
            if (n + (int)l >= (int)sizeof msg)
                break;
            memcpy(msg + n, parts[i], l);
            n += (int)l;
        }
        write_all(msg, (size_t)n);
    }
    sigaction(sig, &old_actions[sig], NULL);
    raise(sig);
}

/* A rank that leaves main (or calls exit) while the job is running would leave the others
 * waiting for it forever: end the job instead. */
static void on_exit_handler(int status, void *arg)
{
    (void)arg;
    if (!gtap_dist_g.active || gtap_dist_failing())
        return;
    gtap_dist_fatal("the process exited with status %d without calling gtap_dist_finalize()", status);
}

void gtap_dist_failure_install(void)
{
    static int installed;
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    if (installed)
        return;
    installed = 1;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, &old_actions[sigs[i]]);
    }
    on_exit(on_exit_handler, NULL);
}
