/* kernel_avx512.c: the 6 x 64 (and 14 x 32) micro-kernels in AVX-512 intrinsics.
 *
 * This file alone is compiled with -mavx512f -mavx512dq -mavx512vl -mfma (stage.mk), so the
 * program still builds for, and runs on, a CPU without AVX-512: goto.c calls this kernel only
 * after __builtin_cpu_supports("avx512f") said yes.
 *
 * Why 6 x 64. A zmm register holds 16 floats and there are 32 of them. An FMA gives its
 * result 4 cycles after it starts and the core starts 2 per cycle (two 512-bit FMA units),
 * so at least 4 x 2 = 8 independent accumulators must be in flight to keep both units
 * busy. A tile of MR rows x NV vectors takes MR*NV accumulators, NV registers for the row
 * of B and 1 for the broadcast element of A. Each step p then loads NV vectors, broadcasts
 * MR elements and does MR*NV FMAs:
 *
 *   tile     accumulators  registers  loads/step  FMAs/step  FMAs per load
 *   14 x 32       28           31         16          28          1.75
 *    8 x 48       24           28         11          24          2.2
 *    6 x 64       24           29         10          24          2.4
 *    7 x 64       28           33          -           -          (does not fit)
 *
 * On paper every row keeps the FMA units the limit: at two loads per cycle, even 14 x 32's
 * 16 loads take 8 cycles against 14 for its FMAs. The difference is in everything else the
 * core does per FMA: fewer loads and broadcasts per FMA leave more of the four instructions
 * the core can issue per cycle, and more of the load ports, to the FMAs, the B panel
 * streaming in from L2 and the tile of C. 6 x 64 needs 1 load per 2.4 FMAs, 14 x 32 1 per
 * 1.75. Which one is faster is a measurement: the stage keeps both, the dispatch picks
 * 6 x 64, and the chapter (README.md) shows the numbers.
 */
#include "simd.h"

#ifdef SIMD_X86
#include <immintrin.h>

/* How far ahead (in steps of p) to ask for the B micro-panel: it streams from L2. */
#define PREFETCH_B 8
#define MAX_MR 14
#define MAX_NV 4

/* The kernel for a tile of MR rows x NV vectors of 16 floats. Both are constants in every
 * call (the two wrappers below), and the function is always inlined into them: every loop
 * over i or v is then unrolled (#pragma GCC unroll) and acc[i][v] becomes a named register.
 * A loop the compiler kept would index acc in memory instead. */
static inline __attribute__((always_inline)) void
avx512_tile(const int MR, const int NV, const int A_IN_PLACE, int kc, const float *a, int lda,
            const float *b, float alpha, float beta, float *c, int ldc, int m, int n)
{
    const int NR = 16 * NV;
    /* A in place (A_IN_PLACE): row i of the tile is A's own row, a + i*lda, read along p. Rows
     * past m (the last tile of an M that is no multiple of MR) read row 0 again: their results
     * are never stored. Packed: a[p*MR + i]. */
    const float *ar[MAX_MR];
#pragma GCC unroll 14
    for (int i = 0; i < MR; i++)
        ar[i] = a + (size_t)(i < m ? i : 0) * (A_IN_PLACE ? lda : 0);
    __m512 acc[MAX_MR][MAX_NV];
#pragma GCC unroll 14
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++)
            acc[i][v] = _mm512_setzero_ps();

    /* Ask for the tile of C now: it is needed only after the loop, by then it is in L1. */
    for (int i = 0; i < m; i++)
        for (int v = 0; v < NV; v++)
            _mm_prefetch((const char *)&c[IDX(i, 16 * v, ldc)], _MM_HINT_T0);

    for (int p = 0; p < kc; p++) {
        __m512 bv[MAX_NV]; /* row p of the B micro-panel: NV vectors, NV cache lines */
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) {
            bv[v] = _mm512_load_ps(b + 16 * v);
            _mm_prefetch((const char *)(b + PREFETCH_B * NR + 16 * v), _MM_HINT_T0);
        }
#pragma GCC unroll 14
        for (int i = 0; i < MR; i++) {
            const __m512 ai = _mm512_set1_ps(A_IN_PLACE ? ar[i][p] : a[i]); /* A(i, p), 16 lanes */
#pragma GCC unroll 4
            for (int v = 0; v < NV; v++)
                acc[i][v] = _mm512_fmadd_ps(ai, bv[v], acc[i][v]);
        }
        a += A_IN_PLACE ? 0 : MR;
        b += NR;
    }

    /* Store m rows of n columns: lanes past n are masked off, so nothing outside C is
     * read or written, whatever the width of the edge tile. */
    __mmask16 mask[MAX_NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) {
        const int w = n - 16 * v; /* columns of C in vector v */
        mask[v] = w >= 16 ? 0xFFFF : w > 0 ? (__mmask16)((1u << w) - 1) : 0;
    }
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 14
    for (int i = 0; i < MR; i++) { /* i < MR, not i < m: acc[i] must stay in registers */
        if (i >= m)
            break;
        float *ci = &c[IDX(i, 0, ldc)];
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) {
            __m512 r = _mm512_mul_ps(va, acc[i][v]);
            if (beta != 0.0f) /* beta == 0: C is not read (it may hold NaN) */
                r = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(mask[v], ci + 16 * v), r);
            _mm512_mask_storeu_ps(ci + 16 * v, mask[v], r);
        }
    }
}

/* The kernel the dispatch picks: 24 accumulators, 2.4 FMAs per load. */
void microkernel_avx512_6x64(int kc, const float *a, const float *b, float alpha, float beta,
                             float *c, int ldc, int m, int n)
{
    avx512_tile(6, 4, 0, kc, a, 0, b, alpha, beta, c, ldc, m, n);
}

/* The same kernel reading A where it lies (row-major, row stride lda): no packed A. */
void microkernel_avx512_6x64_a_in_place(int kc, const float *a, int lda, const float *b,
                                        float alpha, float beta, float *c, int ldc, int m, int n)
{
    avx512_tile(6, 4, 1, kc, a, lda, b, alpha, beta, c, ldc, m, n);
}

/* A's packing for the 6-row kernel, 16 columns at a time: load 16 floats of each of the 6 rows,
 * transpose the 6 x 16 block in registers and store it as 16 columns of 6 (a[p*6 + i] = A(i, p)),
 * six whole vectors instead of 96 single floats. Output vector k, lane l holds element
 * f = 16k + l of the block: A(f % 6, f / 6); it is gathered from the six rows by one permute
 * (vpermps) per row, each writing only its own lanes (the mask). A full panel only (6 rows);
 * goto.c's scalar pack_a_panel does the edges. Each chunk asks for the same 16 columns of the
 * next panel (6 rows down), spread over the loop rather than in bursts. */
void pack_a_avx512_6(int kc, const float *A, int lda, int prefetch_next, float *dst)
{
    __m512i idx[6];
    __mmask16 mask[6][6];
    for (int k = 0; k < 6; k++) {
        int from[16];
        unsigned m[6] = {0};
        for (int l = 0; l < 16; l++) {
            from[l] = (16 * k + l) / 6;
            m[(16 * k + l) % 6] |= 1u << l;
        }
        idx[k] = _mm512_loadu_si512(from);
        for (int r = 0; r < 6; r++)
            mask[k][r] = (__mmask16)m[r];
    }
    int p = 0;
    for (; p + 16 <= kc; p += 16) {
        __m512 row[6];
#pragma GCC unroll 6
        for (int r = 0; r < 6; r++) {
            row[r] = _mm512_loadu_ps(&A[IDX(r, p, lda)]);
            if (prefetch_next)
                _mm_prefetch((const char *)&A[IDX(r + 6, p, lda)], _MM_HINT_T0);
        }
#pragma GCC unroll 6
        for (int k = 0; k < 6; k++) {
            __m512 o = _mm512_permutexvar_ps(idx[k], row[0]);
#pragma GCC unroll 6
            for (int r = 1; r < 6; r++)
                o = _mm512_mask_permutexvar_ps(o, mask[k][r], idx[k], row[r]);
            _mm512_storeu_ps(dst + (size_t)p * 6 + 16 * k, o);
        }
    }
    for (; p < kc; p++) /* the last kc % 16 columns */
        for (int r = 0; r < 6; r++)
            dst[(size_t)p * 6 + r] = A[IDX(r, p, lda)];
}

/* The tile with the most accumulators: 28, 1.75 FMAs per load (the chapter compares them). */
void microkernel_avx512_14x32(int kc, const float *a, const float *b, float alpha, float beta,
                              float *c, int ldc, int m, int n)
{
    avx512_tile(14, 2, 0, kc, a, 0, b, alpha, beta, c, ldc, m, n);
}

#endif
