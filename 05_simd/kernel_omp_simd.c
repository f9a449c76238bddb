/* kernel_omp_simd.c: the 6 x 64 micro-kernel in plain C, vectorised by the compiler.
 *
 * The same tile, the same packed panels and the same five loops as avx512_6x64; only the
 * instructions are the compiler's choice. `#pragma omp simd` (OpenMP 4) tells it that the
 * iterations of the j loop are independent, so it may run them in vector lanes: the SPMD
 * idea that ISPC takes further (one program instance per lane). Whether the 6 x 64
 * accumulators end up in registers is up to it (a*b + c does become one FMA: the
 * Makefile's -ffp-contract=fast allows it). The chapter compares the result with the
 * intrinsics.
 */
#include "simd.h"

#define MR 6
#define NR 64

void microkernel_omp_simd_6x64(int kc, const float *a, const float *b, float alpha, float beta,
                                float *c, int ldc, int m, int n)
{
    float acc[MR][NR] = {{0}};
    for (int p = 0; p < kc; p++) {
        for (int i = 0; i < MR; i++) {
#pragma omp simd
            for (int j = 0; j < NR; j++)
                acc[i][j] += a[i] * b[j];
        }
        a += MR;
        b += NR;
    }
    for (int i = 0; i < m; i++) {
        float *ci = &c[IDX(i, 0, ldc)];
        if (beta == 0.0f) { /* C is not read */
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] = alpha * acc[i][j];
        } else {
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] = alpha * acc[i][j] + beta * ci[j];
        }
    }
}
