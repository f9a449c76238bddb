/* tensor_cores.h: stage 12's variants (gemm.h's gemm_bf16_fn: BF16 A and B, FP32 C and sums). */
#ifndef TENSOR_CORES_H
#define TENSOR_CORES_H
#include "gemm.h"

/* c of the bound c (K+2) u (|alpha||A||B| + |beta||C|) for every variant here, derived from
 * what --probe measured on the H100 (README, "The check"): products exact, 16 of them added
 * at a time to the accumulator with 2 bits kept below its last one, the sum truncated: the
 * sums stay under 0.66 K u S, and alpha's product and beta's sum round twice more (2 u S). */
#define TC_ERR_C 1.0

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
