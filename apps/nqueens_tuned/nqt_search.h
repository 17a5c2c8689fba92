/* nqt_search.h - the tuned N-Queens search, shared by the GPU program (device code, also on the
 * host target) and the CPU baselines (C): the subtrees at the checkpoint depth, and the leaf,
 * an iterative bitboard DFS that can stop after a budget of steps and describe what is left.
 *
 * Board encoding (as apps/nqueens): bit j of `cols` is column j, `left` / `right` the columns
 * attacked on the current row by the diagonals of the queens above; placing column bit p
 * moves to the next row as cols | p, (left | p) << 1, (right | p) >> 1.
 *
 * The DFS stack holds one word per level: the candidate set of that level *including* the
 * column placed there, which is its lowest bit (candidates are taken lowest first, so every
 * bit below it is done), and in bits 30 and 31 what the move to the next row shifts out of
 * the masks: bit 0 of right and bit 31 of left. Nothing else is stacked: backtracking
 * recovers the parent's masks exactly from that word, cols ^ p, (left >> 1 | lost bit 31)
 * & ~p and (right << 1 | lost bit 0) & ~p. (Without the two lost bits the masks come back
 * short by a bit, and the missing bit re-enters the board a few levels further up.) One word
 * per level, not four, keeps the per-lane stack small enough for shared memory.
 *
 * The caller owns the stack storage: `stack[k * stride]` is level k, so the GPU program puts
 * it in shared memory with one column per thread (stride = threads per block: consecutive
 * lanes hit consecutive banks at every level, with no bank conflicts however their depths
 * differ) and the CPU in a local array (stride 1).
 */
#ifndef NQT_SEARCH_H
#define NQT_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#if !defined(__CUDACC__) && !defined(GTAP_TARGET_HOST)
#define NQT_FN static inline
#define NQT_POPC(x) __builtin_popcount(x)
#else
#define NQT_FN static __host__ __device__ __forceinline__
#if defined(__CUDA_ARCH__)
#define NQT_POPC(x) __popc(x)
#else
#define NQT_POPC(x) __builtin_popcount(x)
#endif
#endif

/* Largest board: the known counts (OEIS A000170) end at 27; the stack words hold candidates
 * in bits 0..29 (NQT_CAND_BITS) and two shifted-out mask bits in 30 and 31. */
#define NQT_MAX_N 27
#define NQT_CAND_BITS 0x3fffffffu
#define NQT_LOST_BITS 0xc0000000u
#if NQT_MAX_N > 30
#error "the stack words keep bits 30 and 31 for the masks' shifted-out bits"
#endif
/* Stack words a DFS from row 0 may use: levels 0 .. n - 3 (a placement on row n - 2 counts
 * the free columns of the last row instead of descending, nqt_dfs_run). */
#define NQT_STACK_DEPTH (NQT_MAX_N - 1)

/* A000170: solutions on an n x n board, n = 0..27. */
static const unsigned long long nqt_known[NQT_MAX_N + 1] = {
    1ull, 1ull, 0ull, 0ull, 2ull, 10ull, 4ull, 40ull, 92ull, 352ull, 724ull, 2680ull, 14200ull,
    73712ull, 365596ull, 2279184ull, 14772512ull, 95815104ull, 666090624ull, 4968057848ull,
    39029188884ull, 314666222712ull, 2691008701644ull, 24233937684440ull, 227514171973736ull,
    2207893435808352ull, 22317699616364044ull, 234907967154122528ull};

NQT_FN uint32_t nqt_board_mask(int n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1u; }

/* The free columns of a row. */
NQT_FN uint32_t nqt_free(uint32_t mask, uint32_t cols, uint32_t left, uint32_t right)
{
    return mask & ~(cols | left | right);
}

/* The stack word of a level whose masks are left/right, candidates a (p = lowest bit). */
NQT_FN uint32_t nqt_stack_word(uint32_t a, uint32_t left, uint32_t right)
{
    return a | (left & 0x80000000u) | ((right & 1u) << 30);
}

/* Back from the next row to the level of stack word w: undoes the placement of p = w's lowest
 * bit. */
NQT_FN void nqt_undo(uint32_t w, uint32_t p, uint32_t *cols, uint32_t *left, uint32_t *right)
{
    *cols ^= p;
    *left = ((*left >> 1) | (w & 0x80000000u)) & ~p;
    *right = ((*right << 1) | ((w >> 30) & 1u)) & ~p;
}

/* A resumable DFS below one row. `row0` is its first row; `depth` the current level relative
 * to it; the masks and `avail` (candidates of the current level not yet explored) describe
 * the current level; levels 0..depth-1 are on the stack. */
typedef struct nqt_dfs {
    uint32_t mask, cols, left, right, avail;
    int row0, depth, last; /* last: the level where one row remains (n - 1 - row0) */
    unsigned long long count;
} nqt_dfs;

/* Starts a DFS that explores the candidates `avail` of row `row` (a subset of that row's free
 * columns) on an n x n board; row == n is a complete placement, counted once, and on the last
 * row every candidate is one solution. */
NQT_FN void nqt_dfs_begin(nqt_dfs *s, int n, int row, uint32_t cols, uint32_t left, uint32_t right,
                          uint32_t avail)
{
    s->mask = nqt_board_mask(n);
    s->cols = cols;
    s->left = left;
    s->right = right;
    s->avail = avail;
    s->row0 = row;
    s->depth = 0;
    s->last = n - 1 - row;
    s->count = row == n ? 1 : 0;
    if (row == n - 1) {
        s->count = (unsigned)NQT_POPC(avail);
        s->avail = 0;
    }
}

/* Runs at most `budget` steps (a step places a queen or backtracks one level). Returns 1 when
 * the DFS is finished, 0 when the budget ran out: then s and the stack hold the rest
 * (nqt_dfs_split, or run again). Solutions accumulate in s->count.
 * The DFS never enters the last row: a placement on the row before counts the free columns it
 * leaves there (at most one: n - 1 columns are taken), so a step finds at most one solution
 * and this call's count fits the 32-bit step counter's range. The stack is addressed through
 * a pointer moved by `stride`, not by depth times stride, to keep the loop short, and the
 * word of the level above is kept in a register (`above`): backtracking uses it at once and
 * loads the next one up for a later backtrack, so the load's latency (shared memory on the
 * GPU) is off the step's critical path. A step per placement instead (a dead-end placement
 * not descended into, exhausted levels backed out of in the same step) takes half the steps
 * and ran 2.1x slower on the GPU (bench/NOTES.md). */
NQT_FN int nqt_dfs_run(nqt_dfs *s, uint32_t *stack, int stride, uint32_t budget)
{
    const uint32_t mask = s->mask;
    uint32_t c = s->cols, l = s->left, r = s->right, a = s->avail, found = 0;
    uint32_t *top = stack + s->depth * stride;                   /* where the current level's word goes */
    uint32_t above = s->depth ? top[-stride] : 0;                 /* the word of the level above */
    const uint32_t *before_last = /* the level above the last row (none: begin counted it) */
        s->last >= 1 ? stack + (s->last - 1) * stride : NULL;
    int done = 0;
    for (; budget; budget--) {
        if (a) {
            const uint32_t p = a & (0u - a);
            const uint32_t c1 = c | p, l1 = (l | p) << 1, r1 = (r | p) >> 1;
            const uint32_t a1 = nqt_free(mask, c1, l1, r1);
            if (top == before_last) { /* the next row is the last: count, stay */
                found += (uint32_t)NQT_POPC(a1);
                a ^= p;
            } else {
                above = nqt_stack_word(a, l, r); /* p stays in: see the file comment */
                *top = above;
                top += stride;
                c = c1;
                l = l1;
                r = r1;
                a = a1;
            }
        } else {
            if (top == stack) {
                done = 1;
                break;
            }
            top -= stride;
            const uint32_t w = above;
            above = top != stack ? top[-stride] : 0; /* needed at the next backtrack only */
            const uint32_t p = w & (0u - w);
            a = (w ^ p) & NQT_CAND_BITS;
            nqt_undo(w, p, &c, &l, &r);
        }
    }
    s->cols = c;
    s->left = l;
    s->right = r;
    s->avail = a;
    s->depth = (int)((top - stack) / stride);
    s->count += found;
    return done;
}

/* Whether nqt_dfs_split would find a piece: a stacked level with a candidate left besides
 * the column placed there. */
NQT_FN int nqt_dfs_can_split(const nqt_dfs *s, const uint32_t *stack, int stride)
{
    for (int k = 0; k < s->depth; k++) {
        const uint32_t w = stack[k * stride] & NQT_CAND_BITS;
        if (w & (w - 1))
            return 1;
    }
    return 0;
}

/* Splits off the unexplored candidates of the shallowest stacked level that has any (the
 * largest piece of what is left): writes that level's row, masks and candidates to the
 * out-parameters and removes them from s. Returns 0 (nothing written) when no stacked level
 * has candidates left. */
NQT_FN int nqt_dfs_split(nqt_dfs *s, uint32_t *stack, int stride, int *row_p, uint32_t *cols_p,
                         uint32_t *left_p, uint32_t *right_p, uint32_t *avail_p)
{
    int k = 0;
    while (k < s->depth) {
        const uint32_t w = stack[k * stride] & NQT_CAND_BITS;
        if (w & (w - 1))
            break;
        k++;
    }
    if (k == s->depth)
        return 0;
    uint32_t c = s->cols, l = s->left, r = s->right;
    for (int j = s->depth - 1; j >= k; j--) { /* undo the placements of levels depth-1 .. k */
        const uint32_t w = stack[j * stride];
        nqt_undo(w, w & (0u - w), &c, &l, &r);
    }
    const uint32_t w = stack[k * stride];
    const uint32_t p = w & (0u - w);
    stack[k * stride] = p | (w & NQT_LOST_BITS); /* level k keeps only the column it has placed */
    *row_p = s->row0 + k;
    *cols_p = c;
    *left_p = l;
    *right_p = r;
    *avail_p = (w ^ p) & NQT_CAND_BITS;
    return 1;
}

/* ---- The subtrees at the checkpoint depth (host code) ------------------------------------ */

/* One placement of the first `depth` rows: the masks of row `depth` and its free columns.
 * weight: how many solutions each one found below it stands for (the first queen goes only
 * in the left half, mirrors counted by weight 2; the middle column of an odd board: 1). */
typedef struct nqt_prefix {
    uint32_t cols, left, right, avail;
    uint32_t weight;
} nqt_prefix;

/* Enumerates the placements of rows 0..depth-1 (1 <= depth <= n <= NQT_MAX_N; row 0 in the
 * columns 0..(n-1)/2) in lexicographic order of their columns, the order that numbers the
 * subtrees of a checkpoint file. Writes them to out (when not NULL) and returns how many
 * there are. */
static inline long long nqt_prefixes(int n, int depth, nqt_prefix *out)
{
    const uint32_t mask = nqt_board_mask(n);
    uint32_t st_c[NQT_MAX_N + 1], st_l[NQT_MAX_N + 1], st_r[NQT_MAX_N + 1], st_a[NQT_MAX_N + 1];
    uint32_t first = 0; /* row 0's column */
    long long count = 0;
    int d = 0;
    st_c[0] = st_l[0] = st_r[0] = 0;
    st_a[0] = mask & ((1u << ((n + 1) / 2)) - 1u);
    for (;;) {
        if (d == depth) {
            if (out) {
                nqt_prefix *x = &out[count];
                x->cols = st_c[d];
                x->left = st_l[d];
                x->right = st_r[d];
                x->avail = nqt_free(mask, st_c[d], st_l[d], st_r[d]);
                x->weight = 2 * first + 1 == (uint32_t)n ? 1 : 2;
            }
            count++;
            d--;
            continue;
        }
        if (st_a[d] == 0) {
            if (d == 0)
                break;
            d--;
            continue;
        }
        const uint32_t a = st_a[d], p = a & (0u - a);
        st_a[d] = a ^ p;
        if (d == 0)
            first = (uint32_t)__builtin_ctz(p);
        st_c[d + 1] = st_c[d] | p;
        st_l[d + 1] = (st_l[d] | p) << 1;
        st_r[d + 1] = (st_r[d] | p) >> 1;
        st_a[d + 1] = nqt_free(mask, st_c[d + 1], st_l[d + 1], st_r[d + 1]);
        d++;
    }
    return count;
}

/* The checkpoint depth and the first row of the leaf search when not given (README: the
 * reasons for these numbers). */
#define NQT_DEFAULT_CHECKPOINT_DEPTH 4
static inline int nqt_default_cutoff(int n)
{
    const int c = n >= 19 ? 5 : n >= 15 ? 6 : 7;
    return c < n ? c : n;
}

#endif /* NQT_SEARCH_H */
