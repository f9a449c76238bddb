/* tensor_cores.h: stage 12's variants (gemm.h's gemm_bf16_fn: BF16 A and B, FP32 C and sums). */
#ifndef TENSOR_CORES_H
#define TENSOR_CORES_H
#include "gemm.h"

/* cuda_tensor_cores.cu: any GPU from sm_80 (Ampere) */
gemm_bf16_fn gemm_wmma;
gemm_bf16_fn gemm_mma_ldmatrix;

/* wgmma.cu: Hopper only (sm_90a) */
gemm_bf16_fn gemm_wgmma_tma;
gemm_bf16_fn gemm_wgmma_ws;
gemm_bf16_fn gemm_wgmma_persistent;

/* --tune: wgmma_persistent's configurations, each alone (wgmma.cu) */
extern const gemm_variant wgmma_tune_variants[];
extern const int wgmma_tune_nvariants;

#endif
