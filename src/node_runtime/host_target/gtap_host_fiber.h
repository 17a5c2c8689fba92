/* gtap_host_fiber.h (host target) - user-level contexts ("fibers") on one OS thread, each on
 * its own stack: the simulated threads of a block-level task run on them (gtap_host_block.h).
 *
 * A switch saves the callee-saved registers of the running context on its stack and loads
 * another's, so a simulated thread that waits at __syncthreads() keeps its locals and its
 * place in the task's code while the other threads of the block run. On x86-64 the switch
 * is a dozen instructions (below); elsewhere, or with GTAP_HOST_FIBER_UCONTEXT, it is
 * swapcontext(3), which also saves the signal mask with a system call per switch (about
 * a microsecond: fine for tests, slow for large block-level runs).
 *
 * C and C++; header-only. Stacks come from mmap with a guard page below them, so a simulated
 * thread that overflows its stack stops with SIGSEGV instead of overwriting another's.
 */
#ifndef GTAP_HOST_FIBER_H
#define GTAP_HOST_FIBER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(GTAP_HOST_FIBER_UCONTEXT)
#define GTAP_HOST_FIBER_ASM 1
#else
#include <ucontext.h>
#endif

/* The function a fiber runs; it must never return (it switches away for good instead). */
typedef void (*gtap_fiber_fn)(void *arg);

typedef struct gtap_fiber {
#if defined(GTAP_HOST_FIBER_ASM)
    void *sp;          /* saved stack pointer; the registers lie on the stack above it */
#else
    ucontext_t uc;
#endif
    unsigned char *map; /* the stack's mapping (guard page first); NULL for the OS thread's context */
    size_t map_bytes;
    size_t skew;        /* the stack starts this many bytes below the mapping's end */
} gtap_fiber;

#if defined(GTAP_HOST_FIBER_ASM)
/* gtap_host_fiber_swap(save, load): pushes the callee-saved registers rbp, rbx, r12-r15,
 * stores rsp in *save, loads rsp from load and pops the same in reverse; `ret` then resumes
 * the loaded context (or, for a new fiber, enters gtap_host_fiber_start). The SSE and x87
 * control words (rounding, exceptions) are not switched: the simulated threads share them,
 * like the threads of a program that never calls fesetround (saving them cost 3% of the
 * block-level BFS of apps/dist). Weak and hidden: every translation unit that includes
 * this header emits it, the linker keeps one. */
__asm__(".pushsection .text\n"
        ".weak gtap_host_fiber_swap\n"
        ".hidden gtap_host_fiber_swap\n"
        ".type gtap_host_fiber_swap,@function\n"
        "gtap_host_fiber_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size gtap_host_fiber_swap, .-gtap_host_fiber_swap\n"
        /* A new fiber's first switch returns here with the function in r13 and its argument
         * in r12 (gtap_fiber_init); rsp is 16-aligned, as a call site must have it. */
        ".weak gtap_host_fiber_start\n"
        ".hidden gtap_host_fiber_start\n"
        ".type gtap_host_fiber_start,@function\n"
        "gtap_host_fiber_start:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size gtap_host_fiber_start, .-gtap_host_fiber_start\n"
        ".popsection\n");
#ifdef __cplusplus
extern "C" {
#endif
void gtap_host_fiber_swap(void **save, void *load);
void gtap_host_fiber_start(void);
#ifdef __cplusplus
}
#endif
#else
/* makecontext passes int arguments: the function and its argument travel as halves. */
static void gtap_fiber_uc_entry(unsigned fn_lo, unsigned fn_hi, unsigned arg_lo, unsigned arg_hi)
{
    gtap_fiber_fn fn = (gtap_fiber_fn)(((uintptr_t)fn_hi << 32) | fn_lo);
    fn((void *)(((uintptr_t)arg_hi << 32) | arg_lo));
}
#endif

/* Maps a stack of `bytes` (rounded up to pages) plus a guard page for f. The stack starts
 * `color` cache lines (mod 64) below the mapping's end: fibers of one block given different
 * colors keep their hot frames in different L1 sets (stack tops that are all a multiple of
 * 4 KiB apart compete for the same few; measured: the block-level BFS of apps/dist, 32
 * threads and two barriers per task, 12% faster). Returns 0, or -1 when the memory is not
 * there (f unchanged). */
static inline int gtap_fiber_stack_alloc(gtap_fiber *f, size_t bytes, unsigned color)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t n = (bytes + page - 1) / page * page + page;
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mprotect(m, page, PROT_NONE) != 0) { /* the guard page: an overflow faults */
        munmap(m, n);
        return -1;
    }
    f->map = (unsigned char *)m;
    f->map_bytes = n;
    f->skew = (size_t)(color % 64u) * 64u;
    return 0;
}

static inline void gtap_fiber_stack_free(gtap_fiber *f)
{
    if (f->map)
        munmap(f->map, f->map_bytes);
    f->map = NULL;
    f->map_bytes = 0;
}

/* Prepares f (with a stack) so that the next switch into it calls fn(arg) at the top of its
 * stack. Also how an abandoned fiber (its thread left in the middle of a segment after an
 * error) is made fresh again. */
static inline void gtap_fiber_init(gtap_fiber *f, gtap_fiber_fn fn, void *arg)
{
#if defined(GTAP_HOST_FIBER_ASM)
    uintptr_t top = ((uintptr_t)(f->map + f->map_bytes - f->skew)) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 56); /* what gtap_host_fiber_swap pops, then its `ret` */
    memset(sp, 0, 56);                     /* r15, r14, rbx, rbp: 0 */
    sp[2] = (uint64_t)(uintptr_t)fn;       /* r13 */
    sp[3] = (uint64_t)(uintptr_t)arg;      /* r12 */
    sp[6] = (uint64_t)(uintptr_t)gtap_host_fiber_start; /* ret: rsp = top, 16-aligned */
    f->sp = sp;
#else
    uintptr_t fp = (uintptr_t)fn, ap = (uintptr_t)arg;
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = f->map + (size_t)sysconf(_SC_PAGESIZE);
    f->uc.uc_stack.ss_size = f->map_bytes - (size_t)sysconf(_SC_PAGESIZE) - f->skew;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, (void (*)(void))gtap_fiber_uc_entry, 4, (unsigned)fp, (unsigned)(fp >> 32),
                (unsigned)ap, (unsigned)(ap >> 32));
#endif
}

/* Saves the running context in `from` and resumes `to`. Returns when something switches back
 * into `from`. The "memory" clobber: whatever the other contexts wrote (threadIdx, shared
 * variables, the block's state) is read again after the switch. */
static inline void gtap_fiber_switch(gtap_fiber *from, gtap_fiber *to)
{
#if defined(GTAP_HOST_FIBER_ASM)
    gtap_host_fiber_swap(&from->sp, to->sp);
#else
    swapcontext(&from->uc, &to->uc);
#endif
    __asm__ volatile("" ::: "memory");
}

#endif /* GTAP_HOST_FIBER_H */
