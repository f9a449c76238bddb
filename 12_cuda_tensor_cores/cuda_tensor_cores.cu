/* cuda_tensor_cores.cu: the tensor cores as Ampere (sm_80) and later GPUs expose them to a warp.
 *
 *   wmma          the WMMA fragment API: each warp multiplies 16x16x16 tiles of BF16 with one
 *                 call, FP32 sums; tiles through shared memory, loaded one element per thread
 *   mma_ldmatrix  the instructions behind it: mma.sync.m16n8k16 on registers that ldmatrix
 *                 fills from shared memory; the tiles arrive by cp.async, 16 bytes at a time,
 *                 three stages deep, into rows XOR-swizzled so that ldmatrix meets no bank
 *                 conflict
 *
 * and, for FP32 A and B (--fp32; gemm.h's gemm_fn):
 *
 *   mma_tf32      mma.sync.m16n8k8 on TF32: A and B rounded (cvt.rna) as each tile is stored in
 *                 shared memory, FP32 sums
 *   mma_3xtf32    each value split as it is stored: big = tf32(x), small = tf32(x - big); per
 *                 k-step three products into one accumulator, the small ones first (big*small,
 *                 small*big, then big*big); small*small, about 2^-22 of the product, is left out
 *
 * All take any M, N, K; mma_ldmatrix reads rows that start on 16 bytes (a copy otherwise,
 * operands.cuh). The Hopper variants are in wgmma.cu and tf32.cu.
 */
#include <mma.h>

#include "operands.cuh"
#include "tensor_cores.h"

using namespace nvcuda;

/* ---- wmma ------------------------------------------------------------------------------------ */

#define WM_BM 128
#define WM_BN 128
#define WM_BK 32
#define WM_PAD 8 /* 16 bytes more per row: load_matrix_sync's rows fall in different banks */
#define WM_THREADS 256 /* 8 warps, 4 x 2, each a 32 x 64 piece of the tile: 2 x 4 fragments */

__global__ void __launch_bounds__(WM_THREADS)
wmma_kernel(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda, const gemm_bf16 *B,
            int ldb, float beta, float *C, int ldc)
{
#ifdef GEMM_BELOW_SM80 /* BF16 fragments need sm_80: never launched there (main.cu) */
    __trap();
#else
    __shared__ __align__(32) gemm_bf16 As[WM_BM][WM_BK + WM_PAD];
    __shared__ __align__(32) gemm_bf16 Bs[WM_BK][WM_BN + WM_PAD];
    __shared__ __align__(32) float Cs[WM_THREADS / 32][16 * 16];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int wm = warp / 2 * 32, wn = warp % 2 * 64;
    int num_n = (N + WM_BN - 1) / WM_BN;
    int m0 = blockIdx.x / num_n * WM_BM, n0 = blockIdx.x % num_n * WM_BN;
    const gemm_bf16 zero = __float2bfloat16(0.0f);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += WM_BK) {
        /* 16 elements of each tile per thread; consecutive threads read consecutive columns */
#pragma unroll 4
        for (int e = tid; e < WM_BM * WM_BK; e += WM_THREADS) {
            int r = e / WM_BK, c = e % WM_BK;
            As[r][c] = m0 + r < M && k0 + c < K ? A[(size_t)(m0 + r) * lda + k0 + c] : zero;
        }
#pragma unroll 4
        for (int e = tid; e < WM_BK * WM_BN; e += WM_THREADS) {
            int r = e / WM_BN, c = e % WM_BN;
            Bs[r][c] = k0 + r < K && n0 + c < N ? B[(size_t)(k0 + r) * ldb + n0 + c] : zero;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < WM_BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, gemm_bf16, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, gemm_bf16, wmma::row_major> b[4];
#pragma unroll
            for (int i = 0; i < 2; i++)
                wmma::load_matrix_sync(a[i], &As[wm + i * 16][kk], WM_BK + WM_PAD);
#pragma unroll
            for (int j = 0; j < 4; j++)
                wmma::load_matrix_sync(b[j], &Bs[kk][wn + j * 16], WM_BN + WM_PAD);
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    /* A fragment's layout in registers is not specified: out through the warp's 16 x 16 patch
     * of shared memory, then into C with the edges and alpha, beta applied. */
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            wmma::store_matrix_sync(Cs[warp], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                int r = m0 + wm + i * 16 + e / 16, c = n0 + wn + j * 16 + e % 16;
                if (r < M && c < N)
                    gemm_store(&C[(size_t)r * ldc + c], alpha, Cs[warp][e], beta);
            }
            __syncwarp();
        }
#endif
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

/* ---- mma_ldmatrix ---------------------------------------------------------------------------- */

#define MM_BM 128
#define MM_BN 128
#define MM_BK 64 /* one row of A's tile is 128 bytes: eight 16-byte chunks */
#define MM_STAGES 3
#define MM_THREADS 256 /* 8 warps, 2 x 4, each a 64 x 32 piece: 4 x 4 mma tiles of 16 x 8 */
#define MM_TILE_A (MM_BM * MM_BK)
#define MM_TILE_B (MM_BK * MM_BN)
#define MM_SMEM ((MM_TILE_A + MM_TILE_B) * MM_STAGES * 2)

/* A's tile: 128 rows of 8 chunks; B's: 64 rows (k) of 16 chunks (n). 4 chunks of each per
 * thread. Outside A or B the chunk reads fewer bytes, or none, and the rest is zero. */
static __device__ __forceinline__ void mm_load_tile(gemm_bf16 *sa, gemm_bf16 *sb, int M, int N,
                                                    int K, const gemm_bf16 *A, int lda,
                                                    const gemm_bf16 *B, int ldb, int m0, int n0,
                                                    int k0)
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int q = threadIdx.x + i * MM_THREADS, r = q / 8, c = q % 8;
        int k = k0 + c * 8, left = K - k;
        int bytes = m0 + r < M && left > 0 ? 2 * min(left, 8) : 0;
        const gemm_bf16 *src = bytes ? A + (size_t)(m0 + r) * lda + k : A;
        cp_async16(sa + r * MM_BK + swz(r, c) * 8, src, bytes);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int q = threadIdx.x + i * MM_THREADS, r = q / 16, c = q % 16;
        int n = n0 + c * 8, left = N - n;
        int bytes = k0 + r < K && left > 0 ? 2 * min(left, 8) : 0;
        const gemm_bf16 *src = bytes ? B + (size_t)(k0 + r) * ldb + n : B;
        cp_async16(sb + r * MM_BN + swz(r, c) * 8, src, bytes);
    }
}

__global__ void __launch_bounds__(MM_THREADS, 2)
mma_ldmatrix_kernel(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc, bool vec2)
{
    extern __shared__ __align__(128) gemm_bf16 smem[];
    gemm_bf16 *sA = smem, *sB = smem + MM_STAGES * MM_TILE_A;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / 4 * 64, wn = warp % 4 * 32;
    int num_n = (N + MM_BN - 1) / MM_BN;
    int m0 = blockIdx.x / num_n * MM_BM, n0 = blockIdx.x % num_n * MM_BN;
    int KT = (K + MM_BK - 1) / MM_BK;

    float acc[4][4][4] = {};
    /* the pipeline: tiles 0 .. STAGES-2 in flight before the first multiply */
#pragma unroll
    for (int s = 0; s < MM_STAGES - 1; s++) {
        if (s < KT)
            mm_load_tile(sA + s * MM_TILE_A, sB + s * MM_TILE_B, M, N, K, A, lda, B, ldb, m0, n0,
                         s * MM_BK);
        cp_async_commit();
    }
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<MM_STAGES - 2>(); /* tile kt has landed (this thread's part) */
        __syncthreads();                /* everyone's part; and tile kt-1's slot is free */
        int next = kt + MM_STAGES - 1;
        if (next < KT)
            mm_load_tile(sA + next % MM_STAGES * MM_TILE_A, sB + next % MM_STAGES * MM_TILE_B, M,
                         N, K, A, lda, B, ldb, m0, n0, next * MM_BK);
        cp_async_commit();
        const gemm_bf16 *a_t = sA + kt % MM_STAGES * MM_TILE_A;
        const gemm_bf16 *b_t = sB + kt % MM_STAGES * MM_TILE_B;
#pragma unroll
        for (int kk = 0; kk < MM_BK / 16; kk++) {
            uint32_t a[4], b[2][4];
#pragma unroll
            for (int nj = 0; nj < 2; nj++) { /* k rows l % 16, n chunk (16 columns a pair) + l / 16 */
                int r = kk * 16 + lane % 16;
                ldmatrix_x4_trans(b[nj], b_t + r * MM_BN + swz(r, (wn + nj * 16) / 8 + lane / 16) * 8);
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++) { /* rows l % 16, k chunk 2 kk + l / 16 */
                int r = wm + mi * 16 + lane % 16;
                ldmatrix_x4(a, a_t + r * MM_BK + swz(r, kk * 2 + lane / 16) * 8);
#pragma unroll
                for (int ni = 0; ni < 4; ni++)
                    mma_16816(acc[mi][ni], a, b[ni / 2][ni % 2 * 2], b[ni / 2][ni % 2 * 2 + 1]);
            }
        }
    }
    cp_async_wait<0>();
    /* thread (g, t) = (lane / 4, lane % 4) holds rows g and g + 8, columns 2t and 2t + 1 */
    int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 4; ni++) {
            int r = m0 + wm + mi * 16 + g, c = n0 + wn + ni * 8 + 2 * t;
            if (r < M)
                store_pair(C, ldc, N, r, c, acc[mi][ni][0], acc[mi][ni][1], alpha, beta, vec2);
            if (r + 8 < M)
                store_pair(C, ldc, N, r + 8, c, acc[mi][ni][2], acc[mi][ni][3], alpha, beta, vec2);
        }
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

/* ---- mma_tf32 and mma_3xtf32 ------------------------------------------------------------------ *
 * 128x128 tiles, K by 16, eight warps of 64x32, the next tile's loads held in registers while
 * the tensor cores work. mma.sync's operands come from registers, filled element by element
 * from shared memory in the fragment pattern, so B stays row-major: its K-major "col" fragment
 * is just b0 = B(k = t, n = g), b1 = B(t + 4, g). (wgmma's TF32 reads both operands K-major
 * from shared memory: wgmma.cu writes B^T first.) */

namespace {

constexpr int BM = 128, BN = 128, BK = 16;
constexpr int THREADS = 256;      /* 8 warps: 2 along M x 4 along N */
constexpr int WM = 64, WN = 32;   /* a warp's tile of C */
constexpr int MT = WM / 16, NT = WN / 8;
constexpr int APAD = 4, BPAD = 8; /* row strides of 20 and 136 words: fragment reads hit 32
                                     different banks (4g + t and 8t + g, mod 32) */
constexpr int A_LOADS = BM * BK / THREADS, B_LOADS = BK * BN / THREADS;

__device__ __forceinline__ float to_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}

/* The small part of x; zero for Inf and NaN, whose big part already says everything (x - big
 * would turn an Inf into a NaN). */
__device__ __forceinline__ float small_part(float x, float big)
{
    return isfinite(big) ? to_tf32(x - big) : 0.0f;
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
#ifdef GEMM_BELOW_SM80 /* (TF32 mma.sync needs sm_80) */
    __trap();
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

/* PARTS = 1: tf32; 2: 3xtf32 (big and small parts side by side in shared memory). Rows of C
 * from row0 on (launches in slabs of at most GRID_Y_MAX rows of tiles). */
template <int PARTS>
__global__ void __launch_bounds__(THREADS)
tf32_kernel(int M, int N, int K, float alpha, const float *__restrict__ A, int lda,
            const float *__restrict__ B, int ldb, float beta, float *C, int ldc, int row0,
            bool vec2)
{
    __shared__ float As[PARTS][BM][BK + APAD];
    __shared__ float Bs[PARTS][BK][BN + BPAD];
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int g = lane / 4, t = lane % 4;
    const int wm = warp / 4 * WM, wn = warp % 4 * WN;
    const int bm = row0 + blockIdx.y * BM, bn = blockIdx.x * BN;

    float acc[MT][NT][4] = {};
    float ra[A_LOADS], rb[B_LOADS];
    /* Thread tid loads A(bm + idx / BK, k0 + idx % BK) and B(k0 + idx / BN, bn + idx % BN),
     * idx = tid + i * THREADS: neighbouring threads read neighbouring addresses. */
    auto load = [&](int k0) {
#pragma unroll
        for (int i = 0; i < A_LOADS; i++) {
            int idx = tid + i * THREADS, r = bm + idx / BK, c = k0 + idx % BK;
            ra[i] = r < M && c < K ? A[(size_t)r * lda + c] : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; i++) {
            int idx = tid + i * THREADS, r = k0 + idx / BN, c = bn + idx % BN;
            rb[i] = r < K && c < N ? B[(size_t)r * ldb + c] : 0.0f;
        }
    };
    auto store = [&]() {
#pragma unroll
        for (int i = 0; i < A_LOADS; i++) {
            int idx = tid + i * THREADS;
            float big = to_tf32(ra[i]);
            As[0][idx / BK][idx % BK] = big;
            if (PARTS == 2)
                As[PARTS - 1][idx / BK][idx % BK] = small_part(ra[i], big);
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; i++) {
            int idx = tid + i * THREADS;
            float big = to_tf32(rb[i]);
            Bs[0][idx / BN][idx % BN] = big;
            if (PARTS == 2)
                Bs[PARTS - 1][idx / BN][idx % BN] = small_part(rb[i], big);
        }
    };

    load(0);
    for (int k0 = 0; k0 < K; k0 += BK) {
        store();
        __syncthreads();
        if (k0 + BK < K)
            load(k0 + BK); /* in flight while the tensor cores work on this tile */
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            uint32_t a[PARTS][MT][4], b[PARTS][NT][2];
#pragma unroll
            for (int p = 0; p < PARTS; p++) {
#pragma unroll
                for (int i = 0; i < MT; i++) {
                    const int r = wm + i * 16 + g;
                    a[p][i][0] = __float_as_uint(As[p][r][kk + t]);
                    a[p][i][1] = __float_as_uint(As[p][r + 8][kk + t]);
                    a[p][i][2] = __float_as_uint(As[p][r][kk + t + 4]);
                    a[p][i][3] = __float_as_uint(As[p][r + 8][kk + t + 4]);
                }
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    b[p][j][0] = __float_as_uint(Bs[p][kk + t][wn + j * 8 + g]);
                    b[p][j][1] = __float_as_uint(Bs[p][kk + t + 4][wn + j * 8 + g]);
                }
            }
#pragma unroll
            for (int i = 0; i < MT; i++)
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    if (PARTS == 2) { /* the small terms first: added before big*big grows the sum */
                        mma_tf32(acc[i][j], a[0][i], b[PARTS - 1][j]);
                        mma_tf32(acc[i][j], a[PARTS - 1][i], b[0][j]);
                    }
                    mma_tf32(acc[i][j], a[0][i], b[0][j]);
                }
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++) {
            const int r = bm + wm + i * 16 + g, c = bn + wn + j * 8 + 2 * t;
            if (r < M)
                store_pair(C, ldc, N, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, vec2);
            if (r + 8 < M)
                store_pair(C, ldc, N, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta, vec2);
        }
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

void gemm_mma_tf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
               float beta, float *C, int ldc)
{
    launch<1>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_mma_3xtf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                 int ldb, float beta, float *C, int ldc)
{
    launch<2>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
