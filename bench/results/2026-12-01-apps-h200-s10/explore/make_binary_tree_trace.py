#!/usr/bin/env python3
"""make_binary_tree_trace.py OUT.cu: writes the per-node trace variant of apps/tree/binary_tree.cu
(explore only): per node, first entry (inner nodes), work start and end (%globaltimer ns) and
the warp (%smid << 8 | %warpid), dumped to $TREE_TRACE_OUT (default tree_trace.bin) for
tree_trace_analyze.py. Built by hand like the app: gtapcc --translate-only, then nvcc."""
import os, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..')
src = open(os.path.join(root, 'apps', 'tree', 'binary_tree.cu')).read()
edits = [
    ('__device__ double *g_out;\n', '''__device__ double *g_out;
/* trace (explore only): per node, first entry, work start, work end (globaltimer ns) and
 * the warp (sm << 8 | warp slot) that ran the work */
__device__ unsigned long long *g_tr;

static __device__ __forceinline__ unsigned long long tr_now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}
'''),
    ('    if (height > 0) {\n        if (TREE_LEADER) {', '    if (height > 0) {\n        g_tr[4ll * node + 0] = tr_now();\n        if (TREE_LEADER) {'),
    ('    double own = tw_work(g_input, (uint32_t)node, mem_ops, compute_iters, TREE_FIRST, TREE_STRIDE);\n',
     '''    unsigned long long t0 = tr_now();
    double own = tw_work(g_input, (uint32_t)node, mem_ops, compute_iters, TREE_FIRST, TREE_STRIDE);
    unsigned sm, wp;
    asm volatile("mov.u32 %0, %smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %warpid;" : "=r"(wp));
    g_tr[4ll * node + 1] = t0;
    g_tr[4ll * node + 2] = tr_now();
    g_tr[4ll * node + 3] = (sm << 8) | wp;
'''),
    ('    app_export_profile(&c);', '''    app_export_profile(&c);
    {
        std::vector<unsigned long long> tr((size_t)nodes * 4);
        cudaMemcpy(tr.data(), d_tr, tr.size() * 8, cudaMemcpyDeviceToHost);
        const char *path = getenv("TREE_TRACE_OUT");
        FILE *f = fopen(path ? path : "tree_trace.bin", "wb");
        fwrite(tr.data(), 8, tr.size(), f);
        fclose(f);
    }'''),
    ('    cudaMemcpyToSymbol(g_out, &d_out, sizeof d_out);', '''    cudaMemcpyToSymbol(g_out, &d_out, sizeof d_out);
    unsigned long long *d_tr = NULL;
    cudaMalloc(&d_tr, (size_t)nodes * 32);
    cudaMemset(d_tr, 0, (size_t)nodes * 32);
    cudaMemcpyToSymbol(g_tr, &d_tr, sizeof d_tr);'''),
]
for old, new in edits:
    if src.count(old) != 1:
        sys.exit(f'make_binary_tree_trace.py: binary_tree.cu changed; no unique match for: {old[:50]!r}')
    src = src.replace(old, new)
open(sys.argv[1], 'w').write(src)
