/* 01_naive exercise: write the triple loop yourself.
 *
 * Build and grade it with:   make grade STAGE=01
 * The grader runs your function over awkward shapes (1x1x1, 7x13x5, primes,
 * leading dimensions larger than the width, beta != 0, NaN in C with beta == 0)
 * and times it against the solution. Untouched, it passes 32 of its 168 checks: the edge
 * cases that need no product (K = 0, alpha = 0, empty and negative sizes), which the
 * gemm_quick_return call below already handles. Every check that needs the sum FAILs.
 */
#include "naive.h"

void gemm_ijk(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: for each row i of C and each column j:
     *   sum = alpha*A[i][0]*B[0][j] + ... + alpha*A[i][K-1]*B[K-1][j]   (use IDX(i, k, lda))
     *   C[i][j] = sum + beta*C[i][j]
     *   (alpha on each term, not on the sum: gemm.h says why)
     * Hints:
     * - row i of A starts at A + i*lda, not A + i*K: lda may be larger than K.
     * - when beta == 0, do not read C at all: the grader fills it with NaN,
     *   and 0*NaN is NaN.
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}
