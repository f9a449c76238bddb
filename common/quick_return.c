/* quick_return.c: the BLAS rules at the edges (gemm.h), for every CPU variant.
 * netlib's sgemm begins the same way: "Quick return if possible", then "And if
 * alpha.eq.zero" C = beta*C and return, before A or B is looked at. */
#include "gemm.h"

int gemm_quick_return(int M, int N, int K, float alpha, float beta, float *C, int ldc)
{
    if (M <= 0 || N <= 0 || K < 0) /* nothing to do, or nothing valid to do it on */
        return 1;
    if (K > 0 && alpha != 0.0f)
        return 0;
    if (beta != 1.0f) /* C = beta*C; with beta == 0, zeros written without reading C */
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
    return 1;
}
