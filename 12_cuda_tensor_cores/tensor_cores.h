/* tensor_cores.h: stage 12's variants (gemm.h's gemm_bf16_fn: BF16 A and B, FP32 C and sums;
 * gemm_fp16_fn below: the same on FP16 A and B). */
#ifndef TENSOR_CORES_H
#define TENSOR_CORES_H
#include <cuda_fp16.h>

#include "gemm.h"

typedef __half gemm_fp16;
typedef void gemm_fp16_fn(int M, int N, int K, float alpha, const gemm_fp16 *A, int lda,
                          const gemm_fp16 *B, int ldb, float beta, float *C, int ldc);

/* c of the bound c (K+2) u (|alpha||A||B| + |beta||C|) for every variant here, derived from
 * what --probe measured on the H100 (README, "The check"): products exact, 16 of them added
 * at a time to the accumulator with 2 bits kept below its last one, the sum truncated: the
 * sums stay under 0.66 K u S, and alpha's product and beta's sum round twice more (2 u S). */
#define TC_ERR_C 1.0

/* cuda_tensor_cores.cu: any GPU from sm_80 (Ampere) */
gemm_bf16_fn gemm_wmma;
gemm_bf16_fn gemm_mma_ldmatrix;

/* mma_pipelined.cuh (entry points in harness/mma_pipelined.cu): any GPU from sm_80; mma_sm75
 * (FP16) from sm_75 (a T4) */
gemm_bf16_fn gemm_mma_pipelined;
gemm_fp16_fn gemm_mma_pipelined_fp16;
gemm_fp16_fn gemm_mma_sm75;

/* wgmma.cu: Hopper only (sm_90a) */
gemm_bf16_fn gemm_wgmma_tma;
gemm_bf16_fn gemm_wgmma_ws;
gemm_bf16_fn gemm_wgmma_persistent;

/* tf32.cu: Hopper only (sm_90a), FP32 A, B and C (gemm.h's gemm_fn); run with --fp32 */
gemm_fn gemm_tf32;
gemm_fn gemm_3xtf32;
gemm_fn gemm_tf32_rs;

/* cuda_tensor_cores.cu: the same on mma.sync, any GPU from sm_80; cublas_sgemm.cu: cuBLAS SGEMM
 * with TF32 on and off */
gemm_fn gemm_mma_tf32;
gemm_fn gemm_mma_3xtf32;
gemm_fn gemm_cublas_tf32; /* cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH */
gemm_fn gemm_cublas_fp32; /* cublasSgemm, CUBLAS_PEDANTIC_MATH (the baseline, as a checked row) */

/* The variants that multiply inputs rounded to TF32 (tf32, tf32_rs, mma_tf32, cublas_tf32) are
 * checked against a bound of their own: an input term that does not grow with K (verify.h's
 * err_in) and FP32's for the sums (c = 2). Each input is within 2^-10 of itself (truncated;
 * 2^-11 rounded), a product of two within 2^-9 of |ab|: err_in = 2^-9. The products are exact
 * and the adder, measured (--fp32 --probe: blocks of 8, 2 extra bits, truncation), loses less
 * than 6.5 u S per 8 of K; alpha and beta 2 u S: within 2 (K + 2) u S. (c alone, 10931 as first
 * derived, let a kernel that never wrote C pass from K ~ 1500.) */
#define TF32_ERR_IN 0.001953125 /* 2^-9 */

#endif
