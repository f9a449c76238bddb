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
 *                   the next k's operands read during this k's FMAs; thin edge strips of C by
 *                   two strip kernels beside the tiles; misaligned operands of a large product
 *                   read from aligned copies
 *   async_pipeline  warptile's arithmetic fed by cp.async, three or more shared-memory stages
 *
 * In 08 a thread loaded one element of A and one of B from shared memory for every FMA: the
 * shared-memory pipe, not the FP32 units, set the pace. A thread that keeps TM x TN results in
 * registers loads TM elements of A and TN of B per k and does TM * TN FMAs with them: for
 * 8 x 8, 16 loads for 64 FMAs instead of 2 for 1.
 *
 * The last two variants are templates over their tile sizes (warptile.cuh); `--tune` runs a
 * grid of them (tune.cu). The sizes chosen below are the winners on the H100 (see README.md).
 */
#include "cuda_harness.cuh"
#include "cuda_registers.h"
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

/* ---- the two tuned variants ------------------------------------------------------------------
 * Block BM x BN x BK, warp WM x WN, thread TM x TN (and STAGES for cp.async). `--tune` times a
 * grid of these on the GPU present; these are the H100's winners (README.md, "Tuning").
 *
 * warptile picks one of two configurations by problem size. 128x256 (512 threads, one block per
 * SM) is the fastest when the waves are whole; 128x128 (256 threads, two blocks per SM) ran at
 * 93.5-94.5% of its speed there (4096, tuning sweeps in results/h100/09_tune/ and git history).
 * Both keep 32768 results of C on an SM at once, so they take the same number of waves unless
 * C's edges cut them differently; then the better grid fill (warptile.cuh, grid_fill) has to pay
 * for the 6%. README.md, "Choosing the tile by counting waves", has the arithmetic. */
#define SMALL_TILE_SPEED 0.94 /* 128x128's speed on whole waves, as a share of 128x256's */

/* ---- thin strips at the edges, apart from the tiles -------------------------------------------
 * A size one past a multiple of the tile (4097 = 16 x 256 + 1) leaves a strip of C one column
 * wide and one row high. In the tiled grid each of its blocks runs the whole k loop for one
 * column (or row) of results. Here the tiles cover the whole tiles only, and two small kernels
 * compute the strips: they read A's rows (B's columns) once, as a memory-bound dot product. */
#define STRIP_MAX 8 /* at most this many leftover columns or rows go to a strip kernel */

/* Both strips read a whole operand (A for the column strip, B for the row strip: 64 MB at
 * 4097) for few FMAs, so they run at the speed of memory only if each SM keeps enough loads in
 * flight: about 3 TB/s x 1 us / 132 SMs, 24 KB. */
#define STRIP_COL_ROWS 4   /* rows of C per warp in the column strip */
#define STRIP_COL_WARPS 8  /* warps per block: 32 rows */
#define STRIP_COL_KC 256   /* k per round: B's strip for it staged in shared memory */

/* C[0..M-1][0..w-1] (w <= STRIP_MAX columns; B and C point at the strip's first column): one
 * warp per STRIP_COL_ROWS rows, its lanes over k, a shuffle sum at the end. B's strip is a
 * column (w floats per row of B, one 32-byte sector each): the block copies STRIP_COL_KC rows
 * of it into shared memory at a time, once for its 8 warps, and each lane then loads 4 x 8
 * elements of A (coalesced rows, 4 KB per warp) before its FMAs. */
__global__ void __launch_bounds__(32 * STRIP_COL_WARPS)
strip_cols_kernel(int M, int w, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    constexpr int U = STRIP_COL_KC / 32; /* k per lane per round */
    __shared__ float bs[STRIP_MAX][STRIP_COL_KC];
    int lane = threadIdx.x % 32;
    int r0 = (blockIdx.x * STRIP_COL_WARPS + threadIdx.x / 32) * STRIP_COL_ROWS;
    float acc[STRIP_COL_ROWS][STRIP_MAX] = {};
    for (int k0 = 0; k0 < K; k0 += STRIP_COL_KC) {
        for (int kk = threadIdx.x; kk < STRIP_COL_KC; kk += 32 * STRIP_COL_WARPS) {
            const float *b = B + (size_t)(k0 + kk) * ldb;
#pragma unroll
            for (int j = 0; j < STRIP_MAX; j++)
                bs[j][kk] = j < w && k0 + kk < K ? b[j] : 0.0f;
        }
        __syncthreads();
        float a[STRIP_COL_ROWS][U];
#pragma unroll
        for (int i = 0; i < STRIP_COL_ROWS; i++)
#pragma unroll
            for (int u = 0; u < U; u++) {
                int k = k0 + lane + 32 * u;
                a[i][u] = r0 + i < M && k < K ? A[(size_t)(r0 + i) * lda + k] : 0.0f;
            }
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int j = 0; j < STRIP_MAX; j++) {
                float b = bs[j][lane + 32 * u];
#pragma unroll
                for (int i = 0; i < STRIP_COL_ROWS; i++)
                    acc[i][j] = fmaf(a[i][u], b, acc[i][j]);
            }
        __syncthreads(); /* bs is rewritten next round */
    }
#pragma unroll
    for (int i = 0; i < STRIP_COL_ROWS; i++)
#pragma unroll
        for (int j = 0; j < STRIP_MAX; j++) {
            float v = acc[i][j];
#pragma unroll
            for (int off = 16; off > 0; off /= 2)
                v += __shfl_xor_sync(0xffffffffu, v, off);
            if (lane == 0 && r0 + i < M && j < w)
                gemm_store(&C[(size_t)(r0 + i) * ldc + j], alpha, v, beta);
        }
}

/* C[0..h-1][0..N-1] (h <= STRIP_MAX rows; A and C point at the strip's first row): 32 columns
 * per block, one per lane; the 16 warps take 16 interleaved shares of k (a coalesced 128-byte
 * row of B each), then add their sums through shared memory. (Loading 16 rows of B per lane
 * before the FMAs, as the column strip does with A, made it slower at 4097: 135 us against this
 * kernel's 56 us, both measured with ncu; not understood, not kept.) */
__global__ void __launch_bounds__(512)
strip_rows_kernel(int h, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    __shared__ float part[16][STRIP_MAX][33];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int c = blockIdx.x * 32 + lane;
    float acc[STRIP_MAX] = {};
    if (c < N) {
#pragma unroll 4
        for (int k = warp; k < K; k += 16) {
            float b = B[(size_t)k * ldb + c];
#pragma unroll
            for (int i = 0; i < STRIP_MAX; i++)
                if (i < h)
                    acc[i] = fmaf(A[(size_t)i * lda + k], b, acc[i]);
        }
    }
#pragma unroll
    for (int i = 0; i < STRIP_MAX; i++)
        part[warp][i][lane] = acc[i];
    __syncthreads();
    if (threadIdx.x < 32 * STRIP_MAX) {
        int i = threadIdx.x / 32;
        float v = 0.0f;
#pragma unroll
        for (int w = 0; w < 16; w++)
            v += part[w][i][lane];
        if (i < h && c < N)
            gemm_store(&C[(size_t)i * ldc + c], alpha, v, beta);
    }
}

/* The part of C that whole BM x BN tiles cover, M1 x N1, and the thin strips left over:
 * a strip only where at most STRIP_MAX columns (rows) are left and at least one whole tile. */
static inline void split_strips(int M, int N, int BM, int BN, int *M1, int *N1)
{
    *M1 = M > BM && M % BM <= STRIP_MAX ? M - M % BM : M;
    *N1 = N > BN && N % BN <= STRIP_MAX ? N - N % BN : N;
}

/* The strips of C outside M1 x N1: rows 0..M1-1 of columns N1.., then rows M1.. of every column. */
static inline void launch_strips(cudaStream_t st, int M, int N, int K, int M1, int N1,
                                 float alpha, const float *A, int lda, const float *B, int ldb,
                                 float beta, float *C, int ldc)
{
    if (N1 < N) {
        int warps = ceil_div(M1, STRIP_COL_ROWS);
        strip_cols_kernel<<<ceil_div(warps, STRIP_COL_WARPS), 32 * STRIP_COL_WARPS, 0, st>>>(
            M1, N - N1, K, alpha, A, lda, B + N1, ldb, beta, C + N1, ldc);
        CUDA_CHECK_LAUNCH();
    }
    if (M1 < M) {
        strip_rows_kernel<<<ceil_div(N, 32), 512, 0, st>>>(
            M - M1, N, K, alpha, A + (size_t)M1 * lda, lda, B, ldb, beta, C + (size_t)M1 * ldc,
            ldc);
        CUDA_CHECK_LAUNCH();
    }
}

/* ---- aligned copies of misaligned operands ------------------------------------------------- */

/* Rows whose length is not a multiple of 4 floats (an odd lda, as at 4097) keep the tile
 * kernels off their float4 loads: four scalar loads each, 9-10% of the time at 4096 x 4096 x
 * 4097. For a large enough product it pays to copy such an operand once into rows padded to
 * whole 128-byte lines, as the CPU chapters pack their panels: a 4097^2 operand is read and
 * written in 42 us (ncu, H100: 3.2 TB/s), against about 2.8 ms of kernel. Only when the tiles
 * are whole (M1, N1 multiples of the tile, the strips apart): where blocks cross C's edge (as at
 * 4095) their checked loads set the kernel's end, and aligned loads elsewhere bought nothing
 * (the kernel alone took 3.007 ms on aligned copies, the whole product 2.993 ms without). */
#define PAD_COPY_MIN_FLOPS (2.0 * 2048 * 2048 * 2048) /* below this the copy does not pay */
#define PAD_FLOATS 32                               /* rows padded to 128 bytes */
#define COPY_THREADS 256
#define COPY_UNROLL 4 /* loads in flight per thread: enough to keep HBM busy */

/* dst (ldd) = src (lds), rows x cols; one block copies COPY_THREADS * COPY_UNROLL columns of
 * one row (gridDim.y rows at a time): every thread issues its loads before its stores. The
 * loads of a warp read 32 consecutive floats, the stores write them to an aligned row. */
__global__ void __launch_bounds__(COPY_THREADS)
pad_rows_kernel(long rows, int cols, const float *src, long lds, float *dst, long ldd)
{
    int c0 = blockIdx.x * COPY_THREADS * COPY_UNROLL + threadIdx.x;
    for (long r = blockIdx.y; r < rows; r += gridDim.y) {
        float v[COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; u++) {
            int c = c0 + u * COPY_THREADS;
            v[u] = c < cols ? src[r * lds + c] : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; u++) {
            int c = c0 + u * COPY_THREADS;
            if (c < cols)
                dst[r * ldd + c] = v[u];
        }
    }
}

/* The leading dimension of an aligned copy of rows `cols` floats long. */
static inline int padded_ld(int cols) { return ceil_div(cols, PAD_FLOATS) * PAD_FLOATS; }

/* Copy the rows x cols matrix X (leading dimension ldx) into buf, rows padded_ld(cols) apart,
 * on stream st; returns that leading dimension. */
static int copy_padded(cudaStream_t st, float *buf, const float *X, int rows, int cols, int ldx)
{
    int ld = padded_ld(cols);
    dim3 grid(ceil_div(cols, COPY_THREADS * COPY_UNROLL), rows < GRID_Y_MAX ? rows : GRID_Y_MAX);
    pad_rows_kernel<<<grid, COPY_THREADS, 0, st>>>(rows, cols, X, ldx, buf, ld);
    CUDA_CHECK_LAUNCH();
    return ld;
}

/* The buffer for the copies is stream-ordered (cudaMallocAsync), so concurrent calls on
 * several streams each get their own. The device's default pool returns its memory to the
 * driver at every synchronisation unless told to keep some: keep up to 1 GiB (the copies of
 * an 11000 x 11000 product), so that repeated calls do not map fresh memory every time, and
 * larger ones give theirs back (a stage 10 run that wants the rest of the GPU gets it). */
#define POOL_KEEP_BYTES (1ull << 30)

static bool keep_pool_memory(void)
{
    static bool done[64];
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (dev < 64 && !done[dev]) {
        cudaMemPool_t pool;
        unsigned long long keep = POOL_KEEP_BYTES;
        if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
            cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
            (void)cudaGetLastError();
            return false;
        }
        done[dev] = true;
    }
    return true;
}

/* ---- the strips beside the tiles ----------------------------------------------------------- */

/* The tile grid leaves SMs idle in its last wave (at 4097, 512 blocks of one per SM on 132 SMs:
 * 3.9 waves), and the strips write other elements of C than the tiles: the tiles run on a
 * stream of their own, forked from the caller's after the copies and joined before the call
 * returns, while the strips run on the caller's stream, so that they can take those SMs. The
 * tiles' stream has the highest priority: with equal priorities the block scheduler may hand an
 * SM freed between the tile grid's waves to a strip block, and a tile block then waits there for
 * it; with the priority, a strip block starts only where no tile block is waiting. (Measured:
 * the column strip, not hidden at all at equal priorities, is about half hidden with it; the
 * chapter's third round, rows 4 and 5.) One tile stream per caller's stream and GPU, per host
 * thread (stage 10 drives several streams per GPU: a shared one would chain them together);
 * with more than TILE_STREAMS_MAX of them, the tiles go on the caller's stream too, before the
 * strips. */
#define TILE_STREAMS_MAX 16
struct tile_stream {
    cudaStream_t main, tiles;
    int dev;
    cudaEvent_t fork, join;
};

static tile_stream *tile_stream_for(cudaStream_t main)
{
    static thread_local tile_stream tab[TILE_STREAMS_MAX];
    static thread_local int n;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    for (int i = 0; i < n; i++)
        if (tab[i].main == main && tab[i].dev == dev)
            return &tab[i];
    if (n == TILE_STREAMS_MAX)
        return NULL;
    tile_stream *t = &tab[n++];
    t->main = main;
    t->dev = dev;
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&t->tiles, cudaStreamNonBlocking, highest));
    CUDA_CHECK(cudaEventCreateWithFlags(&t->fork, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&t->join, cudaEventDisableTiming));
    return t;
}

/* warptile picks its tile by the grid fill of the whole tiles; thin strips left over (at most
 * STRIP_MAX columns or rows, as at 4097) go to the strip kernels above; misaligned A or B of a
 * large product are read from aligned copies. */
void gemm_warptile(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    int bM1, bN1, sM1, sN1;
    split_strips(M, N, 128, 256, &bM1, &bN1);
    split_strips(M, N, 128, 128, &sM1, &sN1);
    double big = warptile_fill<128, 256, 16, 32, 64, 8, 8, 1>(bM1, bN1);
    double small = warptile_fill<128, 128, 16, 32, 64, 8, 8>(sM1, sN1);
    bool small_tiles = SMALL_TILE_SPEED * small > big;
    int M1 = small_tiles ? sM1 : bM1, N1 = small_tiles ? sN1 : bN1;

    cudaStream_t main = gemm_stream();
    const float *At = A, *Bt = B; /* what the tile kernels read */
    int ldat = lda, ldbt = ldb;
    float *buf = NULL;
    bool pad_a = !rows_are_16B_aligned(A, lda), pad_b = !rows_are_16B_aligned(B, ldb);
    bool whole = M1 % 128 == 0 && N1 % (small_tiles ? 128 : 256) == 0;
    if ((pad_a || pad_b) && whole && 2.0 * M1 * N1 * K >= PAD_COPY_MIN_FLOPS &&
        keep_pool_memory()) {
        size_t a_floats = pad_a ? (size_t)M1 * padded_ld(K) : 0;
        size_t b_floats = pad_b ? (size_t)K * padded_ld(N1) : 0;
        if (cudaMallocAsync((void **)&buf, (a_floats + b_floats) * sizeof(float), main) ==
            cudaSuccess) {
            if (pad_a)
                At = buf, ldat = copy_padded(main, buf, A, M1, K, lda);
            if (pad_b)
                Bt = buf + a_floats, ldbt = copy_padded(main, buf + a_floats, B, K, N1, ldb);
        } else {
            (void)cudaGetLastError(); /* no room: read A and B where they are */
            buf = NULL;
        }
    }
    /* with strips: the tiles on their own stream, beside the strips on the caller's */
    tile_stream *own = M1 < M || N1 < N ? tile_stream_for(main) : NULL;
    cudaStream_t ts = main;
    if (own) {
        CUDA_CHECK(cudaEventRecord(own->fork, main));
        CUDA_CHECK(cudaStreamWaitEvent(own->tiles, own->fork, 0));
        ts = own->tiles;
    }
    if (small_tiles) /* block 128x128, k-slice 16, warp 32x64, thread 8x8 */
        warptile_on<128, 128, 16, 32, 64, 8, 8>(ts, M1, N1, K, alpha, At, ldat, Bt, ldbt, beta, C,
                                                ldc);
    else /* block 128x256, k-slice 16, warp 32x64, thread 8x8, fragments prefetched:
          * 512 threads, one block per SM */
        warptile_on<128, 256, 16, 32, 64, 8, 8, 1>(ts, M1, N1, K, alpha, At, ldat, Bt, ldbt, beta,
                                                   C, ldc);
    /* the tiles are queued first, the strips (if any) after them on the caller's stream */
    launch_strips(main, M, N, K, M1, N1, alpha, A, lda, B, ldb, beta, C, ldc);
    if (own) {
        CUDA_CHECK(cudaEventRecord(own->join, own->tiles));
        CUDA_CHECK(cudaStreamWaitEvent(main, own->join, 0));
    }
    if (buf) /* after the tiles that read it (joined above) */
        CUDA_CHECK(cudaFreeAsync(buf, main));
}

void gemm_async_pipeline(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    /* block 128x128, k-slice 32, warp 32x64, thread 8x8, 3 stages: 256 threads, two blocks per SM */
    gemm_async_t<128, 128, 32, 32, 64, 8, 8, 3>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
