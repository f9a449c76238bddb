/* gemm.h: the one contract every kernel in this repository implements.
 *
 *   C = alpha*A*B + beta*C, single precision, row-major.
 *   A is M x K with row stride lda >= K,
 *   B is K x N with row stride ldb >= N,
 *   C is M x N with row stride ldc >= N.
 *
 * When beta == 0, C is written without being read: a NaN already in C must
 * not leak into the result (0*NaN is NaN, so "C = alpha*AB + 0*C" is a bug).
 * Every M, N, K >= 1 must work. At the edges, the rules of reference BLAS (netlib
 * sgemm, tested by sblat3):
 *   M == 0 or N == 0          C is left alone
 *   K == 0 or alpha == 0      C = beta*C, and A and B are not read (a NaN in A
 *                             must not reach C when alpha == 0)
 *   M, N or K < 0             nothing is read or written (and nothing crashes)
 * gemm_quick_return below does all of this; every variant calls it first.
 *
 * The order of the arithmetic, also netlib's: alpha scales each term before it is
 * added, C_ij = sum_k (alpha*B_kj)*A_ik + beta*C_ij (alpha may go with A_ik instead).
 * The result is then finite whenever the scaled terms and their sum are: with A = B =
 * 1e20, alpha = 1e-20, K = 4 it is 4e20, where alpha*(sum_k A_ik B_kj) overflows to
 * +Inf. The place for the multiply is where data is copied or broadcast anyway (the
 * packing of B, the broadcast element of A, a tile's load into shared memory), so it
 * costs no speed. A variant flagged alpha_last applies alpha to the finished dot
 * product instead; its chapter says why.
 *
 * A NaN or Inf in A(i, k) or B(k, j) reaches exactly the elements of C whose dot
 * products use it (row i, column j), except in variants flagged fast_algorithm
 * (Strassen, Winograd), whose sums of blocks spread it further.
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

/* The typed sibling of gemm_fn for kernels on bfloat16 inputs (float's 8 exponent bits, 8
 * significant bits): A and B in BF16, C in float, the products summed in float. The same rules as
 * gemm_fn otherwise. CUDA code sees the element as __nv_bfloat16; C code, which never looks
 * inside, as its 16 bits. */
#ifdef __CUDACC__
typedef __nv_bfloat16 gemm_bf16;
#else
typedef struct gemm_bf16 {
    uint16_t bits;
} gemm_bf16;
#endif
typedef void gemm_bf16_fn(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                          const gemm_bf16 *B, int ldb, float beta, float *C, int ldc);

/* Any function, for a variant whose kernel is not a gemm_fn (gemm_bf16_fn): the table keeps it
 * as this type (GEMM_OTHER_FN) and the stage's own backend calls it at its real type. */
typedef void gemm_other_fn(void);
#define GEMM_OTHER_FN(...) ((gemm_other_fn *)(__VA_ARGS__))

/* One row of a stage's variant table. The fields after fn are optional (zero: the default). */
typedef struct gemm_variant {
    const char *name;   /* short, says the technique: "ikj", "tiled_copy" */
    const char *desc;   /* one line for --list */
    gemm_fn *fn;
    /* how the harness checks it (verify.h, edges.h) */
    double err_c;       /* c in the error bound (0 means the default, 2) */
    int normwise;       /* 1: check against a normwise bound (Strassen) */
    int alpha_last;     /* 1: alpha scales the finished dot product, not each term (the
                           overflow rule above does not hold; the chapter says why) */
    int fast_algorithm; /* 1: Strassen-like: a NaN or Inf in A or B may also reach elements
                           of C whose dot products do not use it */
    int (*runnable)(void); /* NULL, or: can this machine run it? (e.g. a CPU feature test) */
    const char *needs;     /* what runnable() looks for, for messages: "AVX-512F/DQ/VL" */
    double err_in;         /* the bound's term that does not grow with K: inputs rounded before
                              the product (TF32, BF16 pieces; verify.h) */
    /* for the stage's own backend, which alone reads them */
    gemm_other_fn *other_fn;  /* the kernel when it is not a gemm_fn (a BF16 one); fn then
                                 names a stand-in that the backend never calls */
    const void *backend_data; /* what that backend needs to know of this variant, its type */
} gemm_variant;

/* A BF16 variant's kernel (other_fn). */
static inline gemm_bf16_fn *gemm_bf16_of(const gemm_variant *v)
{
    return (gemm_bf16_fn *)v->other_fn;
}

/* The BLAS rules at the edges (above), for the first line of every variant:
 *     if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) return;
 * Returns 1 when the call is complete: a size is zero or negative, or K == 0 or
 * alpha == 0 (then C = beta*C here, C unread when beta == 0, untouched when beta == 1).
 * Returns 0 when the caller has a product to compute. C in host memory. */
int gemm_quick_return(int M, int N, int K, float alpha, float beta, float *C, int ldc);
/* The same for a CUDA variant: C in device (or mapped) memory, scaled on gemm_stream()
 * (common/quick_return_gpu.cu). */
int gemm_quick_return_gpu(int M, int N, int K, float alpha, float beta, float *C, int ldc);

/* Element (i, j) of a row-major matrix with row stride ld. */
#define IDX(i, j, ld) ((size_t)(i) * (size_t)(ld) + (size_t)(j))

#ifdef __cplusplus
}
#endif

#endif
