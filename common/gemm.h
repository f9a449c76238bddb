/* gemm.h: the one contract every kernel in this repository implements.
 *
 *   C = alpha*A*B + beta*C, single precision, row-major.
 *   A is M x K with row stride lda >= K,
 *   B is K x N with row stride ldb >= N,
 *   C is M x N with row stride ldc >= N.
 *
 * When beta == 0, C is written without being read: a NaN already in C must
 * not leak into the result (0*NaN is NaN, so "C = alpha*AB + 0*C" is a bug).
 * Every M, N, K >= 1 must work; M, N or K == 0 returns at once.
 * GPU variants take device pointers and run on the harness's stream.
 */
#ifndef GEMM_H
#define GEMM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef void gemm_fn(int M, int N, int K, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc);

/* Stage 12's tensor-core variants: A and B in bfloat16 (float's 8 exponent bits, 8 significant
 * bits), C in float, the products summed in float. The same rules as gemm_fn otherwise. CUDA code
 * sees the element as __nv_bfloat16; C code, which never looks inside, as its 16 bits. */
#ifdef __CUDACC__
typedef __nv_bfloat16 gemm_bf16;
#else
typedef struct gemm_bf16 {
    uint16_t bits;
} gemm_bf16;
#endif
typedef void gemm_bf16_fn(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                          const gemm_bf16 *B, int ldb, float beta, float *C, int ldc);

/* One row of a stage's variant table. */
typedef struct gemm_variant {
    const char *name;   /* short, says the technique: "ikj", "tiled_copy" */
    const char *desc;   /* one line for --list */
    gemm_fn *fn;
    double err_c;       /* c in the error bound (0 means the default, 2) */
    int normwise;       /* 1: check against a normwise bound (Strassen) */
    int host_mapped;    /* GPU: A, B and C stay in pinned host memory that the kernel reads
                           and writes over the bus (zero-copy, stage 07's `mapped`) */
    gemm_bf16_fn *fn_bf16; /* a BF16 variant (stage 12): run by cuda_bf16_backend, with fn set to
                              gemm_bf16_variant */
} gemm_variant;

/* Element (i, j) of a row-major matrix with row stride ld. */
#define IDX(i, j, ld) ((size_t)(i) * (size_t)(ld) + (size_t)(j))

#ifdef __cplusplus
}
#endif

#endif
