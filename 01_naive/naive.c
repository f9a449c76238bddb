/* 01_naive: the textbook triple loop.
 *
 * C[i][j] = alpha * sum_k A[i][k] * B[k][j] + beta * C[i][j]
 *
 * The innermost loop walks a row of A (stride 1) and a column of B (stride ldb):
 * every B element it touches sits in a different cache line. Chapter 01 measures
 * what that costs against the machine's FMA peak.
 */
#include "naive.h"

void gemm_ijk(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
              float beta, float *C, int ldc)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += A[IDX(i, k, lda)] * B[IDX(k, j, ldb)];
            /* beta == 0: write without reading, so NaN in C cannot leak through */
            C[IDX(i, j, ldc)] = beta == 0.0f ? alpha * sum : alpha * sum + beta * C[IDX(i, j, ldc)];
        }
}
