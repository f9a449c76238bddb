/* 03_tiling: cache blocking, blocks copied into aligned buffers, a 2x4 register block. */
#ifndef TILING_H
#define TILING_H

#include "gemm.h"

/* T, the edge of the square blocks every variant here works on, in floats.
 * Set by --tile (03's main) or by a later stage that links these kernels. */
extern int tile_size;
#define TILE_DEFAULT 64

gemm_fn gemm_tiled, gemm_tiled_copy, gemm_unroll_2x4;

#endif
