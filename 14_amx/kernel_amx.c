/* kernel_amx.c: 2 x 2 C tiles, each A and B tile used twice.
 *
 * The naive kernel loads two tiles (2 KiB) for every TDPBF16PS. Here four C tiles, a 32 x 32
 * block of C, stay in tiles 0-3 for the whole panel; for each 32 values of K, two A tiles (the
 * block's two bands of 16 rows) and two B tiles (its two bands of 16 columns) are loaded, and
 * each meets both of the other kind:
 *
 *           B0    B1                 tiles: 0-3 C, 4-5 A, 6-7 B: all eight
 *     A0 [ C0 ] [ C1 ]               loads per TDPBF16PS: 4 / 4 = 1 KiB (naive: 2 KiB)
 *     A1 [ C2 ] [ C3 ]
 *
 * Eight tile registers allow no more: 2 x 3 would need 6 C tiles + 2 A + 3 B.
 */
#include "amx.h"

#ifdef AMX_X86
#include <immintrin.h>

/* C[0:m, 0:n] = alpha * t + beta * C (C not read when beta == 0), t a block of floats with row
 * stride ldt (tiles stored to memory). */
void amx_store_c(const float *t, int ldt, float alpha, float beta, float *c, int ldc, int m, int n)
{
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int j = 0; j < n; j += 16) {
        const int w = n - j;
        const __mmask16 mask = w >= 16 ? 0xFFFF : (__mmask16)((1u << w) - 1);
        for (int i = 0; i < m; i++) {
            __m512 r = _mm512_mul_ps(va, _mm512_loadu_ps(t + (size_t)i * ldt + j));
            float *ci = c + (size_t)i * ldc + j;
            if (beta != 0.0f)
                r = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(mask, ci), r);
            _mm512_mask_storeu_ps(ci, mask, r);
        }
    }
}

/* The block of C in tiles 0-3: from C (a later slice of K, alpha = 1: beta == 1) or zero. */
static inline int c_tiles_in(float *c, int ldc, int m, int n, float alpha, float beta)
{
    const int direct = m == 32 && n == 32 && alpha == 1.0f && (beta == 0.0f || beta == 1.0f);
    const size_t ld = sizeof(float) * (size_t)ldc;
    if (direct && beta == 1.0f) {
        _tile_loadd(0, c, ld);
        _tile_loadd(1, c + 16, ld);
        _tile_loadd(2, c + 16 * (size_t)ldc, ld);
        _tile_loadd(3, c + 16 * (size_t)ldc + 16, ld);
    } else {
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
        _tile_zero(3);
    }
    return direct;
}

/* Tiles 0-3 into C: straight (direct), or through scratch with alpha and beta. */
static inline void c_tiles_out(int direct, float *c, int ldc, int m, int n, float alpha, float beta,
                               float *scratch)
{
    if (direct) {
        const size_t ld = sizeof(float) * (size_t)ldc;
        _tile_stored(0, c, ld);
        _tile_stored(1, c + 16, ld);
        _tile_stored(2, c + 16 * (size_t)ldc, ld);
        _tile_stored(3, c + 16 * (size_t)ldc + 16, ld);
        return;
    }
    _tile_stored(0, scratch, 128);
    _tile_stored(1, scratch + 16, 128);
    _tile_stored(2, scratch + 16 * 32, 128);
    _tile_stored(3, scratch + 16 * 32 + 16, 128);
    amx_store_c(scratch, 32, alpha, beta, c, ldc, m, n);
}

void microkernel_amx_32x32(int kc, const uint16_t *a, const uint16_t *b, float alpha, float beta,
                           float *c, int ldc, int m, int n, float *scratch)
{
    /* A whole block with alpha = 1 and beta 0 or 1 (a later slice of K) goes through the tiles
     * straight from and to C (FP32 rows ldc apart); anything else through scratch. */
    const int direct = c_tiles_in(c, ldc, m, n, alpha, beta);
    for (int kb = 0; kb < kc / TILE_K; kb++) {
        const uint16_t *ak = a + (size_t)kb * 2 * TILE_ELEMS, *bk = b + (size_t)kb * 2 * TILE_ELEMS;
        _tile_loadd(4, ak, 64);
        _tile_loadd(6, bk, 64);
        _tile_dpbf16ps(0, 4, 6);
        _tile_loadd(7, bk + TILE_ELEMS, 64);
        _tile_dpbf16ps(1, 4, 7);
        _tile_loadd(5, ak + TILE_ELEMS, 64);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
    c_tiles_out(direct, c, ldc, m, n, alpha, beta, scratch);
}

/* amx_pipelined's kernel: 1 x 3 C tiles (16 x 48 of C). Three C tiles, two A tiles (this step's
 * and the next one's) and three B tiles: every load is issued right after the TDPBF16PS that last
 * read its tile, and has two instructions (32 cycles) before the next one needs it, where the
 * 2 x 2 kernel's B0 has one. The price: 4 tile loads for 3 TDPBF16PS instead of 1 for 1.
 *
 *   step kb:   TDP C0 += A.B0   load next B0
 *              TDP C1 += A.B1   load next B1
 *              TDP C2 += A.B2   load next B2      (next A: loaded at the start of the step) */
#define B3(kb, t) (b + ((size_t)(kb) * 3 + (t)) * TILE_ELEMS)
#define A1(kb) (a + (size_t)(kb) * TILE_ELEMS)
#define STEP(A_CUR, A_NEXT, kb, nkb)                                                               \
    do {                                                                                           \
        const int more = (kb) + 1 < (nkb);                                                         \
        if (more)                                                                                  \
            _tile_loadd(A_NEXT, A1((kb) + 1), 64);                                                 \
        _tile_dpbf16ps(0, A_CUR, 5);                                                               \
        if (more)                                                                                  \
            _tile_loadd(5, B3((kb) + 1, 0), 64);                                                   \
        _tile_dpbf16ps(1, A_CUR, 6);                                                               \
        if (more)                                                                                  \
            _tile_loadd(6, B3((kb) + 1, 1), 64);                                                   \
        _tile_dpbf16ps(2, A_CUR, 7);                                                               \
        if (more)                                                                                  \
            _tile_loadd(7, B3((kb) + 1, 2), 64);                                                   \
    } while (0)

void microkernel_amx_16x48(int kc, const uint16_t *a, const uint16_t *b, float alpha, float beta,
                           float *c, int ldc, int m, int n, float *scratch)
{
    const int direct = m == 16 && n == 48 && alpha == 1.0f && (beta == 0.0f || beta == 1.0f);
    const size_t ld = sizeof(float) * (size_t)ldc;
    if (direct && beta == 1.0f) {
        _tile_loadd(0, c, ld);
        _tile_loadd(1, c + 16, ld);
        _tile_loadd(2, c + 32, ld);
    } else {
        _tile_zero(0);
        _tile_zero(1);
        _tile_zero(2);
    }
    const int nkb = kc / TILE_K;
    _tile_loadd(3, A1(0), 64);
    _tile_loadd(5, B3(0, 0), 64);
    _tile_loadd(6, B3(0, 1), 64);
    _tile_loadd(7, B3(0, 2), 64);
    int kb = 0;
    for (; kb + 1 < nkb; kb += 2) {
        STEP(3, 4, kb, nkb);
        STEP(4, 3, kb + 1, nkb);
    }
    if (kb < nkb)
        STEP(3, 4, kb, nkb);
    if (direct) {
        _tile_stored(0, c, ld);
        _tile_stored(1, c + 16, ld);
        _tile_stored(2, c + 32, ld);
        return;
    }
    _tile_stored(0, scratch, 192);
    _tile_stored(1, scratch + 16, 192);
    _tile_stored(2, scratch + 32, 192);
    amx_store_c(scratch, 48, alpha, beta, c, ldc, m, n);
}

/* amx_fp32's kernel: the panels hold three BF16 pieces of every value (hi, mid, lo: fp32.c),
 * each in the usual tile layout, [K-block][piece][tile]. The six products of the pieces that
 * matter are taken in an order where each step changes the pieces of one side only, so that two
 * tile loads feed four TDPBF16PS, and the hi.hi products come last:
 *
 *     A piece:  lo  mid  mid  hi   hi   hi
 *     B piece:  hi  hi   mid  mid  lo   hi        14 tile loads for 24 TDPBF16PS (0.58 a
 *                                                  TDPBF16PS; folded into K: 1)
 * Within a step the four products go in the order that frees first the tiles the next step
 * reloads (A0 then A1, or B0 then B1), so each load has two instructions' time to arrive. */
#define PIECE(p, base, kb, t) ((base) + ((size_t)(kb) * 6 + (p) * 2 + (t)) * TILE_ELEMS)
/* (the tile intrinsics are statements: these macros are too) */
#define LOAD_A(p) _tile_loadd(4, PIECE(p, a, kb, 0), 64); _tile_loadd(5, PIECE(p, a, kb, 1), 64)
#define LOAD_B(p) _tile_loadd(6, PIECE(p, b, kb, 0), 64); _tile_loadd(7, PIECE(p, b, kb, 1), 64)
#define A_FIRST() _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7); _tile_dpbf16ps(2, 5, 6); \
                  _tile_dpbf16ps(3, 5, 7)
#define B_FIRST() _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(1, 4, 7); \
                  _tile_dpbf16ps(3, 5, 7)
enum { HI, MID, LO };

void microkernel_amx_fp32_32x32(int kc, const uint16_t *a, const uint16_t *b, float alpha,
                                float beta, float *c, int ldc, int m, int n, float *scratch)
{
    const int direct = c_tiles_in(c, ldc, m, n, alpha, beta);
    for (int kb = 0; kb < kc / (3 * TILE_K); kb++) {
        LOAD_A(LO); LOAD_B(HI); A_FIRST();  /* lo.hi;   next: A changes */
        LOAD_A(MID); B_FIRST();             /* mid.hi;  next: B */
        LOAD_B(MID); A_FIRST();             /* mid.mid; next: A */
        LOAD_A(HI); B_FIRST();              /* hi.mid;  next: B */
        LOAD_B(LO); B_FIRST();              /* hi.lo;   next: B */
        LOAD_B(HI); A_FIRST();              /* hi.hi;   next: both */
    }
    c_tiles_out(direct, c, ldc, m, n, alpha, beta, scratch);
}
#endif
