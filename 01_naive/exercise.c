/* 01_naive exercise: break the chain of the naive loop.
 *
 * Build and grade it with:   make grade STAGE=01
 * gemm_ijk is given, solved: it is the chapter's listing. You write gemm_ijk_4sums, the same
 * product with four partial sums, which the chapter describes (its latency section and exercise
 * 3) but does not print. The grader runs your function over awkward shapes (1x1x1, 7x13x5,
 * primes, leading dimensions larger than the width, beta != 0, NaN in C with beta == 0), then
 * the edge cases of --edges, and times it against the solution; it does not check gemm_ijk.
 * Untouched, it passes 32 of its 168 checks: the edge cases that need no product (K = 0,
 * alpha = 0, empty and negative sizes), which the gemm_quick_return call below already
 * handles. Every check that needs the sum FAILs.
 */
#include "naive.h"

/* Given: the chapter's ijk. One sum, so every FMA waits for the one before it. */
void gemm_ijk(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += alpha * A[IDX(i, k, lda)] * B[IDX(k, j, ldb)];
            /* beta == 0: write without reading, so NaN in C cannot leak through */
            C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)];
        }
}

void gemm_ijk_4sums(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: for each row i of C and each column j, four sums instead of one:
     *   s0 takes the terms k = 0, 4, 8, ...;  s1 takes k = 1, 5, 9, ...;  s2 and s3 likewise,
     *   each term alpha*A[i][k]*B[k][j]   (alpha on each term, not on the sum: gemm.h says why)
     * then sum = (s0 + s1) + (s2 + s3) and C[i][j] = sum + beta*C[i][j].
     * Hints:
     * - step k by 4 while k + 3 < K; K need not be a multiple of 4 (the grader's shapes are
     *   not): add the last K % 4 terms in a loop of their own.
     * - row i of A starts at A + i*lda, not A + i*K: lda may be larger than K (use IDX).
     * - when beta == 0, do not read C at all: the grader fills it with NaN, and 0*NaN is NaN.
     * Then measure it beside ijk (chapter 01, exercise 3): how many chains did you break?
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}
