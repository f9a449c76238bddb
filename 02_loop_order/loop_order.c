/* 02_loop_order: the same three loops in all six orders, and a transposed B.
 *
 * The arithmetic never changes: M*N*K multiply-adds. What changes is the order in
 * which memory is touched. Row-major storage puts A[i][k] and A[i][k+1] side by side
 * and B[k][j] and B[k+1][j] a whole row (ldb floats) apart, so the innermost loop
 * decides the stride:
 *
 *   innermost   A stride   B stride   C stride
 *   k  (ijk jik)     1        ldb         -        a dot product: B walked down a column
 *   j  (ikj kij)     -          1         1        a row of B streamed into a row of C
 *   i  (jki kji)   lda          -       ldc        columns of A and C: the worst case
 *
 * Orders that accumulate into C across the outer loop first scale C by beta
 * (scale_c), so that beta == 0 never reads C. Every order multiplies alpha into each term
 * (into the element of A or B it broadcasts, or the copy it makes), as netlib does (gemm.h).
 */
#include "loop_order.h"

#include <stdio.h>
#include <stdlib.h>

/* C = beta*C, or C = 0 without reading it when beta == 0. */
static void scale_c(int M, int N, float beta, float *C, int ldc)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
}

/* Dot-product order jik (ijk is 01's gemm_ijk, linked): one element of C finished at a time. */
void gemm_jik(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += alpha * A[IDX(i, k, lda)] * B[IDX(k, j, ldb)];
            C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)];
        }
}

/* Row-streaming orders: the inner loop is C[i][:] += a * B[k][:], unit stride, and
 * the compiler turns it into vector FMAs. */
void gemm_ikj(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    scale_c(M, N, beta, C, ldc);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) {
            float a = alpha * A[IDX(i, k, lda)];
            const float *b = &B[IDX(k, 0, ldb)];
            float *c = &C[IDX(i, 0, ldc)];
            for (int j = 0; j < N; j++)
                c[j] += a * b[j];
        }
}

void gemm_kij(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    scale_c(M, N, beta, C, ldc);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < M; i++) {
            float a = alpha * A[IDX(i, k, lda)];
            const float *b = &B[IDX(k, 0, ldb)];
            float *c = &C[IDX(i, 0, ldc)];
            for (int j = 0; j < N; j++)
                c[j] += a * b[j];
        }
}

/* Column orders: the inner loop walks down columns of A and C, one cache line per element. */
void gemm_jki(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    scale_c(M, N, beta, C, ldc);
    for (int j = 0; j < N; j++)
        for (int k = 0; k < K; k++) {
            float b = alpha * B[IDX(k, j, ldb)];
            for (int i = 0; i < M; i++)
                C[IDX(i, j, ldc)] += A[IDX(i, k, lda)] * b;
        }
}

void gemm_kji(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    scale_c(M, N, beta, C, ldc);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            float b = alpha * B[IDX(k, j, ldb)];
            for (int i = 0; i < M; i++)
                C[IDX(i, j, ldc)] += A[IDX(i, k, lda)] * b;
        }
}

/* ijk on a transposed copy of B: both operands of the dot product now have stride 1.
 * The copy costs K*N reads and writes, paid back M times over. */
void gemm_transposed_b(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    float *Bt = malloc(sizeof(float) * (size_t)N * (size_t)K);
    if (!Bt) {
        fprintf(stderr, "transposed_b: cannot allocate %zu bytes\n", sizeof(float) * (size_t)N * K);
        abort();
    }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            Bt[IDX(j, k, K)] = alpha * B[IDX(k, j, ldb)]; /* alpha on each term, for free */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            const float *a = &A[IDX(i, 0, lda)], *bt = &Bt[IDX(j, 0, K)];
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += a[k] * bt[k];
            C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)];
        }
    free(Bt);
}

/* transposed_b with the reduction order released: without -ffast-math the compiler must add
 * the K products in order, one dependent add after another (latency-bound, no SIMD).
 * `omp simd reduction` tells it the order may change, so it keeps 16-lane partial sums. */
void gemm_transposed_simd(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    float *Bt = malloc(sizeof(float) * (size_t)N * (size_t)K);
    if (!Bt) {
        fprintf(stderr, "transposed_simd: cannot allocate %zu bytes\n", sizeof(float) * (size_t)N * K);
        abort();
    }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            Bt[IDX(j, k, K)] = alpha * B[IDX(k, j, ldb)]; /* alpha on each term, for free */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            const float *a = &A[IDX(i, 0, lda)], *bt = &Bt[IDX(j, 0, K)];
            float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
            for (int k = 0; k < K; k++)
                sum += a[k] * bt[k];
            C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)];
        }
    free(Bt);
}
