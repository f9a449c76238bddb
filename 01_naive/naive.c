/* 01_naive: the textbook triple loop.
 *
 * C[i][j] = sum_k (alpha * A[i][k]) * B[k][j] + beta * C[i][j]
 *
 * alpha scales each term, not the finished sum (netlib's order, gemm.h): the sum then
 * overflows only where the scaled terms do. The empty and alpha == 0 cases are BLAS's,
 * handled by gemm_quick_return before the loops.
 *
 * The innermost loop walks a row of A (stride 1) and a column of B (stride ldb):
 * every B element it touches sits in a different cache line. Chapter 01 measures
 * what that costs against the machine's FMA peak.
 */
#include "naive.h"

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
