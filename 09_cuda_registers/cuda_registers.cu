/* 09_cuda_registers: each thread computes many elements of C, from registers.
 *
 *   blocktile_1d    64x64 block tile; each thread a column of 8 results (1-D register tile)
 *   regtile_8x8     128x128 block tile; each thread an 8x8 tile, outer products from shared memory
 *   vectorized      regtile_8x8 with float4 global loads and A's tile stored transposed, so that
 *                   shared memory is read as float4 too
 *   double_buffer   vectorized with two shared-memory buffers: the next tile is loaded (into
 *                   registers, then the other buffer) while this one is computed
 *   warptile        double_buffer with an explicit warp tile between block and thread: the 32
 *                   lanes of a warp read shared memory without bank conflicts, with broadcast;
 *                   the next k's operands read during this k's FMAs
 *   async_pipeline  warptile's arithmetic fed by cp.async, three or more shared-memory stages
 *
 * In 08 a thread loaded one element of A and one of B from shared memory for every FMA: the
 * shared-memory pipe, not the FP32 units, set the pace. A thread that keeps TM x TN results in
 * registers loads TM elements of A and TN of B per k and does TM * TN FMAs with them: for
 * 8 x 8, 16 loads for 64 FMAs instead of 2 for 1.
 *
 * The last two variants are templates over their tile sizes (warptile.cuh); `--tune` runs a
 * grid of them (tune.cu). The sizes chosen below are the winners on the H100 (see README.md).
 * For every size and shape, warptile picks its tile by counting waves, gives thin edge strips
 * of C to strip kernels and reads misaligned operands from aligned copies (any_size.cu).
 */
#include "cuda_harness.cuh"
#include "cuda_registers.h"
#include "helpers.cuh"
#include "warptile.cuh"

/* ---- blocktile_1d --------------------------------------------------------------------------- */

#define B1_BM 64 /* rows of C per block */
#define B1_BN 64 /* columns of C per block */
#define B1_BK 8  /* k-slice held in shared memory */
#define B1_TM 8  /* results per thread, down one column */
#define B1_THREADS (B1_BM * B1_BN / B1_TM) /* 512 */

/* Thread t computes column t % 64 of the tile, rows (t / 64) * 8 .. + 7. Per k it reads one
 * element of B's tile and 8 of A's from shared memory, for 8 FMAs. All 32 threads of a warp
 * share the same 8 rows: each A read is one address, broadcast to the warp. */
__global__ void __launch_bounds__(B1_THREADS)
blocktile_1d_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    __shared__ float As[B1_BM][B1_BK];
    __shared__ float Bs[B1_BK][B1_BN];
    int t = threadIdx.x;
    int row0 = blockIdx.y * B1_BM, col0 = blockIdx.x * B1_BN;
    int tc = t % B1_BN, tr = t / B1_BN * B1_TM; /* this thread's column and first row */
    int ar = t / B1_BK, ak = t % B1_BK;         /* the element of A's tile it fetches */
    int bk = t / B1_BN, bc = t % B1_BN;         /* and of B's tile */
    float acc[B1_TM] = {};
    for (int k0 = 0; k0 < K; k0 += B1_BK) {
        As[ar][ak] = row0 + ar < M && k0 + ak < K ? A[IDX(row0 + ar, k0 + ak, lda)] : 0.0f;
        Bs[bk][bc] = k0 + bk < K && col0 + bc < N ? B[IDX(k0 + bk, col0 + bc, ldb)] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < B1_BK; k++) {
            float b = Bs[k][tc]; /* one load, used 8 times */
#pragma unroll
            for (int i = 0; i < B1_TM; i++)
                acc[i] += As[tr + i][k] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < B1_TM; i++)
        if (row0 + tr + i < M && col0 + tc < N)
            gemm_store(&C[IDX(row0 + tr + i, col0 + tc, ldc)], alpha, acc[i], beta);
}

/* ---- regtile_8x8 ---------------------------------------------------------------------------- */

#define R_BM 128 /* block tile: 128 x 128 of C ... */
#define R_BN 128
#define R_BK 8   /* ... k in slices of 8: two 4 KB tiles in shared memory */
#define R_TM 8   /* thread tile: 8 x 8 results in registers */
#define R_TN 8
#define R_THREADS (R_BM / R_TM * (R_BN / R_TN)) /* 256 */

/* Thread (tx, ty) = (t % 16, t / 16) computes rows ty*8.., columns tx*8.. of the tile: per k,
 * a column of 8 from A's tile and a row of 8 from B's, then their outer product, 64 FMAs. */
__global__ void __launch_bounds__(R_THREADS)
regtile_8x8_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    __shared__ float As[R_BM][R_BK];
    __shared__ float Bs[R_BK][R_BN];
    int t = threadIdx.x, tx = t % (R_BN / R_TN), ty = t / (R_BN / R_TN);
    int row0 = blockIdx.y * R_BM, col0 = blockIdx.x * R_BN;
    float acc[R_TM][R_TN] = {};
    for (int k0 = 0; k0 < K; k0 += R_BK) {
        /* 1024 elements of each tile, 4 per thread; consecutive threads, consecutive addresses */
        for (int i = 0; i < R_BM * R_BK / R_THREADS; i++) {
            int idx = t + i * R_THREADS, r = idx / R_BK, k = idx % R_BK;
            As[r][k] = row0 + r < M && k0 + k < K ? A[IDX(row0 + r, k0 + k, lda)] : 0.0f;
        }
        for (int i = 0; i < R_BK * R_BN / R_THREADS; i++) {
            int idx = t + i * R_THREADS, k = idx / R_BN, c = idx % R_BN;
            Bs[k][c] = k0 + k < K && col0 + c < N ? B[IDX(k0 + k, col0 + c, ldb)] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < R_BK; k++) {
            float a[R_TM], b[R_TN];
#pragma unroll
            for (int i = 0; i < R_TM; i++)
                a[i] = As[ty * R_TM + i][k];
#pragma unroll
            for (int j = 0; j < R_TN; j++)
                b[j] = Bs[k][tx * R_TN + j];
#pragma unroll
            for (int i = 0; i < R_TM; i++)
#pragma unroll
                for (int j = 0; j < R_TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < R_TM; i++)
        for (int j = 0; j < R_TN; j++) {
            int r = row0 + ty * R_TM + i, c = col0 + tx * R_TN + j;
            if (r < M && c < N)
                gemm_store(&C[IDX(r, c, ldc)], alpha, acc[i][j], beta);
        }
}

/* ---- vectorized ----------------------------------------------------------------------------- */

/* regtile_8x8's tiles and threads. Global loads: one float4 of A (a row, 4 consecutive k) and
 * one of B per thread. A's tile is stored transposed, As[k][m] (+4 floats a row: see
 * store_tiles in warptile.cuh), so that the 8 values of A a thread needs at one k are
 * 8 consecutive floats, two float4 reads, like B's. */
__global__ void __launch_bounds__(R_THREADS)
vectorized_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc, bool vec)
{
    __shared__ __align__(16) float As[R_BK][R_BM + PAD_A];
    __shared__ __align__(16) float Bs[R_BK][R_BN];
    int t = threadIdx.x, tx = t % (R_BN / R_TN), ty = t / (R_BN / R_TN);
    int row0 = blockIdx.y * R_BM, col0 = blockIdx.x * R_BN;
    bool interior = vec && row0 + R_BM <= M && col0 + R_BN <= N;
    int ar = t / (R_BK / 4), ak = t % (R_BK / 4) * 4;   /* my float4 of A's tile */
    int bk = t / (R_BN / 4), bc = t % (R_BN / 4) * 4;   /* and of B's */
    float acc[R_TM][R_TN] = {};
    for (int k0 = 0; k0 < K; k0 += R_BK) {
        float4 a4, b4;
        if (interior && k0 + R_BK <= K) { /* the fast path: whole float4s, no checks */
            a4 = *reinterpret_cast<const float4 *>(&A[IDX(row0 + ar, k0 + ak, lda)]);
            b4 = *reinterpret_cast<const float4 *>(&B[IDX(k0 + bk, col0 + bc, ldb)]);
        } else {                          /* edges, or rows not 16-byte aligned */
            a4 = load4_guarded(A, lda, row0 + ar, k0 + ak, M, K);
            b4 = load4_guarded(B, ldb, k0 + bk, col0 + bc, K, N);
        }
        As[ak + 0][ar] = a4.x;
        As[ak + 1][ar] = a4.y;
        As[ak + 2][ar] = a4.z;
        As[ak + 3][ar] = a4.w;
        *reinterpret_cast<float4 *>(&Bs[bk][bc]) = b4;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < R_BK; k++) {
            /* 8 values of A and 8 of B: four 16-byte shared-memory reads */
            float4 a0 = *reinterpret_cast<const float4 *>(&As[k][ty * R_TM]);
            float4 a1 = *reinterpret_cast<const float4 *>(&As[k][ty * R_TM + 4]);
            float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][tx * R_TN]);
            float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][tx * R_TN + 4]);
            float a[R_TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float b[R_TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < R_TM; i++)
#pragma unroll
                for (int j = 0; j < R_TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < R_TM; i++) {
        int r = row0 + ty * R_TM + i;
        if (r < M)
            for (int h = 0; h < R_TN / 4; h++)
                store4(C, ldc, r, col0 + tx * R_TN + 4 * h, N,
                       make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2],
                                   acc[i][4 * h + 3]),
                       alpha, beta, vec);
    }
}

/* ---- double_buffer -------------------------------------------------------------------------- */

/* vectorized with two buffers. The loads of slice k0 + 8 are issued before the FMAs of slice
 * k0, into registers; a load does not stall the thread until its register is used, so the
 * 64 x 8 FMAs run while the loads travel. Then the registers go to the other buffer, and one
 * barrier per slice (not two) separates writing a buffer from reading it. */
__global__ void __launch_bounds__(R_THREADS)
double_buffer_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc, bool vec)
{
    __shared__ __align__(16) float As[2][R_BK][R_BM + PAD_A];
    __shared__ __align__(16) float Bs[2][R_BK][R_BN];
    int t = threadIdx.x, tx = t % (R_BN / R_TN), ty = t / (R_BN / R_TN);
    int row0 = blockIdx.y * R_BM, col0 = blockIdx.x * R_BN;
    bool interior = vec && row0 + R_BM <= M && col0 + R_BN <= N;
    int ar = t / (R_BK / 4), ak = t % (R_BK / 4) * 4;
    int bk = t / (R_BN / 4), bc = t % (R_BN / 4) * 4;
    float acc[R_TM][R_TN] = {};
    float4 a4, b4;

#define LOAD_SLICE(k0)                                                                        \
    if (interior && (k0) + R_BK <= K) {                                                       \
        a4 = *reinterpret_cast<const float4 *>(&A[IDX(row0 + ar, (k0) + ak, lda)]);           \
        b4 = *reinterpret_cast<const float4 *>(&B[IDX((k0) + bk, col0 + bc, ldb)]);           \
    } else {                                                                                  \
        a4 = load4_guarded(A, lda, row0 + ar, (k0) + ak, M, K);                                \
        b4 = load4_guarded(B, ldb, (k0) + bk, col0 + bc, K, N);                                \
    }
#define STORE_SLICE(buf)                                                                      \
    As[buf][ak + 0][ar] = a4.x;                                                               \
    As[buf][ak + 1][ar] = a4.y;                                                               \
    As[buf][ak + 2][ar] = a4.z;                                                               \
    As[buf][ak + 3][ar] = a4.w;                                                               \
    *reinterpret_cast<float4 *>(&Bs[buf][bk][bc]) = b4;

    LOAD_SLICE(0);
    STORE_SLICE(0);
    __syncthreads();
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += R_BK) {
        bool more = k0 + R_BK < K;
        if (more) {
            LOAD_SLICE(k0 + R_BK); /* in flight during the FMAs below */
        }
#pragma unroll
        for (int k = 0; k < R_BK; k++) {
            /* 8 values of A and 8 of B: four 16-byte shared-memory reads */
            float4 a0 = *reinterpret_cast<const float4 *>(&As[buf][k][ty * R_TM]);
            float4 a1 = *reinterpret_cast<const float4 *>(&As[buf][k][ty * R_TM + 4]);
            float4 b0 = *reinterpret_cast<const float4 *>(&Bs[buf][k][tx * R_TN]);
            float4 b1 = *reinterpret_cast<const float4 *>(&Bs[buf][k][tx * R_TN + 4]);
            float a[R_TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float b[R_TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < R_TM; i++)
#pragma unroll
                for (int j = 0; j < R_TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        if (more) { /* the other buffer: everyone finished reading it before the last barrier */
            STORE_SLICE(buf ^ 1);
        }
        __syncthreads();
        buf ^= 1;
    }
#undef LOAD_SLICE
#undef STORE_SLICE
    for (int i = 0; i < R_TM; i++) {
        int r = row0 + ty * R_TM + i;
        if (r < M)
            for (int h = 0; h < R_TN / 4; h++)
                store4(C, ldc, r, col0 + tx * R_TN + 4 * h, N,
                       make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2],
                                   acc[i][4 * h + 3]),
                       alpha, beta, vec);
    }
}

/* ---- launchers ------------------------------------------------------------------------------ */

typedef void tile_kernel(int, int, int, float, const float *, int, const float *, int, float,
                         float *, int);
typedef void tile_kernel_vec(int, int, int, float, const float *, int, const float *, int, float,
                             float *, int, bool);

/* x over column tiles, y over row tiles, in slabs of GRID_Y_MAX rows of tiles. */
static void launch(tile_kernel *kernel, tile_kernel_vec *kernel_vec, int bm, int bn, int threads,
                   int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    bool vec = rows_are_16B_aligned(A, lda) && rows_are_16B_aligned(B, ldb) &&
               rows_are_16B_aligned(C, ldc);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * bm) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * bm ? M - r0 : (long)GRID_Y_MAX * bm);
        dim3 grid(ceil_div(N, bn), ceil_div(m, bm));
        if (kernel)
            kernel<<<grid, threads, 0, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B, ldb,
                                                        beta, C + r0 * ldc, ldc);
        else
            kernel_vec<<<grid, threads, 0, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B,
                                                            ldb, beta, C + r0 * ldc, ldc, vec);
        CUDA_CHECK_LAUNCH();
    }
}

void gemm_blocktile_1d(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc)
{
    launch(blocktile_1d_kernel, NULL, B1_BM, B1_BN, B1_THREADS, M, N, K, alpha, A, lda, B, ldb,
           beta, C, ldc);
}

void gemm_regtile_8x8(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    launch(regtile_8x8_kernel, NULL, R_BM, R_BN, R_THREADS, M, N, K, alpha, A, lda, B, ldb, beta,
           C, ldc);
}

void gemm_vectorized(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    launch(NULL, vectorized_kernel, R_BM, R_BN, R_THREADS, M, N, K, alpha, A, lda, B, ldb, beta,
           C, ldc);
}

void gemm_double_buffer(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    launch(NULL, double_buffer_kernel, R_BM, R_BN, R_THREADS, M, N, K, alpha, A, lda, B, ldb,
           beta, C, ldc);
}

/* ---- the two tuned variants: templates over their tile sizes (warptile.cuh) ----------------
 * Block BM x BN x BK, warp WM x WN, thread TM x TN (and STAGES for cp.async). `--tune` times a
 * grid of them on the GPU present; these are the H100's winners (README.md, "Tuning"). */

/* warptile: its tile chosen by waves, thin strips of C apart, aligned copies (any_size.cu) */
void gemm_warptile(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    gemm_warptile_any_size(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_async_pipeline(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    /* block 128x128, k-slice 32, warp 32x64, thread 8x8, 3 stages: 256 threads, two blocks per SM */
    gemm_async_t<128, 128, 32, 32, 64, 8, 8, 3>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
