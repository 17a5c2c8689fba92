/* app_input.c - reproducible inputs and CPU references of the applications (app_input.h). */
#include "app_input.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void app_rng_seed(app_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t app_rng_next(app_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

uint64_t app_rng_below(app_rng *r, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)app_rng_next(r) * bound) >> 64);
}

double app_rng_unit(app_rng *r) { return (double)(app_rng_next(r) >> 11) * 0x1.0p-53; }

/* mt19937_64 as the C++ standard defines it ([rand.predef]). */
#define MT_N 312
#define MT_M 156
void app_mt64_seed(app_mt64 *m, uint64_t seed)
{
    m->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        m->mt[i] = 6364136223846793005ull * (m->mt[i - 1] ^ (m->mt[i - 1] >> 62)) + (uint64_t)i;
    m->i = MT_N;
}

uint64_t app_mt64_next(app_mt64 *m)
{
    const uint64_t upper = ~0ull << 31, lower = ~upper;
    if (m->i >= MT_N) {
        for (int k = 0; k < MT_N; k++) {
            uint64_t x = (m->mt[k] & upper) | (m->mt[(k + 1) % MT_N] & lower);
            uint64_t xa = (x >> 1) ^ ((x & 1) ? 0xb5026f5aa96619e9ull : 0);
            m->mt[k] = m->mt[(k + MT_M) % MT_N] ^ xa;
        }
        m->i = 0;
    }
    uint64_t y = m->mt[m->i++];
    y ^= (y >> 29) & 0x5555555555555555ull;
    y ^= (y << 17) & 0x71d67fffeda60000ull;
    y ^= (y << 37) & 0xfff7eee000000000ull;
    y ^= y >> 43;
    return y;
}

/* ---- sorting benchmarks ----------------------------------------------------------------- */

void app_sort_input(int32_t *a, size_t n)
{
    uint64_t x = 123456789ull;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245ull + 12345ull;
        a[i] = (int32_t)((uint32_t)x ^ 0x80000000u);
    }
}

void app_sort_fold_dups(int32_t *a, size_t n, long long dups)
{
    for (size_t i = 0; dups > 0 && i < n; i++)
        a[i] = INT32_MAX - (int32_t)((uint32_t)a[i] % (uint32_t)dups);
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
    return z ^ (z >> 33);
}

app_multiset app_multiset_of(const int32_t *a, size_t n)
{
    app_multiset m = {0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint32_t)a[i];
        m.h1 += mix64(v + 0x9e3779b97f4a7c15ull);
        m.h2 += mix64(v * 0xd6e8feb86659fd93ull + 0x2545f4914f6cdd1dull);
    }
    return m;
}

int app_sort_verify(const int32_t *a, size_t n, app_multiset want, size_t *bad_p)
{
    for (size_t i = 1; i < n; i++)
        if (a[i - 1] > a[i]) {
            *bad_p = i;
            return 1;
        }
    app_multiset got = app_multiset_of(a, n);
    if (got.h1 != want.h1 || got.h2 != want.h2) {
        *bad_p = n;
        return 1;
    }
    return 0;
}

int app_sort_result(FILE *out, const char *app, int check, const int32_t *a, size_t n, app_multiset want,
                    char *answer, size_t cap)
{
    size_t bad = 0;
    int r = -1;
    snprintf(answer, cap, "min=%d;max=%d", a[0], a[n - 1]);
    if (check && (r = app_sort_verify(a, n, want, &bad)) != 0)
        fprintf(out, "%s: output %s at index %zu\n", app, bad < n ? "unsorted" : "not a permutation of the input",
                bad);
    return r;
}

/* ---- tree benchmarks ---------------------------------------------------------------------- */

void app_tree_input(double *t)
{
    app_mt64 m;
    app_mt64_seed(&m, 0xC0FFEE);
    for (uint32_t i = 0; i < APP_TREE_INPUT_N; i++) {
        /* libstdc++ generate_canonical<double, 53> with a 64-bit engine: one draw / 2^64,
         * clamped below 1; then a + u (b - a). u * 2.0 is exact, so the result does not
         * depend on FMA contraction. */
        double u = (double)app_mt64_next(&m) / 18446744073709551616.0;
        if (u >= 1.0)
            u = nextafter(1.0, 0.0);
        t[i] = u * 2.0 + -1.0;
    }
}

/* ---- CSR construction ---------------------------------------------------------------------- */

void app_csr_free(app_csr *g)
{
    free(g->row);
    free(g->col);
    free(g->val);
    memset(g, 0, sizeof *g);
}

static void *xmalloc(size_t n, const char *what)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        fprintf(stderr, "app_input: out of memory (%zu bytes for %s)\n", n, what);
    return p;
}

typedef struct cv {
    int c;
    double v;
} cv;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

static int cmp_cv(const void *a, const void *b) { return cmp_int(&((const cv *)a)->c, &((const cv *)b)->c); }

/* Builds g (nrows x ncols) from m edges src[i] -> dst[i] (values val[i] or none): rows
 * sorted, duplicates merged (values summed when sum_dups, else the first kept), self loops
 * dropped when drop_loops. Frees nothing of the inputs. */
static int build_csr(app_csr *g, int nrows, int ncols, long long m, const int *src, const int *dst,
                     const double *val, int drop_loops, int sum_dups)
{
    memset(g, 0, sizeof *g);
    g->nrows = nrows;
    g->ncols = ncols;
    long long *cnt = (long long *)calloc((size_t)nrows + 1, sizeof *cnt);
    if (!cnt)
        return -1;
    for (long long i = 0; i < m; i++)
        if (!(drop_loops && src[i] == dst[i]))
            cnt[src[i] + 1]++;
    for (int r = 0; r < nrows; r++)
        cnt[r + 1] += cnt[r];
    long long total = cnt[nrows];
    if (total > 0x7fffffffll) {
        fprintf(stderr, "app_input: %lld entries do not fit 32-bit CSR offsets\n", total);
        free(cnt);
        return -1;
    }
    int *col = (int *)xmalloc((size_t)total * sizeof *col, "columns");
    double *v = val ? (double *)xmalloc((size_t)total * sizeof *v, "values") : NULL;
    g->row = (int *)xmalloc(((size_t)nrows + 1) * sizeof *g->row, "row offsets");
    if (!col || (val && !v) || !g->row) {
        free(cnt), free(col), free(v);
        app_csr_free(g);
        return -1;
    }
    for (int r = 0; r <= nrows; r++)
        g->row[r] = (int)cnt[r];
    for (long long i = 0; i < m; i++) {
        if (drop_loops && src[i] == dst[i])
            continue;
        long long p = cnt[src[i]]++;
        col[p] = dst[i];
        if (v)
            v[p] = val[i];
    }
    free(cnt);
    /* sort and merge each row in place, compacting */
    long long out = 0;
    cv *tmp = NULL;
    size_t tmp_cap = 0;
    for (int r = 0; r < nrows; r++) {
        long long b = g->row[r], e = g->row[r + 1];
        g->row[r] = (int)out;
        if (!v) {
            int *c = col + b;
            long long len = e - b;
            if (len < 24) { /* insertion sort: most rows are short */
                for (long long i = 1; i < len; i++) {
                    int x = c[i];
                    long long j = i - 1;
                    while (j >= 0 && c[j] > x) {
                        c[j + 1] = c[j];
                        j--;
                    }
                    c[j + 1] = x;
                }
            } else {
                qsort(c, (size_t)len, sizeof *c, cmp_int);
            }
            for (long long i = 0; i < len; i++)
                if (i == 0 || c[i] != c[i - 1])
                    col[out++] = c[i];
        } else {
            size_t len = (size_t)(e - b);
            if (len > tmp_cap) {
                free(tmp);
                tmp_cap = len * 2;
                tmp = (cv *)xmalloc(tmp_cap * sizeof *tmp, "row buffer");
                if (!tmp) {
                    free(col), free(v);
                    app_csr_free(g);
                    return -1;
                }
            }
            for (size_t i = 0; i < len; i++) {
                tmp[i].c = col[b + (long long)i];
                tmp[i].v = v[b + (long long)i];
            }
            /* stable order of duplicates is not needed: merged by sum, or any one kept */
            qsort(tmp, len, sizeof *tmp, cmp_cv);
            for (size_t i = 0; i < len; i++) {
                if (i > 0 && tmp[i].c == tmp[i - 1].c) {
                    if (sum_dups)
                        v[out - 1] += tmp[i].v;
                    continue;
                }
                col[out] = tmp[i].c;
                v[out++] = tmp[i].v;
            }
        }
    }
    free(tmp);
    g->row[nrows] = (int)out;
    g->nnz = out;
    g->col = (int *)realloc(col, (size_t)(out ? out : 1) * sizeof *col);
    g->val = v ? (double *)realloc(v, (size_t)(out ? out : 1) * sizeof *v) : NULL;
    return 0;
}

/* ---- generators ------------------------------------------------------------------------------ */

int app_graph_rmat(app_csr *g, int scale, int edge_factor, uint64_t seed, int undirected)
{
    if (scale < 1 || scale > 30 || edge_factor < 1) {
        fprintf(stderr, "app_input: R-MAT scale %d / edge factor %d out of range\n", scale, edge_factor);
        return -1;
    }
    const int nv = 1 << scale;
    const long long ne = (long long)edge_factor << scale, m = undirected ? 2 * ne : ne;
    int *src = (int *)xmalloc((size_t)m * sizeof *src, "edges");
    int *dst = (int *)xmalloc((size_t)m * sizeof *dst, "edges");
    int *perm = (int *)xmalloc((size_t)nv * sizeof *perm, "permutation");
    if (!src || !dst || !perm) {
        free(src), free(dst), free(perm);
        return -1;
    }
    app_rng r;
    app_rng_seed(&r, seed);
    /* quadrant thresholds in 16-bit fixed point: a, a+b, a+b+c */
    const uint32_t ta = (uint32_t)(0.57 * 65536), tab = (uint32_t)(0.76 * 65536), tabc = (uint32_t)(0.95 * 65536);
    for (long long e = 0; e < ne; e++) {
        uint32_t u = 0, v = 0;
        uint64_t bits = 0;
        for (int l = 0; l < scale; l++) {
            if ((l & 3) == 0)
                bits = app_rng_next(&r);
            uint32_t x = (uint32_t)(bits & 0xffff);
            bits >>= 16;
            u <<= 1;
            v <<= 1;
            if (x >= tabc) {
                u |= 1;
                v |= 1;
            } else if (x >= tab) {
                u |= 1;
            } else if (x >= ta) {
                v |= 1;
            }
        }
        src[e] = (int)u;
        dst[e] = (int)v;
    }
    for (int i = 0; i < nv; i++)
        perm[i] = i;
    for (int i = nv - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)app_rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (long long e = 0; e < ne; e++) {
        src[e] = perm[src[e]];
        dst[e] = perm[dst[e]];
        if (undirected) {
            src[ne + e] = dst[e];
            dst[ne + e] = src[e];
        }
    }
    free(perm);
    int rc = build_csr(g, nv, nv, m, src, dst, NULL, 1, 0);
    free(src), free(dst);
    return rc;
}

int app_graph_grid(app_csr *g, int side, double keep, uint64_t seed)
{
    if (side < 1 || (long long)side * side > 0x7fffffffll) {
        fprintf(stderr, "app_input: grid side %d out of range\n", side);
        return -1;
    }
    const int nv = side * side;
    const long long cap = 4ll * nv;
    int *src = (int *)xmalloc((size_t)cap * sizeof *src, "edges");
    int *dst = (int *)xmalloc((size_t)cap * sizeof *dst, "edges");
    if (!src || !dst) {
        free(src), free(dst);
        return -1;
    }
    app_rng r;
    app_rng_seed(&r, seed);
    const uint64_t thr = (uint64_t)(keep * 18446744073709551615.0);
    long long m = 0;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            int v = y * side + x;
            /* draw both coins always, so the graph depends only on (side, keep, seed) */
            int right = app_rng_next(&r) <= thr || y % 32 == 0;
            int down = app_rng_next(&r) <= thr || x % 32 == 0;
            if (x + 1 < side && right) {
                src[m] = v, dst[m++] = v + 1;
                src[m] = v + 1, dst[m++] = v;
            }
            if (y + 1 < side && down) {
                src[m] = v, dst[m++] = v + side;
                src[m] = v + side, dst[m++] = v;
            }
        }
    int rc = build_csr(g, nv, nv, m, src, dst, NULL, 1, 0);
    free(src), free(dst);
    return rc;
}

int app_matrix_random(app_csr *g, int nrows, int nnz_max, uint64_t seed)
{
    if (nrows < 1 || nnz_max < 1) {
        fprintf(stderr, "app_input: matrix of %d rows / %d entries per row out of range\n", nrows, nnz_max);
        return -1;
    }
    app_rng r;
    app_rng_seed(&r, seed);
    long long m = 0;
    int *len = (int *)xmalloc((size_t)nrows * sizeof *len, "row lengths");
    if (!len)
        return -1;
    for (int i = 0; i < nrows; i++) {
        len[i] = 1 + (int)app_rng_below(&r, (uint64_t)nnz_max);
        m += len[i];
    }
    int *src = (int *)xmalloc((size_t)m * sizeof *src, "entries");
    int *dst = (int *)xmalloc((size_t)m * sizeof *dst, "entries");
    double *val = (double *)xmalloc((size_t)m * sizeof *val, "values");
    if (!src || !dst || !val) {
        free(len), free(src), free(dst), free(val);
        return -1;
    }
    long long k = 0;
    for (int i = 0; i < nrows; i++)
        for (int j = 0; j < len[i]; j++, k++) {
            src[k] = i;
            dst[k] = (int)app_rng_below(&r, (uint64_t)nrows);
            val[k] = app_rng_unit(&r) * 2.0 - 1.0;
        }
    free(len);
    int rc = build_csr(g, nrows, nrows, m, src, dst, val, 0, 0);
    free(src), free(dst), free(val);
    return rc;
}

/* ---- readers ----------------------------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len_p)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "app_input: cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (char *)xmalloc((size_t)len + 1, path);
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "app_input: cannot read %s\n", path);
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[len] = 0;
    *len_p = (size_t)len;
    return buf;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Grows the edge arrays to hold at least need entries. */
static int grow(int **src, int **dst, double **val, long long *cap, long long need)
{
    if (need <= *cap)
        return 0;
    long long c = *cap ? *cap * 2 : 1 << 20;
    while (c < need)
        c *= 2;
    int *s = (int *)realloc(*src, (size_t)c * sizeof *s);
    if (!s)
        return -1;
    *src = s;
    int *d = (int *)realloc(*dst, (size_t)c * sizeof *d);
    if (!d)
        return -1;
    *dst = d;
    if (val) {
        double *v = (double *)realloc(*val, (size_t)c * sizeof *v);
        if (!v)
            return -1;
        *val = v;
    }
    *cap = c;
    return 0;
}

static int load_binary_csr(app_csr *g, const char *path, int undirected, int want_values)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return -1;
    int32_t hdr[2];
    if (len < sizeof hdr) {
        free(buf);
        fprintf(stderr, "app_input: %s: truncated\n", path);
        return -1;
    }
    memcpy(hdr, buf, sizeof hdr);
    long long nv = hdr[0], ne = hdr[1];
    if (nv < 0 || ne < 0 || len < (size_t)(8 + 4 * (nv + 1) + 4 * ne)) {
        free(buf);
        fprintf(stderr, "app_input: %s: not a binary CSR file (N=%lld M=%lld, %zu bytes)\n", path, nv, ne, len);
        return -1;
    }
    const int32_t *row = (const int32_t *)(buf + 8), *col = row + nv + 1;
    long long m = undirected ? 2 * ne : ne;
    int *src = (int *)xmalloc((size_t)m * sizeof *src, "edges"), *dst = (int *)xmalloc((size_t)m * sizeof *dst, "edges");
    double *val = want_values ? (double *)xmalloc((size_t)m * sizeof *val, "values") : NULL;
    int rc = -1;
    if (src && dst && (!want_values || val)) {
        long long k = 0;
        for (long long v = 0; v < nv; v++)
            for (long long e = row[v]; e < row[v + 1]; e++) {
                src[k] = (int)v, dst[k] = col[e];
                if (val)
                    val[k] = 1.0;
                k++;
                if (undirected) {
                    src[k] = col[e], dst[k] = (int)v;
                    if (val)
                        val[k] = 1.0;
                    k++;
                }
            }
        rc = build_csr(g, (int)nv, (int)nv, k, src, dst, val, 0, 0);
    }
    free(buf), free(src), free(dst), free(val);
    return rc;
}

/* Matrix Market coordinate files and SNAP edge lists. */
static int load_text(app_csr *g, const char *path, int undirected, int want_values)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return -1;
    const int mtx = ends_with(path, ".mtx");
    int pattern = 0, symmetric = 0, skew = 0;
    long long nrows = 0, ncols = 0, declared = -1;
    char *p = buf;
    if (mtx) {
        char banner[256] = {0};
        sscanf(p, "%255[^\n]", banner);
        for (char *c = banner; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strncmp(banner, "%%matrixmarket matrix coordinate", 32) != 0) {
            fprintf(stderr, "app_input: %s: only 'matrix coordinate' Matrix Market files are supported\n", path);
            free(buf);
            return -1;
        }
        pattern = strstr(banner, "pattern") != NULL;
        symmetric = strstr(banner, "symmetric") != NULL || strstr(banner, "hermitian") != NULL;
        skew = strstr(banner, "skew-symmetric") != NULL;
        if (strstr(banner, "complex")) {
            fprintf(stderr, "app_input: %s: complex matrices are not supported\n", path);
            free(buf);
            return -1;
        }
        while (*p == '%')
            p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
        if (sscanf(p, "%lld %lld %lld", &nrows, &ncols, &declared) != 3) {
            fprintf(stderr, "app_input: %s: bad size line\n", path);
            free(buf);
            return -1;
        }
        p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
    }
    int *src = NULL, *dst = NULL;
    double *val = NULL;
    long long cap = 0, m = 0, maxid = -1;
    const int base = mtx ? 1 : 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (!*p)
            break;
        if (*p == '#' || *p == '%') {
            p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
            continue;
        }
        char *end;
        long long u = strtoll(p, &end, 10);
        if (end == p)
            goto bad;
        p = end;
        long long v = strtoll(p, &end, 10);
        if (end == p)
            goto bad;
        p = end;
        double x = 1.0;
        if (mtx && !pattern) {
            x = strtod(p, &end);
            if (end == p)
                goto bad;
            p = end;
        }
        while (*p && *p != '\n') /* ignore the rest of the line (SNAP extra columns) */
            p++;
        u -= base, v -= base;
        if (u < 0 || v < 0 || u > 0x7ffffffell || v > 0x7ffffffell || (mtx && (u >= nrows || v >= ncols)))
            goto bad;
        int twice = (undirected || (mtx && symmetric)) && u != v;
        if (grow(&src, &dst, want_values ? &val : NULL, &cap, m + 2) != 0) {
            fprintf(stderr, "app_input: %s: out of memory\n", path);
            goto fail;
        }
        src[m] = (int)u, dst[m] = (int)v;
        if (want_values)
            val[m] = x;
        m++;
        if (twice) {
            src[m] = (int)v, dst[m] = (int)u;
            if (want_values)
                val[m] = skew ? -x : x;
            m++;
        }
        if (u > maxid)
            maxid = u;
        if (v > maxid)
            maxid = v;
    }
    if (!mtx)
        nrows = ncols = maxid + 1;
    else if (undirected && nrows != ncols) {
        fprintf(stderr, "app_input: %s: a graph needs a square matrix\n", path);
        goto fail;
    }
    free(buf);
    buf = NULL;
    {
        int rc = build_csr(g, (int)nrows, (int)ncols, m, src, dst, val, 0, 1);
        free(src), free(dst), free(val);
        return rc;
    }
bad:
    fprintf(stderr, "app_input: %s: malformed entry near byte %zu\n", path, (size_t)(p - buf));
fail:
    free(buf), free(src), free(dst), free(val);
    return -1;
}

int app_csr_load(app_csr *g, const char *path, int undirected, int want_values)
{
    memset(g, 0, sizeof *g);
    if (ends_with(path, ".csr"))
        return load_binary_csr(g, path, undirected, want_values);
    return load_text(g, path, undirected, want_values);
}

int app_graph_first_nonisolated(const app_csr *g, int from)
{
    for (int k = 0; k < g->nrows; k++) {
        int v = (from + k) % g->nrows;
        if (g->row[v + 1] > g->row[v])
            return v;
    }
    return from;
}

/* ---- CPU references ----------------------------------------------------------------------- */

int app_bfs_reference(const app_csr *g, int src, int *depth)
{
    int *queue = (int *)xmalloc((size_t)g->nrows * sizeof *queue, "BFS queue");
    int head = 0, tail = 0, deepest = 0;
    for (int v = 0; v < g->nrows; v++)
        depth[v] = APP_BFS_INF;
    if (!queue)
        return -1;
    depth[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row[v]; e < g->row[v + 1]; e++) {
            int u = g->col[e];
            if (depth[u] == APP_BFS_INF) {
                depth[u] = depth[v] + 1;
                deepest = depth[u];
                queue[tail++] = u;
            }
        }
    }
    free(queue);
    return deepest;
}

void app_spmv_reference(const app_csr *a, const double *x, double *y)
{
    for (int i = 0; i < a->nrows; i++) {
        double s = 0.0;
        for (int e = a->row[i]; e < a->row[i + 1]; e++)
            s += a->val[e] * x[a->col[e]];
        y[i] = s;
    }
}
