/* 11_gf256 split_neon: the split-table method on ARM's NEON, 16 bytes at a time (AArch64).
 *
 * The same loop as split_avx2.c. NEON's table lookup TBL (vqtbl1q_u8) is PSHUFB's counterpart:
 * 16 indices looked up in a 16-byte table, one instruction (an index past 15 gives 0; ours never
 * are). A q register holds 16 bytes, so one register is one table and no copy per lane is needed;
 * NEON shifts bytes, so the high nibble is one shift (x >> 4) with no mask. The last partial 16
 * bytes go through a zero-padded buffer: NEON has no masked loads.
 *
 * NEON is part of every AArch64 CPU (kernel_neon.c in 05 says why): no flag, and the file is
 * empty where the target is not AArch64.
 */
#include "gf256.h"

#ifdef GF_NEON
#include <arm_neon.h>
#include <string.h>

#define MAXP 16 /* 16 accumulators + 6 working registers: 22 of the 32 q registers */

/* One 16-byte column of rows i0..i0+P-1; src/dst are the rows' pointers at this column. */
static inline __attribute__((always_inline)) void column(const gf_plan *p, int i0, const int P,
                                                         const uint8_t *const *src, size_t b,
                                                         uint8_t *const *dst, size_t db)
{
    const uint8x16_t mask = vdupq_n_u8(0x0f);
    const int k = p->k;
    const uint8_t *nib = p->nib + (size_t)32 * i0 * k;
    uint8x16_t acc[MAXP];
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        acc[r] = vdupq_n_u8(0);
    for (int j = 0; j < k; j++) {
        const uint8x16_t v = vld1q_u8(src[j] + b);
        const uint8x16_t lo = vandq_u8(v, mask), hi = vshrq_n_u8(v, 4);
#pragma GCC unroll 16
        for (int r = 0; r < P; r++) { /* acc ^= tlo[lo] ^ thi[hi] */
            const uint8x16x2_t t = vld1q_u8_x2(nib + (size_t)32 * (r * k + j)); /* lo, hi tables */
            acc[r] = veorq_u8(acc[r], veorq_u8(vqtbl1q_u8(t.val[0], lo), vqtbl1q_u8(t.val[1], hi)));
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < P; r++)
        vst1q_u8(dst[i0 + r] + db, acc[r]);
}

static inline __attribute__((always_inline)) void rows_pass(const gf_plan *p, int i0, const int P,
                                                            const uint8_t *const *in,
                                                            uint8_t *const *out, size_t b,
                                                            size_t end)
{
    for (; b + 16 <= end; b += 16)
        column(p, i0, P, in, b, out, b);
    if (b < end) { /* the tail, through 16-byte buffers */
        size_t n = end - b;
        uint8_t src_buf[GF_MAX_CHUNKS][16], dst_buf[MAXP][16];
        const uint8_t *src[GF_MAX_CHUNKS];
        uint8_t *dst[GF_MAX_CHUNKS];
        for (int j = 0; j < p->k; j++) {
            memset(src_buf[j], 0, 16);
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

void encode_split_neon(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
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
