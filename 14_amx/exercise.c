/* 14_amx exercise: write the one-tile AMX micro-kernel.
 *
 * Build and grade it with:   make grade STAGE=14
 * This file replaces kernel_amx_naive.c in the graded build (14_amx/stage.mk says so): the
 * tile configuration and Linux's permission (cpu.c), the packing (pack.c) and the five loops
 * (loops.c) are done, and call your function for every 16 x 16 block of C. The grader runs every
 * variant over awkward shapes; until you fill this in, `amx_naive` fails every check that needs
 * a product, and passes only the edge cases that need none (K = 0, alpha = 0, empty sizes),
 * which the five loops handle before calling it; the others use their own kernels and pass. On a CPU without AMX there is nothing to grade: amx_naive is
 * not run (./14_amx/amx --list says why).
 *
 * What you get (amx.h has the contract, pack.c draws the layouts):
 *   a: kc/32 A tiles, one after the other, 1 KiB each: tile kb is A(0:16, 32kb : 32kb+32),
 *      16 rows of 32 BF16 values, rows 64 bytes apart
 *   b: kc/32 B tiles in the pair layout: tile kb holds B(32kb : 32kb+32, 0:16) as 16 rows of
 *      16 pairs (B(2r, j), B(2r+1, j)), rows 64 bytes apart
 *   kc: a multiple of 32 (the packing padded K with zeros)
 *   scratch: 16 x 16 floats (64-byte aligned) for you to use
 * What you do:
 *   C[i][j] = alpha * sum_p A(i,p)*B(p,j) + beta * C[i][j]   for i < m, j < n  (m, n <= 16)
 *
 * TODO 1: zero the C tile:                  _tile_zero(0);
 * TODO 2: for each kb < kc / 32:            _tile_loadd(1, <A tile kb>, 64);
 *                                           _tile_loadd(2, <B tile kb>, 64);
 *                                           _tile_dpbf16ps(0, 1, 2);
 *         (tile kb starts at a + kb * TILE_ELEMS: TILE_ELEMS BF16 values per tile)
 * TODO 3: store the C tile to scratch (_tile_stored(0, scratch, 64): 16 rows of 16 floats), then
 *         amx_store_c(scratch, 16, alpha, beta, c, ldc, m, n) applies alpha and beta into C.
 * Hints:
 * - the tile numbers are immediates (constants in the instruction): literal 0, 1, 2.
 * - the last argument of _tile_loadd / _tile_stored is the stride in BYTES between rows.
 * - `objdump -d build/rel/14_amx/exercise.o | grep tdpbf16ps` shows your instruction; then
 *   compare `./14_amx/amx --variant amx_naive,amx_blocked --sizes 2048`: why is the 2 x 2
 *   kernel not twice as fast, with half the loads per instruction (README, "The climb")?
 */
#include "amx.h"

#ifdef AMX_X86
#include <immintrin.h>

void microkernel_amx_16x16(int kc, const uint16_t *a, const uint16_t *b, float alpha, float beta,
                           float *c, int ldc, int m, int n, float *scratch)
{
    (void)kc; (void)a; (void)b; (void)alpha; (void)beta; (void)c; (void)ldc; (void)m; (void)n;
    (void)scratch;
}
#endif
