/* 07_cuda_naive exercise: write the three naive kernels yourself.
 *
 * Build and grade it on a machine with an NVIDIA GPU:   make grade STAGE=07
 * The grader runs your kernels over awkward shapes (1x1x1, primes, sizes that are not
 * multiples of 32, leading dimensions larger than the width, beta != 0, NaN in C with
 * beta == 0) and times them against the solution and cuBLAS. The launchers are written
 * for you; until the kernels are filled in, C keeps its NaN poison and every check that
 * needs a product FAILs (the edge cases that need none, K = 0, alpha = 0 and empty sizes,
 * pass: gemm_quick_return_gpu handles them).
 *
 * `mapped` needs no code of its own: it is gemm_coalesced running on pinned host memory.
 */
#include "cuda_harness.cuh"
#include "cuda_naive.h"

#define BLOCK 32
#define STRIDE_THREADS 256

/* The launcher below puts the ROWS of C on x: blockIdx.x * blockDim.x + threadIdx.x.
 * TODO: compute row and col from the block and thread indices, return if (row, col) is
 *       outside C, then sum A[row][k] * B[k][col] over k and store with
 *       gemm_store(&C[IDX(row, col, ldc)], alpha, sum, beta).
 * Hint: IDX(i, j, ld) = i*ld + j; use lda, ldb, ldc, never K or N, as row strides. */
__global__ void uncoalesced_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc)
{
}

/* The same computation with the COLUMNS of C on x.
 * TODO: as above, with row and col swapped in the index arithmetic.
 * Question to answer before you measure: which of A, B, C does a warp now read as one
 * 128-byte line, and which as one address shared by all 32 threads? */
__global__ void coalesced_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                 const float *B, int ldb, float beta, float *C, int ldc)
{
}

/* A 1-D grid smaller than C: each thread handles element e, e + stride, e + 2*stride, ...
 * of C in row-major order (row = e / N, col = e % N), stride = gridDim.x * blockDim.x.
 * TODO: the loop. Use size_t for e: M*N can exceed 2^31.
 * Hint: gemm_store does the beta == 0 case for you (C is NaN then: never read it). */
__global__ void grid_stride_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc)
{
}

void gemm_uncoalesced(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    dim3 block(BLOCK, BLOCK);
    for (long c0 = 0; c0 < N; c0 += (long)GRID_Y_MAX * BLOCK) { /* gridDim.y <= 65535 */
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
    size_t blocks_needed = ((size_t)M * N + STRIDE_THREADS - 1) / STRIDE_THREADS;
    size_t one_wave = (size_t)gemm_sm_count() * (2048 / STRIDE_THREADS);
    int blocks = (int)(blocks_needed < one_wave ? blocks_needed : one_wave);
    grid_stride_kernel<<<blocks, STRIDE_THREADS, 0, gemm_stream()>>>(M, N, K, alpha, A, lda, B,
                                                                     ldb, beta, C, ldc);
    CUDA_CHECK_LAUNCH();
}
