/* wgmma.cu: the Hopper tensor cores (sm_90a), fed by the tensor memory accelerator (TMA).
 *
 *   wgmma_tma         TMA copies tiles of A (128 x 64) and B (64 x 128) into shared memory,
 *                     128-byte swizzled, four stages deep, each stage's arrival counted on an
 *                     mbarrier; two warpgroups each multiply 64 rows with wgmma from shared
 *                     memory; one thread of the block issues the copies between multiplies
 *   wgmma_ws          warp specialisation: a producer warpgroup only issues copies, two
 *                     consumer warpgroups only multiply (a 128 x 256 tile); full and empty
 *                     barriers per stage let each side run ahead of the other; the producer
 *                     gives its registers to the consumers (setmaxnreg)
 *   wgmma_persistent  one CTA per SM walking the tiles, so that the copies of the next tile
 *                     overlap the last multiplies and the stores of this one; CTAs in pairs
 *                     (a cluster) on two tiles one above the other, each loading half of their
 *                     common B tile for both (TMA multicast); tiles in groups of rows, so that
 *                     the CTAs running at one time share panels of A and B in L2; C stored
 *                     through shared memory by TMA while the next tile starts; 128 x 128
 *                     tiles instead of 128 x 256 where those fill the GPU better
 *
 * A and B are read through tensor maps (cuTensorMapEncodeTiled, a driver function reached with
 * cudaGetDriverEntryPointByVersion: no -lcuda). The maps zero-fill what lies outside the matrix:
 * the edges of M and N and the tail of K need no code. TMA needs row strides that are multiples
 * of 16 bytes: other operands are read from aligned copies (operands.cuh).
 *
 * wgmma_ws's and wgmma_persistent's kernel is in pipeline.cuh (tf32.cu's variants and
 * harness/tune.cu's configurations run it too); so are the tensor maps and a stage's wgmma.
 */
#include "pipeline.cuh"

/* Stage s's copies: A's 128 x 64 box at (k0, m0), and B's BN/64 boxes of 64 x 64 at (n0 + 64c, k0),
 * all counted on `full`. */
template <int BN>
static __device__ __forceinline__ void load_stage(uint8_t *stage, uint64_t *full, const void *mapA,
                                                  const void *mapB, int m0, int n0, int k0)
{
    mbar_expect_tx(full, A_TILE + BK * BN * 2);
    tma_load(stage, mapA, full, k0, m0);
#pragma unroll
    for (int c = 0; c < BN / 64; c++)
        tma_load(stage + A_TILE + c * B_BOX, mapB, full, n0 + 64 * c, k0);
}

/* ---- wgmma_tma: TMA and wgmma, no specialisation ---------------------------------------------- */

#define T_BN 128
#define T_STAGES 4
#define T_STAGE (A_TILE + BK * T_BN * 2)
#define T_SMEM (T_STAGES * T_STAGE + 1024 + T_STAGES * 8)

__global__ void __launch_bounds__(256)
wgmma_tma_kernel(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                 int M, int N, int K, float alpha, float beta, float *C, int ldc, bool vec2)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);
    uint64_t *full = (uint64_t *)(smem + T_STAGES * T_STAGE);
    int num_n = (N + T_BN - 1) / T_BN;
    int m0 = blockIdx.x / num_n * BM, n0 = blockIdx.x % num_n * T_BN;
    int KT = (K + BK - 1) / BK, wg = threadIdx.x / 128;

    if (threadIdx.x == 0) {
        for (int s = 0; s < T_STAGES; s++)
            mbar_init(&full[s], 1);
        mbar_fence_init();
        for (int s = 0; s < T_STAGES && s < KT; s++)
            load_stage<T_BN>(smem + s * T_STAGE, &full[s], &mapA, &mapB, m0, n0, s * BK);
    }
    __syncthreads();
    float d[T_BN / 2];
    for (int kt = 0; kt < KT; kt++) {
        int s = kt % T_STAGES;
        mbar_wait(&full[s], kt / T_STAGES % 2); /* the stage's bytes have all arrived */
        uint8_t *stage = smem + s * T_STAGE;
        wgmma_fence();
        mma_stage<T_BN>(d, stage + wg * 64 * BK * 2, stage + A_TILE, kt > 0);
        wgmma_commit();
        wgmma_wait<0>();
        fence_regs(d);
        __syncthreads(); /* both warpgroups are done with stage s: refill it */
        if (threadIdx.x == 0 && kt + T_STAGES < KT)
            load_stage<T_BN>(stage, &full[s], &mapA, &mapB, m0, n0, (kt + T_STAGES) * BK);
    }
    store_tile<T_BN>(d, m0 + wg * 64, n0, M, N, alpha, beta, C, ldc, vec2);
}

void gemm_wgmma_tma(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    static int smem = set_smem((const void *)wgmma_tma_kernel, T_SMEM);
    aligned_copy op(M, N, K, A, lda, B, ldb);
    CUtensorMap mapA = bf16_map(op.A, M, K, op.lda, BM);
    CUtensorMap mapB = bf16_map(op.B, K, N, op.ldb, BK);
    bool vec2 = ldc % 2 == 0 && ((uintptr_t)C & 7) == 0;
    long tiles = (long)ceil_div(M, BM) * ceil_div(N, T_BN);
    wgmma_tma_kernel<<<(unsigned)tiles, 256, smem, gemm_stream()>>>(mapA, mapB, M, N, K, alpha,
                                                                     beta, C, ldc, vec2);
    CUDA_CHECK_LAUNCH();
    op.release();
}

/* ---- wgmma_ws and wgmma_persistent: a producer, two consumers (pipeline.cuh) ------------------ */

void gemm_wgmma_ws(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                   const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    ws_launcher<256, 4, 1>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, false);
}

void gemm_wgmma_persistent(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                           const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    if (narrow_tiles<false>(M, N))
        ws_launcher<128, 6, 2, true, true>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                GROUP_ROWS, true);
    else
        ws_launcher<256, 4, 2, true, true>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                GROUP_ROWS, true);
}
