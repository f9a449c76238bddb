/* driver.c: everything around one level of Strassen (strassen.c): when to recurse, what to
 * do with odd sizes, where the temporaries live, and the additions themselves.
 *
 *   fast_gemm(levels, M, N, K)
 *     min(M, N, K) < cutoff or no levels left  ->  plan->leaf: classic (05's gemm_simd), or
 *                                                 reloaded_1lvl for hybrid_2lvl
 *     else  the even part (2m x 2k times 2k x 2n) -> one level, whose seven products call
 *           fast_gemm(levels - 1, m, n, k); then the peeled edges, each a thin classic product:
 *
 *             +--------------+--+        K odd: C[even, even] += A[:, K-1] B[K-1, :]  (rank 1)
 *             |              |  |        N odd: C[even rows, N-1]  (a column, all of K)
 *             |  even part   |  |        M odd: C[M-1, :]          (a row, all of K)
 *             |  (Strassen)  |  |
 *             +--------------+--+
 *             |     last row    |
 *             +-----------------+
 *
 * One workspace per call: its size is computed before anything runs (fast_workspace_floats,
 * the same recursion as fast_gemm), and each level carves its three temporaries from it and
 * hands the rest down, so nothing is allocated inside the recursion.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../05_simd/simd.h" /* stage 05's API: gemm_simd, the micro-kernel type */
#include "strassen.h"
#include "timer.h"

int strassen_cutoff; /* 0: strassen_default_cutoff */
double strassen_add_seconds, strassen_add_bytes;

static int cutoff(void) { return strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff; }
static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
static size_t round16(size_t floats) { return (floats + 15) / 16 * 16; } /* 64-byte steps */

void gemm_classic(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    gemm_simd(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* ------------------------------------------------------------ recursion and peeling */

/* A level needs a problem of at least the cutoff, and halves of at least 1. */
static int level_applies(int levels, int M, int N, int K)
{
    const int c = cutoff() > 2 ? cutoff() : 2;
    return levels > 0 && min3(M, N, K) >= c;
}

size_t fast_workspace_floats(int levels, int M, int N, int K)
{
    if (!level_applies(levels, M, N, K))
        return 0;
    const size_t m = (size_t)(M / 2), n = (size_t)(N / 2), k = (size_t)(K / 2);
    return round16(m * k) + round16(k * n) + round16(m * n) +
           fast_workspace_floats(levels - 1, M / 2, N / 2, K / 2);
}

void level_temps(int m, int n, int k, float *work, float **X, float **Y, float **Z,
                 float **next)
{
    *X = work;
    work += round16((size_t)m * k);
    *Y = work;
    work += round16((size_t)k * n);
    *Z = work;
    work += round16((size_t)m * n);
    *next = work;
}

void fast_gemm(const fast_plan *plan, int levels, int M, int N, int K, float alpha,
               const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc,
               float *work)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return;
    if (!level_applies(levels, M, N, K)) {
        plan->leaf(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    const int m = M / 2, n = N / 2, k = K / 2;
    plan->level(plan, levels, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work);
    /* The peeled edges. Beta was applied to the even part by the level, so the rank-1
     * update adds (beta 1); the last column and row are new, so they take beta. */
    if (K % 2)
        gemm_simd(2 * m, 2 * n, 1, alpha, A + 2 * k, lda, B + (size_t)2 * k * ldb, ldb, 1.0f, C,
                  ldc);
    if (N % 2)
        gemm_simd(2 * m, 1, K, alpha, A, lda, B + 2 * n, ldb, beta, C + 2 * n, ldc);
    if (M % 2)
        gemm_simd(1, N, K, alpha, A + (size_t)2 * m * lda, lda, B, ldb, beta,
                  C + (size_t)2 * m * ldc, ldc);
}

/* ------------------------------------------------------------ the workspace */

/* Kept by the calling thread from one call to the next and grown when a call needs more,
 * like 05's packing buffers: a fresh allocation per call would pay a page fault per 4 KiB
 * on first touch (tens of milliseconds for the 240 MiB that two levels at 8192 need). */
static float *workspace(size_t floats)
{
    static _Thread_local float *buf;
    static _Thread_local size_t cap;
    if (floats > cap) {
        free(buf);
        buf = aligned_alloc(64, round16(floats) * sizeof(float));
        if (!buf) {
            fprintf(stderr, "strassen: cannot allocate %.1f MiB of workspace\n",
                    (double)floats * sizeof(float) / 1048576.0);
            abort();
        }
        cap = floats;
    }
    return buf;
}

static void run(level_fn *level, gemm_fn *leaf, int levels, int M, int N, int K, float alpha,
                const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const fast_plan plan = {level, leaf};
    float *work = workspace(fast_workspace_floats(levels, M, N, K));
    fast_gemm(&plan, levels, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, work);
}

void gemm_strassen_1lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(strassen_level, gemm_simd, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_strassen_2lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(strassen_level, gemm_simd, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_winograd(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    run(winograd_level, gemm_simd, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_winograd_1lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(winograd_level, gemm_simd, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* One Winograd level with temporaries, whose seven products are each one folded Strassen
 * level (reloaded.c): the additions of the outer level stream through memory in big
 * passes, those of the inner level are folded into the packing. */
void gemm_hybrid_2lvl(int M, int N, int K, float alpha, const float *A, int lda,
                      const float *B, int ldb, float beta, float *C, int ldc)
{
    run(winograd_level, gemm_reloaded_1lvl, 1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* ------------------------------------------------------------ the additions */

/* One pass each, split by rows over the threads: they are limited by memory bandwidth,
 * and one core alone reaches only half of it (make peak: bw_read 11 vs 22 GB/s). */
#define PARALLEL_MIN (64 * 1024) /* elements: below this, one thread */

void mat_add(int rows, int cols, const float *X, int ldx, float s, const float *Y, int ldy,
             float *D, int ldd)
{
    const double t0 = timer_now();
#pragma omp parallel for schedule(static) if ((double)rows * cols >= PARALLEL_MIN)
    for (int i = 0; i < rows; i++) {
        const float *x = &X[IDX(i, 0, ldx)], *y = &Y[IDX(i, 0, ldy)];
        float *d = &D[IDX(i, 0, ldd)];
#pragma omp simd
        for (int j = 0; j < cols; j++) /* D may be X or Y (in place): same index, no hazard */
            d[j] = x[j] + s * y[j];
    }
    strassen_add_seconds += timer_now() - t0;
    strassen_add_bytes += 12.0 * rows * cols; /* read 2, write 1 */
}

/* c = s*p + beta*c over one row; beta == 0: c is not read. */
static inline void acc_row(int cols, const float *p, float *c, float s, float beta)
{
    if (beta == 0.0f) {
#pragma omp simd
        for (int j = 0; j < cols; j++)
            c[j] = s * p[j];
    } else if (beta == 1.0f) {
#pragma omp simd
        for (int j = 0; j < cols; j++)
            c[j] += s * p[j];
    } else {
#pragma omp simd
        for (int j = 0; j < cols; j++)
            c[j] = s * p[j] + beta * c[j];
    }
}

void mat_acc(int rows, int cols, const float *P, int ldp, float *C1, float s1, float beta1,
             float *C2, float s2, float beta2, int ldc)
{
    const double t0 = timer_now();
#pragma omp parallel for schedule(static) if ((double)rows * cols >= PARALLEL_MIN)
    for (int i = 0; i < rows; i++) {
        const float *p = &P[IDX(i, 0, ldp)];
        acc_row(cols, p, &C1[IDX(i, 0, ldc)], s1, beta1);
        if (C2) /* the row of P is still in L1 */
            acc_row(cols, p, &C2[IDX(i, 0, ldc)], s2, beta2);
    }
    strassen_add_seconds += timer_now() - t0;
    strassen_add_bytes += 4.0 * rows * cols * (1 + (beta1 != 0.0f ? 2 : 1) +
                                                (C2 ? (beta2 != 0.0f ? 2 : 1) : 0));
}
