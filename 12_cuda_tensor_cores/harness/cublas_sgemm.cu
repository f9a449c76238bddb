/* cublas_sgemm.cu: cuBLAS SGEMM in stage 12's --fp32 run, as checked variants beside the ones that
 * multiply FP32 matrices on the tensor cores:
 *
 *   cublas_tf32   cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH (TF32 inputs, its own bound)
 *   cublas_fp32   cublasSgemm with CUBLAS_PEDANTIC_MATH (the FP32 units; the baseline's settings)
 */
#include <cublas_v2.h>

#include "cuda_harness.cuh"
#include "../tensor_cores.h"

/* ---- cuBLAS in the same run: its SGEMM with TF32 off (pedantic) and on, each on a handle of its
 * own with the math mode set once (the harness's baseline handle stays pedantic). ---------- */

static void cublas_rowmajor(cublasMath_t mode, int M, int N, int K, float alpha, const float *A,
                            int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    static cublasHandle_t handle[2];
    const int i = mode == CUBLAS_TF32_TENSOR_OP_MATH;
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    if (!handle[i]) {
        CUBLAS_CHECK(cublasCreate(&handle[i]));
        CUBLAS_CHECK(cublasSetMathMode(handle[i], mode));
    }
    CUBLAS_CHECK(cublasSetStream(handle[i], gemm_stream()));
    /* row-major C = A B is column-major C^T = B^T A^T (cuda_harness.cu says more) */
    CUBLAS_CHECK(cublasSgemm(handle[i], CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, ldb, A, lda,
                             &beta, C, ldc));
}

void gemm_cublas_tf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    cublas_rowmajor(CUBLAS_TF32_TENSOR_OP_MATH, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_cublas_fp32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    cublas_rowmajor(CUBLAS_PEDANTIC_MATH, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
