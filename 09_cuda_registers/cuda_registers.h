#ifndef CUDA_REGISTERS_H
#define CUDA_REGISTERS_H
#include "gemm.h"

gemm_fn gemm_blocktile_1d;
gemm_fn gemm_regtile_8x8;
gemm_fn gemm_vectorized;
gemm_fn gemm_double_buffer;
gemm_fn gemm_warptile;
gemm_fn gemm_async_pipeline;

/* what warptile runs, for any size and shape (any_size.cu); stage 10 links it by this name */
gemm_fn gemm_warptile_any_size;

/* --tune: the grid of warptile and async_pipeline configurations (tune.cu) */
extern const gemm_variant tune_variants[];
extern const int tune_nvariants;

#endif
