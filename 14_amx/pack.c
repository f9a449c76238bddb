/* pack.c: BF16 panels in the orders the BF16 instructions read them.
 *
 * Both BF16 instructions multiply PAIRS along K: lane j of VDPBF16PS, and element (i, j) of
 * TDPBF16PS, add a(k) b(k) + a(k+1) b(k+1) from two neighbouring BF16 values of each operand,
 * read together as one 32-bit element. For A (row-major, K along a row) a pair is two
 * neighbours in memory already. For B it is two ROWS: B(k, j) and B(k+1, j) lie ldb apart, so
 * the packing interleaves two rows of B into one row of pairs. That is the pair layout:
 *
 *     B (row-major)            packed, one row per pair of rows of B
 *     b00 b01 b02 ...          b00 b10 | b01 b11 | b02 b12 | ...
 *     b10 b11 b12 ...          b20 b30 | b21 b31 | b22 b32 | ...
 *     b20 b21 b22 ...
 *     b30 b31 b32 ...
 *
 * A tile is 16 rows of 64 bytes: for A, 16 rows x 32 values of K; for B, 16 pair rows (32 of K)
 * x 16 columns x 2. The tile panels store each tile's 1 KiB contiguously, in the order the
 * kernel loads them. K is padded with zeros to a whole pair (VDPBF16PS) or a whole tile (32,
 * AMX), rows and columns to the panel's MR and NR: zeros add nothing to a sum.
 */
#include "amx.h"


static int round_up(int a, int b) { return (a + b - 1) / b * b; }

/* VDPBF16PS's A: for each pair of K, the MR rows' pairs: dst[(p/2) MR 2 + 2i + p%2] = A(i, p).
 * Row i's pair is one 32-bit word, broadcast to every lane by the kernel. */
void pack_a_rows(int MR, int rows, int kc, const void *Av, int lda, uint16_t *dst)
{
    const uint16_t *A = Av;
    const int kp = round_up(kc, 2);
    for (int i = 0; i < MR; i++) {
        const uint16_t *a = A + (size_t)i * lda;
        for (int p = 0; p < kp; p++)
            dst[(size_t)(p / 2) * MR * 2 + 2 * i + p % 2] = i < rows && p < kc ? a[p] : 0;
    }
}

/* The pair layout for VDPBF16PS: dst[(p/2) NR 2 + 2j + p%2] = B(p, j): one row of NR pairs per two
 * rows of B, read as NR/16 vectors of 16 pairs. */
void pack_b_pairs(int NR, int kc, int cols, const void *Bv, int ldb, float alpha, uint16_t *dst)
{
    const uint16_t *B = Bv;
    (void)alpha; /* BF16: the kernel applies it */
    const int kp = round_up(kc, 2);
    for (int p = 0; p < kp; p += 2) {
        const uint16_t *b0 = B + (size_t)p * ldb, *b1 = b0 + ldb;
        uint16_t *d = dst + (size_t)(p / 2) * NR * 2;
        for (int j = 0; j < NR; j++) {
            d[2 * j] = j < cols ? b0[j] : 0;
            d[2 * j + 1] = j < cols && p + 1 < kc ? b1[j] : 0;
        }
    }
}

#ifdef AMX_X86
#include <immintrin.h>

/* n <= 32 BF16 values from x (none past n are read), zeros after */
static inline __mmask32 first(int n) { return n >= 32 ? 0xFFFFFFFFu : n > 0 ? (1u << n) - 1 : 0; }

/* A tiles: dst[((p/32) (MR/16) + i/16) 512 + (i%16) 32 + p%32] = A(i, p): each 64-byte row of a
 * tile is 32 values of one row of A, one masked load and one store. */
void pack_a_tiles(int MR, int rows, int kc, const void *Av, int lda, uint16_t *dst)
{
    const uint16_t *A = Av;
    const int kp = round_up(kc, TILE_K), mt = MR / TILE_M;
    for (int kb = 0; kb < kp / TILE_K; kb++)
        for (int i = 0; i < MR; i++) {
            const int p0 = kb * TILE_K;
            const __m512i row = i < rows ? _mm512_maskz_loadu_epi16(first(kc - p0), A + (size_t)i * lda + p0)
                                         : _mm512_setzero_si512();
            _mm512_store_si512(dst + (size_t)(kb * mt + i / TILE_M) * TILE_ELEMS + (i % TILE_M) * TILE_K, row);
        }
}

/* B tiles in the pair layout: dst[((p/32) (NR/16) + j/16) 512 + ((p%32)/2) 32 + (j%16) 2 + p%2]
 * = B(p, j). A pair row of a tile is 16 values of row p and 16 of row p+1, interleaved: each
 * widened to 32 bits, the second shifted into the upper halves, one OR, one 64-byte store. */
void pack_b_tiles(int NR, int kc, int cols, const void *Bv, int ldb, float alpha, uint16_t *dst)
{
    const uint16_t *B = Bv;
    const int kp = round_up(kc, TILE_K), nt = NR / TILE_N;
    (void)alpha; /* BF16: the kernel applies it */
    for (int p = 0; p < kp; p += 2) {
        const int kb = p / TILE_K, r = (p % TILE_K) / 2;
        for (int t = 0; t < nt; t++) {
            const int w = cols - t * TILE_N; /* columns of B in this tile */
            const __mmask16 m = w >= 16 ? 0xFFFF : w > 0 ? (__mmask16)((1u << w) - 1) : 0;
            const __m256i b0 = p < kc ? _mm256_maskz_loadu_epi16(m, B + (size_t)p * ldb + t * TILE_N)
                                      : _mm256_setzero_si256();
            const __m256i b1 = p + 1 < kc ? _mm256_maskz_loadu_epi16(m, B + (size_t)(p + 1) * ldb + t * TILE_N)
                                          : _mm256_setzero_si256();
            const __m512i pairs = _mm512_or_si512(_mm512_cvtepu16_epi32(b0),
                                                  _mm512_slli_epi32(_mm512_cvtepu16_epi32(b1), 16));
            _mm512_store_si512(dst + (size_t)(kb * nt + t) * TILE_ELEMS + r * 2 * TILE_N, pairs);
        }
    }
}
#endif
