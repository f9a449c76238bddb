/* any_size.cu: 09's warptile on a problem of any size and shape. gemm_warptile_any_size is what
 * the `warptile` variant runs (cuda_registers.cu) and the kernel stage 10 calls on each GPU.
 *
 * The kernels are warptile.cuh's; this file decides how to run them:
 *   the tile         128x256 or 128x128, whichever fills the GPU's waves better
 *   thin strips      up to STRIP_MAX leftover columns or rows of C (as at 4097), computed by two
 *                    strip kernels beside the tiles, which run on a stream of their own
 *   aligned copies   A or B with misaligned rows (an odd lda), copied once into aligned rows
 *                    when the product is large enough to pay for it
 */
#include "cuda_registers.h"
#include "warptile.cuh"

/* ---- the tile, by counting waves -----------------------------------------------------------
 * Block BM x BN x BK, warp WM x WN, thread TM x TN: the H100's winners of `--tune` (README.md,
 * "Tuning"). 128x256 (512 threads, one block per SM) is the fastest when the waves are whole;
 * 128x128 (256 threads, two blocks per SM) ran at 93.5-94.5% of its speed there (4096, tuning
 * sweeps in results/h100/09_tune/ and git history). Both keep 32768 results of C on an SM at
 * once, so they take the same number of waves unless C's edges cut them differently; then the
 * better grid fill (grid_fill, below) has to pay for the 6%. README.md, "Choosing the tile by
 * counting waves", has the arithmetic. */
#define SMALL_TILE_SPEED 0.94 /* 128x128's speed on whole waves, as a share of 128x256's */

/* An SM holds per_sm blocks at once (its "slots"); the GPU runs a grid in waves of
 * sms x per_sm blocks, and the last wave may be mostly empty. The fill is the share of the
 * slots that hold a block, over all the waves: 512 blocks in 132 slots take 4 waves, 512 / 528
 * = 0.97; 561 blocks take 5, 561 / 660 = 0.85. A grid smaller than the GPU is spread one block
 * per SM first, so there the fill is the share of SMs that have work. */
static inline double grid_fill(long blocks, int sms, int per_sm)
{
    if (blocks <= sms)
        return (double)blocks / sms;
    long slots = (long)sms * per_sm, waves = (blocks + slots - 1) / slots;
    return (double)blocks / (double)(waves * slots);
}

/* grid_fill of a warptile configuration for an M x N result on the current GPU. The SM count
 * and the blocks per SM (registers, shared memory, threads: the occupancy calculator) are
 * asked once per GPU. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int PREFETCH = 0>
double warptile_fill(int M, int N)
{
    using cfg = tile_config<BM, BN, BK, WM, WN, TM, TN, 2>;
    static int sms_of[64], per_sm_of[64];
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    int sms = dev < 64 ? sms_of[dev] : 0, per_sm = dev < 64 ? per_sm_of[dev] : 0;
    if (sms == 0 || per_sm == 0) {
        allow_large_smem<cfg, warptile_kernel<BM, BN, BK, WM, WN, TM, TN, PREFETCH>>(dev);
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, warptile_kernel<BM, BN, BK, WM, WN, TM, TN, PREFETCH>, cfg::threads,
            cfg::smem_bytes));
        if (dev < 64) {
            sms_of[dev] = sms;
            per_sm_of[dev] = per_sm;
        }
    }
    return grid_fill((long)ceil_div(M, BM) * ceil_div(N, BN), sms, per_sm);
}

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
 * third round of NOTES.md, rows 4 and 5.) One tile stream per caller's stream and GPU, per host
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
void gemm_warptile_any_size(int M, int N, int K, float alpha, const float *A, int lda,
                            const float *B, int ldb, float beta, float *C, int ldc)
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
