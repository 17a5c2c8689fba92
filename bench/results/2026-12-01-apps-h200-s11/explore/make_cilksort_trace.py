#!/usr/bin/env python3
"""make_cilksort_trace.py OUT.cu: writes the per-task event trace variant of apps/cilksort/cilksort.cu
(explore only). Every task gets an id (an extra argument); events (id, kind, %globaltimer ns, arg,
sm << 8 | warp slot) go to a device buffer dumped to $CILK_TRACE_OUT (default cilk_trace.bin) for
cilksort_trace_analyze.py. Kinds: S start (arg = n, high bit set for merges), P spawn (arg = the
child's id), W before a taskwait, R after it, E end. Built by hand like the app."""
import os, re, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..')
src = open(os.path.join(root, 'apps', 'cilksort', 'cilksort.cu')).read()

def once(old, new):
    global src
    if src.count(old) != 1:
        sys.exit(f'make_cilksort_trace.py: cilksort.cu changed; no unique match for: {old[:60]!r}')
    src = src.replace(old, new)

once('__device__ int g_cut_merge;\n', '''__device__ int g_cut_merge;
/* trace (explore only) */
__device__ unsigned long long *g_tr;
__device__ unsigned long long g_tr_n;
__device__ unsigned int g_tr_cap;
__device__ int g_tr_next_id;
static __device__ __noinline__ void tr_ev(int id, int kind, unsigned arg)
{
    unsigned long long t;
    unsigned sm, wp;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(wp));
    unsigned long long i = atomicAdd(&g_tr_n, 1ull);
    if (i < g_tr_cap) {
        g_tr[3 * i + 0] = ((unsigned long long)(unsigned)id << 32) | (unsigned)kind;
        g_tr[3 * i + 1] = t;
        g_tr[3 * i + 2] = ((unsigned long long)arg << 32) | ((sm << 8) | wp);
    }
}
static __device__ __noinline__ int tr_spawn(int id)
{
    int c = atomicAdd(&g_tr_next_id, 1);
    tr_ev(id, 'P', (unsigned)c);
    return c;
}
''')
once('__device__ void cilkmerge(int *a, int na, int *b, int nb, int *dst)\n{\n',
     '__device__ void cilkmerge(int *a, int na, int *b, int nb, int *dst, int id)\n{\n    tr_ev(id, \'S\', 0x80000000u | (unsigned)(na + nb));\n')
once('__device__ void cilksort(int *a, int n, int *tmp)\n{\n',
     '__device__ void cilksort(int *a, int n, int *tmp, int id)\n{\n    tr_ev(id, \'S\', (unsigned)n);\n')
src = src.replace('        return;\n', '        tr_ev(id, \'E\', 0);\n        return;\n')
src = src.replace('#pragma gtap taskwait\n}', '#pragma gtap taskwait\n    tr_ev(id, \'R\', 0);\n    tr_ev(id, \'E\', 0);\n}')
src = src.replace('#pragma gtap taskwait\n#pragma', '#pragma gtap taskwait\n    tr_ev(id, \'R\', 0);\n#pragma')
src = src.replace('#pragma gtap taskwait\n', '    tr_ev(id, \'W\', 0);\n#pragma gtap taskwait\n')
k = [0]
def spawn(m):
    k[0] += 1
    return f'    const int cid{k[0]} = tr_spawn(id);\n{m.group(1)}    {m.group(2)}({m.group(3)}, cid{k[0]});\n'
src = re.sub(r'(#pragma gtap task [^\n]*\n)    (cilk\w+)\((.*)\);\n', spawn, src)
once('    cilksort(a, n, tmp);\n}', '    cilksort(a, n, tmp, 0);\n}')
once('    if (app_gtap_init(&c))', '''    unsigned long long *d_tr = NULL;
    const unsigned tr_cap = 1u << 24;
    cudaMalloc(&d_tr, (size_t)tr_cap * 24);
    cudaMemcpyToSymbol(g_tr, &d_tr, sizeof d_tr);
    cudaMemcpyToSymbol(g_tr_cap, &tr_cap, sizeof tr_cap);
    if (app_gtap_init(&c))''')
once('[&](int) { cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice); }',
     '''[&](int) {
            cudaMemcpy(d_data, d_orig, bytes, cudaMemcpyDeviceToDevice);
            const unsigned long long z = 0;
            const int one = 1;
            cudaMemcpyToSymbol(g_tr_n, &z, sizeof z);
            cudaMemcpyToSymbol(g_tr_next_id, &one, sizeof one);
        }''')
once('    app_export_profile(&c);', '''    app_export_profile(&c);
    {
        unsigned long long nev = 0;
        cudaMemcpyFromSymbol(&nev, g_tr_n, sizeof nev);
        if (nev > tr_cap) {
            fprintf(stderr, "trace: %llu events, buffer holds %u\\n", nev, tr_cap);
            nev = tr_cap;
        }
        std::vector<unsigned long long> tr((size_t)nev * 3);
        cudaMemcpy(tr.data(), d_tr, tr.size() * 8, cudaMemcpyDeviceToHost);
        const char *path = getenv("CILK_TRACE_OUT");
        FILE *f = fopen(path ? path : "cilk_trace.bin", "wb");
        fwrite(tr.data(), 8, tr.size(), f);
        fclose(f);
    }''')
if k[0] != 9:
    sys.exit(f'make_cilksort_trace.py: expected 9 spawns, found {k[0]}')
open(sys.argv[1], 'w').write(src)
