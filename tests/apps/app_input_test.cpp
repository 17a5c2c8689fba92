// app_input_test.cpp - the applications' input generators and readers (apps/common/app_input.c):
// std::mt19937_64 and the tree input table bit for bit, the paper's sort input, the multiset
// fingerprint, generator determinism, and the Matrix Market / SNAP / binary CSR readers.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "app_input.h"

static int failures;
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static bool same_csr(const app_csr &a, const app_csr &b)
{
    return a.nrows == b.nrows && a.nnz == b.nnz && !memcmp(a.row, b.row, (a.nrows + 1) * sizeof(int)) &&
           !memcmp(a.col, b.col, a.nnz * sizeof(int));
}

int main(int argc, char **argv)
{
    const std::string data = argc > 1 ? argv[1] : "data";

    // std::mt19937_64: the standard's 10000th output for the default seed, and a long prefix
    app_mt64 m;
    app_mt64_seed(&m, 5489);
    uint64_t x = 0;
    for (int i = 0; i < 10000; i++)
        x = app_mt64_next(&m);
    EXPECT(x == 9981545732273789042ull, "mt19937_64 10000th output %llu", (unsigned long long)x);

    // the tree table equals libstdc++'s uniform_real_distribution(-1, 1) over mt19937_64(0xC0FFEE)
    std::vector<double> t(APP_TREE_INPUT_N);
    app_tree_input(t.data());
    std::mt19937_64 rng(0xC0FFEE);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    int diff = 0;
    for (unsigned i = 0; i < APP_TREE_INPUT_N; i++) {
        double v = dist(rng);
        diff += memcmp(&v, &t[i], sizeof v) != 0;
    }
    EXPECT(diff == 0, "%d tree inputs differ from std::uniform_real_distribution", diff);

    // the paper's sort input (anchors: first values)
    int32_t s[5];
    app_sort_input(s, 5);
    const int32_t want[5] = {-1915688918, 1126946331, 1757975480, -1296489071, 1634557174};
    EXPECT(!memcmp(s, want, sizeof s), "sort input starts %d %d %d", s[0], s[1], s[2]);

    // multiset fingerprint: order-independent, sensitive to a changed value
    std::vector<int32_t> a(1000);
    app_sort_input(a.data(), a.size());
    app_multiset h = app_multiset_of(a.data(), a.size());
    std::vector<int32_t> b(a.rbegin(), a.rend());
    app_multiset hb = app_multiset_of(b.data(), b.size());
    EXPECT(h.h1 == hb.h1 && h.h2 == hb.h2, "fingerprint depends on order");
    b[17]++;
    hb = app_multiset_of(b.data(), b.size());
    EXPECT(h.h1 != hb.h1 && h.h2 != hb.h2, "fingerprint misses a changed value");
    std::sort(a.begin(), a.end());
    size_t bad = 0;
    EXPECT(app_sort_verify(a.data(), a.size(), h, &bad) == 0, "sorted input rejected at %zu", bad);
    std::swap(a[3], a[4]);
    EXPECT(app_sort_verify(a.data(), a.size(), h, &bad) == 1 && bad == 4, "unsorted output accepted");

    // generators: same seed, same graph; another seed, another graph; CSR invariants
    app_csr g1, g2, g3;
    EXPECT(app_graph_rmat(&g1, 10, 8, 7, 1) == 0 && app_graph_rmat(&g2, 10, 8, 7, 1) == 0 &&
               app_graph_rmat(&g3, 10, 8, 8, 1) == 0,
           "rmat failed");
    EXPECT(same_csr(g1, g2) && !same_csr(g1, g3), "rmat is not a function of its seed");
    int sorted = 1, loops = 0, symmetric = 1;
    for (int v = 0; v < g1.nrows; v++)
        for (int e = g1.row[v]; e < g1.row[v + 1]; e++) {
            sorted &= e == g1.row[v] || g1.col[e - 1] < g1.col[e];
            loops += g1.col[e] == v;
            int u = g1.col[e], found = 0;
            for (int f = g1.row[u]; f < g1.row[u + 1]; f++)
                found |= g1.col[f] == v;
            symmetric &= found;
        }
    EXPECT(sorted && !loops && symmetric, "rmat CSR: sorted %d, self loops %d, symmetric %d", sorted, loops, symmetric);
    app_csr_free(&g1), app_csr_free(&g2), app_csr_free(&g3);
    EXPECT(app_graph_grid(&g1, 64, 0.5, 3) == 0 && g1.nrows == 4096, "grid failed");
    std::vector<int> depth(g1.nrows);
    int deepest = app_bfs_reference(&g1, 0, depth.data());
    // rows and columns 0 and 32 are "highways": (32, 32) is reached at its Manhattan distance
    EXPECT(depth[32 * 64 + 32] == 64 && deepest >= 64, "grid: depth(32,32) = %d, %d levels", depth[32 * 64 + 32],
           deepest);
    app_csr_free(&g1);
    EXPECT(app_matrix_random(&g1, 1000, 20, 42) == 0 && g1.val && g1.nnz > 1000 && g1.nnz <= 20000,
           "random matrix: %lld entries", g1.nnz);
    app_csr_free(&g1);

    // Matrix Market: 1-based, duplicates summed, empty row kept
    EXPECT(app_csr_load(&g1, (data + "/tiny.mtx").c_str(), 0, 1) == 0, "tiny.mtx");
    EXPECT(g1.nrows == 5 && g1.ncols == 5 && g1.nnz == 6, "tiny.mtx: %d x %d, %lld", g1.nrows, g1.ncols, g1.nnz);
    EXPECT(g1.row[1] == 2 && g1.col[1] == 2 && g1.val[1] == -1.0, "tiny.mtx duplicate not summed");
    EXPECT(g1.row[3] == g1.row[2] + 0 && g1.row[2] == 3, "tiny.mtx row 3 should be empty");
    std::vector<double> ones(5, 1.0), y(5);
    app_spmv_reference(&g1, ones.data(), y.data());
    EXPECT(y[0] == 1.0 && y[1] == 4.0 && y[2] == 0.0 && y[3] == 1.5 && y[4] == 3.0, "spmv %g %g %g %g %g", y[0], y[1],
           y[2], y[3], y[4]);
    app_csr_free(&g1);
    // a symmetric pattern file is stored both ways: a path 0-1-2-3-4-5
    EXPECT(app_csr_load(&g1, (data + "/tiny_sym.mtx").c_str(), 0, 0) == 0 && g1.nnz == 10, "tiny_sym.mtx");
    app_bfs_reference(&g1, 0, depth.data());
    EXPECT(depth[5] == 5, "tiny_sym.mtx: depth of vertex 5 is %d", depth[5]);
    app_csr_free(&g1);

    // SNAP: directed as stored, duplicates merged; self loops kept out of BFS depth effects
    EXPECT(app_csr_load(&g1, (data + "/tiny_snap.txt").c_str(), 0, 0) == 0, "tiny_snap.txt");
    EXPECT(g1.nrows == 6 && g1.nnz == 7, "tiny_snap.txt: %d vertices %lld edges", g1.nrows, g1.nnz);
    app_bfs_reference(&g1, 0, depth.data());
    EXPECT(depth[4] == 3 && depth[5] == APP_BFS_INF, "snap depths %d %d", depth[4], depth[5]);
    app_csr_free(&g1);
    EXPECT(app_csr_load(&g1, (data + "/tiny_snap.txt").c_str(), 1, 0) == 0, "tiny_snap.txt undirected");
    app_bfs_reference(&g1, 0, depth.data());
    EXPECT(depth[5] == 1, "undirected snap: depth of 5 is %d", depth[5]);
    app_csr_free(&g1);

    // the paper's binary CSR: int32 N, M, offsets, columns
    const std::string bin = "app_input_test.csr";
    FILE *f = fopen(bin.c_str(), "wb");
    const int32_t csr[] = {3, 3, 0, 2, 3, 3, 1, 2, 2};
    fwrite(csr, sizeof csr, 1, f);
    fclose(f);
    EXPECT(app_csr_load(&g1, bin.c_str(), 0, 0) == 0 && g1.nrows == 3 && g1.nnz == 3 && g1.col[2] == 2, "binary csr");
    app_csr_free(&g1);
    remove(bin.c_str());
    EXPECT(app_csr_load(&g1, (data + "/missing.mtx").c_str(), 0, 0) != 0, "a missing file loads");

    if (failures)
        printf("%d failure(s)\n", failures);
    else
        printf("PASS app_input\n");
    return failures ? 1 : 0;
}
