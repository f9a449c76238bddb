/* pipeline.cuh: the Hopper pipeline that wgmma.cu's variants, tf32.cu's and harness/tune.cu's
 * configurations share (sm_90a: every file that includes it is built for sm_90a alone, stage.mk).
 *
 *   tensor maps       A, B and C as TMA reads and writes them (host)
 *   a stage's pieces  the wgmma of one stage from shared memory (mma_stage), and the stores of
 *                     a warpgroup's result: from the registers, through TMA, by rows
 *   wgmma_ws_kernel   a producer warpgroup, two consumer warpgroups; one CTA per tile or a
 *                     persistent grid, clusters, C through shared memory (wgmma.cu says more)
 *   ws_launcher       its launch configuration, and how many of its clusters run at once
 */
#ifndef PIPELINE_CUH
#define PIPELINE_CUH

#include <cuda.h>
#include <cudaTypedefs.h>

#include "hopper.cuh"
#include "operands.cuh"
#include "tensor_cores.h"

#define BM 128                   /* rows of C per CTA: one consumer warpgroup per 64 */
#define BK 64                    /* one 128-byte swizzle row of BF16 */
#define A_TILE (BM * BK * 2)     /* bytes of A per stage: 16 KiB */
#define B_BOX (BK * 64 * 2)      /* one TMA box of B: 64 k x 64 columns, 8 KiB */

/* ---- tensor maps (host) ---------------------------------------------------------------------- */

static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn;
    if (!fn) {
        void *p = NULL;
        cudaDriverEntryPointQueryResult q;
        CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                    cudaEnableDefault, &q));
        if (q != cudaDriverEntryPointSuccess || !p) {
            fprintf(stderr, "cuTensorMapEncodeTiled: not found in the driver\n");
            exit(1);
        }
        fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
    }
    return fn;
}

/* A rows x cols row-major matrix (row stride ld elements; ld x the element size a multiple of
 * 16 bytes) read or written in boxes of box_rows x box_cols, 128 bytes a box row, stored in
 * shared memory with the 128-byte swizzle (16-byte chunk c of box row r at chunk c ^ (r % 8));
 * reads outside the matrix give zeros, writes there are dropped. Rows that do not start on
 * 128-byte lines are read without L2 promotion (256-byte promotion then fetches lines twice:
 * measured, 6000 x 6000 at 89% of 6016's speed). */
static CUtensorMap tensor_map(const void *X, CUtensorMapDataType type, int esize, int rows,
                              int cols, int ld, int box_rows, int box_cols)
{
    CUtensorMap map;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)ld * esize};
    cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, elem[2] = {1, 1};
    CUtensorMapL2promotion promo = strides[0] % 128 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                                         : CU_TENSOR_MAP_L2_PROMOTION_NONE;
    CUresult r = encode_tiled()(&map, type, 2, (void *)X, dims, strides, box, elem,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, promo,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled: error %d for a %d x %d matrix, ld %d\n", (int)r,
                rows, cols, ld);
        exit(1);
    }
    return map;
}

/* BF16 A or B: boxes of box_rows x 64 */
static CUtensorMap bf16_map(const gemm_bf16 *X, int rows, int cols, int ld, int box_rows)
{
    return tensor_map(X, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, rows, cols, ld, box_rows, 64);
}

static int set_smem(const void *kernel, int bytes)
{
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    return bytes;
}

/* ---- the pieces every kernel here shares (device) ------------------------------------------- */

static __device__ __forceinline__ uint8_t *align1024(uint8_t *p)
{
    return p + (1024 - smem_u32(p) % 1024) % 1024; /* the swizzle repeats every 1024 bytes */
}

/* One stage (64 of K) of a warpgroup's 64 x BN result: four wgmma of K = 16. Along A's swizzled
 * 128-byte rows the next 16 columns start 32 bytes further; along B, 16 rows further (2048
 * bytes). B's 64-column boxes lie 8192 bytes apart (lbo); 8-row groups 1024 apart (sbo).
 * TF32: a stage is 32 of K (the same 128-byte rows), four wgmma of K = 8, and B's tile is BN
 * rows of B^T laid out as A's: the next 8 of K 32 bytes further along each row. */
template <int BN, bool TF32 = false>
static __device__ __forceinline__ void mma_stage(float (&d)[BN / 2], const uint8_t *a,
                                                 const uint8_t *b, bool accumulate)
{
    uint32_t sa = smem_u32(a), sb = smem_u32(b);
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        uint64_t da = smem_desc(sa + kk * 32, 16, 1024);
        if constexpr (TF32) {
            uint64_t db = smem_desc(sb + kk * 32, 16, 1024);
            if constexpr (BN == 256)
                wgmma_m64n256k8_tf32(d, da, db, accumulate || kk > 0);
            else
                wgmma_m64n128k8_tf32(d, da, db, accumulate || kk > 0);
        } else {
            uint64_t db = smem_desc(sb + kk * 2048, B_BOX, 1024);
            if constexpr (BN == 256)
                wgmma_m64n256k16(d, da, db, accumulate || kk > 0);
            else
                wgmma_m64n128k16(d, da, db, accumulate || kk > 0);
        }
    }
}

/* The warpgroup's 64 x BN result, rows row0.., columns n0.., into C (layout: hopper.cuh). */
template <int BN>
static __device__ __forceinline__ void store_tile(const float (&d)[BN / 2], int row0, int n0,
                                                  int M, int N, float alpha, float beta, float *C,
                                                  int ldc, bool vec2)
{
    int lane = threadIdx.x % 32, r = row0 + threadIdx.x / 32 % 4 * 16 + lane / 4;
    int c = n0 + 2 * (lane % 4);
    if (r >= M)
        return;
#pragma unroll
    for (int j = 0; j < BN / 8; j++) {
        store_pair(C, ldc, N, r, c + 8 * j, d[4 * j], d[4 * j + 1], alpha, beta, vec2);
        if (r + 8 < M)
            store_pair(C, ldc, N, r + 8, c + 8 * j, d[4 * j + 2], d[4 * j + 3], alpha, beta, vec2);
    }
}

/* The same through shared memory and the copy engine: the 64 x BN result in 64 x 32 chunks
 * (8 KiB, 128-byte swizzled rows), alternately in two buffers; the warpgroup writes one while
 * the engine reads the other, and the engine writes C while the warpgroup goes on to its next
 * tile (with direct stores, every SM wrote its tile at the same moment and waited: 10% of the
 * time at 4096, measured). The engine drops what lies outside C. For beta == 0. */
#define C_CHUNK (64 * 32 * 4)
template <int BN>
static __device__ __forceinline__ void store_tile_tma(const float (&d)[BN / 2], uint8_t *buf,
                                                      const void *mapC, int row0, int n0,
                                                      float alpha, int bar_id)
{
    int tid = threadIdx.x % 128, lane = tid % 32, t = lane % 4;
    int r = tid / 32 * 16 + lane / 4; /* and r + 8: rows of the 64 */
#pragma unroll
    for (int j = 0; j < BN / 32; j++) {
        uint8_t *b = buf + j % 2 * C_CHUNK;
        if (tid == 0)
            bulk_wait_read<1>(); /* the chunk before last, from this buffer, is read */
        named_sync(bar_id, 128);
#pragma unroll
        for (int q = 0; q < 4; q++) { /* columns 8q + 2t, +1 of the chunk: 16-byte unit 2q + t/2 */
            int jj = 4 * j + q, unit = (2 * q + t / 2) ^ (r % 8);
            *reinterpret_cast<float2 *>(b + r * 128 + unit * 16 + t % 2 * 8) =
                make_float2(alpha * d[4 * jj], alpha * d[4 * jj + 1]);
            *reinterpret_cast<float2 *>(b + (r + 8) * 128 + unit * 16 + t % 2 * 8) =
                make_float2(alpha * d[4 * jj + 2], alpha * d[4 * jj + 3]);
        }
        fence_proxy_async();
        named_sync(bar_id, 128);
        if (tid == 0) {
            tma_store(mapC, b, n0 + 32 * j, row0);
            bulk_commit();
        }
    }
}

/* Where the copy engine cannot store C (rows that do not start or end on 16 bytes, beta != 0):
 * the same chunks, read back by rows, so that a warp writes 32 consecutive floats of a row at a
 * time, whole 32-byte sectors. From the registers' layout a warp writes 8 rows x 8 bytes, or
 * x 4 bytes twice where the rows are odd: 4095 took 0.336 ms that way, 0.197 read in place from
 * rows padded to 4096 (measured). Each warp writes and reads back only its own 16 rows. */
template <int BN>
static __device__ __forceinline__ void store_tile_rows(const float (&d)[BN / 2], uint8_t *buf,
                                                       int row0, int n0, int M, int N,
                                                       float alpha, float beta, float *C, int ldc)
{
    int tid = threadIdx.x % 128, lane = tid % 32, warp = tid / 32, t = lane % 4;
    int r = warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < BN / 32; j++) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int jj = 4 * j + q, unit = (2 * q + t / 2) ^ (r % 8);
            *reinterpret_cast<float2 *>(buf + r * 128 + unit * 16 + t % 2 * 8) =
                make_float2(alpha * d[4 * jj], alpha * d[4 * jj + 1]);
            *reinterpret_cast<float2 *>(buf + (r + 8) * 128 + unit * 16 + t % 2 * 8) =
                make_float2(alpha * d[4 * jj + 2], alpha * d[4 * jj + 3]);
        }
        __syncwarp();
        int col = n0 + 32 * j + lane;
        for (int i = 0; i < 16; i++) {
            int rr = warp * 16 + i, row = row0 + rr;
            float v = *reinterpret_cast<const float *>(buf + rr * 128 +
                                                       ((lane / 4) ^ (rr % 8)) * 16 + lane % 4 * 4);
            if (row < M && col < N) {
                float *c = C + (size_t)row * ldc + col;
                *c = beta == 0.0f ? v : v + beta * *c;
            }
        }
        __syncwarp(); /* read back before the next chunk overwrites it */
    }
}

/* ---- wgmma_ws and wgmma_persistent: a producer, two consumers -------------------------------- */

#define WS_THREADS 384 /* warpgroup 0 the producer, 1 and 2 the consumers */
#define PRODUCER_REGS 40
#define CONSUMER_REGS 232 /* 128 x 40 + 256 x 232 = 64512 <= the SM's 65536 */

/* Tile t of a grid of tiles in groups of `group` rows of tiles (all columns of the first
 * group, then the next; 0: row by row): the CTAs that run at one time then cover a few rows
 * and many columns, and read each panel of A and B from memory about once. */
static __device__ __forceinline__ void tile_at(int t, int rows, int cols, int group, int *row,
                                               int *col)
{
    if (group <= 0) {
        *row = t / cols;
        *col = t % cols;
        return;
    }
    int first = t / (group * cols) * group, in = t % (group * cols);
    int g = min(rows - first, group);
    *row = first + in % g;
    *col = in / g;
}

/* CLUSTER CTAs side by side in M share their B tile: each loads BN/64/CLUSTER of its boxes
 * into every CTA of the cluster (MC; without it each loads its own, for the comparison). The
 * launcher's grid is one CTA per tile (wgmma_ws) or as many as run at once (persistent), each
 * cluster taking every gridDim-th tile. SMEM_C: C through shared memory (store_tile_tma, or
 * store_tile_rows where TMA cannot store it); without, from the registers (store_tile).
 * TF32: FP32 A (M x K) and B^T (N x K), both K-major; a stage is 32 of K, the same bytes. */
template <int BN, int STAGES, int CLUSTER, bool MC = true, bool SMEM_C = false, bool TF32 = false>
__global__ void __launch_bounds__(WS_THREADS, 1)
wgmma_ws_kernel(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                const __grid_constant__ CUtensorMap mapC, int M, int N, int K, float alpha,
                float beta, float *C, int ldc, int group, bool vec2, bool tma_c)
{
    constexpr int STAGE = A_TILE + BK * BN * 2;
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);
    uint8_t *cbuf = smem + STAGES * STAGE; /* SMEM_C: two chunks of C per consumer */
    uint64_t *full = (uint64_t *)(cbuf + (SMEM_C ? 4 * C_CHUNK : 0)), *empty = full + STAGES;
    int wg = threadIdx.x / 128;
    unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;
    int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    int rows = (M + BM * CLUSTER - 1) / (BM * CLUSTER), cols = (N + BN - 1) / BN;
    constexpr int BKE = TF32 ? 32 : BK; /* elements of K a stage */
    int tiles = rows * cols, KT = (K + BKE - 1) / BKE;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(&full[s], 1);                /* the producer's expect_tx */
            mbar_init(&empty[s], MC ? 2 * CLUSTER : 2); /* each consumer of each CTA of the cluster */
        }
        mbar_fence_init();
    }
    if (CLUSTER > 1)
        cluster_sync(); /* the peer's barriers exist before anything is sent to them */
    else
        __syncthreads();

    if (wg == 0) { /* the producer: one thread issues every copy */
        setmaxnreg_dec<PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            int it = 0;
            for (int t = cluster; t < tiles; t += clusters) {
                int tr, tc;
                tile_at(t, rows, cols, group, &tr, &tc);
                int m0 = (tr * CLUSTER + rank) * BM, n0 = tc * BN;
                for (int kt = 0; kt < KT; kt++, it++) {
                    int s = it % STAGES;
                    mbar_wait(&empty[s], it / STAGES % 2 ^ 1); /* every consumer let go of it */
                    uint8_t *stage = smem + s * STAGE;
                    mbar_expect_tx(&full[s], STAGE);
                    tma_load(stage, &mapA, &full[s], kt * BKE, m0);
#pragma unroll
                    for (int c = 0; c < BN / 64; c++) {
                        uint8_t *dst = stage + A_TILE + c * B_BOX;
                        /* a box of B: 64 k x 64 columns, or of B^T: 64 rows (n) x 32 k */
                        int x = TF32 ? kt * BKE : n0 + 64 * c, y = TF32 ? n0 + 64 * c : kt * BK;
                        if (CLUSTER == 1 || !MC)
                            tma_load(dst, &mapB, &full[s], x, y);
                        else if (c % CLUSTER == (int)rank)
                            tma_load_multicast(dst, &mapB, &full[s], x, y, (1 << CLUSTER) - 1);
                    }
                }
            }
        }
    } else { /* a consumer: 64 rows of each tile */
        setmaxnreg_inc<CONSUMER_REGS>();
        int row = (wg - 1) * 64, it = 0;
        float d[BN / 2];
        for (int t = cluster; t < tiles; t += clusters) {
            int tr, tc;
            tile_at(t, rows, cols, group, &tr, &tc);
            int m0 = (tr * CLUSTER + rank) * BM, n0 = tc * BN;
            int prev = 0;
            for (int kt = 0; kt < KT; kt++, it++) {
                int s = it % STAGES;
                mbar_wait(&full[s], it / STAGES % 2);
                uint8_t *stage = smem + s * STAGE;
                wgmma_fence();
                mma_stage<BN, TF32>(d, stage + row * 128, stage + A_TILE, kt > 0);
                wgmma_commit();
                wgmma_wait<1>(); /* the previous stage's multiplies are done: release it */
                fence_regs(d);
                if (kt > 0 && threadIdx.x % 128 == 0)
                    for (int r = 0; r < (MC ? CLUSTER : 1); r++)
                        CLUSTER > 1 && MC ? mbar_arrive_cluster(&empty[prev], r) : mbar_arrive(&empty[prev]);
                prev = s;
            }
            wgmma_wait<0>();
            fence_regs(d);
            if (threadIdx.x % 128 == 0)
                for (int r = 0; r < (MC ? CLUSTER : 1); r++)
                    CLUSTER > 1 && MC ? mbar_arrive_cluster(&empty[prev], r) : mbar_arrive(&empty[prev]);
            uint8_t *mine = cbuf + (wg - 1) * 2 * C_CHUNK;
            if (SMEM_C && tma_c)
                store_tile_tma<BN>(d, mine, &mapC, m0 + row, n0, alpha, wg);
            else if (SMEM_C)
                store_tile_rows<BN>(d, mine, m0 + row, n0, M, N, alpha, beta, C, ldc);
            else
                store_tile<BN>(d, m0 + row, n0, M, N, alpha, beta, C, ldc, vec2);
        }
        if (SMEM_C && tma_c && threadIdx.x % 128 == 0)
            bulk_wait<0>(); /* C written before the CTA ends */
    }
    if (CLUSTER > 1)
        cluster_sync(); /* no CTA leaves while its peer may still signal its barriers */
}

/* A launch of `grid` CTAs of WS_THREADS threads in clusters of `cluster`, on the stage's stream. */
static void ws_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, unsigned grid, int smem,
                      int cluster)
{
    cfg->gridDim = dim3(grid);
    cfg->blockDim = dim3(WS_THREADS);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = gemm_stream();
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
}

/* How many clusters of `kernel` the GPU runs at once (for 2-CTA clusters, fewer than half the
 * SMs where a GPC has an odd number of them); at least 1. */
static long active_clusters(const void *kernel, int smem, int cluster)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    ws_config(&cfg, attr, cluster * gemm_sm_count(), set_smem(kernel, smem), cluster);
    int n = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, kernel, &cfg));
    return n < 1 ? 1 : n;
}

template <int BN, int STAGES, int CLUSTER, bool MC = true, bool SMEM_C = false, bool TF32 = false>
struct ws_launcher {
    static constexpr int SMEM =
        STAGES * (A_TILE + BK * BN * 2) + (SMEM_C ? 4 * C_CHUNK : 0) + 1024 + 2 * STAGES * 8;
    static constexpr auto kernel = wgmma_ws_kernel<BN, STAGES, CLUSTER, MC, SMEM_C, TF32>;

    static void run(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc, int group,
                    bool persistent)
    {
        aligned_copy op(M, N, K, A, lda, B, ldb);
        CUtensorMap mapA = bf16_map(op.A, M, K, op.lda, BM);
        CUtensorMap mapB = bf16_map(op.B, K, N, op.ldb, BK);
        launch(mapA, mapB, M, N, K, alpha, beta, C, ldc, group, persistent);
        op.release();
    }
    /* K: of the maps' columns (BF16: K; TF32: the width of the packed operands) */
    static void launch(const CUtensorMap &mapA, const CUtensorMap &mapB, int M, int N, int K,
                       float alpha, float beta, float *C, int ldc, int group, bool persistent)
    {
        static int smem = set_smem((const void *)kernel, SMEM);
        bool vec2 = ldc % 2 == 0 && ((uintptr_t)C & 7) == 0;
        /* C through the copy engine where it is not read, its rows start on 16 bytes and end on
         * them: the engine writes whole 16-byte pieces, and one that crosses the end of a row
         * is written whole, into the padding (measured: N = 127, ldc = 132) */
        bool tma_c = SMEM_C && beta == 0.0f && ldc % 4 == 0 && N % 4 == 0 &&
                     ((uintptr_t)C & 15) == 0;
        CUtensorMap mapC = {};
        if (tma_c)
            mapC = tensor_map(C, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, M, N, ldc, 64, 32);
        long tiles = (long)ceil_div(M, BM * CLUSTER) * ceil_div(N, BN);
        long grid = persistent ? (tiles < max_clusters() ? tiles : max_clusters()) : tiles;
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        ws_config(&cfg, attr, (unsigned)(grid * CLUSTER), smem, CLUSTER);
        CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, mapA, mapB, mapC, M, N, K, alpha, beta, C,
                                      ldc, group, vec2, tma_c));
    }
    static long max_clusters()
    {
        static long n = active_clusters((const void *)kernel, SMEM, CLUSTER);
        return n;
    }
};

#define GROUP_ROWS 8 /* rows of cluster tiles per group of the persistent order */

/* 128 x 256 tiles unless 128 x 128 ones finish sooner: rounds of tiles over the clusters that
 * run at once, a 128-wide tile costing ~0.58 of a 256-wide one (half the work, a little less
 * efficiently done). */
template <bool TF32> static bool narrow_tiles(int M, int N)
{
    long rows = ceil_div(M, 2 * BM);
    long wide = rows * ceil_div(N, 256), narrow = rows * ceil_div(N, 128);
    long cw = ws_launcher<256, 4, 2, true, true, TF32>::max_clusters();
    long cn = ws_launcher<128, 6, 2, true, true, TF32>::max_clusters();
    double t_wide = (double)((wide + cw - 1) / cw), t_narrow = 0.58 * ((narrow + cn - 1) / cn);
    return t_narrow < t_wide;
}

#endif
