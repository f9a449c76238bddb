/* 11_gf256 gfni: GF2P8AFFINEQB, one instruction per 64 products.
 *
 * GF2P8AFFINEQB multiplies each byte x by an 8x8 bit matrix A over GF(2) (and adds a
 * constant, zero here). Multiplying by a fixed c is such a linear map, in any GF(2^8):
 * column s of its matrix is c * 2^s computed in OUR field, 0x11D. So the instruction that
 * was made for AES's field works for Reed-Solomon's once each coefficient's matrix is
 * precomputed (gf256_affine_matrix), whereas GF2P8MULB multiplies modulo 0x11B only and
 * gives wrong products here.
 *
 * Per 64 bytes of input and row: one affine (two inputs' products and the accumulator
 * fold into one VPTERNLOGD), against two VPSHUFB, two ANDs and a shift for split tables.
 * Built with -mgfni -mavx512f -mavx512bw (stage.mk); called only when the CPU has GFNI.
 */
#include "gf256.h"

#ifdef GF_X86 /* (x86 only: elsewhere this file is empty) */
#include <immintrin.h>

#define MAXP 16

static inline __attribute__((always_inline)) __m512i mul_affine(const uint64_t *a, __m512i v)
{
    return _mm512_gf2p8affine_epi64_epi8(v, _mm512_set1_epi64((long long)*a), 0);
}

static inline __attribute__((always_inline)) void rows_pass(const gf_plan *p, int i0, const int P,
                                                            const uint8_t *const *in,
                                                            uint8_t *const *out, size_t b,
                                                            size_t end)
{
    const int k = p->k;
    const uint64_t *aff = p->affine + (size_t)i0 * k;
    __m512i acc[MAXP];
    for (; b < end; b += 64) {
        __mmask64 m = end - b >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (end - b)) - 1;
#pragma GCC unroll 16
        for (int r = 0; r < P; r++)
            acc[r] = _mm512_setzero_si512();
        int j = 0;
        for (; j + 2 <= k; j += 2) { /* two inputs per step: acc ^= A0*v0 ^ A1*v1 */
            __m512i v0 = _mm512_maskz_loadu_epi8(m, in[j] + b);
            __m512i v1 = _mm512_maskz_loadu_epi8(m, in[j + 1] + b);
#pragma GCC unroll 16
            for (int r = 0; r < P; r++)
                acc[r] = _mm512_ternarylogic_epi32(acc[r], mul_affine(aff + r * k + j, v0),
                                                   mul_affine(aff + r * k + j + 1, v1), 0x96);
        }
        if (j < k) {
            __m512i v0 = _mm512_maskz_loadu_epi8(m, in[j] + b);
#pragma GCC unroll 16
            for (int r = 0; r < P; r++)
                acc[r] = _mm512_xor_si512(acc[r], mul_affine(aff + r * k + j, v0));
        }
#pragma GCC unroll 16
        for (int r = 0; r < P; r++)
            _mm512_mask_storeu_epi8(out[i0 + r] + b, m, acc[r]);
    }
}

void encode_gfni(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out, size_t off,
                 size_t len)
{
    for (int i0 = 0; i0 < p->rows; i0 += MAXP) {
        int P = p->rows - i0 < MAXP ? p->rows - i0 : MAXP;
        switch (P) {
#define CASE(n) case n: rows_pass(p, i0, n, in, out, off, off + len); break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
            CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
#undef CASE
        }
    }
}

#endif
