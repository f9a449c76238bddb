/* 08_cuda_shared: blocks that stage tiles of A and B in shared memory.
 *
 *   smem_32      32 x 32 tiles of A and B in shared memory; each element fetched from
 *                device memory once per block instead of once per thread
 *   smem_row_1d  one block per row of C, that row of A held in shared memory
 *   smem_rect    tile height, width and depth chosen at run time from the problem's shape,
 *                in dynamic shared memory (more than 48 KB with the opt-in)
 *
 * In 07 every thread read its own row of A and column of B from device memory: 2K loads
 * for 2K flops. A block of threads computing a tile of C needs far fewer distinct elements:
 * a 32 x 32 tile of C, k-slice by k-slice, needs a 32 x 32 tile of A and one of B, each
 * element used by 32 threads. Loaded once into shared memory (on-chip, next to the cores),
 * it is then read 32 times from there.
 */
#include "cuda_harness.cuh"
#include "cuda_shared.h"

#define TILE 32               /* smem_32: a 32 x 32 block, a 32 x 32 tile of A and of B */
#define ROW_THREADS 256       /* smem_row_1d's block */
#define SMEM_DEFAULT_MAX 49152 /* a block may use more shared memory only after an opt-in */
/* Dynamic shared arrays get 4 floats of slack at the end. The compiler may read the last
 * few elements of a loop with one wide load (compute-sanitizer caught a 12-byte read of a
 * 4-byte array when K = 1); the slack keeps such a read inside the allocation. */
#define SMEM_SLACK 4
/* smem_row_1d: floats of A's row in shared memory at once: 48 KB with the slack */
#define ROW_CHUNK (SMEM_DEFAULT_MAX / 4 - SMEM_SLACK)

/* ---- smem_32 ------------------------------------------------------------------------ */

__global__ void smem_32_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                               const float *B, int ldb, float beta, float *C, int ldc)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        /* Each thread fetches one element of each tile; consecutive tx read consecutive
         * addresses (coalesced). Past the edge of A or B: 0, which adds nothing. A's tile
         * is stored times alpha: every term gets its alpha (gemm.h), one multiply a load. */
        As[ty][tx] = row < M && k0 + tx < K ? alpha * A[IDX(row, k0 + tx, lda)] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[IDX(k0 + ty, col, ldb)] : 0.0f;
        __syncthreads(); /* the tiles are complete before anyone reads them */
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads(); /* everyone is done with them before the next k0 overwrites them */
    }
    /* Threads outside C stayed until here: every thread must reach every __syncthreads. */
    if (row < M && col < N)
        gemm_store(&C[IDX(row, col, ldc)], 1.0f, sum, beta);
}

void gemm_smem_32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    dim3 block(TILE, TILE);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * TILE) { /* gridDim.y <= 65535 */
        int m = (int)(M - r0 < (long)GRID_Y_MAX * TILE ? M - r0 : (long)GRID_Y_MAX * TILE);
        dim3 grid(ceil_div(N, TILE), ceil_div(m, TILE));
        smem_32_kernel<<<grid, block, 0, gemm_stream()>>>(m, N, K, alpha, A + r0 * lda, lda, B, ldb,
                                                           beta, C + r0 * ldc, ldc);
        CUDA_CHECK_LAUNCH();
    }
}

/* ---- smem_row_1d ---------------------------------------------------------------------- */

/* Block i computes row i of C. It copies row i of A into shared memory (in chunks of
 * `chunk` floats when K is larger), then each thread computes columns tid, tid + 256, ...
 * Every A[i][k] is then one shared-memory address read by all threads at once (a broadcast);
 * B is still read from device memory, row k of B by consecutive threads (coalesced). */
__global__ void smem_row_1d_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                   const float *B, int ldb, float beta, float *C, int ldc,
                                   int chunk)
{
    extern __shared__ float a_row[]; /* chunk floats, sized at launch */
    int row = blockIdx.x;
    for (int k0 = 0; k0 < K; k0 += chunk) { /* one pass when the row fits (K <= chunk) */
        int kc = min(chunk, K - k0);
        __syncthreads(); /* the previous chunk is no longer being read */
        for (int k = threadIdx.x; k < kc; k += blockDim.x)
            a_row[k] = alpha * A[IDX(row, k0 + k, lda)]; /* alpha on each term (gemm.h) */
        __syncthreads();
        for (int col = threadIdx.x; col < N; col += blockDim.x) {
            float sum = 0.0f;
            for (int k = 0; k < kc; k++)
                sum += a_row[k] * B[IDX(k0 + k, col, ldb)];
            float *c = &C[IDX(row, col, ldc)];
            if (k0 == 0)
                gemm_store(c, 1.0f, sum, beta);
            else /* later chunks add to what this same thread stored before */
                *c += sum;
        }
    }
}

void gemm_smem_row_1d(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    int chunk = K < ROW_CHUNK ? K : ROW_CHUNK;
    /* gridDim.x may be 2^31 - 1: one block per row for any M */
    smem_row_1d_kernel<<<M, ROW_THREADS, (chunk + SMEM_SLACK) * sizeof(float), gemm_stream()>>>(
        M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, chunk);
    CUDA_CHECK_LAUNCH();
}

/* ---- smem_rect -------------------------------------------------------------------------- */

/* A block of th x tw threads computes a th x tw tile of C; the k loop takes td at a time.
 * Shared memory holds an th x td tile of A and a td x tw tile of B, laid out one after the
 * other in one dynamic array whose size is given at launch. Shapes are run-time values:
 * no recompiling for a new problem shape. */
__global__ void smem_rect_kernel(int M, int N, int K, float alpha, const float *A, int lda,
                                 const float *B, int ldb, float beta, float *C, int ldc, int th,
                                 int tw, int td)
{
    extern __shared__ float smem[];
    float *As = smem;           /* th x td, row stride td */
    float *Bs = smem + th * td; /* td x tw, row stride tw */
    int tx = threadIdx.x, ty = threadIdx.y; /* blockDim = (tw, th) */
    int row = blockIdx.y * th + ty, col = blockIdx.x * tw + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += td) {
        int kd = min(td, K - k0); /* the last slice may be thinner: loop over what exists */
        /* Thread (tx, ty) fetches its own row of the A tile, tw apart, and its own column
         * of the B tile, th apart: no division, and consecutive tx read consecutive addresses. */
        for (int k = tx; k < kd; k += tw)
            As[ty * td + k] = row < M ? alpha * A[IDX(row, k0 + k, lda)] : 0.0f; /* as smem_32 */
        for (int k = ty; k < kd; k += th)
            Bs[k * tw + tx] = col < N ? B[IDX(k0 + k, col, ldb)] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kd; k++)
            sum += As[ty * td + k] * Bs[k * tw + tx];
        __syncthreads();
    }
    if (row < M && col < N)
        gemm_store(&C[IDX(row, col, ldc)], 1.0f, sum, beta);
}

/* The tile for an M x N x K problem (--tile overrides each part that it sets):
 *   height  M itself when M < 32 (16 rows of C: a 16-row tile, no idle threads), else 32
 *   width   as many columns as fit in 1024 threads, a multiple of the 32-thread warp, but
 *           no wider than N rounded up to 32
 *   depth   K itself up to 128: a small K is one slice, no zero padding, one sync pair */
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
    if (*th * *tw > 1024) /* an --tile height or width alone may not fit with the other */
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
    if (smem > (size_t)optin) { /* a --tile too deep for this GPU: keep h and w, thin d */
        static int said;
        td = (int)((optin / sizeof(float) - SMEM_SLACK) / (th + tw));
        if (!said++)
            fprintf(stderr, "smem_rect: tile depth reduced to %d to fit %d KB of shared memory\n",
                    td, optin / 1024);
        smem = ((size_t)(th + tw) * td + SMEM_SLACK) * sizeof(float);
    }
    /* Above 48 KB a kernel must ask for it first, or the launch fails ("invalid argument";
     * a frequent surprise: the GPU has 228 KB per SM, yet 48 KB is all a block gets unasked). */
    if (smem > SMEM_DEFAULT_MAX)
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
