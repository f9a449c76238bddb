/* 12_cuda_tensor_cores exercise: the tensor cores from a warp, WMMA and then mma.sync, in BF16
 * and then in TF32 (FP32 matrices, --fp32).
 *
 * Build and grade it on a machine with an NVIDIA GPU from sm_80 on:   make grade STAGE=12
 * The launchers are written for you (grids, block sizes, shared memory, the aligned copies of
 * operands.cuh); the kernel bodies are yours. Until they are filled in, C keeps its NaN poison
 * and every check of wmma, mma_ldmatrix, mma_tf32 and mma_3xtf32 that needs a product FAILs (the
 * edge cases that need none pass: the launchers handle them before any kernel; the wgmma
 * variants, on a Hopper GPU, are the solution's: read wgmma.cu after these two). Run
 * `compute-sanitizer --tool racecheck` on your kernels too: a missing __syncthreads() often
 * passes a check by luck.
 *
 * Helpers you may use, from operands.cuh: store_pair (two results into C, with the edges and
 * alpha, beta) and gemm_store (one); for mma_ldmatrix, the one-line PTX wrappers cp_async16,
 * cp_async_commit, cp_async_wait, ldmatrix_x4, ldmatrix_x4_trans and mma_16816 (or write the
 * asm yourself, as the TODO spells it). The chapter's sections "What a tensor core computes" and
 * "Feeding mma.sync" (README.md) have the fragment layouts.
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

/* ---- mma_tf32 and mma_3xtf32: FP32 matrices on the tensor cores (--fp32) ---------------------
 * Grade them with the rest: make grade STAGE=12 runs ./cuda_tensor_cores --fp32 for these two.
 * Read the chapter "FP32 on the tensor cores" (fp32.md) first.
 */
namespace {

constexpr int BM = 128, BN = 128, BK = 16;
constexpr int THREADS = 256;      /* 8 warps: 2 along M x 4 along N */
constexpr int WM = 64, WN = 32;   /* a warp's tile of C: 4 x 4 instructions of 16 x 8 */
constexpr int APAD = 4, BPAD = 8; /* row strides of 20 and 136 words */

/* x rounded to TF32 (10 explicit mantissa bits, to nearest), as an FP32 value */
__device__ __forceinline__ float to_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}

/* d += a b for a 16 x 8 x 8 piece: thread (g, t) = (lane / 4, lane % 4) gives
 * a = {A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4)}, b = {B(t, g), B(t + 4, g)} (TF32
 * values as their bits: __float_as_uint) and holds d = {C(g, 2t), C(g, 2t + 1), C(g + 8, 2t),
 * C(g + 8, 2t + 1)}. */
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* PARTS = 1: mma_tf32; 2: mma_3xtf32. Block (x, y) computes the 128 x 128 tile of C at rows
 * row0 + 128 y, columns 128 x; warp w the 64 x 32 piece at rows (w / 4) * 64, columns
 * (w % 4) * 32 of it: 4 x 4 accumulators of 4 floats.
 * TODO, in two steps:
 *   1. PARTS = 1. Shared tiles float As[BM][BK + APAD], Bs[BK][BN + BPAD]. For k0 = 0, 16, ...:
 *      every thread copies 8 values of A's 128 x 16 tile and of B's 16 x 128 tile (zero outside
 *      A and B), rounded by to_tf32, into As and Bs; __syncthreads(); for kk = 0, 8: the
 *      fragments from As and Bs (the pattern above) and 16 mma_tf32; __syncthreads(). Then each
 *      accumulator into C with store_pair (rows < M only). Check: the mma_tf32 rows PASS
 *      against their own (TF32) bound.
 *   2. PARTS = 2: store big = to_tf32(x) in As[0], Bs[0] and small = to_tf32(x - big) in As[1],
 *      Bs[1] (small = 0 where x is Inf or NaN: x - big would be NaN), and for each fragment
 *      pair issue three mma_tf32: big*small, small*big, then big*big. Check: the mma_3xtf32
 *      rows PASS against the FP32 bound that stages 01-09 pass. Then swap the order (big*big
 *      first) and compare the error column at K = 1, 8 and 64 (--sizes 256x256x1, ...).
 * Hint: why the padding? Work out the banks of the fragment reads A(g, t) and B(t, g) for one
 * warp with and without it. */
template <int PARTS>
__global__ void __launch_bounds__(THREADS)
tf32_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
            const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int row0,
            bool vec2)
{
}

template <int PARTS>
void launch(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
            float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    const bool vec2 = ((uintptr_t)C & 7) == 0 && ldc % 2 == 0;
    const int tile_rows = ceil_div(M, BM);
    for (int y0 = 0; y0 < tile_rows; y0 += GRID_Y_MAX) {
        dim3 grid(ceil_div(N, BN), tile_rows - y0 < GRID_Y_MAX ? tile_rows - y0 : GRID_Y_MAX);
        tf32_kernel<PARTS><<<grid, THREADS, 0, gemm_stream()>>>(M, N, K, alpha, A, lda, B, ldb,
                                                                beta, C, ldc, y0 * BM, vec2);
        CUDA_CHECK_LAUNCH();
    }
}

} // namespace

void gemm_mma_tf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    launch<1>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_mma_3xtf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    launch<2>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
