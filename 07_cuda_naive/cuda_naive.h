#ifndef CUDA_NAIVE_H
#define CUDA_NAIVE_H
#include "gemm.h"

gemm_fn gemm_uncoalesced;
gemm_fn gemm_coalesced;
gemm_fn gemm_grid_stride_1d;

#endif
