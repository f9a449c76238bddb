/* 11_gf256 split_tables, AVX2: the split-table method 32 bytes at a time, for CPUs
 * without AVX-512 (and as the step between the scalar kernel and split_avx512.c).
 *
 * The same loop as split_avx512.c with ymm registers: VPSHUFB looks up 32 nibbles in a
 * 16-entry table (each 128-bit lane holds a copy of it), and two XORs replace the
 * three-way VPTERNLOGD, which AVX2 lacks. The last partial 32 bytes go through a
 * zero-padded buffer, since AVX2 has no masked byte loads.
 * Built with -mavx2 (stage.mk); called only when the CPU has AVX2.
 */
#include "gf256.h"

#ifdef GF_X86 /* (x86 only: elsewhere this file is empty) */
#include <immintrin.h>
#include <string.h>

#define MAXP 12 /* 12 accumulators + 4 working registers: the 16 ymm registers */

static inline __attribute__((always_inline)) __m256i mul_nibbles(const uint8_t *nib, __m256i lo,
                                                                 __m256i hi, __m256i acc)
{
    __m256i tlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)nib));
    __m256i thi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(nib + 16)));
    return _mm256_xor_si256(acc, _mm256_xor_si256(_mm256_shuffle_epi8(tlo, lo),
                                                  _mm256_shuffle_epi8(thi, hi)));
}

/* One 32-byte column of rows i0..i0+P-1; src/dst are the rows' pointers at this column. */
static inline __attribute__((always_inline)) void column(const gf_plan *p, int i0, const int P,
                                                         const uint8_t *const *src, size_t b,
                                                         uint8_t *const *dst, size_t db)
{
    const __m256i mask = _mm256_set1_epi8(0x0f);
    const int k = p->k;
    const uint8_t *nib = p->nib + (size_t)32 * i0 * k;
    __m256i acc[MAXP];
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        acc[r] = _mm256_setzero_si256();
    for (int j = 0; j < k; j++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src[j] + b));
        __m256i lo = _mm256_and_si256(v, mask);
        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), mask);
#pragma GCC unroll 16
        for (int r = 0; r < P; r++)
            acc[r] = mul_nibbles(nib + (size_t)32 * (r * k + j), lo, hi, acc[r]);
    }
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        _mm256_storeu_si256((__m256i *)(dst[i0 + r] + db), acc[r]);
}

static inline __attribute__((always_inline)) void rows_pass(const gf_plan *p, int i0, const int P,
                                                            const uint8_t *const *in,
                                                            uint8_t *const *out, size_t b,
                                                            size_t end)
{
    for (; b + 32 <= end; b += 32)
        column(p, i0, P, in, b, out, b);
    if (b < end) { /* the tail, through 32-byte buffers */
        size_t n = end - b;
        uint8_t src_buf[GF_MAX_CHUNKS][32], dst_buf[GF_MAX_CHUNKS][32];
        const uint8_t *src[GF_MAX_CHUNKS];
        uint8_t *dst[GF_MAX_CHUNKS];
        for (int j = 0; j < p->k; j++) {
            memset(src_buf[j], 0, 32);
            memcpy(src_buf[j], in[j] + b, n);
            src[j] = src_buf[j];
        }
        for (int r = 0; r < P; r++)
            dst[i0 + r] = dst_buf[r];
        column(p, i0, P, src, 0, dst, 0);
        for (int r = 0; r < P; r++)
            memcpy(out[i0 + r] + b, dst_buf[r], n);
    }
}

void encode_split_avx2(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
                       size_t off, size_t len)
{
    for (int i0 = 0; i0 < p->rows; i0 += MAXP) {
        int P = p->rows - i0 < MAXP ? p->rows - i0 : MAXP;
        switch (P) {
#define CASE(n) case n: rows_pass(p, i0, n, in, out, off, off + len); break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
            CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12)
#undef CASE
        }
    }
}

#endif
