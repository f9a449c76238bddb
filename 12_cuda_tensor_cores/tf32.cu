/* tf32.cu: FP32 A, B and C on the tensor cores, the gemm_fn contract of stages 01-09
 * (./cuda_tensor_cores --fp32). Any GPU from sm_80.
 *
 *   mma_tf32    A and B rounded to TF32 (10 explicit mantissa bits, cvt.rna) as each tile
 *               is stored in shared memory; mma.sync.m16n8k8 with FP32 sums
 *   mma_3xtf32  each value split as it is stored: big = tf32(x), small = tf32(x - big); per
 *               k-step three products into one accumulator, the small ones first (big*small,
 *               small*big, then big*big); small*small, about 2^-22 of the product, is left out
 *
 * The simple first version a GPU run will measure: 128x128 tiles, K by 16, eight warps of 64x32,
 * the next tile's loads held in registers while the tensor cores work. mma.sync's operands come
 * from registers, filled element by element from shared memory in the fragment pattern, so B
 * stays row-major: its K-major "col" fragment is just b0 = B(k = t, n = g), b1 = B(t + 4, g).
 * (wgmma's .tf32 reads both operands K-major from shared memory: that version would transpose
 * B, or take A from registers and B from a transposed copy made by a pre-pass.)
 */
#include <cublas_v2.h>

#include "cuda_harness.cuh"
#include "operands.cuh"
#include "tensor_cores.h"

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
    return isfinite(x) ? to_tf32(x - big) : 0.0f;
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
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
