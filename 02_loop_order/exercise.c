/* 02_loop_order exercise: the loop orders the chapter does not print.
 *
 * Grade with:   make grade STAGE=02
 * gemm_ikj is given, solved: it is the chapter's listing. You write the other five orders
 * (kij, jik, jki, kji; ijk is 01's, linked) and the two dot products on a transposed B.
 * Every function below has the contract of common/gemm.h. The grader checks the six you
 * write (the "grade:" line of test-cases.txt), not ikj. Untouched, each of them passes 32
 * of its 168 checks, the edge cases that gemm_quick_return handles (K = 0, alpha = 0, empty
 * sizes), and fails the rest. Start with kij (ikj with its two outer loops swapped), then
 * predict (and measure) the others.
 */
#include "loop_order.h"

#include <stdio.h>
#include <stdlib.h>

/* Helper you may use: C = beta*C, or C = 0 without reading C when beta == 0. */
static void scale_c(int M, int N, float beta, float *C, int ldc)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
}

#define UNUSED_ARGS (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb, \
                    (void)beta, (void)C, (void)ldc, (void)scale_c

/* Given: the chapter's ikj. The inner loop streams row k of B into row i of C. */
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
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: ikj with the two outer loops swapped: scale C by beta first (scale_c), then
     * for k, for i:  a = alpha * A[i][k];  C[i][0..N) += a * B[k][0..N)
     * How many times is C swept? */
    UNUSED_ARGS;
}

void gemm_jik(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: like 01's ijk with the i and j loops swapped. */
    UNUSED_ARGS;
}

void gemm_jki(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: scale C, then for j, for k: C[0..M)[j] += A[0..M)[k] * (alpha * B[k][j]).
     * Predict before you measure: which strides does the inner loop take? */
    UNUSED_ARGS;
}

void gemm_kji(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: jki with the two outer loops swapped. */
    UNUSED_ARGS;
}

void gemm_transposed_b(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: copy B into Bt (N x K, Bt[j][k] = B[k][j], malloc'd), then ijk on Bt:
     * both operands of the dot product are now unit stride. Free Bt. */
    UNUSED_ARGS;
}

void gemm_transposed_simd(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: transposed_b with `#pragma omp simd reduction(+ : sum)` on the k loop.
     * Why can't the compiler vectorise the plain version by itself? (Chapter 02.) */
    UNUSED_ARGS;
}
