/* kernel_generic.c: the portable micro-kernel, 6 x 16, in GCC's vector extensions.
 *
 * `vfloat8` is a type of 8 floats that GCC (and clang) compile to whatever the target has:
 * one ymm register with AVX2, two 128-bit registers with SSE or ARM NEON. Arithmetic on
 * it is element-wise, and `scalar * vector` multiplies every lane by the scalar, so the
 * kernel reads like the algebra:  acc[i] += A(i,p) * B(p, 0:16).  No intrinsics, no
 * target flags: this is the kernel that builds on any CPU (make grade STAGE=05 has you
 * write it). It is also what goto.c falls back to when the CPU has neither AVX2 nor AVX-512.
 *
 * `acc += x * b` becomes one FMA instruction only because the Makefile's CFLAGS say
 * -ffp-contract=fast: under -std=c11 GCC would otherwise keep the multiply and the add
 * apart (the chapter shows how to check).
 */
#include <string.h>

#include "simd.h"

#define MR 6
#define NR 16

typedef float vfloat8 __attribute__((vector_size(32)));

void microkernel_generic_6x16(int kc, const float *a, const float *b, float alpha, float beta,
                              float *c, int ldc, int m, int n)
{
    vfloat8 acc[MR][2] = {{{0}}};
    for (int p = 0; p < kc; p++) {
        /* Row p of the B micro-panel. memcpy: no alignment or aliasing assumptions, and
         * the compiler turns each one into a single vector load. */
        vfloat8 b0, b1;
        memcpy(&b0, b, sizeof b0);
        memcpy(&b1, b + 8, sizeof b1);
        for (int i = 0; i < MR; i++) {
            acc[i][0] += a[i] * b0; /* a[i] = A(i, p), multiplied into every lane */
            acc[i][1] += a[i] * b1;
        }
        a += MR;
        b += NR;
    }

    if (m == MR && n == NR) { /* a full tile */
        for (int i = 0; i < MR; i++) {
            float *ci = &c[IDX(i, 0, ldc)];
            vfloat8 r0 = alpha * acc[i][0], r1 = alpha * acc[i][1];
            if (beta != 0.0f) { /* beta == 0: C is not read */
                vfloat8 c0, c1;
                memcpy(&c0, ci, sizeof c0);
                memcpy(&c1, ci + 8, sizeof c1);
                r0 += beta * c0;
                r1 += beta * c1;
            }
            memcpy(ci, &r0, sizeof r0);
            memcpy(ci + 8, &r1, sizeof r1);
        }
        return;
    }
    /* An edge tile: only the m x n elements that belong to C. */
    float tile[MR][NR];
    memcpy(tile, acc, sizeof tile);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float *cij = &c[IDX(i, j, ldc)];
            *cij = beta == 0.0f ? alpha * tile[i][j] : alpha * tile[i][j] + beta * *cij;
        }
}
