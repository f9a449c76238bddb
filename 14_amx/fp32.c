/* fp32.c: FP32 A and B on the BF16 tile unit, at FP32 accuracy.
 *
 * A BF16 value keeps 8 of FP32's 24 significant bits. Three of them hold all 24: rounding to
 * nearest, hi = bf16(x), mid = bf16(x - hi), lo = bf16(x - hi - mid), and x = hi + mid + lo
 * exactly (each difference is exact in FP32; the third piece has at most 8 bits left to hold).
 * With |mid| <= 2^-8 |x| and |lo| <= 2^-16 |x| (about), of the nine products of the pieces
 *
 *     hi.hi  ~1        hi.mid, mid.hi  ~2^-8       hi.lo, lo.hi, mid.mid  ~2^-16
 *     mid.lo, lo.mid  ~2^-24 (= u, FP32's unit roundoff)      lo.lo  ~2^-32
 *
 * the first six carry everything above FP32's own rounding; the last three together stay
 * under 2u |a||b| and are dropped. The six products are summed by the tile unit in FP32, in one
 * of two ways:
 *
 *   amx_fp32          the pieces apart, each in the plain tile layout ([K-block][piece][tile]),
 *                     and a kernel (kernel_amx.c) that takes the six products in an order where
 *                     each step changes one side's pieces: 0.58 tile loads a TDPBF16PS.
 *   amx_fp32_folded   FOLDED INTO K: for every 16 values of K the packing writes three tiles'
 *                     worth of K (96 = 6 x 16) in which each pair of the pair layout is one of
 *                     the products, so the 2 x 2 BF16 kernel runs unchanged on a product six
 *                     times as deep (1 tile load a TDPBF16PS):
 *
 *     tile K-block   even slots of pair r    odd slots of pair r      (k = 16 g + r)
 *          0         hi(a) mid(b)            mid(a) hi(b)
 *          1         hi(a) lo(b)             lo(a) hi(b)
 *          2         mid(a) mid(b)           hi(a) hi(b)
 *
 * Either way the small products reach the accumulator before hi.hi, which carries the sum and
 * is added in the unit's chains of 16 (README, "FP32 from BF16", has the bound). alpha
 * multiplies B before it is split (gemm.h: alpha on each term); C is the kernel's.
 *
 * amx_bf16x1 (hi.hi alone: FP32 inputs rounded to BF16) and amx_bf16x3 (two pieces, hi.hi,
 * hi.lo, lo.hi) use the same loops with fewer products: what each piece buys, for the chapter's
 * error table; neither is FP32-accurate. This file is built with -mavx512f -mavx512bw.
 */
#include "amx.h"

#include <math.h>

#ifdef AMX_X86
#include <immintrin.h>

enum { HI, MID, LO };

/* One K-block of 32 slots (one tile row of A, one pair row of B per 2 values): its 16 pairs are
 * either the same k in both slots (pieces aE.bE in the even slot, aO.bO in the odd one: k = koff
 * + r for pair r) or two neighbouring values of K with the same pieces (k = koff + 2r, koff +
 * 2r + 1: the plain BF16 layout). */
typedef struct kblock {
    int same_k;
    int koff;
    int aE, bE, aO, bO; /* pieces; for !same_k, aE and bE for both slots */
} kblock;

typedef struct split_scheme {
    int group;  /* values of K per group */
    int nblocks; /* K-blocks of 32 slots per group */
    kblock blocks[3];
} split_scheme;

static const split_scheme six = {16, 3, {{1, 0, HI, MID, MID, HI}, {1, 0, HI, LO, LO, HI},
                                         {1, 0, MID, MID, HI, HI}}};
/* two pieces: hi and mid (x - hi rounded), here the "lo" of hi + lo */
static const split_scheme three = {32, 3, {{1, 0, HI, MID, MID, HI}, {1, 16, HI, MID, MID, HI},
                                           {0, 0, HI, HI, 0, 0}}};
static const split_scheme one = {32, 1, {{0, 0, HI, HI, 0, 0}}};

/* ---- the split, 16 values at a time ------------------------------------------------------------ */

/* x rounded to BF16 (nearest, ties to even; NaN stays NaN; a finite x that would round up to
 * infinity is cut instead), as the FP32 number it is. */
static inline __m512 bf16_round(__m512 x)
{
    const __m512i u = _mm512_castps_si512(x), abs = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(abs, _mm512_set1_epi32(0x7f800000));
    const __mmask16 finite = _mm512_cmplt_epu32_mask(abs, _mm512_set1_epi32(0x7f800000));
    const __mmask16 to_inf = _mm512_mask_cmpeq_epi32_mask(
        finite, _mm512_and_si512(r, _mm512_set1_epi32(0x7f800000)), _mm512_set1_epi32(0x7f800000));
    r = _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x00400000));
    r = _mm512_mask_mov_epi32(r, to_inf, u);
    return _mm512_castsi512_ps(_mm512_and_si512(r, _mm512_set1_epi32((int)0xffff0000u)));
}

/* The three pieces of x, each a BF16 value in the upper 16 bits of a 32-bit lane. */
static inline void split(__m512 x, __m512i p[3])
{
    const __m512 h = bf16_round(x), r1 = _mm512_sub_ps(x, h);
    const __m512 m = bf16_round(r1), l = bf16_round(_mm512_sub_ps(r1, m));
    p[HI] = _mm512_castps_si512(h);
    p[MID] = _mm512_castps_si512(m);
    p[LO] = _mm512_castps_si512(l);
}

/* 16 pairs: even slot from e, odd from o (pieces in the upper halves) -> 64 bytes */
static inline __m512i pair_words(__m512i e, __m512i o)
{
    return _mm512_or_si512(_mm512_srli_epi32(e, 16), _mm512_and_si512(o, _mm512_set1_epi32((int)0xffff0000u)));
}

/* 32 pieces, 16 from each of lo16 and hi16, as 32 BF16 values in order -> 64 bytes */
static inline __m512i packed_halves(__m512i lo16, __m512i hi16)
{
    const __m256i a = _mm512_cvtepi32_epi16(_mm512_srli_epi32(lo16, 16));
    const __m256i b = _mm512_cvtepi32_epi16(_mm512_srli_epi32(hi16, 16));
    return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
}

/* 16 floats of a row from x: n of them (0..16), zeros after */
static inline __m512 load16(const float *x, int n, float scale)
{
    const __mmask16 m = n >= 16 ? 0xFFFF : n > 0 ? (__mmask16)((1u << n) - 1) : 0;
    return _mm512_mul_ps(_mm512_maskz_loadu_ps(m, n > 0 ? x : NULL), _mm512_set1_ps(scale));
}

/* ---- packing ---------------------------------------------------------------------------------- */

/* rows x kc of FP32 A -> an MR-row panel of A tiles, [group][block][MR/16][16][32] */
static void pack_a_split(const split_scheme *s, int MR, int rows, int kc, const float *A, int lda,
                         uint16_t *dst)
{
    const int mt = MR / TILE_M, groups = (kc + s->group - 1) / s->group;
    for (int g = 0; g < groups; g++)
        for (int i = 0; i < MR; i++) {
            const float *a = A + (size_t)i * lda + g * s->group;
            const int left = i < rows ? kc - g * s->group : 0; /* values of K left in the row */
            __m512i p0[3], p1[3];
            split(load16(a, left, 1.0f), p0);
            if (s->group == 32)
                split(load16(a + 16, left - 16, 1.0f), p1);
            for (int t = 0; t < s->nblocks; t++) {
                const kblock *kb = &s->blocks[t];
                const __m512i *p = kb->koff ? p1 : p0;
                const __m512i w = kb->same_k ? pair_words(p[kb->aE], p[kb->aO])
                                             : packed_halves(p0[kb->aE], p1[kb->aE]);
                uint16_t *d = dst + ((size_t)(g * s->nblocks + t) * mt + i / TILE_M) * TILE_ELEMS +
                              (i % TILE_M) * TILE_K;
                _mm512_store_si512(d, w);
            }
        }
}

/* kc x cols of FP32 B, times alpha -> an NR-column panel of B tiles in the pair layout,
 * [group][block][NR/16][16 pair rows][16][2]. Each row of the group is split once, then written
 * into every block that uses it. */
static void pack_b_split(const split_scheme *s, int NR, int kc, int cols, const float *B, int ldb,
                         float alpha, uint16_t *dst)
{
    const int nt = NR / TILE_N, groups = (kc + s->group - 1) / s->group;
    __m512i piece[32][3];
    for (int g = 0; g < groups; g++)
        for (int jt = 0; jt < nt; jt++) {
            const int w = cols - jt * TILE_N; /* columns of B in this tile */
            for (int r = 0; r < s->group; r++) {
                const int k = g * s->group + r;
                split(load16(B + (size_t)k * ldb + jt * TILE_N, k < kc ? w : 0, alpha), piece[r]);
            }
            for (int t = 0; t < s->nblocks; t++) {
                const kblock *kb = &s->blocks[t];
                uint16_t *d = dst + (size_t)((g * s->nblocks + t) * nt + jt) * TILE_ELEMS;
                for (int r = 0; r < TILE_K / 2; r++) {
                    const __m512i *e = piece[kb->same_k ? kb->koff + r : kb->koff + 2 * r];
                    const __m512i *o = kb->same_k ? e : e + 3;
                    _mm512_store_si512(d + r * TILE_K, kb->same_k ? pair_words(e[kb->bE], e[kb->bO])
                                                                  : pair_words(e[kb->bE], o[kb->bE]));
                }
            }
        }
}

/* ---- amx_fp32: the pieces apart, each in the plain tile layout ------------------------------------ */

/* rows x kc of FP32 A -> [K-block of 32][piece][MR/16][16][32]: a tile of each piece */
static void pack_a_pieces(int MR, int rows, int kc, const void *Av, int lda, uint16_t *dst)
{
    const float *A = Av;
    const int mt = MR / TILE_M, blocks = (kc + TILE_K - 1) / TILE_K;
    for (int kb = 0; kb < blocks; kb++)
        for (int i = 0; i < MR; i++) {
            const float *a = A + (size_t)i * lda + kb * TILE_K;
            const int left = i < rows ? kc - kb * TILE_K : 0;
            __m512i p0[3], p1[3];
            split(load16(a, left, 1.0f), p0);
            split(load16(a + 16, left - 16, 1.0f), p1);
            for (int p = 0; p < 3; p++)
                _mm512_store_si512(dst + ((size_t)(kb * 3 + p) * mt + i / TILE_M) * TILE_ELEMS +
                                       (i % TILE_M) * TILE_K, packed_halves(p0[p], p1[p]));
        }
}

/* kc x cols of FP32 B, times alpha -> [K-block of 32][piece][NR/16][16 pair rows][16][2] */
static void pack_b_pieces(int NR, int kc, int cols, const void *Bv, int ldb, float alpha,
                          uint16_t *dst)
{
    const float *B = Bv;
    const int nt = NR / TILE_N, blocks = (kc + TILE_K - 1) / TILE_K;
    for (int kb = 0; kb < blocks; kb++)
        for (int r = 0; r < TILE_K / 2; r++) {
            const int k = kb * TILE_K + 2 * r;
            for (int t = 0; t < nt; t++) {
                const int w = cols - t * TILE_N;
                __m512i e[3], o[3];
                split(load16(B + (size_t)k * ldb + t * TILE_N, k < kc ? w : 0, alpha), e);
                split(load16(B + (size_t)(k + 1) * ldb + t * TILE_N, k + 1 < kc ? w : 0, alpha), o);
                for (int p = 0; p < 3; p++)
                    _mm512_store_si512(dst + ((size_t)(kb * 3 + p) * nt + t) * TILE_ELEMS + r * TILE_K,
                                       pair_words(e[p], o[p]));
            }
        }
}

static const panel_packer packer_pieces = {pack_a_pieces, pack_b_pieces, TILE_K, 3, 1, 4};

void gemm_amx_fp32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    gemm_tiles_packed(&kernel_amx_pieces, &packer_pieces, M, N, K, alpha, A, lda, B, ldb, beta, C,
                      ldc);
}

#define SCHEME(name, s)                                                                        \
    static void pack_a_##name(int MR, int rows, int kc, const void *A, int lda, uint16_t *dst) \
    {                                                                                          \
        pack_a_split(&s, MR, rows, kc, A, lda, dst);                                           \
    }                                                                                          \
    static void pack_b_##name(int NR, int kc, int cols, const void *B, int ldb, float alpha,   \
                              uint16_t *dst)                                                   \
    {                                                                                          \
        pack_b_split(&s, NR, kc, cols, B, ldb, alpha, dst);                                    \
    }                                                                                          \
    static const panel_packer packer_##name = {pack_a_##name, pack_b_##name, s.group,          \
                                               s.nblocks * TILE_K / s.group, 1, 4};
SCHEME(six, six)
SCHEME(three, three)
SCHEME(one, one)

void gemm_amx_fp32_folded(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, float *C, int ldc)
{
    gemm_tiles_packed(&kernel_amx_blocked, &packer_six, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_amx_bf16x3(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_tiles_packed(&kernel_amx_blocked, &packer_three, M, N, K, alpha, A, lda, B, ldb, beta, C,
                      ldc);
}

void gemm_amx_bf16x1(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_tiles_packed(&kernel_amx_blocked, &packer_one, M, N, K, alpha, A, lda, B, ldb, beta, C,
                      ldc);
}

#else /* no tile unit on this architecture: never called (cpu_has_amx() is 0) */
#define NONE(fn)                                                                               \
    void fn(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, \
            float beta, float *C, int ldc)                                                     \
    {                                                                                          \
        (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb;        \
        (void)beta, (void)C, (void)ldc;                                                        \
    }
NONE(gemm_amx_fp32)
NONE(gemm_amx_fp32_folded)
NONE(gemm_amx_bf16x3)
NONE(gemm_amx_bf16x1)
#endif
