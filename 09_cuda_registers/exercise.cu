/* 09_cuda_registers exercise: register tiles, float4, double buffering, warp tiles, cp.async.
 *
 * Build and grade it on a machine with an NVIDIA GPU:   make grade STAGE=09
 * The launchers are written for you (grid shapes, block sizes, the alignment test); the
 * kernel bodies are yours. Until they are filled in, C keeps its NaN poison and every check
 * that needs a product FAILs (the edge cases that need none pass: gemm_quick_return_gpu
 * handles them). Do them in order: each one is the previous one plus one idea (README.md). Run
 * `compute-sanitizer --tool racecheck` on your kernels too: a missing __syncthreads() often
 * passes a check by luck.
 *
 * Helpers you may use, from helpers.cuh: load4_guarded, store4, rows_are_16B_aligned,
 * cp_async4, cp_async16, cp_async_commit, cp_async_wait<n>.
 */
#include "cuda_harness.cuh"
#include "cuda_registers.h"
#include "helpers.cuh"

#define B1_BM 64
#define B1_BN 64
#define B1_BK 8
#define B1_TM 8
#define B1_THREADS (B1_BM * B1_BN / B1_TM) /* 512 */

#define R_BM 128
#define R_BN 128
#define R_BK 8
#define R_TM 8
#define R_TN 8
#define R_THREADS (R_BM / R_TM * (R_BN / R_TN)) /* 256 */

/* Block (blockIdx.x, blockIdx.y) computes the 64x64 tile of C at row0 = blockIdx.y*64,
 * col0 = blockIdx.x*64, with 512 threads.
 * TODO: thread t computes column tc = t % 64 and rows tr..tr+7, tr = (t / 64) * 8, into
 *       float acc[8]. For k0 = 0, 8, 16, ... < K:
 *         each thread fetches one element of A's 64x8 tile (row t / 8, column t % 8) and one of
 *         B's 8x64 tile (row t / 64, column t % 64) into As, Bs; 0 outside A or B
 *         __syncthreads(); for k < 8: b = Bs[k][tc]; acc[i] += As[tr + i][k] * b;  __syncthreads();
 *       then gemm_store each acc[i] that lies inside C.
 * Hint: count the shared-memory loads per FMA before and after: that ratio is the lesson. */
__global__ void __launch_bounds__(B1_THREADS)
blocktile_1d_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    /* the tiles to declare:
     *   __shared__ float As[B1_BM][B1_BK];
     *   __shared__ float Bs[B1_BK][B1_BN]; */
}

/* 128x128 tile of C per block, 256 threads; thread (tx, ty) = (t % 16, t / 16) computes the 8x8
 * results at rows ty*8.., columns tx*8.. of the tile.
 * TODO: per k0 (step 8): 4 elements of A's 128x8 tile and 4 of B's 8x128 tile per thread
 *       (element idx = t + i*256), then per k: a[i] = As[ty*8 + i][k], b[j] = Bs[k][tx*8 + j],
 *       acc[i][j] += a[i] * b[j]. Keep a, b, acc in registers: index them only with loop
 *       counters of fully unrolled loops (#pragma unroll), or they go to local memory. */
__global__ void __launch_bounds__(R_THREADS)
regtile_8x8_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    /* the tiles to declare:
     *   __shared__ float As[R_BM][R_BK];
     *   __shared__ float Bs[R_BK][R_BN]; */
}

/* regtile_8x8 with 16-byte accesses. `vec` says whether A, B and C have 16-byte aligned rows.
 * TODO: each thread loads one float4 of A's tile (row t / 2, k = (t % 2) * 4) and one of B's
 *       (row t / 32, columns (t % 32) * 4): with reinterpret_cast<const float4 *> when the block
 *       is inside the matrices and vec is true, else with load4_guarded. Store A transposed,
 *       As[k][m]; then each thread reads its 8 values of A and of B as two float4 each.
 *       Store C with store4.
 * Hint: why is As 132 floats wide and not 128? Count the banks of the four scalar stores. */
__global__ void __launch_bounds__(R_THREADS)
vectorized_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc, bool vec)
{
    /* the tiles to declare:
     *   __shared__ __align__(16) float As[R_BK][R_BM + PAD_A];
     *   __shared__ __align__(16) float Bs[R_BK][R_BN]; */
}

/* vectorized with two buffers.
 * TODO: load slice 0 and store it in buffer 0; __syncthreads(). Then for each slice: issue the
 *       loads of the next slice into registers, compute this slice from buffer `buf`, store the
 *       registers into buffer buf ^ 1, __syncthreads(), buf ^= 1.
 * Hint: why is one __syncthreads() per slice enough here, when smem_32 needed two? */
__global__ void __launch_bounds__(R_THREADS)
double_buffer_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc, bool vec)
{
    /* the tiles to declare:
     *   __shared__ __align__(16) float As[2][R_BK][R_BM + PAD_A];
     *   __shared__ __align__(16) float Bs[2][R_BK][R_BN]; */
}

/* double_buffer with a warp tile: 8 warps, 4 down x 2 across, each 32x64 of the block's tile;
 * in a warp, lane (ly, lx) = (lane / 8, lane % 8) owns the 4x4 sub-tiles at rows
 * ly*4 + {0, 16}, columns lx*4 + {0, 32} of its warp's tile.
 * TODO: double_buffer's loop, with the thread's 8 values of A read from As[k][wm*32 + ly*4] and
 *       As[k][wm*32 + 16 + ly*4], and of B from Bs[k][wn*64 + lx*4] and Bs[k][wn*64 + 32 + lx*4].
 * Hint: draw which bytes the 32 lanes read in one float4 load, in double_buffer and here. */
__global__ void __launch_bounds__(R_THREADS, 2)
warptile_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                int ldb, float beta, float *C, int ldc, bool vec)
{
    /* the tiles to declare:
     *   __shared__ __align__(16) float As[2][R_BK][R_BM + PAD_A];
     *   __shared__ __align__(16) float Bs[2][R_BK][R_BN]; */
}

/* warptile's arithmetic fed by cp.async, 3 stages of 128x16 (A, transposed) and 16x128 (B),
 * in dynamic shared memory (smem, 3 * (16*132 + 16*128) floats; the launcher opts in).
 * TODO: issue slices 0 and 1 (cp_async4 for A's elements, transposed; cp_async16 for B's rows
 *       when vec and inside, else cp_async4 with inside = false for zeros), cp_async_commit()
 *       after each. Then per slice kt: cp_async_wait<1>(); __syncthreads(); issue slice kt + 2
 *       into stage (kt + 2) % 3; cp_async_commit(); compute slice kt from stage kt % 3.
 * Hint: commit a group even when there is nothing left to copy. Why? */
__global__ void __launch_bounds__(R_THREADS, 2)
async_pipeline_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc, bool vec)
{
    /* the stages, sized at launch:  extern __shared__ float4 smem4[]; */
}

/* ---- launchers (done) ------------------------------------------------------------------------ */

typedef void tile_kernel(int, int, int, float, const float *, int, const float *, int, float,
                         float *, int);
typedef void tile_kernel_vec(int, int, int, float, const float *, int, const float *, int, float,
                             float *, int, bool);

static void launch(tile_kernel *kernel, tile_kernel_vec *kernel_vec, int bm, int bn, int threads,
                   size_t smem, int M, int N, int K, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    if (smem > SMEM_DEFAULT_MAX)
        CUDA_CHECK(cudaFuncSetAttribute(kernel_vec, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)smem));
    bool vec = rows_are_16B_aligned(A, lda) && rows_are_16B_aligned(B, ldb) &&
               rows_are_16B_aligned(C, ldc);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * bm) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * bm ? M - r0 : (long)GRID_Y_MAX * bm);
        dim3 grid(ceil_div(N, bn), ceil_div(m, bm));
        if (kernel)
            kernel<<<grid, threads, smem, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B,
                                                           ldb, beta, C + r0 * ldc, ldc);
        else
            kernel_vec<<<grid, threads, smem, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda,
                                                               B, ldb, beta, C + r0 * ldc, ldc,
                                                               vec);
        CUDA_CHECK_LAUNCH();
    }
}

void gemm_blocktile_1d(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc)
{
    launch(blocktile_1d_kernel, NULL, B1_BM, B1_BN, B1_THREADS, 0, M, N, K, alpha, A, lda, B,
           ldb, beta, C, ldc);
}

void gemm_regtile_8x8(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    launch(regtile_8x8_kernel, NULL, R_BM, R_BN, R_THREADS, 0, M, N, K, alpha, A, lda, B, ldb,
           beta, C, ldc);
}

void gemm_vectorized(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    launch(NULL, vectorized_kernel, R_BM, R_BN, R_THREADS, 0, M, N, K, alpha, A, lda, B, ldb,
           beta, C, ldc);
}

void gemm_double_buffer(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    launch(NULL, double_buffer_kernel, R_BM, R_BN, R_THREADS, 0, M, N, K, alpha, A, lda, B, ldb,
           beta, C, ldc);
}

void gemm_warptile(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    launch(NULL, warptile_kernel, R_BM, R_BN, R_THREADS, 0, M, N, K, alpha, A, lda, B, ldb, beta,
           C, ldc);
}

void gemm_async_pipeline(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    size_t smem = 3 * (16 * (R_BM + PAD_A) + 16 * R_BN) * sizeof(float);
    launch(NULL, async_pipeline_kernel, R_BM, R_BN, R_THREADS, smem, M, N, K, alpha, A, lda, B,
           ldb, beta, C, ldc);
}
