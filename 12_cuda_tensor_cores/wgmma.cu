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
 */
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

void gemm_wgmma_ws(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                   const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    ws_launcher<256, 4, 1>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, 0, false);
}

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

/* ---- --tune: the persistent kernel's configurations, each alone ------------------------------ */

template <int BN, int STAGES, int CLUSTER, int GROUP, bool MC = true, bool SMEM_C = true>
static void tune_fn(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    ws_launcher<BN, STAGES, CLUSTER, MC, SMEM_C>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                    GROUP, true);
}

#define TUNE(NAME, DESC, ...)                                                                 \
    {.name = "persistent/" NAME, .desc = DESC, .fn = gemm_bf16_variant, .err_c = TC_ERR_C,       \
     .other_fn = GEMM_OTHER_FN(tune_fn<__VA_ARGS__>)}

/* 256x4_c2_g8 is what wgmma_persistent runs where 128x256 tiles fill the GPU (128x6_c2_g8
 * elsewhere, as at 1024); each other row changes one thing */
const gemm_variant wgmma_tune_variants[] = {
    TUNE("256x4_c2_g8", "128x256 tiles, 4 stages, 2-CTA clusters (B multicast), groups of 8 "
                        "tile rows, C through TMA", 256, 4, 2, 8),
    TUNE("256x4_c1_g8", "the same without clusters: each CTA loads its own B", 256, 4, 1, 8),
    TUNE("256x4_c2nomc_g8", "clusters without multicast: each CTA loads its own B", 256, 4, 2, 8,
         false),
    TUNE("256x4_c2_g8_direct", "C stored from the registers, not through TMA", 256, 4, 2, 8, true,
         false),
    TUNE("256x4_c2_g0", "tiles row by row, not in groups of rows", 256, 4, 2, 0),
    TUNE("256x4_c2_g4", "groups of 4 tile rows", 256, 4, 2, 4),
    TUNE("256x4_c2_g16", "groups of 16 tile rows", 256, 4, 2, 16),
    TUNE("256x3_c2_g8", "3 stages", 256, 3, 2, 8),
    TUNE("128x6_c2_g8", "128x128 tiles, 6 stages", 128, 6, 2, 8),
    TUNE("128x6_c1_g8", "128x128 tiles, 6 stages, no clusters", 128, 6, 1, 8),
};
const int wgmma_tune_nvariants = sizeof wgmma_tune_variants / sizeof wgmma_tune_variants[0];

/* ---- FP32 on the tensor cores (--fp32): tf32 and 3xtf32 on wgmma_persistent's pipeline ------- *
 *
 * wgmma.tf32 reads both operands K-major from shared memory. A (M x K, row-major) is; B (K x N)
 * is not, so a first kernel writes B^T (N x K), and the persistent kernel reads A and B^T in
 * boxes of 32 FP32 values of K (128-byte rows, as BF16's 64).
 *
 *   tf32    A read in place (a padded copy where its rows do not start on 16 bytes); the tensor
 *           core drops each value's low 13 bits (truncation). B^T rounded to nearest as it is
 *           written (cvt.rna), as cuBLAS rounds both.
 *   3xtf32  x = big + small, big = tf32(x), small = tf32(x - big): A B ~ As Bb + Ab Bs + Ab Bb
 *           (As Bs, ~2^-22 of the product, is left out). The three products are one product of
 *           three times the depth: the first kernels write A3 and B3^T with, for each 8 of K,
 *           24 columns [As | Ab | Ab] and [Bb | Bs | Bb], so that the tensor cores add the two
 *           small products of those 8 before the big one, and the persistent kernel runs as for
 *           tf32 with K' = 3 K (K rounded up to 8). A3 and B3^T: three times A and B, written
 *           once a call (0.2 ms at 4096, ncu: 101 us for A3, 98 for B3^T).
 *
 * The copies live in a buffer kept between calls (grown when a call needs more; never freed).
 */

static __device__ __forceinline__ float tf32_rna(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}
/* x's small part; zero where big is Inf or NaN, which says everything (x - big would be NaN;
 * a finite x within 2^-12 of FLT_MAX rounds to an infinite big) */
static __device__ __forceinline__ float tf32_small(float x, float big)
{
    return isfinite(big) ? tf32_rna(x - big) : 0.0f;
}

/* A (M x K) into dst (ld ldd, a multiple of 32): PARTS 1, a copy; PARTS 3, A3. A thread writes
 * 4 consecutive values of a row (16 bytes: one part, 4 consecutive k), so that a warp writes
 * 512 consecutive bytes (one thread per 8 of K, writing its 24 values 96 bytes from the next
 * thread's, held 3xtf32 to 76 TFLOP/s at 4096; one thread per value took 214 us, 2.5x the
 * time the bytes need; this, 101 us);
 * blocks along y take rows. Columns past the width are written as zeros. */
template <int PARTS>
static __global__ void pack_a_kernel(int M, int K, const float *A, long lda, float *dst, long ldd)
{
    int width = PARTS == 1 ? K : 3 * ((K + 7) / 8 * 8), quads = (width + 3) / 4;
    for (long r = blockIdx.y; r < M; r += gridDim.y)
        for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += gridDim.x * blockDim.x) {
            /* PARTS 3: column c is part c % 24 / 8 (0 small, 1 and 2 big) of k = 8 (c / 24) + c % 8 */
            int c = 4 * q, k0 = PARTS == 1 ? c : c / 24 * 8 + c % 8;
            float v[4];
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float x = k0 + e < K ? A[r * lda + k0 + e] : 0.0f, big = tf32_rna(x);
                v[e] = PARTS == 1 ? x : c % 24 < 8 ? tf32_small(x, big) : big;
            }
            *reinterpret_cast<float4 *>(dst + r * ldd + c) = make_float4(v[0], v[1], v[2], v[3]);
        }
}

/* pack_a_kernel over rows x cols of src, on the stage's stream: blocks along x take 1024 values
 * of a row, along y the rows */
template <int PARTS>
static void pack_rows(int rows, int cols, const float *src, long lds, float *dst, long ldd)
{
    int width = PARTS == 1 ? cols : 3 * ((cols + 7) / 8 * 8);
    dim3 grid(ceil_div(width, 1024) < 64 ? ceil_div(width, 1024) : 64, rows < 65535 ? rows : 65535);
    pack_a_kernel<PARTS><<<grid, 256, 0, gemm_stream()>>>(rows, cols, src, lds, dst, ldd);
    CUDA_CHECK_LAUNCH();
}

/* B (K x N) into dst (N rows, ld ldd): PARTS 1, B^T rounded to TF32; PARTS 3, B3^T. A block
 * turns a 32 x 32 tile through shared memory: rows of B read, rows of B^T written. */
template <int PARTS>
static __global__ void pack_bt_kernel(int K, int N, const float *B, long ldb, float *dst,
                                      long ldd)
{
    __shared__ float t[32][33];
    int k0 = blockIdx.y * 32, n0 = blockIdx.x * 32, tx = threadIdx.x, ty = threadIdx.y;
    int kend = PARTS == 1 ? K : (K + 7) / 8 * 8; /* the columns dst has */
#pragma unroll
    for (int i = 0; i < 32; i += 8) {
        int k = k0 + ty + i, n = n0 + tx;
        t[ty + i][tx] = k < K && n < N ? B[(long)k * ldb + n] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 32; i += 8) {
        int n = n0 + ty + i, k = k0 + tx;
        if (n >= N || k >= kend)
            continue;
        float x = t[tx][ty + i], big = tf32_rna(x);
        float *d = dst + (long)n * ldd;
        if (PARTS == 1) {
            d[k] = big;
        } else {
            long c = 24 * (k / 8) + k % 8;
            d[c] = big;
            d[c + 8] = tf32_small(x, big);
            d[c + 16] = big;
        }
    }
}

static float *tf32_workspace(size_t floats)
{
    static float *buf;
    static size_t have;
    if (floats > have) {
        if (buf)
            CUDA_CHECK(cudaFree(buf));
        CUDA_CHECK(cudaMalloc((void **)&buf, floats * sizeof(float)));
        have = floats;
    }
    return buf;
}

static CUtensorMap f32_map(const float *X, int rows, int cols, long ld, int box_rows)
{
    return tensor_map(X, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, rows, cols, (int)ld, box_rows, 32);
}

/* ---- tf32_rs: no B^T pass. C^T = B^T A^T: the tensor cores' A operand is B^T, taken from
 * registers, where any layout can be loaded; their B operand is A^T, K-major in shared memory
 * because A's rows are. A CTA computes 256 rows (m) x 128 columns (n) of C; each consumer
 * warpgroup 64 columns as wgmma's 64 rows, 256 rows of C as its N. B's tile (32 k x 128 n,
 * N-major, 128-byte swizzled boxes of 32 x 32) is read from shared memory into the fragments:
 * thread (g, t) of warp w takes B(k, n) and B(k, n + 1), n = 16w + 2g (one 8-byte load), for
 * k = t and t + 4 of each 8, rounded to TF32 on the way (A stays truncated by the tensor core).
 * wgmma's row g then holds column n of C and row g + 8 column n + 1, so each thread writes
 * pairs of neighbouring columns, as store_pair does. Clusters of 2 CTAs side by side in n share
 * A's tile (multicast). */

#define RS_BM 256                  /* rows of C per CTA (wgmma's N) */
#define RS_BN 128                  /* columns of C per CTA: two consumers of 64 */
#define RS_A_TILE (RS_BM * 128)    /* 32 KiB: 256 rows of 32 floats */
#define RS_B_TILE (32 * RS_BN * 4) /* 16 KiB: 32 k x 128 n */
#define RS_STAGE (RS_A_TILE + RS_B_TILE)

/* the four TF32 fragments of one 8 of K (kk), from B's tile (k rows of 128 bytes per 32 n) */
static __device__ __forceinline__ void rs_fragments(uint32_t (&a)[4], const uint8_t *btile,
                                                    int kk, int n)
{
    int t = threadIdx.x % 4, box = n / 32, nn = n % 32;
#pragma unroll
    for (int h = 0; h < 2; h++) { /* k = t, then t + 4 */
        int k = kk * 8 + t + 4 * h;
        float2 v = *reinterpret_cast<const float2 *>(btile + box * 4096 + k * 128 +
                                                     ((nn / 4) ^ (k % 8)) * 16 + nn % 4 * 4);
        a[2 * h] = __float_as_uint(tf32_rna(v.x));     /* row g: column n */
        a[2 * h + 1] = __float_as_uint(tf32_rna(v.y)); /* row g + 8: column n + 1 */
    }
}

template <int STAGES, int CLUSTER>
__global__ void __launch_bounds__(WS_THREADS, 1)
tf32_rs_kernel(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
               int M, int N, int K, float alpha, float beta, float *C, int ldc, int group,
               bool vec2)
{
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = align1024(smem_raw);
    uint64_t *full = (uint64_t *)(smem + STAGES * RS_STAGE), *empty = full + STAGES;
    int wg = threadIdx.x / 128;
    unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;
    int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    int rows = (M + RS_BM - 1) / RS_BM, cols = (N + RS_BN * CLUSTER - 1) / (RS_BN * CLUSTER);
    int tiles = rows * cols, KT = (K + 31) / 32;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2 * CLUSTER); /* both consumers of every CTA of the cluster */
        }
        mbar_fence_init();
    }
    if (CLUSTER > 1)
        cluster_sync();
    else
        __syncthreads();

    if (wg == 0) { /* the producer */
        setmaxnreg_dec<PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            int it = 0;
            for (int t = cluster; t < tiles; t += clusters) {
                int tr, tc;
                tile_at(t, rows, cols, group, &tr, &tc);
                int m0 = tr * RS_BM, n0 = (tc * CLUSTER + rank) * RS_BN;
                for (int kt = 0; kt < KT; kt++, it++) {
                    int s = it % STAGES;
                    mbar_wait(&empty[s], it / STAGES % 2 ^ 1);
                    uint8_t *stage = smem + s * RS_STAGE;
                    mbar_expect_tx(&full[s], RS_STAGE);
#pragma unroll
                    for (int c = 0; c < 4; c++) { /* A: four boxes of 64 rows, shared */
                        if (CLUSTER == 1)
                            tma_load(stage + c * 8192, &mapA, &full[s], kt * 32, m0 + 64 * c);
                        else if (c % CLUSTER == (int)rank)
                            tma_load_multicast(stage + c * 8192, &mapA, &full[s], kt * 32,
                                               m0 + 64 * c, (1 << CLUSTER) - 1);
                    }
#pragma unroll
                    for (int c = 0; c < 4; c++) /* B: four boxes of 32 k x 32 n, this CTA's */
                        tma_load(stage + RS_A_TILE + c * 4096, &mapB, &full[s], n0 + 32 * c,
                                 kt * 32);
                }
            }
        }
    } else { /* a consumer: 64 columns of each tile */
        setmaxnreg_inc<CONSUMER_REGS>();
        int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        int col = (wg - 1) * 64 + 16 * warp + 2 * (lane / 4); /* n and n + 1 of the tile */
        int it = 0;
        float d[128];
        for (int t = cluster; t < tiles; t += clusters) {
            int tr, tc;
            tile_at(t, rows, cols, group, &tr, &tc);
            int m0 = tr * RS_BM, n0 = (tc * CLUSTER + rank) * RS_BN;
            for (int kt = 0; kt < KT; kt++, it++) {
                int s = it % STAGES;
                mbar_wait(&full[s], it / STAGES % 2);
                uint8_t *stage = smem + s * RS_STAGE;
                uint32_t frag[4][4];
#pragma unroll
                for (int kk = 0; kk < 4; kk++)
                    rs_fragments(frag[kk], stage + RS_A_TILE, kk, col);
                wgmma_fence();
                uint32_t sa = smem_u32(stage);
#pragma unroll
                for (int kk = 0; kk < 4; kk++)
                    wgmma_m64n256k8_tf32_rs(d, frag[kk], smem_desc(sa + kk * 32, 16, 1024),
                                            kt > 0 || kk > 0);
                wgmma_commit();
                /* all of this stage's group done before the next stage's fragments are loaded:
                 * registers a wgmma in flight reads must not be written (ptxas serialises every
                 * wgmma otherwise, C7513); the other consumer's wgmma fill the gap */
                wgmma_wait<0>();
                fence_regs(d);
                if (threadIdx.x % 128 == 0)
                    for (int r = 0; r < CLUSTER; r++)
                        CLUSTER > 1 ? mbar_arrive_cluster(&empty[s], r) : mbar_arrive(&empty[s]);
            }
            /* d[4j], d[4j + 1]: C(m, n), C(m + 1, n); d[4j + 2], d[4j + 3]: the same of n + 1,
             * m = m0 + 8j + 2 (lane % 4) */
            int n = n0 + col;
#pragma unroll
            for (int j = 0; j < RS_BM / 8; j++) {
                int m = m0 + 8 * j + 2 * (lane % 4);
                if (m < M)
                    store_pair(C, ldc, N, m, n, d[4 * j], d[4 * j + 2], alpha, beta, vec2);
                if (m + 1 < M)
                    store_pair(C, ldc, N, m + 1, n, d[4 * j + 1], d[4 * j + 3], alpha, beta, vec2);
            }
        }
    }
    if (CLUSTER > 1)
        cluster_sync();
}

template <int STAGES, int CLUSTER> struct rs_launcher {
    static constexpr int SMEM = STAGES * RS_STAGE + 1024 + 2 * STAGES * 8;
    static constexpr auto kernel = tf32_rs_kernel<STAGES, CLUSTER>;

    static void launch(const CUtensorMap &mapA, const CUtensorMap &mapB, int M, int N, int K,
                       float alpha, float beta, float *C, int ldc)
    {
        static int smem = set_smem((const void *)kernel, SMEM);
        bool vec2 = ldc % 2 == 0 && ((uintptr_t)C & 7) == 0;
        long tiles = (long)ceil_div(M, RS_BM) * ceil_div(N, RS_BN * CLUSTER);
        long grid = tiles < max_clusters() ? tiles : max_clusters();
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        ws_config(&cfg, attr, (unsigned)(grid * CLUSTER), smem, CLUSTER);
        CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, mapA, mapB, M, N, K, alpha, beta, C, ldc,
                                      GROUP_ROWS, vec2));
    }
    static long max_clusters()
    {
        static long n = active_clusters((const void *)kernel, SMEM, CLUSTER);
        return n;
    }
};

void gemm_tf32_rs(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    bool a_ok = rows_16B(A, lda), b_ok = rows_16B(B, ldb);
    long lda2 = (K + 31) / 32 * 32, ldb2 = (N + 31) / 32 * 32; /* copies: whole 128-byte lines */
    float *buf = a_ok && b_ok ? NULL
                              : tf32_workspace((a_ok ? 0 : (size_t)M * lda2) + (b_ok ? 0 : (size_t)K * ldb2));
    const float *a = A, *b = B;
    if (!a_ok) {
        pack_rows<1>(M, K, A, lda, buf, lda2);
        a = buf;
    }
    if (!b_ok) {
        float *dst = buf + (a_ok ? 0 : (size_t)M * lda2);
        pack_rows<1>(K, N, B, ldb, dst, ldb2);
        b = dst;
    }
    CUtensorMap mapA = tensor_map(a, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, M, K, a_ok ? lda : (int)lda2, 64, 32);
    CUtensorMap mapB = tensor_map(b, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, K, N, b_ok ? ldb : (int)ldb2, 32, 32);
    rs_launcher<4, 2>::launch(mapA, mapB, M, N, K, alpha, beta, C, ldc);
}

template <int PARTS>
static void tf32_gemm(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                      int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    cudaStream_t st = gemm_stream();
    int width = PARTS == 1 ? K : 3 * ((K + 7) / 8 * 8); /* columns of A' and B'^T */
    long ld = (width + 31) / 32 * 32;                   /* whole 128-byte lines */
    bool a_in_place = PARTS == 1 && rows_16B(A, lda);
    float *bt = tf32_workspace((size_t)ld * (N + (a_in_place ? 0 : M)));
    float *a = a_in_place ? (float *)A : bt + (size_t)ld * N;
    if (!a_in_place)
        pack_rows<PARTS>(M, K, A, lda, a, ld);
    for (int k0 = 0; k0 < K; k0 += 32 * GRID_Y_MAX) { /* gridDim.y: at most 65535 */
        int kk = K - k0 < 32 * GRID_Y_MAX ? K - k0 : 32 * GRID_Y_MAX;
        dim3 grid(ceil_div(N, 32), ceil_div(kk, 32));
        long off = PARTS == 1 ? k0 : 3 * (long)k0; /* k0 is a multiple of 8 */
        pack_bt_kernel<PARTS><<<grid, dim3(32, 8), 0, st>>>(kk, N, B + (long)k0 * ldb, ldb,
                                                             bt + off, ld);
        CUDA_CHECK_LAUNCH();
    }
    CUtensorMap mapA = f32_map(a, M, width, a_in_place ? lda : ld, BM);
    CUtensorMap mapB = f32_map(bt, N, width, ld, 64);
    if (narrow_tiles<true>(M, N))
        ws_launcher<128, 6, 2, true, true, true>::launch(mapA, mapB, M, N, width, alpha, beta, C,
                                                         ldc, GROUP_ROWS, true);
    else
        ws_launcher<256, 4, 2, true, true, true>::launch(mapA, mapB, M, N, width, alpha, beta, C,
                                                         ldc, GROUP_ROWS, true);
}

void gemm_tf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
               float beta, float *C, int ldc)
{
    tf32_gemm<1>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_3xtf32(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                 int ldb, float beta, float *C, int ldc)
{
    tf32_gemm<3>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
