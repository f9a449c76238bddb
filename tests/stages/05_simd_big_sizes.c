/* big_sizes.c: stage 05's five loops at sizes next to INT_MAX, without the memory they would
 * need. The contract takes any int size, and `./05_simd/simd -m 1 -n 1 -k 2147483647` is a run
 * the harness accepts (16 GiB of A and B); a block count computed as (K + KC - 1) / KC overflows
 * there. This program runs gemm_partition_for and gemm_loops (the cut and the loops, simd.h) with
 * hooks that only count: every tile must lie inside C and inside K, the tiles' volume must be
 * M*N*K, and the first slice of K must cover C once (the slice that applies beta).
 *
 *   make build/asan/05_simd/big_sizes && build/asan/05_simd/big_sizes
 *
 * Built with UBSan (the asan build), so that a signed overflow stops it; tests/run-tests.sh runs
 * it. Exit 0 when every case holds, 1 otherwise.
 */
#include <limits.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "../../05_simd/simd.h"

typedef struct counts {
    int M, N, K;
    uint64_t volume, first_area, bad;
} counts;

static void count_pack_a(const void *ctx, int i, int p, int rows, int kc, int rows_left,
                         float *dst, float *scratch)
{
    const counts *c = ctx;
    (void)dst, (void)scratch;
    if (i < 0 || p < 0 || rows < 1 || kc < 1 || rows_left < rows || i > c->M - rows ||
        p > c->K - kc) {
#pragma omp atomic
        ((counts *)ctx)->bad++;
    }
}

static void count_pack_b(const void *ctx, int p, int j, int kc, int cols, float *dst,
                         float *scratch)
{
    const counts *c = ctx;
    (void)dst, (void)scratch;
    if (p < 0 || j < 0 || kc < 1 || cols < 1 || p > c->K - kc || j > c->N - cols) {
#pragma omp atomic
        ((counts *)ctx)->bad++;
    }
}

static void count_tile(const void *ctx, int i, int j, int p, int kc, int m, int n, const float *a,
                       const float *b, float *scratch)
{
    counts *c = (counts *)ctx;
    (void)a, (void)b, (void)scratch;
    if (i < 0 || j < 0 || p < 0 || m < 1 || n < 1 || kc < 1 || i > c->M - m || j > c->N - n ||
        p > c->K - kc) {
#pragma omp atomic
        c->bad++;
        return;
    }
    const uint64_t v = (uint64_t)m * (uint64_t)n * (uint64_t)kc, f = p == 0 ? (uint64_t)m * n : 0;
#pragma omp atomic
    c->volume += v;
#pragma omp atomic
    c->first_area += f;
}

static int failures;

/* One product through the loops; blocks: MC, KC, NC overrides (0 keeps the computed value). */
static void check(const microkernel *uk, int M, int N, int K, int threads, int mc, int kc, int nc)
{
    omp_set_num_threads(threads);
    gemm_blocking_override(mc, kc, nc);
    const gemm_partition pt = gemm_partition_for(uk, M, N, K);
    const gemm_blocking bs = gemm_blocking_for(uk);
    counts c = {M, N, K, 0, 0, 0};
    const gemm_hooks hooks = {count_pack_a, count_pack_b, count_tile, 0, &c};
    const int cut_ok = pt.kc >= 1 && pt.kc <= bs.kc && pt.mc >= uk->mr && pt.mc <= bs.mc &&
                       pt.nc >= uk->nr && pt.nb >= 1 && (int64_t)pt.nb * pt.nc >= N;
    if (cut_ok)
        gemm_loops(&pt, &hooks);
    const int ok = cut_ok && c.bad == 0 && c.volume == (uint64_t)M * N * K &&
                   c.first_area == (uint64_t)M * N;
    printf("%s: %-12s %10d x %10d x %10d, %d thread(s), blocks %d,%d,%d: kc %d mc %d nc %d nb %d; "
           "volume %llu of %llu, %llu bad calls\n",
           ok ? "PASS" : "FAIL", uk->name, M, N, K, threads, mc, kc, nc, pt.kc, pt.mc, pt.nc, pt.nb,
           (unsigned long long)c.volume, (unsigned long long)M * N * K,
           (unsigned long long)c.bad);
    failures += !ok;
    gemm_blocking_override(0, 0, 0);
}

int main(void)
{
    /* A tile of 3000 x 3008 (no kernel runs, only the counting hooks): M or N = INT_MAX is then
     * some 700,000 tiles instead of 358 million. */
    const microkernel wide = {"wide_tiles", 3000, 3008, NULL, NULL, "nothing"};
    const int big = INT_MAX, near = INT_MAX - 5;
    for (int t = 0; t < simd_nkernels; t++) {
        const microkernel *uk = simd_kernels[t];
        /* the cut at the probe's size, with the computed blocks (no loops: 2 million slices) */
        const gemm_partition pt = gemm_partition_for(uk, 1, 1, big);
        const gemm_blocking bs = gemm_blocking_for(uk);
        const int ok = pt.kc >= 1 && pt.kc <= bs.kc && pt.mc == uk->mr && pt.nb == 1;
        printf("%s: %-12s 1 x 1 x %d: the cut, computed blocks: kc %d (KC %d) mc %d nb %d\n",
               ok ? "PASS" : "FAIL", uk->name, big, pt.kc, bs.kc, pt.mc, pt.nb);
        failures += !ok;
        /* the loops, K in slices of 65536 (the largest --blocks accepts) */
        check(uk, 1, 1, big, 1, 0, 65536, 0);
        check(uk, 7, 13, near, 2, 0, 65536, 0);
        check(uk, 13, 70, big - 1, 3, 12, 65536, 64);
    }
    check(&wide, big, 1, 1, 2, 0, 0, 0);
    check(&wide, near, 3, 2, 3, 0, 0, 0);
    check(&wide, 1, big, 1, 2, 0, 0, 0);
    check(&wide, 2, near, 3, 3, 0, 0, 0);
    check(&wide, big, 5, 1, 2, 65536, 0, 0);
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
