/* kernel_avx2.c: the 6 x 16 micro-kernel in AVX2 + FMA intrinsics.
 *
 * Compiled with -mavx2 -mfma (stage.mk) and called only when the CPU has both. A ymm register
 * holds 8 floats and there are 16 of them: a 6 x 16 tile takes 6 x 2 = 12 accumulators,
 * 2 registers for the row of B and 1 for the broadcast element of A, 15 of 16. Per step:
 * 2 loads of B, 6 broadcasts, 12 FMAs (1.5 per load), and 12 independent accumulators cover
 * the FMA latency (4-5 cycles) times the two FMA units of Haswell and later.
 *
 * AVX2 has masked stores only in 32-bit lanes with a vector mask; for the edge tiles this
 * kernel takes the simpler road: compute the whole tile into a local array, then copy the
 * m x n part of it.
 */
#include "simd.h"

#ifdef SIMD_X86
#include <immintrin.h>

#define MR 6
#define NR 16

void microkernel_avx2_6x16(int kc, const float *a, const float *b, float alpha, float beta,
                           float *c, int ldc, int m, int n)
{
    __m256 acc[MR][2];
#pragma GCC unroll 6
    for (int i = 0; i < MR; i++)
        acc[i][0] = acc[i][1] = _mm256_setzero_ps();

    /* Ask for the tile of C now: it is needed only after the loop, by then it is in L1. */
    for (int i = 0; i < m; i++) {
        _mm_prefetch((const char *)&c[IDX(i, 0, ldc)], _MM_HINT_T0);
        _mm_prefetch((const char *)&c[IDX(i, n - 1, ldc)], _MM_HINT_T0); /* a row may span 2 lines */
    }

    /* Unrolled by 4: measured 1-6% faster than the loop as written (the AVX-512 kernel gained
     * nothing from it). */
#pragma GCC unroll 4
    for (int p = 0; p < kc; p++) {
        const __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            const __m256 ai = _mm256_broadcast_ss(&a[i]);
            acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
        }
        a += MR;
        b += NR;
    }

    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    if (m == MR && n == NR) { /* a full tile: straight to C */
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            float *ci = &c[IDX(i, 0, ldc)];
            __m256 r0 = _mm256_mul_ps(va, acc[i][0]), r1 = _mm256_mul_ps(va, acc[i][1]);
            if (beta != 0.0f) {
                r0 = _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci), r0);
                r1 = _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci + 8), r1);
            }
            _mm256_storeu_ps(ci, r0);
            _mm256_storeu_ps(ci + 8, r1);
        }
        return;
    }
    /* An edge tile: through a local copy, then only the m x n elements that are C's. */
    float tile[MR][NR];
#pragma GCC unroll 6
    for (int i = 0; i < MR; i++) {
        _mm256_storeu_ps(&tile[i][0], acc[i][0]);
        _mm256_storeu_ps(&tile[i][8], acc[i][1]);
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float *cij = &c[IDX(i, j, ldc)];
            *cij = beta == 0.0f ? alpha * tile[i][j] : alpha * tile[i][j] + beta * *cij;
        }
}

#endif
