/* nqt_checkpoint.h - the checkpoint file of nqueens_tuned: which subtrees at the checkpoint
 * depth are finished, with their counts; written atomically, read back strictly, and a
 * background writer that saves one every few seconds while the search runs (C, host only).
 *
 * File format (text, version 1; README.md shows an example):
 *   nqueens-checkpoint 1
 *   n <board size>
 *   depth <checkpoint depth>
 *   subtrees <how many placements the depth has: nqt_prefixes(n, depth)>
 *   done <how many lines follow>
 *   <index> <count>             one per finished subtree, indices strictly increasing;
 *                               count: the subtree's solutions, before its mirror weight
 *   checksum <16 hex digits>    FNV-1a 64 of every byte before this line
 * A file is replaced only by rename(2) of a complete, fsync'ed temporary file in the same
 * directory, so a reader sees the old or the new checkpoint, never a mixture; the checksum
 * catches what rename cannot (a copy cut short, an edit, a disk error).
 *
 * Subtree states are shared with the search as one 64-bit word per subtree: 0 while it is
 * unfinished, count + 1 once it is finished (a single word, so a reader on another thread
 * or the GPU writing it through mapped memory never sees a count without its flag). Readers
 * here load them with acquire atomics.
 */
#ifndef NQT_CHECKPOINT_H
#define NQT_CHECKPOINT_H

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NQT_CKPT_VERSION 1

/* A checkpoint as read from a file. */
typedef struct nqt_ckpt {
    int version, n, depth;
    long long subtrees, done;
    long long *index;          /* done entries, increasing */
    unsigned long long *count; /* their counts */
} nqt_ckpt;

/* Writes the checkpoint of `state` (subtrees words: 0 or count + 1) to path atomically
 * (temporary file path.tmp, fsync, rename, fsync of the directory). Returns the number of
 * finished subtrees it recorded, or -1 with a one-line reason in err. Any thread. */
long long nqt_ckpt_write(const char *path, int n, int depth, long long subtrees,
                         const unsigned long long *state, char *err, size_t err_len);

/* Reads path into *out (free with nqt_ckpt_free). Returns 0, or -1 with a one-line reason
 * in err (cannot open, not a checkpoint, unknown version, malformed or truncated, checksum
 * mismatch, index out of range or out of order); *out is written only on success. The
 * caller checks n, depth and subtrees against its own run. */
int nqt_ckpt_read(const char *path, nqt_ckpt *out, char *err, size_t err_len);

void nqt_ckpt_free(nqt_ckpt *c);

/* A thread that writes the checkpoint every interval_s seconds while the search runs. */
typedef struct nqt_ckpt_writer {
    const char *path;
    int n, depth;
    long long subtrees;
    const unsigned long long *state;
    double interval_s;
    long long kill_after; /* > 0: raise SIGKILL after writing a checkpoint with this many done */
    long long writes;     /* checkpoints written by the thread */
    int stop, failing;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} nqt_ckpt_writer;

/* Starts the writer thread (fields as above; kill_after is the test hook of the README's
 * kill/resume test: the process ends by SIGKILL right after the first checkpoint that
 * records at least kill_after finished subtrees). Returns 0 or -1 (message printed). */
int nqt_ckpt_writer_start(nqt_ckpt_writer *w, const char *path, int n, int depth, long long subtrees,
                          const unsigned long long *state, double interval_s, long long kill_after);

/* Stops and joins the writer thread (its last periodic write, if under way, completes).
 * Call after the search has finished or failed; the caller writes the final checkpoint. */
void nqt_ckpt_writer_stop(nqt_ckpt_writer *w);

/* With kill_after: waits for the writer thread, which ends the process once it has written a
 * checkpoint with kill_after finished subtrees (the caller has finished at least that many). */
void nqt_ckpt_writer_await_kill(nqt_ckpt_writer *w);

/* The test hook of --test-kill-after: prints that a checkpoint with `done` (>= kill_after)
 * finished subtrees is written, then ends the process by SIGKILL, as a crash or an OOM kill
 * would: nqt_ckpt_test_kill on the calling thread; nqt_ckpt_test_kill_soon from a thread of
 * its own, returning at once, so that the caller goes on (rank 0 of a distributed run into
 * its next launch, which it then leaves by dying while the other ranks run it). After
 * nqt_ckpt_test_kill_soon the caller writes no checkpoint and, once it has nothing else to
 * do, calls nqt_ckpt_test_kill_await. Any thread. */
void nqt_ckpt_test_kill(long long kill_after, long long done) __attribute__((noreturn));
void nqt_ckpt_test_kill_soon(long long kill_after, long long done);
void nqt_ckpt_test_kill_await(void) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* NQT_CHECKPOINT_H */
