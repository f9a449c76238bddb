/* 07_cuda_naive: one GPU thread per element of C, and the index swap that costs 10x.
 *
 *   uncoalesced     2-D grid; threadIdx.x walks the rows of C (the mistake)
 *   coalesced       2-D grid; threadIdx.x walks the columns of C
 *   grid_stride_1d  1-D grid of one wave of threads, each looping over elements of C
 *   mapped          (main.cu) the coalesced kernel on pinned host memory: zero-copy
 *
 * Every thread computes one C[row][col] = alpha * sum_k A[row][k] * B[k][col] + beta * C[row][col],
 * reading A and B straight from device memory: 01's triple loop with the two outer loops
 * replaced by the grid. Alpha scales the finished sum (alpha_last in gemm.h: one multiply per
 * term cost coalesced 10% on the H100). What differs between the variants is only which thread gets which
 * element, and that decides how the 32 threads of a warp touch memory.
 */
#include "cuda_harness.cuh"
#include "cuda_naive.h"

#define BLOCK 32          /* 32 x 32 = 1024 threads, the most a block may have */
#define STRIDE_THREADS 256 /* grid_stride_1d's block */

/* The mistake. Threads of a warp have consecutive threadIdx.x, and here x picks the row:
 * one load instruction of the warp reads A[row..row+31][k], 32 addresses lda floats apart,
 * and the memory system serves it as 32 separate transactions. (B[k][col] is one address
 * for the whole warp, and C is written 32 rows apart too.) */
__global__ void uncoalesced_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[IDX(row, k, lda)] * B[IDX(k, col, ldb)];
    gemm_store(&C[IDX(row, col, ldc)], alpha, sum, beta);
}

/* The fix: x picks the column. A warp now reads B[k][col..col+31], 128 consecutive bytes
 * (one transaction), and A[row][k], one address that the hardware broadcasts to all 32. */
__global__ void coalesced_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                 const float *B, int ldb, float beta, float *C, int ldc)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[IDX(row, k, lda)] * B[IDX(k, col, ldb)];
    gemm_store(&C[IDX(row, col, ldc)], alpha, sum, beta);
}

/* One loop over the M*N elements of C in row-major order: consecutive threads get
 * consecutive columns (coalesced, like above), and a grid of any size covers any C. */
__global__ void grid_stride_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc)
{
    size_t total = (size_t)M * N;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        int row = (int)(e / N), col = (int)(e % N);
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += A[IDX(row, k, lda)] * B[IDX(k, col, ldb)];
        gemm_store(&C[IDX(row, col, ldc)], alpha, sum, beta);
    }
}

void gemm_uncoalesced(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    dim3 block(BLOCK, BLOCK);
    /* Columns are on y here, and gridDim.y <= 65535: very wide C goes in slabs of columns. */
    for (long c0 = 0; c0 < N; c0 += (long)GRID_Y_MAX * BLOCK) {
        int n = (int)(N - c0 < (long)GRID_Y_MAX * BLOCK ? N - c0 : (long)GRID_Y_MAX * BLOCK);
        dim3 grid(ceil_div(M, BLOCK), ceil_div(n, BLOCK));
        uncoalesced_kernel<<<grid, block, 0, gemm_stream()>>>(M, n, K, alpha, A, lda, B + c0, ldb,
                                                               beta, C + c0, ldc);
        CUDA_CHECK_LAUNCH();
    }
}

void gemm_coalesced(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    dim3 block(BLOCK, BLOCK);
    /* Rows are on y: very tall C goes in slabs of rows. */
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * BLOCK) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * BLOCK ? M - r0 : (long)GRID_Y_MAX * BLOCK);
        dim3 grid(ceil_div(N, BLOCK), ceil_div(m, BLOCK));
        coalesced_kernel<<<grid, block, 0, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B,
                                                             ldb, beta, C + r0 * ldc, ldc);
        CUDA_CHECK_LAUNCH();
    }
}

void gemm_grid_stride_1d(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    /* One wave: as many blocks as the GPU holds at once (2048 threads per SM on recent
     * GPUs, so 8 blocks of 256), or fewer when C is small. */
    size_t blocks_needed = ((size_t)M * N + STRIDE_THREADS - 1) / STRIDE_THREADS;
    size_t one_wave = (size_t)gemm_sm_count() * (2048 / STRIDE_THREADS);
    int blocks = (int)(blocks_needed < one_wave ? blocks_needed : one_wave);
    grid_stride_kernel<<<blocks, STRIDE_THREADS, 0, gemm_stream()>>>(M, N, K, alpha, A, lda, B,
                                                                     ldb, beta, C, ldc);
    CUDA_CHECK_LAUNCH();
}
