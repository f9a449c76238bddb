/* kernel_avx512_bf16.c: 05's 6 x 64 micro-kernel with VDPBF16PS in place of VFMADD231PS.
 *
 * VDPBF16PS zmm_acc, zmm_a, zmm_b: for each of the 16 FP32 lanes j,
 *     acc[j] += a[2j] * b[2j] + a[2j+1] * b[2j+1]          (a, b: 32 BF16 values each)
 * Two products per lane where the FP32 FMA does one, from 64-byte operands either way: the
 * instruction runs at the FMA's rate, so it could double the peak (the chapter measures it).
 * The shape is 05's: row i's pair A(i, p), A(i, p+1) is broadcast (one 32-bit value into all
 * 16 lanes), B's row of pairs (pack_b_pairs) is loaded as NR/16 vectors, and each step takes two
 * values of K. This file alone is built with -mavx512bf16 (stage.mk); loops.c calls it only
 * where cpu_has_avx512_bf16() says yes.
 */
#include "amx.h"

#ifdef AMX_X86
#include <immintrin.h>

#define MR 6
#define NV 4 /* vectors of 16 columns: NR = 64 */
#define PREFETCH_B 8 /* pair steps ahead */

void microkernel_avx512_bf16_6x64(int kc, const uint16_t *a, const uint16_t *b, float alpha,
                                  float beta, float *c, int ldc, int m, int n, float *scratch)
{
    (void)scratch;
    __m512 acc[MR][NV];
#pragma GCC unroll 6
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++)
            acc[i][v] = _mm512_setzero_ps();

    const uint32_t *ap = (const uint32_t *)a; /* one pair of A per 32-bit word */
    for (int p = 0; p < kc; p += 2) {
        __m512bh bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) {
            bv[v] = (__m512bh)_mm512_load_si512(b + 32 * v);
            _mm_prefetch((const char *)(b + PREFETCH_B * 2 * 16 * NV + 32 * v), _MM_HINT_T0);
        }
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            const __m512bh ai = (__m512bh)_mm512_set1_epi32((int)ap[i]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; v++)
                acc[i][v] = _mm512_dpbf16_ps(acc[i][v], ai, bv[v]);
        }
        ap += MR;
        b += 2 * 16 * NV;
    }

    __mmask16 mask[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) {
        const int w = n - 16 * v;
        mask[v] = w >= 16 ? 0xFFFF : w > 0 ? (__mmask16)((1u << w) - 1) : 0;
    }
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 6
    for (int i = 0; i < MR; i++) {
        if (i >= m)
            break;
        float *ci = c + (size_t)i * ldc;
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) {
            __m512 r = _mm512_mul_ps(va, acc[i][v]);
            if (beta != 0.0f) /* beta == 0: C is not read (it may hold NaN) */
                r = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(mask[v], ci + 16 * v), r);
            _mm512_mask_storeu_ps(ci + 16 * v, mask[v], r);
        }
    }
}
#endif
