/* kernel_amx_naive.c: the tile unit, one C tile at a time.
 *
 * One TDPBF16PS multiplies a 16 x 32 BF16 tile of A by a 32 x 16 BF16 tile of B (in the pair
 * layout: 16 rows of 16 pairs) and adds the product to a 16 x 16 FP32 tile of C: 16 x 16 x 32
 * multiply-adds, 16,384 FLOP, in one instruction. This kernel does the least that works: the C
 * tile starts at zero, and for every 32 values of K it loads one A tile and one B tile from the
 * packed panels (pack_a_tiles, pack_b_tiles: each tile's 1 KiB contiguous, rows 64 bytes
 * apart) and issues one TDPBF16PS. Then the C tile goes to scratch memory, and amx_store_c
 * applies alpha and beta on its way into C.
 *
 * The tile numbers are part of the instruction (immediates), so the intrinsics take constants:
 * tile 0 holds C, 1 the A tile, 2 the B tile. The tile configuration (cpu.c) was loaded by
 * the calling thread (loops.c). This file is built with -mamx-tile -mamx-bf16 (stage.mk); it is
 * the one make grade STAGE=14 has you write (exercise.c).
 */
#include "amx.h"

#ifdef AMX_X86
#include <immintrin.h>

void microkernel_amx_16x16(int kc, const uint16_t *a, const uint16_t *b, float alpha, float beta,
                           float *c, int ldc, int m, int n, float *scratch)
{
    _tile_zero(0);
    for (int kb = 0; kb < kc / TILE_K; kb++) {
        _tile_loadd(1, a + (size_t)kb * TILE_ELEMS, 64); /* 16 rows of 64 bytes */
        _tile_loadd(2, b + (size_t)kb * TILE_ELEMS, 64);
        _tile_dpbf16ps(0, 1, 2); /* C += A . B */
    }
    _tile_stored(0, scratch, 64);
    amx_store_c(scratch, TILE_N, alpha, beta, c, ldc, m, n);
}
#endif
