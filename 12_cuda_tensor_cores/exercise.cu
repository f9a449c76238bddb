/* 12_cuda_tensor_cores exercise: the tensor cores from a warp, WMMA and then mma.sync.
 *
 * Build and grade it on a machine with an NVIDIA GPU from sm_80 on:   make grade STAGE=12
 * The launchers are written for you (grids, block sizes, shared memory, the aligned copies of
 * operands.cuh); the kernel bodies are yours. Until they are filled in, C keeps its NaN poison
 * and every check of wmma and mma_ldmatrix FAILs (the wgmma variants, on a Hopper GPU, are the
 * solution's: read wgmma.cu after these two). Run `compute-sanitizer --tool racecheck` on your
 * kernels too: a missing __syncthreads() often passes a check by luck.
 *
 * Helpers you may use, from operands.cuh: store_pair (two results into C, with the edges and
 * alpha, beta) and gemm_store (one). The README's sections "What one instruction computes" and
 * "Feeding mma.sync" have the fragment layouts.
 */
#include <mma.h>

#include "operands.cuh"
#include "tensor_cores.h"

using namespace nvcuda;

#define WM_BM 128
#define WM_BN 128
#define WM_BK 32
#define WM_PAD 8
#define WM_THREADS 256

/* Block b computes the 128 x 128 tile of C at m0 = (b / num_n) * 128, n0 = (b % num_n) * 128,
 * with 8 warps; warp w the 32 x 64 piece at rows (w / 2) * 32, columns (w % 2) * 64 of it.
 * TODO: wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4], filled with 0.
 *       For k0 = 0, 32, 64, ... < K: every thread copies 16 elements of A's 128 x 32 tile and of
 *       B's 32 x 128 tile into As, Bs (zero outside A and B); __syncthreads(); for kk = 0, 16:
 *       load_matrix_sync a[i] from &As[row][kk] and b[j] from &Bs[kk][col] (leading dimensions
 *       WM_BK + WM_PAD and WM_BN + WM_PAD), mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
 *       __syncthreads().
 *       Then each fragment through Cs[warp] (store_matrix_sync, row-major, 16) into C, with
 *       gemm_store, only inside M x N.
 * Hint: why the padding of 8? load_matrix_sync reads 16 rows of a tile at once. */
__global__ void __launch_bounds__(WM_THREADS)
wmma_kernel(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda, const gemm_bf16 *B,
            int ldb, float beta, float *C, int ldc)
{
    /* the tiles to declare:
     *   __shared__ __align__(32) gemm_bf16 As[WM_BM][WM_BK + WM_PAD];
     *   __shared__ __align__(32) gemm_bf16 Bs[WM_BK][WM_BN + WM_PAD];
     *   __shared__ __align__(32) float Cs[WM_THREADS / 32][16 * 16]; */
}

void gemm_wmma(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda, const gemm_bf16 *B,
               int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    long tiles = (long)ceil_div(M, WM_BM) * ceil_div(N, WM_BN);
    wmma_kernel<<<(unsigned)tiles, WM_THREADS, 0, gemm_stream()>>>(M, N, K, alpha, A, lda, B, ldb,
                                                                    beta, C, ldc);
    CUDA_CHECK_LAUNCH();
}

#define MM_BM 128
#define MM_BN 128
#define MM_BK 64
#define MM_STAGES 3
#define MM_THREADS 256
#define MM_TILE_A (MM_BM * MM_BK)
#define MM_TILE_B (MM_BK * MM_BN)
#define MM_SMEM ((MM_TILE_A + MM_TILE_B) * MM_STAGES * 2)

/* The same tile with mma.sync.m16n8k16 (8 warps of 64 x 32: 4 x 4 instructions per 16 of K).
 * TODO, in three steps, each checked before the next:
 *   1. one stage, plain layout: each thread copies 4 chunks of 16 bytes of A's 128 x 64 tile
 *      and 4 of B's 64 x 128 tile (cp.async.cg.shared.global [dst], [src], 16, bytes: `bytes`
 *      < 16 reads less and zero-fills, for the edges), cp.async.commit_group,
 *      cp.async.wait_group 0, __syncthreads(); then per 16 of K: ldmatrix.x4 for each 16 x 16
 *      piece of A (lane l: row l % 16, column 8 (l / 16)), ldmatrix.x4.trans for each 16 x 16
 *      piece of B (lane l: k row l % 16, column 8 (l / 16)), and mma.sync; __syncthreads().
 *   2. swizzle: chunk c of row r stored at chunk c ^ (r % 8). Same results, fewer conflicts
 *      (ncu: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld).
 *   3. MM_STAGES stages: keep MM_STAGES - 1 tiles in flight (cp.async.wait_group MM_STAGES - 2).
 * The accumulators of thread (g, t) = (lane / 4, lane % 4): rows g and g + 8, columns 2t, 2t + 1
 * of each 16 x 8 piece: store them with store_pair. */
__global__ void __launch_bounds__(MM_THREADS, 2)
mma_ldmatrix_kernel(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc, bool vec2)
{
    /* extern __shared__ __align__(128) gemm_bf16 smem[];   MM_STAGES tiles of A, then of B */
}

void gemm_mma_ldmatrix(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                       const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    static bool attr;
    if (!attr) {
        CUDA_CHECK(cudaFuncSetAttribute(mma_ldmatrix_kernel,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, MM_SMEM));
        attr = true;
    }
    aligned_copy op(M, N, K, A, lda, B, ldb);
    bool vec2 = ldc % 2 == 0 && ((uintptr_t)C & 7) == 0;
    long tiles = (long)ceil_div(M, MM_BM) * ceil_div(N, MM_BN);
    mma_ldmatrix_kernel<<<(unsigned)tiles, MM_THREADS, MM_SMEM, gemm_stream()>>>(
        M, N, K, alpha, op.A, op.lda, op.B, op.ldb, beta, C, ldc, vec2);
    CUDA_CHECK_LAUNCH();
    op.release();
}
