/* mma_pipelined.cuh: mma_ldmatrix grown to the size the tensor cores want, for every GPU from
 * the T4 on (the Hopper's own path, wgmma, is in wgmma.cu). The kernel, a template; the
 * configurations each GPU runs and their entry points are in harness/mma_pipelined.cu.
 *
 *   mma_pipelined   mma.sync.m16n8k16 from ldmatrix.x4 fragments, as mma_ldmatrix, with three
 *                   changes: each warp a 64 x 64 piece of C (32 mma per 8 ldmatrix, against 16
 *                   per 6), a 128 x 256 tile a block, one block an SM; the next k-step's
 *                   fragments loaded while the tensor cores work on this one (two sets of
 *                   registers); the tiles in groups of 8 tile rows, so that the blocks running
 *                   together share their rows of A and columns of B in L2
 *   (FP16, --fp16)  the same kernel on FP16 A and B
 *   mma_sm75        FP16 on a T4 (sm_75), which has neither cp.async nor m16n8k16: the tiles
 *                   pass through registers (loaded one tile ahead, stored before the barrier),
 *                   each k16 step two m16n8k8
 *
 * Shared memory holds STAGES tiles of A (BM x 64) and B (64 x BN), 16-byte chunks XOR-swizzled
 * (mma.cuh's swz). Any M, N, K: the chunks past an edge read fewer bytes, or none, and the rest
 * is zero; rows that do not start on 16 bytes are copied first (operands.cuh).
 */
#ifndef MMA_PIPELINED_CUH
#define MMA_PIPELINED_CUH

#include <limits.h>

#include "operands.cuh"
#include "tensor_cores.h"

namespace mma_pipe {

/* T: gemm_bf16 or __half; a block BM x BN of C, a warp WM x WN of it, BK of k a stage (64: a row
 * of A's tile is 128 bytes, 8 chunks; at least that for the swizzle); ASYNC: cp.async through
 * STAGES stages (else registers, two stages); K8: the k16 step as two m16n8k8 (FP16 on sm_75);
 * PREFETCH: the next k-step's fragments loaded before this one's mma; GROUP: tile rows a group
 * (0: row by row); PLAN, INSIDE: the copies' addresses (below); SPREAD: a k-tile's copies
 * (inside the matrices) issued a share a k-step, not all at k-step 0; COPY_LATE (without SPREAD):
 * at k-step 0 after its ldmatrix, not before; STORE_INSIDE: a tile inside M and N with beta = 0
 * stores its results without a test (below). */
template <typename T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool ASYNC, bool K8,
          bool PREFETCH, int GROUP, bool PERSISTENT = false, int BLOCKS = 1, bool PLAN = true,
          bool INSIDE = true, bool COPY_LATE = false, bool STORE_INSIDE = true, bool SPREAD = false>
struct pipelined {
    static constexpr int WARPS_N = BN / WN, THREADS = 32 * (BM / WM) * WARPS_N;
    static constexpr int MT = WM / 16, NT = WN / 8, NB = NT / 2; /* mma tiles; B's ldmatrix */
    static constexpr int KK = BK / 16;                            /* k-steps a tile */
    static constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2; /* a stage's tiles */
    static constexpr int SMEM = (A_BYTES + B_BYTES) * STAGES;
    static constexpr int MIN_BLOCKS = BLOCKS; /* blocks an SM (__launch_bounds__) */
    /* a thread's 16-byte chunks of a tile: A's every A_STEP rows in one chunk column, B's
     * every B_STEP rows (the last step may reach past the tile: 12 warps); steps of 8 rows keep
     * the chunks' swizzle the same */
    static constexpr int A_STEP = THREADS / (BK / 8), A_CHUNKS = (BM + A_STEP - 1) / A_STEP;
    static constexpr int B_STEP = THREADS / (BN / 8), B_CHUNKS = (BK + B_STEP - 1) / B_STEP;
    static_assert(THREADS % (BK / 8) == 0 && THREADS % (BN / 8) == 0 && A_STEP % 8 == 0 &&
                      B_STEP % 8 == 0, "chunks");
    static_assert(ASYNC || STAGES == 2, "the register path keeps two stages");
    static_assert(BK % 64 == 0, "rows of 8 chunks or more (the swizzle)");

    static __device__ __forceinline__ void gemm(int M, int N, int K, float alpha, const T *A,
                                                int lda, const T *B, int ldb, float beta,
                                                float *C, int ldc, bool vec2)
    {
        extern __shared__ __align__(128) unsigned char smem[];
        const uint32_t sA = smem_addr(smem), sB = sA + STAGES * A_BYTES; /* shared addresses */
        const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
        const int wm = warp / WARPS_N * WM, wn = warp % WARPS_N * WN;
        const int num_m = (M + BM - 1) / BM, num_n = (N + BN - 1) / BN, KT = (K + BK - 1) / BK;

        /* tile t's corner: in groups of GROUP tile rows, column by column inside a group */
        auto corner = [&](int t, int &m0, int &n0) {
            int tm = t / num_n, tn = t % num_n;
            if (GROUP > 0) {
                int per_group = GROUP * num_n, first = t / per_group * GROUP;
                int rows = min(num_m - first, GROUP), in = t % per_group;
                tm = first + in % rows;
                tn = in / rows;
            }
            m0 = tm * BM, n0 = tn * BN;
        };

        /* This thread's chunks: A's rows a_r + i A_STEP at k chunk a_c, B's rows b_r + i B_STEP
         * at n chunk b_c; where they go in a stage. */
        const int a_r = tid / (BK / 8), a_c = tid % (BK / 8);
        const int b_r = tid / (BN / 8), b_c = tid % (BN / 8);
        const uint32_t a_dst = (a_r * BK + swz(a_r, a_c) * 8) * 2;
        const uint32_t b_dst = (b_r * BN + swz(b_r, b_c) * 8) * 2;
        uint4 ra[ASYNC ? 1 : A_CHUNKS], rb[ASYNC ? 1 : B_CHUNKS]; /* the register path's tile */

        /* PLAN: what the copies of a tile need, worked out once a tile: where this thread's first
         * chunk of A and of B start, the distance to its next ones, which of A's rows are inside
         * M, how many bytes of B's rows are inside N. (Without it each chunk of each k-tile
         * works its address out from the tile's corner: some 230 instructions a k-tile.)
         * INSIDE: a tile inside M and N, and a k-tile inside K, copy whole chunks, one
         * multiply-add an address, with nothing to test or fill (the planned path still tests
         * each chunk against the edges: some 170 instructions a k-tile, against some 60). */
        const T *a_base = A, *b_base = B;
        size_t a_step = 0, b_step = 0;
        unsigned a_rows = 0;
        int b_bytes_n = 0;
        bool inside = false;
        auto plan = [&](int m0, int n0) {
            a_base = A + (size_t)(m0 + a_r) * lda + a_c * 8;
            b_base = B + (size_t)b_r * ldb + n0 + b_c * 8;
            a_step = (size_t)A_STEP * lda, b_step = (size_t)B_STEP * ldb;
            a_rows = 0;
#pragma unroll
            for (int i = 0; i < A_CHUNKS; i++)
                a_rows |= (m0 + a_r + i * A_STEP < M) << i;
            b_bytes_n = 2 * max(0, min(N - (n0 + b_c * 8), 8));
            /* the steps as ints below (a multiply-add an address): true but for rows of more
             * than some 8 million elements */
            inside = INSIDE && m0 + BM <= M && n0 + BN <= N && BM % A_STEP == 0 &&
                     BK % B_STEP == 0 && a_step * A_CHUNKS < (size_t)INT_MAX &&
                     b_step * B_CHUNKS < (size_t)INT_MAX;
        };

        /* k-tile kt of the tile at (m0, n0) on its way into stage s: by cp.async, or into ra and
         * rb. A chunk past an edge reads fewer bytes, or none, and the rest is zero. */
        auto issue = [&](int m0, int n0, int kt, int s, int part = -1) {
            /* part p of KK (SPREAD): the chunks c = p, p + KK, ... of A's then B's; the edges'
             * copies all go with part 0 */
            const int k0 = kt * BK;
            if (PLAN && inside && k0 + BK <= K) {
                const T *a_k = a_base + k0, *b_k = b_base + (size_t)k0 * ldb;
                const int as = (int)a_step, bs = (int)b_step;
#pragma unroll
                for (int i = 0; i < A_CHUNKS; i++) {
                    if (part >= 0 && i % KK != part)
                        continue;
                    if (ASYNC)
                        cp_async16(sA + s * A_BYTES + a_dst + i * A_STEP * BK * 2, a_k + i * as);
                    else
                        ra[i] = *reinterpret_cast<const uint4 *>(a_k + i * as);
                }
#pragma unroll
                for (int i = 0; i < B_CHUNKS; i++) {
                    if (part >= 0 && (A_CHUNKS + i) % KK != part)
                        continue;
                    if (ASYNC)
                        cp_async16(sB + s * B_BYTES + b_dst + i * B_STEP * BN * 2, b_k + i * bs);
                    else
                        rb[i] = *reinterpret_cast<const uint4 *>(b_k + i * bs);
                }
                return;
            }
            if (part > 0)
                return;
            if (PLAN) {
                const int a_bytes = 2 * max(0, min(K - (k0 + a_c * 8), 8));
                const T *a_k = a_base + k0, *b_k = b_base + (size_t)k0 * ldb;
#pragma unroll
                for (int i = 0; i < A_CHUNKS; i++) {
                    if (BM % A_STEP && a_r + i * A_STEP >= BM)
                        break;
                    const int bytes = a_rows >> i & 1 ? a_bytes : 0;
                    const T *src = bytes ? a_k + i * a_step : A;
                    if (ASYNC)
                        cp_async16(sA + s * A_BYTES + a_dst + i * A_STEP * BK * 2, src, bytes);
                    else
                        ra[i] = load16(src, bytes);
                }
#pragma unroll
                for (int i = 0; i < B_CHUNKS; i++) {
                    if (BK % B_STEP && b_r + i * B_STEP >= BK)
                        break;
                    const int bytes = k0 + b_r + i * B_STEP < K ? b_bytes_n : 0;
                    const T *src = bytes ? b_k + i * b_step : B;
                    if (ASYNC)
                        cp_async16(sB + s * B_BYTES + b_dst + i * B_STEP * BN * 2, src, bytes);
                    else
                        rb[i] = load16(src, bytes);
                }
                return;
            }
            const int a_bytes = 2 * max(0, min(K - (k0 + a_c * 8), 8));
            const int b_bytes = 2 * max(0, min(N - (n0 + b_c * 8), 8));
#pragma unroll
            for (int i = 0; i < A_CHUNKS; i++) {
                if (BM % A_STEP && a_r + i * A_STEP >= BM)
                    break;
                int r = m0 + a_r + i * A_STEP, bytes = r < M ? a_bytes : 0;
                const T *src = bytes ? A + (size_t)r * lda + k0 + a_c * 8 : A;
                if (ASYNC)
                    cp_async16(sA + s * A_BYTES + a_dst + i * A_STEP * BK * 2, src, bytes);
                else
                    ra[i] = load16(src, bytes);
            }
#pragma unroll
            for (int i = 0; i < B_CHUNKS; i++) {
                if (BK % B_STEP && b_r + i * B_STEP >= BK)
                    break;
                int k = k0 + b_r + i * B_STEP, bytes = k < K ? b_bytes : 0;
                const T *src = bytes ? B + (size_t)k * ldb + n0 + b_c * 8 : B;
                if (ASYNC)
                    cp_async16(sB + s * B_BYTES + b_dst + i * B_STEP * BN * 2, src, bytes);
                else
                    rb[i] = load16(src, bytes);
            }
        };
        auto store = [&](int s) { /* the register path: ra and rb into stage s */
#pragma unroll
            for (int i = 0; i < A_CHUNKS; i++)
                if (!(BM % A_STEP) || a_r + i * A_STEP < BM)
                    st_shared16(sA + s * A_BYTES + a_dst + i * A_STEP * BK * 2, ra[i]);
#pragma unroll
            for (int i = 0; i < B_CHUNKS; i++)
                if (!(BK % B_STEP) || b_r + i * B_STEP < BK)
                    st_shared16(sB + s * B_BYTES + b_dst + i * B_STEP * BN * 2, rb[i]);
        };
        /* the pipeline's start: k-tiles 0 .. STAGES-2 on their way (the register path: k-tile 0
         * in its stage) */
        auto start = [&](int m0, int n0) {
            if (PLAN)
                plan(m0, n0);
            if (ASYNC) {
#pragma unroll
                for (int s = 0; s < STAGES - 1; s++) {
                    if (s < KT)
                        issue(m0, n0, s, s);
                    cp_async_commit();
                }
            } else {
                issue(m0, n0, 0, 0);
                store(0);
            }
        };

        /* k-step kk's fragments from stage s: A's rows l % 16 at k chunk 2 kk + l / 16; B's k
         * rows l % 16 at n chunk (16 columns an ldmatrix) + l / 16, transposed */
        uint32_t fa[2][MT][4], fb[2][NB][4];
        auto fragments = [&](int buf, int s, int kk) {
#pragma unroll
            for (int mi = 0; mi < MT; mi++) {
                int r = wm + mi * 16 + lane % 16;
                ldmatrix_x4(fa[buf][mi], sA + s * A_BYTES + (r * BK + swz(r, kk * 2 + lane / 16) * 8) * 2);
            }
#pragma unroll
            for (int nj = 0; nj < NB; nj++) {
                int r = kk * 16 + lane % 16;
                ldmatrix_x4_trans(fb[buf][nj],
                                  sB + s * B_BYTES + (r * BN + swz(r, (wn + nj * 16) / 8 + lane / 16) * 8) * 2);
            }
        };

        /* One tile a block; PERSISTENT: a block an SM, taking every gridDim.x-th tile, the next
         * tile's first k-tiles on their way while this one's results are stored. */
        const int tiles = num_m * num_n;
        int tile = blockIdx.x, m0, n0;
        corner(tile, m0, n0);
        start(m0, n0);
        for (;;) {
            float acc[MT][NT][4] = {};
            if (ASYNC)
                cp_async_wait<STAGES - 2>(); /* k-tile 0 landed */
            __syncthreads();
            if (PREFETCH)
                fragments(0, 0, 0);

            int rs = 0, ws = STAGES - 1; /* the stage read (k-tile kt's) and the one written next */
            for (int kt = 0; kt < KT; kt++) {
                const int next_rs = rs + 1 == STAGES ? 0 : rs + 1;
#pragma unroll
                for (int kk = 0; kk < KK; kk++) {
                    const int cur = PREFETCH ? kk & 1 : 0;
                    if (!PREFETCH)
                        fragments(0, rs, kk);
                    /* the k-tile STAGES-1 ahead on its way, into the stage of k-tile kt-1, which
                     * every warp finished reading before the last barrier */
                    auto copies = [&] {
                        if (ASYNC) {
                            if (kt + STAGES - 1 < KT)
                                issue(m0, n0, kt + STAGES - 1, ws);
                            cp_async_commit();
                        } else if (kt + 1 < KT) {
                            issue(m0, n0, kt + 1, next_rs);
                        }
                    };
                    if (ASYNC && SPREAD) { /* this k-step's share */
                        if (kt + STAGES - 1 < KT)
                            issue(m0, n0, kt + STAGES - 1, ws, kk);
                        if (kk == KK - 1)
                            cp_async_commit();
                    } else if (kk == 0 && !COPY_LATE) {
                        copies();
                    }
                    if (kk == KK - 1) { /* k-tile kt+1 landed, every thread's part of it */
                        if (ASYNC)
                            cp_async_wait<STAGES - 2>();
                        else if (kt + 1 < KT)
                            store(next_rs);
                        __syncthreads();
                    }
                    if (PREFETCH && (kk < KK - 1 || kt + 1 < KT)) /* the next k-step's fragments */
                        fragments(cur ^ 1, kk < KK - 1 ? rs : next_rs, (kk + 1) % KK);
                    /* COPY_LATE: the ldmatrix above first, so that none of them writes a
                     * register of the copies' addresses (a cp.async reads its registers only when
                     * the queue of shared-memory work reaches it). Slower: the mma then wait for
                     * that queue instead (ncu's long-scoreboard stall moves to them). */
                    if (kk == 0 && COPY_LATE && !(ASYNC && SPREAD))
                        copies();
#pragma unroll
                    for (int mi = 0; mi < MT; mi++)
#pragma unroll
                        for (int j = 0; j < NT; j++) { /* back and forth: B's fragment reused */
                            const int ni = mi % 2 ? NT - 1 - j : j;
                            mma_op<T, K8>::run(acc[mi][ni], fa[cur][mi],
                                               fb[cur][ni / 2][ni % 2 * 2],
                                               fb[cur][ni / 2][ni % 2 * 2 + 1]);
                        }
                }
                rs = next_rs;
                ws = ws + 1 == STAGES ? 0 : ws + 1;
            }
            if (ASYNC)
                cp_async_wait<0>();

            const int next = PERSISTENT ? tile + gridDim.x : tiles;
            int next_m0 = 0, next_n0 = 0;
            if (next < tiles) { /* every warp past its last fragment: the stages are free */
                __syncthreads();
                corner(next, next_m0, next_n0);
                start(next_m0, next_n0);
            }

            /* thread (g, t) = (lane / 4, lane % 4) holds rows g and g + 8, columns 2t, 2t + 1 */
            const int g = lane / 4, t = lane % 4;
            if (STORE_INSIDE && vec2 && beta == 0.0f && m0 + BM <= M && n0 + BN <= N) {
                /* inside: 8 bytes a store, no edge, C not read (some 100 instructions a thread
                 * where store_pair's tests take some 600) */
                float *c0 = C + (size_t)(m0 + wm + g) * ldc + n0 + wn + 2 * t;
#pragma unroll
                for (int mi = 0; mi < MT; mi++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        float *row = c0 + (size_t)(mi * 16 + h * 8) * ldc;
#pragma unroll
                        for (int ni = 0; ni < NT; ni++)
                            *reinterpret_cast<float2 *>(row + ni * 8) =
                                make_float2(alpha * acc[mi][ni][2 * h], alpha * acc[mi][ni][2 * h + 1]);
                    }
            } else {
#pragma unroll
                for (int mi = 0; mi < MT; mi++)
#pragma unroll
                    for (int ni = 0; ni < NT; ni++) {
                        int r = m0 + wm + mi * 16 + g, c = n0 + wn + ni * 8 + 2 * t;
                        if (r < M)
                            store_pair(C, ldc, N, r, c, acc[mi][ni][0], acc[mi][ni][1], alpha,
                                       beta, vec2);
                        if (r + 8 < M)
                            store_pair(C, ldc, N, r + 8, c, acc[mi][ni][2], acc[mi][ni][3], alpha,
                                       beta, vec2);
                    }
            }
            if (next >= tiles)
                break;
            tile = next, m0 = next_m0, n0 = next_n0;
        }
    }

    /* the register path's load: 16 bytes, or the part inside the matrix and zeros */
    static __device__ __forceinline__ uint4 load16(const T *src, int bytes)
    {
        if (bytes == 16)
            return *reinterpret_cast<const uint4 *>(src);
        __align__(16) uint16_t v[8] = {};
        const uint16_t *s = reinterpret_cast<const uint16_t *>(src);
        for (int e = 0; e < bytes / 2; e++)
            v[e] = s[e];
        return *reinterpret_cast<const uint4 *>(v);
    }

    static void run(int M, int N, int K, float alpha, const T *A, int lda, const T *B, int ldb,
                    float beta, float *C, int ldc);
};

template <class P, typename T>
__global__ void __launch_bounds__(P::THREADS, P::MIN_BLOCKS)
pipelined_kernel(int M, int N, int K, float alpha, const T *A, int lda, const T *B, int ldb,
                 float beta, float *C, int ldc, bool vec2)
{
    P::gemm(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, vec2);
}

template <typename T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool ASYNC, bool K8,
          bool PREFETCH, int GROUP, bool PERSISTENT, int BLOCKS, bool PLAN, bool INSIDE,
          bool COPY_LATE, bool STORE_INSIDE, bool SPREAD>
void pipelined<T, BM, BN, BK, WM, WN, STAGES, ASYNC, K8, PREFETCH, GROUP, PERSISTENT, BLOCKS,
               PLAN, INSIDE, COPY_LATE, STORE_INSIDE, SPREAD>::run(
    int M, int N, int K, float alpha, const T *A, int lda, const T *B, int ldb, float beta,
    float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    auto kernel = pipelined_kernel<pipelined, T>;
    static int attr_device = -1; /* the shared-memory limit is raised once a device */
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (attr_device != dev) {
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
        attr_device = dev;
    }
    aligned_copy<T> op(M, N, K, A, lda, B, ldb);
    bool vec2 = ldc % 2 == 0 && ((uintptr_t)C & 7) == 0;
    long tiles = (long)ceil_div(M, BM) * ceil_div(N, BN);
    if (PERSISTENT && tiles > (long)gemm_sm_count() * BLOCKS)
        tiles = (long)gemm_sm_count() * BLOCKS; /* the grid: a block for each place on the GPU */
    kernel<<<(unsigned)tiles, THREADS, SMEM, gemm_stream()>>>(M, N, K, alpha, op.A, op.lda, op.B,
                                                               op.ldb, beta, C, ldc, vec2);
    CUDA_CHECK_LAUNCH();
    op.release();
}

} // namespace mma_pipe

#endif
