/* warptile.cuh: the last two kernels of 09_cuda_registers, as templates over their tile sizes:
 * the solution of exercise.cu's last two kernels. Their device helpers are in helpers.cuh; the
 * driver that runs warptile on a problem of any size and shape is any_size.cu.
 *
 *   warptile_kernel<BM, BN, BK, WM, WN, TM, TN, PREFETCH>
 *                                                        two shared-memory buffers, the next tile
 *                                                        staged through registers (double_buffer's
 *                                                        pipeline) and an explicit warp tile;
 *                                                        PREFETCH 1: the fragments of k + 1 read
 *                                                        into registers during the FMAs of k
 *   async_kernel<BM, BN, BK, WM, WN, TM, TN, STAGES>    the same warp tile, fed by cp.async into
 *                                                        STAGES shared-memory buffers (3 or more)
 *
 * The three levels of tiling, for the 128x128x8 block, 32x64 warp, 8x8 thread configuration:
 *
 *   block  BM x BN of C (128 x 128), k in slices of BK (8): tiles of A and B in shared memory
 *   warp   WM x WN of the block's tile (32 x 64): 8 warps, 4 down x 2 across
 *   thread TM x TN of the warp's tile (8 x 8), as 2 x 2 sub-tiles of 4 x 4. The 32 lanes of a
 *          warp stand 4 down x 8 across; lane (ly, lx) owns rows ly*4..ly*4+3 of each sub-tile
 *          row and columns lx*4..lx*4+3 of each sub-tile column:
 *
 *              columns of the warp tile:  0 ........ 31 | 32 ....... 63
 *              rows  0..15                sub-tile 0,0  | sub-tile 0,1      lane (ly, lx) has
 *              rows 16..31                sub-tile 1,0  | sub-tile 1,1      a 4x4 in each
 *
 *          so that when the warp reads a row of B's tile, the 8 lanes across read 8 consecutive
 *          float4 (128 bytes, one shared-memory wavefront, no bank conflict) and the 4 lanes down
 *          get the same data by broadcast; likewise for a row of the transposed A tile.
 *
 * Both kernels are correct for every size: a block whose tiles lie wholly inside A and B, with
 * 16-byte aligned rows, takes the fast path (float4 loads, no bounds checks); the others load
 * element by element with zeros outside the matrices, and store only what lies inside C.
 */
#ifndef WARPTILE_CUH
#define WARPTILE_CUH

#include "helpers.cuh"

/* ---- the warp tile: compute and store ------------------------------------------------------ */

/* The fragments of one k, the thread's TM values of A and TN of B, into registers; and the
 * outer product of a fragment pair (PREFETCH in warptile_kernel keeps two pairs). */
template <int LDA_S, int LDB_S, int TM, int TN, int SLAB_M, int SLAB_N>
__device__ __forceinline__ void load_fragment(const float *As, const float *Bs, int k,
                                              float (&a)[TM], float (&b)[TN])
{
#pragma unroll
    for (int g = 0; g < TM / 4; g++) {
        float4 v = *reinterpret_cast<const float4 *>(&As[k * LDA_S + g * SLAB_M]);
        a[4 * g + 0] = v.x; a[4 * g + 1] = v.y; a[4 * g + 2] = v.z; a[4 * g + 3] = v.w;
    }
#pragma unroll
    for (int h = 0; h < TN / 4; h++) {
        float4 v = *reinterpret_cast<const float4 *>(&Bs[k * LDB_S + h * SLAB_N]);
        b[4 * h + 0] = v.x; b[4 * h + 1] = v.y; b[4 * h + 2] = v.z; b[4 * h + 3] = v.w;
    }
}
template <int TM, int TN>
__device__ __forceinline__ void outer_product(const float (&a)[TM], const float (&b)[TN],
                                              float (&acc)[TM][TN])
{
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}

/* One k-slice of the thread's TM x TN results. As and Bs point at the thread's first element
 * of the transposed A tile (row stride LDA_S) and of the B tile (row stride LDB_S); its
 * sub-tiles are SLAB_M rows and SLAB_N columns apart. Per k: TM/4 + TN/4 float4 reads from
 * shared memory, TM*TN FMAs from registers. */
template <int BK, int LDA_S, int LDB_S, int TM, int TN, int SLAB_M, int SLAB_N>
__device__ __forceinline__ void thread_tile_fma(const float *As, const float *Bs,
                                                float (&acc)[TM][TN])
{
#pragma unroll
    for (int k = 0; k < BK; k++) {
        float a[TM], b[TN];
        load_fragment<LDA_S, LDB_S, TM, TN, SLAB_M, SLAB_N>(As, Bs, k, a, b);
        outer_product<TM, TN>(a, b, acc);
    }
}

/* The thread's results to C: row0, col0 is its first element; rows past M are skipped,
 * columns past N are left out by store4. */
template <int TM, int TN, int SLAB_M, int SLAB_N>
__device__ __forceinline__ void store_thread_tile(const float (&acc)[TM][TN], int row0, int col0,
                                                  int M, int N, float alpha, float beta,
                                                  float *C, int ldc, bool vec)
{
#pragma unroll
    for (int g = 0; g < TM / 4; g++)
#pragma unroll
        for (int i = 0; i < 4; i++) {
            int row = row0 + g * SLAB_M + i;
            if (row >= M)
                continue;
#pragma unroll
            for (int h = 0; h < TN / 4; h++) {
                const float *r = &acc[4 * g + i][4 * h];
                store4(C, ldc, row, col0 + h * SLAB_N, N, make_float4(r[0], r[1], r[2], r[3]),
                       alpha, beta, vec);
            }
        }
}

/* Everything a tile configuration implies, in one place. */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
struct tile_config {
    static constexpr int threads = BM / WM * (BN / WN) * 32;
    static constexpr int lanes_n = WN / TN, lanes_m = WM / TM; /* lanes across, down a warp */
    static constexpr int slab_m = WM / (TM / 4), slab_n = WN / (TN / 4);
    static constexpr int lda_s = BM + PAD_A, ldb_s = BN; /* shared-memory row strides */
    static constexpr int stage_floats = BK * lda_s + BK * BN;
    static constexpr size_t smem_bytes = (size_t)STAGES * stage_floats * sizeof(float);
    /* 128 accumulators or fewer fit in 128 registers with room to spare: ask for two blocks
     * per SM (at most 128 registers a thread with 256 threads); larger thread tiles get one. */
    static constexpr int min_blocks = TM * TN > 64 || threads > 256 ? 1 : 512 / threads;
    static_assert(lanes_n * lanes_m == 32, "a warp's tile must hold 32 thread tiles");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4x4 sub-tiles");
    static_assert(BM % WM == 0 && BN % WN == 0, "the block tile is made of warp tiles");
    static_assert(BK % 8 == 0 && BK * BM % (4 * threads) == 0 && BK * BN % (4 * threads) == 0,
                  "every thread loads whole float4s of each tile");
    static_assert(STAGES >= 2, "at least two buffers");
};

/* The thread's place: first row and column of its tile inside the block tile.
 * Warps go row by row over the block's grid of warp tiles, each row rotated one place further
 * (a diagonal). An SM issues from four schedulers, warp w on scheduler w % 4. In a block that
 * holds only C's last column (4097 = 16 x 256 + 1) the warps with work are one column of warp
 * tiles: in a 4 x 4 grid of warps (128x256 with 32x64 warps) without the rotation, warps
 * 0, 4, 8, 12, all on one scheduler; with it, warps 0, 7, 10, 13, one on each. */
template <class cfg, int WM, int WN, int BN>
__device__ __forceinline__ void thread_origin(int *tr, int *tc)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / (BN / WN), wn = (warp + wm) % (BN / WN);
    *tr = wm * WM + lane / cfg::lanes_n * 4;
    *tc = wn * WN + lane % cfg::lanes_n * 4;
}

/* ---- warptile: register-staged double buffering ------------------------------------------- */

/* Each thread's share of the loads is fixed for the whole k loop: float4 number i of A's tile
 * is row a_r + i * A_STEP, k = a_k..a_k+3 (A read row by row, float4 along k, coalesced);
 * of B's tile, row b_k + i * B_STEP, columns b_c..b_c+3. */
template <int BM, int BN, int BK, int NT>
struct load_plan {
    static constexpr int a_loads = BM * BK / 4 / NT, b_loads = BK * BN / 4 / NT;
    static constexpr int a_step = NT / (BK / 4), b_step = NT / (BN / 4);
    static_assert(NT % (BN / 4) == 0, "a pass of the threads covers whole rows of B's tile");
    int a_r, a_k, b_k, b_c;
    __device__ load_plan()
        : a_r(threadIdx.x / (BK / 4)), a_k(threadIdx.x % (BK / 4) * 4),
          b_k(threadIdx.x / (BN / 4)), b_c(threadIdx.x % (BN / 4) * 4) {}
};

/* Global -> registers, three ways. The fast path (the whole tile inside A and B, rows 16-byte
 * aligned): one float4 per load, addresses from one pointer per matrix, no checks. Inside but
 * with rows that are not aligned (an odd lda, as at 4095): four scalar loads, still no checks.
 * At the edges: every element checked, zeros outside. */
template <int BM, int BN, int BK, int NT>
__device__ __forceinline__ void load_tiles(const load_plan<BM, BN, BK, NT> &lp, const float *A,
                                           int lda, const float *B, int ldb, int M, int N, int K,
                                           int row0, int col0, int k0, bool inside, bool vec,
                                           float4 (&ra)[BM * BK / 4 / NT],
                                           float4 (&rb)[BK * BN / 4 / NT])
{
    using plan = load_plan<BM, BN, BK, NT>;
    const float *a = A + (size_t)(row0 + lp.a_r) * lda + k0 + lp.a_k;
    const float *b = B + (size_t)(k0 + lp.b_k) * ldb + col0 + lp.b_c;
    if (inside && vec) {
#pragma unroll
        for (int i = 0; i < plan::a_loads; i++)
            ra[i] = *reinterpret_cast<const float4 *>(a + (size_t)i * plan::a_step * lda);
#pragma unroll
        for (int i = 0; i < plan::b_loads; i++)
            rb[i] = *reinterpret_cast<const float4 *>(b + (size_t)i * plan::b_step * ldb);
    } else if (inside) {
#pragma unroll
        for (int i = 0; i < plan::a_loads; i++) {
            const float *p = a + (size_t)i * plan::a_step * lda;
            ra[i] = make_float4(p[0], p[1], p[2], p[3]);
        }
#pragma unroll
        for (int i = 0; i < plan::b_loads; i++) {
            const float *p = b + (size_t)i * plan::b_step * ldb;
            rb[i] = make_float4(p[0], p[1], p[2], p[3]);
        }
    } else {
#pragma unroll
        for (int i = 0; i < plan::a_loads; i++)
            ra[i] = load4_guarded(A, lda, row0 + lp.a_r + i * plan::a_step, k0 + lp.a_k, M, K);
#pragma unroll
        for (int i = 0; i < plan::b_loads; i++)
            rb[i] = load4_guarded(B, ldb, k0 + lp.b_k + i * plan::b_step, col0 + lp.b_c, K, N);
    }
}

/* Registers -> shared memory. A's tile is written transposed, As[k][m], so that the compute
 * loop reads 4 rows of A as one float4. With a row stride of BM + 4 floats the four scalar
 * stores of a warp land in 32 different banks (for BK = 8; for BK = 16, two-way). */
template <int BM, int BN, int BK, int LDA_S, int NT>
__device__ __forceinline__ void store_tiles(const load_plan<BM, BN, BK, NT> &lp, float *As,
                                            float *Bs, const float4 (&ra)[BM * BK / 4 / NT],
                                            const float4 (&rb)[BK * BN / 4 / NT])
{
    using plan = load_plan<BM, BN, BK, NT>;
#pragma unroll
    for (int i = 0; i < plan::a_loads; i++) {
        float *as = As + lp.a_k * LDA_S + lp.a_r + i * plan::a_step;
        as[0 * LDA_S] = ra[i].x;
        as[1 * LDA_S] = ra[i].y;
        as[2 * LDA_S] = ra[i].z;
        as[3 * LDA_S] = ra[i].w;
    }
#pragma unroll
    for (int i = 0; i < plan::b_loads; i++)
        *reinterpret_cast<float4 *>(&Bs[(lp.b_k + i * plan::b_step) * BN + lp.b_c]) = rb[i];
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int PREFETCH = 0>
__global__ void __launch_bounds__((tile_config<BM, BN, BK, WM, WN, TM, TN, 2>::threads),
                                  (tile_config<BM, BN, BK, WM, WN, TM, TN, 2>::min_blocks))
warptile_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                int ldb, float beta, float *C, int ldc, bool vec, bool vec_c)
{
    using cfg = tile_config<BM, BN, BK, WM, WN, TM, TN, 2>;
    constexpr int NT = cfg::threads;
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4);
    /* buffer b: As = smem + b * stage_floats, [BK][BM + PAD_A]; Bs right after it, [BK][BN] */
#define BUF_A(b) (smem + (b) * cfg::stage_floats)
#define BUF_B(b) (smem + (b) * cfg::stage_floats + BK * cfg::lda_s)

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int tr, tc;
    thread_origin<cfg, WM, WN, BN>(&tr, &tc);
    /* A thread whose whole tile lies outside C (in the thin last blocks of a size one past a
     * multiple of the tile) still loads and synchronises, but skips the arithmetic. */
    bool active = row0 + tr < M && col0 + tc < N;
    bool interior = row0 + BM <= M && col0 + BN <= N; /* the block's tile of C is whole */

    float acc[TM][TN] = {};
    load_plan<BM, BN, BK, NT> lp;
    float4 ra[BM * BK / 4 / NT], rb[BK * BN / 4 / NT];
    load_tiles(lp, A, lda, B, ldb, M, N, K, row0, col0, 0, interior && BK <= K, vec, ra, rb);
    store_tiles<BM, BN, BK, cfg::lda_s, NT>(lp, BUF_A(0), BUF_B(0), ra, rb);
    __syncthreads();

    int buf = 0;
    if (PREFETCH) {
        /* Fragments double-buffered in registers: the fragment of k + 1 is read from shared
         * memory before the FMAs of k. At the slice's last k the next tile is stored and the
         * barrier passed first, so the next slice's first fragment arrives while the last k's
         * FMAs run, instead of every warp waiting for it after the barrier. */
        float fa[2][TM], fb[2][TN];
        load_fragment<cfg::lda_s, BN, TM, TN, cfg::slab_m, cfg::slab_n>(BUF_A(0) + tr,
                                                                        BUF_B(0) + tc, 0, fa[0],
                                                                        fb[0]);
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool more = k0 + BK < K;
            if (more)
                load_tiles(lp, A, lda, B, ldb, M, N, K, row0, col0, k0 + BK,
                           interior && k0 + 2 * BK <= K, vec, ra, rb);
#pragma unroll
            for (int k = 0; k < BK; k++) {
                if (k == BK - 1) {
                    if (more)
                        store_tiles<BM, BN, BK, cfg::lda_s, NT>(lp, BUF_A(buf ^ 1),
                                                                BUF_B(buf ^ 1), ra, rb);
                    __syncthreads();
                    buf ^= 1;
                }
                load_fragment<cfg::lda_s, BN, TM, TN, cfg::slab_m, cfg::slab_n>(
                    BUF_A(buf) + tr, BUF_B(buf) + tc, (k + 1) % BK, fa[(k + 1) % 2],
                    fb[(k + 1) % 2]);
                /* No `active` test: a branch per k kept ptxas from interleaving the steps. An
                 * inactive thread's results are never stored; thin edge blocks are rare here,
                 * since any_size.cu gives thin strips of C to strip kernels. */
                outer_product<TM, TN>(fa[k % 2], fb[k % 2], acc);
            }
        }
    } else {
        for (int k0 = 0; k0 < K; k0 += BK) {
            bool more = k0 + BK < K;
            if (more) /* issue the next tile's loads now; they arrive while we compute */
                load_tiles(lp, A, lda, B, ldb, M, N, K, row0, col0, k0 + BK,
                           interior && k0 + 2 * BK <= K, vec, ra, rb);
            if (active)
                thread_tile_fma<BK, cfg::lda_s, BN, TM, TN, cfg::slab_m, cfg::slab_n>(
                    BUF_A(buf) + tr, BUF_B(buf) + tc, acc);
            if (more) /* the other buffer was last read before the previous barrier */
                store_tiles<BM, BN, BK, cfg::lda_s, NT>(lp, BUF_A(buf ^ 1), BUF_B(buf ^ 1), ra,
                                                        rb);
            __syncthreads();
            buf ^= 1;
        }
    }
#undef BUF_A
#undef BUF_B
    store_thread_tile<TM, TN, cfg::slab_m, cfg::slab_n>(acc, row0 + tr, col0 + tc, M, N, alpha,
                                                        beta, C, ldc, vec_c);
}

/* ---- async_pipeline: cp.async into STAGES buffers --------------------------------------------- */

/* Each thread's share of one k-slice's copies, fixed for the whole k loop. A goes element by
 * element (4 bytes) so that it can land transposed: the 32 lanes of a warp copy 4 rows x 8
 * consecutive k (one 32-byte sector per row), thread t row a_r = t / 8 (+ a multiple of
 * NT / 8), k a_k = t % 8 (+ a multiple of 8); with the row stride BM + 4 the 32 stores hit 32
 * different banks. B goes as 16-byte copies, row b_k (+ multiples of b_step), columns b_c.. */
template <int BM, int BN, int BK, int NT>
struct copy_plan {
    static constexpr int a_rows = NT / 8, a_passes_m = BM / a_rows, a_passes_k = BK / 8;
    static constexpr int b_copies = BK * BN / 4 / NT, b_step = NT / (BN / 4);
    static_assert(BM % a_rows == 0 && NT % (BN / 4) == 0, "whole passes over both tiles");
    int a_r, a_k, b_k, b_c;
    __device__ copy_plan()
        : a_r(threadIdx.x / 8), a_k(threadIdx.x % 8), b_k(threadIdx.x / (BN / 4)),
          b_c(threadIdx.x % (BN / 4) * 4) {}
};

/* Issue the copies of the k-slice at k0 into one stage. Inside the matrices (`inside`) there
 * are no checks: A's elements from one pointer, B's rows as 16-byte copies where aligned, else
 * 4 bytes at a time. At the edges each element is checked; one outside A or B is a copy of
 * zero bytes, which fills it with zeros. */
template <int BM, int BN, int BK, int LDA_S, int NT>
__device__ __forceinline__ void issue_tile_copies(const copy_plan<BM, BN, BK, NT> &cp, float *As,
                                                  float *Bs, const float *A, int lda,
                                                  const float *B, int ldb, int M, int N, int K,
                                                  int row0, int col0, int k0, bool inside,
                                                  bool vec)
{
    using plan = copy_plan<BM, BN, BK, NT>;
    float *as = As + cp.a_k * LDA_S + cp.a_r;
    float *bs = Bs + cp.b_k * BN + cp.b_c;
    if (inside) {
        const float *a = A + (size_t)(row0 + cp.a_r) * lda + k0 + cp.a_k;
        const float *b = B + (size_t)(k0 + cp.b_k) * ldb + col0 + cp.b_c;
#pragma unroll
        for (int p = 0; p < plan::a_passes_m; p++)
#pragma unroll
            for (int q = 0; q < plan::a_passes_k; q++)
                cp_async4(as + 8 * q * LDA_S + p * plan::a_rows,
                          a + (size_t)p * plan::a_rows * lda + 8 * q, true);
        if (vec) {
#pragma unroll
            for (int i = 0; i < plan::b_copies; i++)
                cp_async16(bs + i * plan::b_step * BN, b + (size_t)i * plan::b_step * ldb);
        } else {
#pragma unroll
            for (int i = 0; i < plan::b_copies; i++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    cp_async4(bs + i * plan::b_step * BN + e, b + (size_t)i * plan::b_step * ldb + e,
                              true);
        }
        return;
    }
#pragma unroll
    for (int p = 0; p < plan::a_passes_m; p++)
#pragma unroll
        for (int q = 0; q < plan::a_passes_k; q++) {
            int r = row0 + cp.a_r + p * plan::a_rows, k = k0 + cp.a_k + 8 * q;
            bool ok = r < M && k < K;
            cp_async4(as + 8 * q * LDA_S + p * plan::a_rows, ok ? &A[IDX(r, k, lda)] : A, ok);
        }
#pragma unroll
    for (int i = 0; i < plan::b_copies; i++) {
        int k = k0 + cp.b_k + i * plan::b_step, c = col0 + cp.b_c;
#pragma unroll
        for (int e = 0; e < 4; e++) {
            bool ok = k < K && c + e < N;
            cp_async4(bs + i * plan::b_step * BN + e, ok ? &B[IDX(k, c + e, ldb)] : B, ok);
        }
    }
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
__global__ void __launch_bounds__((tile_config<BM, BN, BK, WM, WN, TM, TN, STAGES>::threads),
                                  (tile_config<BM, BN, BK, WM, WN, TM, TN, STAGES>::min_blocks))
async_kernel(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
             float beta, float *C, int ldc, bool vec, bool vec_c)
{
    using cfg = tile_config<BM, BN, BK, WM, WN, TM, TN, STAGES>;
    constexpr int NT = cfg::threads;
    extern __shared__ float4 smem4[];
    float *smem = reinterpret_cast<float *>(smem4); /* STAGES x ([BK][BM + 4] then [BK][BN]) */
#define STAGE_A(s) (smem + (s) * cfg::stage_floats)
#define STAGE_B(s) (smem + (s) * cfg::stage_floats + BK * cfg::lda_s)

    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int tr, tc;
    thread_origin<cfg, WM, WN, BN>(&tr, &tc);
    bool active = row0 + tr < M && col0 + tc < N;
    bool interior = row0 + BM <= M && col0 + BN <= N;
    int ktiles = (K + BK - 1) / BK;
    copy_plan<BM, BN, BK, NT> cp;

    /* Prologue: the first STAGES - 1 slices in flight. Every thread commits one group per
     * slice, empty or not, so that "wait until STAGES - 2 are pending" always means
     * "slice kt has landed". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < ktiles)
            issue_tile_copies<BM, BN, BK, cfg::lda_s, NT>(cp, STAGE_A(s), STAGE_B(s), A, lda, B,
                                                           ldb, M, N, K, row0, col0, s * BK,
                                                           interior && (s + 1) * BK <= K, vec);
        cp_async_commit();
    }

    float acc[TM][TN] = {};
    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<STAGES - 2>(); /* my copies of slice kt are done ...            */
        __syncthreads();             /* ... and everyone's; and slice kt-1 is no longer read */
        int next = kt + STAGES - 1;  /* refill the stage slice kt-1 used */
        if (next < ktiles)
            issue_tile_copies<BM, BN, BK, cfg::lda_s, NT>(cp, STAGE_A(next % STAGES),
                                                           STAGE_B(next % STAGES), A, lda, B, ldb,
                                                           M, N, K, row0, col0, next * BK,
                                                           interior && (next + 1) * BK <= K,
                                                           vec);
        cp_async_commit();
        if (active)
            thread_tile_fma<BK, cfg::lda_s, BN, TM, TN, cfg::slab_m, cfg::slab_n>(
                STAGE_A(kt % STAGES) + tr, STAGE_B(kt % STAGES) + tc, acc);
    }
    cp_async_wait<0>(); /* no copy may still be writing when the block exits */
#undef STAGE_A
#undef STAGE_B
    store_thread_tile<TM, TN, cfg::slab_m, cfg::slab_n>(acc, row0 + tr, col0 + tc, M, N, alpha,
                                                        beta, C, ldc, vec_c);
}

/* ---- launchers ----------------------------------------------------------------------------- */

/* A kernel that wants more than 48 KB of dynamic shared memory must say so, once per kernel and
 * GPU (stage 10 launches the same kernel on several). Two host threads racing here both set the
 * same value, which is harmless. */
template <class cfg, auto kernel>
static void allow_large_smem(int dev)
{
    static bool done[64];
    if (cfg::smem_bytes > SMEM_DEFAULT_MAX && (dev >= 64 || !done[dev])) {
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)cfg::smem_bytes));
        if (dev < 64)
            done[dev] = true;
    }
}

/* Grid: x over column tiles, y over row tiles; a taller C goes in slabs of GRID_Y_MAX rows
 * of tiles. Shared memory is dynamic, with the opt-in above 48 KB. On stream st. */
template <class cfg, int BM, int BN, auto kernel>
static void launch_tiles(cudaStream_t st, int M, int N, int K, float alpha, const float *A,
                         int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (M == 0 || N == 0 || K == 0)
        return;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    allow_large_smem<cfg, kernel>(dev);
    /* vec: float4 loads of A and B; vec_c: float4 stores to C (apart, so that A and B copied
     * to aligned rows, as any_size.cu does at 4097, take the fast loads whatever C is) */
    bool vec = rows_are_16B_aligned(A, lda) && rows_are_16B_aligned(B, ldb);
    bool vec_c = rows_are_16B_aligned(C, ldc);
    for (long r0 = 0; r0 < M; r0 += (long)GRID_Y_MAX * BM) {
        int m = (int)(M - r0 < (long)GRID_Y_MAX * BM ? M - r0 : (long)GRID_Y_MAX * BM);
        dim3 grid(ceil_div(N, BN), ceil_div(m, BM));
        kernel<<<grid, cfg::threads, cfg::smem_bytes, st>>>(
            m, N, K, alpha, A + r0 * lda, lda, B, ldb, beta, C + r0 * ldc, ldc, vec, vec_c);
        CUDA_CHECK_LAUNCH();
    }
}

/* The warptile grid on stream st (any_size.cu: a stream of its own beside the strips), and
 * as a gemm_fn on the harness's stream (the tuning grid). */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int PREFETCH = 0>
void warptile_on(cudaStream_t st, int M, int N, int K, float alpha, const float *A, int lda,
                 const float *B, int ldb, float beta, float *C, int ldc)
{
    launch_tiles<tile_config<BM, BN, BK, WM, WN, TM, TN, 2>, BM, BN,
                 warptile_kernel<BM, BN, BK, WM, WN, TM, TN, PREFETCH>>(st, M, N, K, alpha, A,
                                                                       lda, B, ldb, beta, C, ldc);
}
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int PREFETCH = 0>
void gemm_warptile_t(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    warptile_on<BM, BN, BK, WM, WN, TM, TN, PREFETCH>(gemm_stream(), M, N, K, alpha, A, lda, B,
                                                      ldb, beta, C, ldc);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
void gemm_async_t(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                  int ldb, float beta, float *C, int ldc)
{
    static_assert(STAGES >= 3, "two buffers is warptile; cp.async pays with three or more");
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc))
        return;
    launch_tiles<tile_config<BM, BN, BK, WM, WN, TM, TN, STAGES>, BM, BN,
                 async_kernel<BM, BN, BK, WM, WN, TM, TN, STAGES>>(gemm_stream(), M, N, K, alpha,
                                                                   A, lda, B, ldb, beta, C, ldc);
}

#endif
