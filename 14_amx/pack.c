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

#include <string.h>

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

/* A tiles: dst[((p/32) (MR/16) + i/16) 512 + (i%16) 32 + p%32] = A(i, p). */
void pack_a_tiles(int MR, int rows, int kc, const void *Av, int lda, uint16_t *dst)
{
    const uint16_t *A = Av;
    const int kp = round_up(kc, TILE_K), mt = MR / TILE_M;
    for (int kb = 0; kb < kp / TILE_K; kb++)
        for (int t = 0; t < mt; t++) {
            uint16_t *d = dst + (size_t)(kb * mt + t) * TILE_ELEMS;
            for (int r = 0; r < TILE_M; r++) {
                const int i = t * TILE_M + r, p0 = kb * TILE_K;
                const int w = i < rows ? (kc - p0 < TILE_K ? kc - p0 : TILE_K) : 0;
                if (w > 0)
                    memcpy(d + r * TILE_K, A + (size_t)i * lda + p0, sizeof(uint16_t) * (size_t)w);
                memset(d + r * TILE_K + w, 0, sizeof(uint16_t) * (size_t)(TILE_K - w));
            }
        }
}

/* B tiles in the pair layout: dst[((p/32) (NR/16) + j/16) 512 + ((p%32)/2) 32 + (j%16) 2 + p%2]
 * = B(p, j). */
void pack_b_tiles(int NR, int kc, int cols, const void *Bv, int ldb, float alpha, uint16_t *dst)
{
    const uint16_t *B = Bv;
    (void)alpha;
    const int kp = round_up(kc, TILE_K), nt = NR / TILE_N;
    for (int kb = 0; kb < kp / TILE_K; kb++)
        for (int r = 0; r < TILE_K / 2; r++) {
            const int p = kb * TILE_K + 2 * r;
            const uint16_t *b0 = B + (size_t)p * ldb, *b1 = b0 + ldb;
            for (int t = 0; t < nt; t++) {
                uint16_t *d = dst + (size_t)(kb * nt + t) * TILE_ELEMS + r * 2 * TILE_N;
                for (int jj = 0; jj < TILE_N; jj++) {
                    const int j = t * TILE_N + jj;
                    d[2 * jj] = j < cols && p < kc ? b0[j] : 0;
                    d[2 * jj + 1] = j < cols && p + 1 < kc ? b1[j] : 0;
                }
            }
        }
}
