/* 03_tiling: cache blocking, blocks copied into aligned buffers, a 2x4 register block. */
#ifndef TILING_H
#define TILING_H

#include "gemm.h"

/* T, the edge of the square blocks every variant here works on, in floats.
 * Set by --tile (03's main) or by a later stage that links these kernels. The default is
 * the tile that measured fastest for unroll_2x4 at 1000 to 2048 (chapter 03's sweep). */
extern int tile_size;
#define TILE_DEFAULT 256

gemm_fn gemm_tiled, gemm_tiled_copy, gemm_unroll_2x4;
gemm_fn gemm_tiled_kij, gemm_unroll_4x4; /* the exercise's (chapter 03, exercise 1) */

#endif
