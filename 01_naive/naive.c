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
 *
 *   ijk         the textbook loop: one sum, so one chain of dependent FMAs
 *   ijk_4sums   the same loop with four partial sums (chapter 01's exercise): four
 *               independent chains, added at the end
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

/* Four partial sums, for k, k+1, k+2, k+3: four chains of FMAs that do not wait for each
 * other, where ijk's one sum waits 4 cycles for every add. C fixes the order of a float sum,
 * so the compiler may not split it by itself; written out, the split is this code's order.
 * The last K % 4 terms go into s0, and the four sums are added in pairs at the end. */
void gemm_ijk_4sums(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            const float *a = &A[IDX(i, 0, lda)];
            float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
            int k = 0;
            for (; k + 3 < K; k += 4) {
                s0 += alpha * a[k] * B[IDX(k, j, ldb)];
                s1 += alpha * a[k + 1] * B[IDX(k + 1, j, ldb)];
                s2 += alpha * a[k + 2] * B[IDX(k + 2, j, ldb)];
                s3 += alpha * a[k + 3] * B[IDX(k + 3, j, ldb)];
            }
            for (; k < K; k++)
                s0 += alpha * a[k] * B[IDX(k, j, ldb)];
            const float sum = (s0 + s1) + (s2 + s3);
            C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)];
        }
}
