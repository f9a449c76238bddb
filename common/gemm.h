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

#ifdef __cplusplus
extern "C" {
#endif

typedef void gemm_fn(int M, int N, int K, float alpha, const float *A, int lda,
                     const float *B, int ldb, float beta, float *C, int ldc);

/* One row of a stage's variant table. */
typedef struct gemm_variant {
    const char *name;   /* short, says the technique: "ikj", "tiled_copy" */
    const char *desc;   /* one line for --list */
    gemm_fn *fn;
    double err_c;       /* c in the error bound (0 means the default, 2) */
    int normwise;       /* 1: check against a normwise bound (Strassen) */
    int host_mapped;    /* GPU: A, B and C stay in pinned host memory that the kernel reads
                           and writes over the bus (zero-copy, stage 07's `mapped`) */
    int (*runnable)(void); /* NULL, or: can this machine run it? (e.g. a CPU feature test) */
    const char *needs;     /* what runnable() looks for, for messages: "AVX-512F/DQ/VL" */
} gemm_variant;

/* Element (i, j) of a row-major matrix with row stride ld. */
#define IDX(i, j, ld) ((size_t)(i) * (size_t)(ld) + (size_t)(j))

#ifdef __cplusplus
}
#endif

#endif
