/* 05_simd exercise: write the micro-kernel, the heart of the Goto algorithm.
 *
 * Build and grade it with:   make grade STAGE=05
 * This file replaces kernel_generic.c in the graded build (05_simd/stage.mk says so): the
 * packing and the five loops (goto.c) are already done and call your function for every
 * 6 x 16 tile of C. The grader runs the `generic` variant (the one that calls this kernel)
 * over awkward shapes (1x1x1, primes, edges of every tile, lda > K, beta != 0, NaN in C with
 * beta == 0) and times it against the solution. Untouched, `generic` passes 32 of its 168
 * checks (the edge cases the five loops handle before calling any kernel) and fails the
 * rest; the other variants use their own kernels and pass.
 *
 * What you get (simd.h has the full contract):
 *   a: kc steps of 6 floats,  a[p*6 + i]  = A(i, p)   for i < 6
 *   b: kc steps of 16 floats, b[p*16 + j] = B(p, j)   for j < 16
 *   c: the tile's top-left element in C, row stride ldc
 * What you do:
 *   C[i][j] = alpha * sum_p A(i,p)*B(p,j) + beta * C[i][j]   for i < m, j < n
 * a and b are zero-padded to the full 6 x 16, so you may always compute all of it; only
 * m x n elements belong to C (m < 6 or n < 16 at the bottom and right edges).
 */
#include <string.h>

#include "simd.h"

#define MR 6
#define NR 16

/* 8 floats that the compiler treats as one vector: v + w, s * v work element-wise. */
typedef float vfloat8 __attribute__((vector_size(32)));

void microkernel_generic_6x16(int kc, const float *a, const float *b, float alpha, float beta,
                              float *c, int ldc, int m, int n)
{
    /* TODO 1: 6 x 2 accumulators, all zero:   vfloat8 acc[MR][2] = {{{0}}};
     * TODO 2: for each step p of kc:
     *           load b[0..7] and b[8..15] into two vfloat8 (memcpy(&v, b, sizeof v) is safe),
     *           for each row i: acc[i][0] += a[i] * b0;  acc[i][1] += a[i] * b1;
     *           then advance: a += MR; b += NR;
     * TODO 3: write the tile. For a full tile (m == 6, n == 16) store alpha*acc (+ beta*C)
     *         row by row; otherwise copy acc to a float tile[6][16] and write only i < m, j < n.
     * Hints:
     * - goto.c calls you with alpha = 1: alpha is already in the packed B (each term gets its
     *   alpha, chapter 01's rule, for one multiply per packed element). Keep the alpha* all the
     *   same: the contract says it, and a caller that did not pack B would need it.
     * - when beta == 0 do not read C at all: the grader fills it with NaN, and 0*NaN is NaN.
     * - row i of C starts at c + i*ldc, not c + i*n.
     * - `objdump -d build/rel/05_simd/exercise.o | grep vfmadd` shows whether your loop became
     *   FMAs; a version with 12 accumulators in registers reaches about the speed of avx2_6x16.
     */
    (void)kc; (void)a; (void)b; (void)alpha; (void)beta; (void)c; (void)ldc; (void)m; (void)n;
}
