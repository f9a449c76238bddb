/* kernel_neon.c: the 8 x 12 micro-kernel in NEON intrinsics, for ARM's 64-bit CPUs (AArch64).
 *
 * NEON (Advanced SIMD) is part of every AArch64 CPU that runs Linux or macOS (the ABI assumes it
 * and the compiler uses it in plain code), so this file needs no flag and goto.c no question to
 * the CPU: it is compiled where the target is AArch64, and is empty elsewhere.
 *
 * Why 8 x 12. A NEON register (q) holds 4 floats and there are 32 of them. A tile of MR rows x NR
 * columns takes MR * NR/4 accumulators; per step p it loads NR/4 vectors of B and the MR floats of
 * A's column, as MR/4 vectors. FMLA's "by element" form multiplies a vector by one lane of another
 * register: A(i, p) is used where it lies, lane i % 4 of a0 or a1, and costs no broadcast
 * instruction. 8 x 12: 24 accumulators, 3 registers for B and 2 for A, 29 of 32; per step 5 loads
 * (all of A and B at once: 3 + 2 vectors) for 24 FMAs, 4.8 FMAs per load. Two FMA pipes with a
 * latency of 4 cycles (a Neoverse N1 or a Cortex-A76) need 8 independent accumulators; 24 leave room
 * for cores with four pipes (Neoverse V1/V2, Apple's). BLIS's armv8a kernel takes the same shape.
 */
#include "simd.h"

#ifdef SIMD_NEON
#include <arm_neon.h>

#define MR 8
#define NR 12

/* One row i of the tile: row p of B (three vectors) times A(i, p), lane `lane` of register av. The
 * lane must be a constant: a macro, not a loop. */
#define ROW(i, av, lane)                                          \
    acc[i][0] = vfmaq_laneq_f32(acc[i][0], b0, av, lane);         \
    acc[i][1] = vfmaq_laneq_f32(acc[i][1], b1, av, lane);         \
    acc[i][2] = vfmaq_laneq_f32(acc[i][2], b2, av, lane)

void microkernel_neon_8x12(int kc, const float *a, const float *b, float alpha, float beta,
                           float *c, int ldc, int m, int n)
{
    /* Every loop over acc is unrolled: with constant indices acc[i][v] is a register; one loop
     * left to run time and GCC keeps the whole array on the stack, stored at every step. */
    float32x4_t acc[MR][3];
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++)
        acc[i][0] = acc[i][1] = acc[i][2] = vdupq_n_f32(0.0f);

#pragma GCC unroll 4
    for (int p = 0; p < kc; p++) {
        const float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4); /* A(0..3, p), A(4..7, p) */
        const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8);
        ROW(0, a0, 0);
        ROW(1, a0, 1);
        ROW(2, a0, 2);
        ROW(3, a0, 3);
        ROW(4, a1, 0);
        ROW(5, a1, 1);
        ROW(6, a1, 2);
        ROW(7, a1, 3);
        a += MR;
        b += NR;
    }

    if (m == MR && n == NR) { /* a full tile: straight to C */
#pragma GCC unroll 8
        for (int i = 0; i < MR; i++) {
            float *ci = &c[IDX(i, 0, ldc)];
#pragma GCC unroll 3
            for (int v = 0; v < 3; v++) {
                float32x4_t r = vmulq_n_f32(acc[i][v], alpha);
                if (beta != 0.0f) /* beta == 0: C is not read */
                    r = vfmaq_n_f32(r, vld1q_f32(ci + 4 * v), beta);
                vst1q_f32(ci + 4 * v, r);
            }
        }
        return;
    }
    /* An edge tile: through a local copy, then only the m x n elements that are C's. */
    float tile[MR][NR];
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 3
        for (int v = 0; v < 3; v++)
            vst1q_f32(&tile[i][4 * v], acc[i][v]);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float *cij = &c[IDX(i, j, ldc)];
            *cij = beta == 0.0f ? alpha * tile[i][j] : alpha * tile[i][j] + beta * *cij;
        }
}

#endif
