/* 08_cuda_shared exercise: the three shared-memory kernels.
 *
 * Build and grade it on a machine with an NVIDIA GPU:   make grade STAGE=08
 * The launchers are written for you (grid shapes, dynamic shared memory sizes, the opt-in
 * above 48 KB); the kernel bodies are yours. Until they are filled in, C keeps its NaN
 * poison and every check that needs a product FAILs (the edge cases that need none pass:
 * gemm_quick_return_gpu handles them). Run `compute-sanitizer --tool racecheck` on your kernels
 * too (see `make test-gpu`): a missing __syncthreads() often passes a check by luck.
 */
#include "cuda_harness.cuh"
#include "cuda_shared.h"

#define TILE 32
#define ROW_THREADS 256
#define SMEM_DEFAULT_MAX 49152
#define SMEM_SLACK 4 /* floats at the end of dynamic shared arrays (see cuda_shared.cu) */
#define ROW_CHUNK (SMEM_DEFAULT_MAX / 4 - SMEM_SLACK)

/* Block (blockIdx.x, blockIdx.y) computes the 32x32 tile of C at rows blockIdx.y*32..,
 * columns blockIdx.x*32..; thread (tx, ty) its element (row, col).
 * TODO: declare the tiles: __shared__ float As[TILE][TILE], Bs[TILE][TILE];
 *       for k0 = 0, 32, 64, ... < K:
 *         As[ty][tx] = A[row][k0 + tx], Bs[ty][tx] = B[k0 + ty][col]   (0 outside A or B)
 *         __syncthreads();  sum += As[ty][k] * Bs[k][tx] for k < 32;  __syncthreads();
 *       then, only if (row, col) is inside C: gemm_store(&C[IDX(row, col, ldc)], alpha, sum, beta).
 * Hint: do not return early for threads outside C: every thread must reach every
 *       __syncthreads() of its block. */
__global__ void smem_32_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                               const float *B, int ldb, float beta, float *C, int ldc)
{
}

/* Block blockIdx.x computes row `row = blockIdx.x` of C with blockDim.x threads.
 * TODO: for each chunk of `chunk` values of k (a single chunk when K <= chunk):
 *         copy A[row][k0 .. k0+kc) into a_row (threads share the copy: k = tid, tid + blockDim.x, ...)
 *         __syncthreads(), then for col = tid, tid + blockDim.x, ... < N:
 *         sum = a_row[k] * B[k0 + k][col] over the chunk; the first chunk stores with
 *         gemm_store, later chunks add alpha * sum to C.
 * Hint: a __syncthreads() before overwriting a_row too: a fast thread must not replace the
 *       chunk while a slow one is still reading it. */
__global__ void smem_row_1d_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc,
                                   int chunk)
{
    extern __shared__ float a_row[];
    (void)a_row;
}

/* smem_32 with run-time tile sizes: th x tw threads (blockDim = (tw, th)) compute a th x tw
 * tile of C; As (th x td) and Bs (td x tw) are one dynamic array, As first.
 * TODO: for k0 = 0, td, 2*td, ... < K, with kd = min(td, K - k0):
 *         thread (tx, ty) loads As[ty*td + k] for k = tx, tx + tw, ... < kd
 *         and Bs[k*tw + tx] for k = ty, ty + th, ... < kd (0 outside A or B)
 *         __syncthreads(); sum += As[ty*td + k] * Bs[k*tw + tx] for k < kd; __syncthreads();
 *       then store as in smem_32. */
__global__ void smem_rect_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                 const float *B, int ldb, float beta, float *C, int ldc, int th,
                                 int tw, int td)
{
    extern __shared__ float smem[];
    (void)smem;
}

void gemm_smem_32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    dim3 block(TILE, TILE);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * TILE) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * TILE ? M - r0 : (long)GRID_Y_MAX * TILE);
        dim3 grid(ceil_div(N, TILE), ceil_div(m, TILE));
        smem_32_kernel<<<grid, block, 0, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B, ldb,
                                                           beta, C + r0 * ldc, ldc);
        CUDA_CHECK_LAUNCH();
    }
}

void gemm_smem_row_1d(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    int chunk = K < ROW_CHUNK ? K : ROW_CHUNK;
    smem_row_1d_kernel<<<M, ROW_THREADS, (chunk + SMEM_SLACK) * sizeof(float), gemm_stream()>>>(
        M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, chunk);
    CUDA_CHECK_LAUNCH();
}

/* The tile: the solution's choice (see the chapter). An open exercise: find a better rule. */
static void rect_tile(int M, int N, int K, int *th, int *tw, int *td)
{
    int h = M < 32 ? M : 32;
    int w = 1024 / h / 32 * 32, n32 = ceil_div(N, 32) * 32;
    if (w > n32)
        w = n32;
    int d = K < 128 ? K : 128;
    *th = rect_tile_h ? rect_tile_h : h;
    *tw = rect_tile_w ? rect_tile_w : w;
    *td = rect_tile_d ? rect_tile_d : d;
    if (*th * *tw > 1024)
        *tw = 1024 / *th;
}

void gemm_smem_rect(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    int th, tw, td;
    rect_tile(M, N, K, &th, &tw, &td);
    size_t smem = ((size_t)(th + tw) * td + SMEM_SLACK) * sizeof(float);
    int device, optin;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (smem > (size_t)optin) {
        td = (int)((optin / sizeof(float) - SMEM_SLACK) / (th + tw));
        smem = ((size_t)(th + tw) * td + SMEM_SLACK) * sizeof(float);
    }
    if (smem > SMEM_DEFAULT_MAX) /* above 48 KB: ask first */
        CUDA_CHECK(cudaFuncSetAttribute(smem_rect_kernel,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    dim3 block(tw, th);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * th) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * th ? M - r0 : (long)GRID_Y_MAX * th);
        dim3 grid(ceil_div(N, tw), ceil_div(m, th));
        smem_rect_kernel<<<grid, block, smem, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda,
                                                               B, ldb, beta, C + r0 * ldc, ldc, th,
                                                               tw, td);
        CUDA_CHECK_LAUNCH();
    }
}
