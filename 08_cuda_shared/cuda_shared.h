#ifndef CUDA_SHARED_H
#define CUDA_SHARED_H
#include "gemm.h"

gemm_fn gemm_smem_32;
gemm_fn gemm_smem_row_1d;
gemm_fn gemm_smem_rect;

/* smem_rect's tile: rows x columns of C per block, and depth (the k-slice held in shared
 * memory). 0 = chosen from the problem's shape. Set by --tile HxWxD (main.cu). */
extern int rect_tile_h, rect_tile_w, rect_tile_d;

#endif
