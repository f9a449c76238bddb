/* harness/mma_pipelined.cu: the configurations of mma_pipelined.cuh's kernel that each GPU runs,
 * chosen by the shared memory a block may have, and the entry points of main.cu's tables
 * (tensor_cores.h). --tune's rows are in tune_mma.cu. */
#include "../mma_pipelined.cuh"
#include "harness.h"

namespace {
using namespace mma_pipe;

/* The chapter's configuration: 192 KiB of shared memory a block, which a Hopper (227 KiB) has;
 * an A100 (163 KiB) takes 3 stages, RTX 30, 40 and 50 cards (99 KiB) 128x128 tiles of 3 stages.
 * The T4's: 128x128 tiles, two stages of 32 KiB (it gives a block 64 KiB), 8 warps of 64x32. */
template <typename T> using chosen = pipelined<T, 128, 256, 64, 64, 64, 4, true, false, true, 8>;
template <typename T> using a100 = pipelined<T, 128, 256, 64, 64, 64, 3, true, false, true, 8>;
template <typename T> using geforce = pipelined<T, 128, 128, 64, 64, 32, 3, true, false, true, 8>;
using sm75 = pipelined<__half, 128, 128, 64, 64, 32, 2, false, true, true, 8>;

template <typename T>
void pick(int M, int N, int K, float alpha, const T *A, int lda, const T *B, int ldb, float beta,
          float *C, int ldc)
{
    static int device = -1, smem;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (dev != device) {
        CUDA_CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        device = dev;
    }
    if (smem >= chosen<T>::SMEM)
        chosen<T>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else if (smem >= a100<T>::SMEM)
        a100<T>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    else
        geforce<T>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

} // namespace

void gemm_mma_pipelined(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                        const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    pick(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_mma_pipelined_fp16(int M, int N, int K, float alpha, const gemm_fp16 *A, int lda,
                             const gemm_fp16 *B, int ldb, float beta, float *C, int ldc)
{
    pick(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_mma_sm75(int M, int N, int K, float alpha, const gemm_fp16 *A, int lda,
                   const gemm_fp16 *B, int ldb, float beta, float *C, int ldc)
{
    sm75::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
