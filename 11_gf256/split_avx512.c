/* 11_gf256 split_tables, AVX-512: the 4-bit split-table method, 64 bytes per instruction.
 *
 * For each 64-byte column of the k inputs: split every byte into its two nibbles, look
 * each nibble up in a 16-entry table of products with VPSHUFB (64 lookups in one
 * instruction), and XOR both into the row's accumulator with one VPTERNLOGD (a three-way
 * XOR). All P accumulators stay in zmm registers while the k inputs stream past, so each
 * input byte is read once and each output byte written once.
 *
 * The tables come from memory as VBROADCASTI32X4 (a load, ports 2/3), not from a register
 * shuffle (port 5): on this core port 5 is the one that executes VPSHUFB, and it is the
 * bottleneck. This file alone is built with -mavx512f -mavx512bw (stage.mk); the driver
 * calls it only when the CPU has AVX-512BW.
 */
#include "gf256.h"

#ifdef GF_X86 /* (x86 only: elsewhere this file is empty) */
#include <immintrin.h>

/* GCC 12 -O3: partial-redundancy elimination leaves the register allocator copying each
 * accumulator twice per input (vmovdqa zmm, zmm: 8 extra port-0/5 instructions per 64
 * bytes for 4 rows), which cost a third of the speed. Read the loop in `objdump -d`. */
#pragma GCC optimize("no-tree-pre")

#define MAXP 16 /* rows per pass: P accumulators + 6 working registers fit in 32 zmm */

/* W columns of 64 bytes (W = 1 or 2) of rows i0 .. i0+P-1, starting at byte b; m masks
 * the bytes of a last, partial column. P and W are constants after inlining, so acc[][]
 * lives in registers. Two columns per step load each table once for 128 bytes. */
static inline __attribute__((always_inline)) void columns(const gf_plan *p, int i0, const int P,
                                                          const int W, const uint8_t *const *in,
                                                          uint8_t *const *out, size_t b,
                                                          __mmask64 m)
{
    const __m512i mask = _mm512_set1_epi8(0x0f);
    const int k = p->k;
    const uint8_t *nib = p->nib + (size_t)32 * i0 * k;
    __m512i acc[2][MAXP], lo[2], hi[2];
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        for (int w = 0; w < W; w++)
            acc[w][r] = _mm512_setzero_si512();
    for (int j = 0; j < k; j++) {
        for (int w = 0; w < W; w++) { /* a masked load never touches bytes past the end */
            __m512i v = _mm512_maskz_loadu_epi8(m, in[j] + b + 64 * w);
            lo[w] = _mm512_and_si512(v, mask);
            hi[w] = _mm512_and_si512(_mm512_srli_epi16(v, 4), mask);
        }
#pragma GCC unroll 16
        for (int r = 0; r < P; r++) {
            const uint8_t *t = nib + (size_t)32 * (r * k + j);
            __m512i tlo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
            __m512i thi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(t + 16)));
            for (int w = 0; w < W; w++) /* acc ^= tlo[lo] ^ thi[hi] */
                acc[w][r] = _mm512_ternarylogic_epi32(acc[w][r], _mm512_shuffle_epi8(tlo, lo[w]),
                                                      _mm512_shuffle_epi8(thi, hi[w]), 0x96);
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        for (int w = 0; w < W; w++)
            _mm512_mask_storeu_epi8(out[i0 + r] + b + 64 * w, m, acc[w][r]);
}

static inline __attribute__((always_inline)) void rows_pass(const gf_plan *p, int i0, const int P,
                                                            const uint8_t *const *in,
                                                            uint8_t *const *out, size_t b,
                                                            size_t end)
{
    if (P <= MAXP / 2) /* 2P accumulators fit: two columns per step */
        for (; end - b >= 128; b += 128)
            columns(p, i0, P, 2, in, out, b, ~(__mmask64)0);
    for (; b < end; b += 64)
        columns(p, i0, P, 1, in, out, b,
                end - b >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (end - b)) - 1);
}

void encode_split_avx512(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
                         size_t off, size_t len)
{
    for (int i0 = 0; i0 < p->rows; i0 += MAXP) {
        int P = p->rows - i0 < MAXP ? p->rows - i0 : MAXP;
        switch (P) { /* one copy of the loop per row count, each with its registers */
#define CASE(n) case n: rows_pass(p, i0, n, in, out, off, off + len); break;
            CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
            CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
#undef CASE
        }
    }
}

#endif
