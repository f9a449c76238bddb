/* tf32.cu: FP32 on the tensor cores (--fp32), on wgmma_persistent's pipeline (pipeline.cuh).
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
 *   tf32_rs (below) no B^T pass: C^T = B^T A^T, B^T from registers.
 *
 * The copies live in a buffer kept between calls (grown when a call needs more; never freed).
 */
#include "pipeline.cuh"

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
