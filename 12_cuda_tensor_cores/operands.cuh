/* operands.cuh: what the kernels share (every kernel file includes it): around the kernel,
 *
 *   bf16_edges()      the BLAS rules at the edges: M or N <= 0 or K < 0 writes nothing;
 *                     K == 0 or alpha == 0 gives C = beta*C without reading A or B (beta == 0:
 *                     C = 0, C not read); true when that was all there was to do
 *   rows_16B()        whether a BF16 (or FP32) matrix's rows all start on 16 bytes (TMA and
 *                     16-byte cp.async need it: lda a multiple of 8 (4) elements, the first row
 *                     aligned)
 *   aligned_copy      A and B as the kernels read them: the caller's, or where a row stride is
 *                     not a multiple of 8 elements (lda = 4097), a copy with rows padded to
 *                     whole 128-byte lines, made on the stream before the kernel (one read and
 *                     one write of the operand: ~21 us for 4097 x 4097 at 3.2 TB/s)
 *   store_pair()      two results of a row into C
 *
 * and the few instructions the mma.sync kernels are made of (cuda_tensor_cores.cu,
 * mma_pipelined.cu), each one line of PTX:
 *
 *   cp_async16        16 bytes global -> shared without passing through registers (sm_80)
 *   ldmatrix_x4[_trans] four 8x8 matrices of 16-bit values from shared memory into a fragment
 *   mma_op<T, K8>     d (16 x 8, FP32) += a (16 x 16) * b (16 x 8), T = BF16 or FP16: one
 *                     m16n8k16 (sm_80), or with K8 two m16n8k8 (FP16 on sm_75, the T4)
 *   swz               the XOR swizzle of 16-byte chunks that lets ldmatrix meet no bank conflict
 *
 * Below sm_80 (GEMM_BELOW_SM80) the sm_80 instructions compile to a trap: the variants that use
 * them are never launched there (main.cu's table says which GPU each needs).
 */
#ifndef OPERANDS_CUH
#define OPERANDS_CUH

#include <cuda_fp16.h>
#include <stdint.h>

#include "cuda_harness.cuh"

static __global__ void scale_c_kernel(int M, int N, float beta, float *C, int ldc)
{
    long total = (long)M * N;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total;
         i += (long)gridDim.x * blockDim.x) {
        float *c = C + (size_t)(i / N) * ldc + i % N;
        *c = beta == 0.0f ? 0.0f : beta * *c;
    }
}

static inline bool bf16_edges(int M, int N, int K, float alpha, float beta, float *C, int ldc)
{
    if (M <= 0 || N <= 0 || K < 0)
        return true;
    if (K > 0 && alpha != 0.0f)
        return false;
    if (beta != 1.0f) {
        long total = (long)M * N;
        int blocks = (int)(total / 256 + 1 < 4096 ? total / 256 + 1 : 4096);
        scale_c_kernel<<<blocks, 256, 0, gemm_stream()>>>(M, N, beta, C, ldc);
        CUDA_CHECK_LAUNCH();
    }
    return true;
}

static inline bool rows_16B(const gemm_bf16 *X, int ld)
{
    return ld % 8 == 0 && ((uintptr_t)X & 15) == 0;
}
static inline bool rows_16B(const __half *X, int ld) /* FP16 (--fp16) */
{
    return ld % 8 == 0 && ((uintptr_t)X & 15) == 0;
}
static inline bool rows_16B(const float *X, int ld) /* FP32 (--fp32): ld a multiple of 4 */
{
    return ld % 4 == 0 && ((uintptr_t)X & 15) == 0;
}

/* dst (ldd, a multiple of 8) = src (lds): one thread makes one 16-byte piece of a row from 8
 * two-byte loads (src's rows have no alignment to offer); columns past cols become zero. */
template <typename T>
static __global__ void pad_rows_kernel(int rows, int cols, const T *src, long lds, T *dst,
                                       long ldd)
{
    long pieces = ldd / 8, total = rows * pieces;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total;
         i += (long)gridDim.x * blockDim.x) {
        long r = i / pieces, c0 = (i % pieces) * 8;
        const T *s = src + r * lds;
        __align__(16) T v[8];
#pragma unroll
        for (int e = 0; e < 8; e++)
            v[e] = c0 + e < cols ? s[c0 + e] : T(0.0f);
        *reinterpret_cast<uint4 *>(dst + r * ldd + c0) = *reinterpret_cast<const uint4 *>(v);
    }
}

template <typename T> struct aligned_copy { /* T: gemm_bf16 or __half */
    const T *A, *B;
    int lda, ldb;
    T *buf; /* the copies, freed (stream-ordered) by release() */

    aligned_copy(int M, int N, int K, const T *A0, int lda0, const T *B0, int ldb0)
        : A(A0), B(B0), lda(lda0), ldb(ldb0), buf(NULL)
    {
        bool pad_a = !rows_16B(A0, lda0), pad_b = !rows_16B(B0, ldb0);
        if (!pad_a && !pad_b)
            return;
        keep_pool();
        cudaStream_t st = gemm_stream();
        size_t a_elems = pad_a ? (size_t)M * padded(K) : 0;
        size_t b_elems = pad_b ? (size_t)K * padded(N) : 0;
        CUDA_CHECK(cudaMallocAsync((void **)&buf, (a_elems + b_elems) * sizeof(T), st));
        if (pad_a)
            A = copy(st, buf, A0, M, K, lda0, &lda);
        if (pad_b)
            B = copy(st, buf + a_elems, B0, K, N, ldb0, &ldb);
    }
    void release()
    {
        if (buf)
            CUDA_CHECK(cudaFreeAsync(buf, gemm_stream()));
        buf = NULL;
    }

  private:
    /* whole 128-byte lines: a TMA box row that starts mid-line costs two lines */
    static int padded(int n) { return (n + 63) / 64 * 64; }
    static const T *copy(cudaStream_t st, T *dst, const T *src, int rows, int cols, int lds,
                         int *ldd)
    {
        *ldd = padded(cols);
        long pieces = (long)rows * (*ldd / 8);
        int blocks = (int)(pieces / 256 + 1 < 65536 ? pieces / 256 + 1 : 65536);
        pad_rows_kernel<<<blocks, 256, 0, st>>>(rows, cols, src, lds, dst, *ldd);
        CUDA_CHECK_LAUNCH();
        return dst;
    }
    /* The default pool hands its memory back to the driver at every synchronisation unless
     * told to keep some: keep up to 1 GiB, so that repeated calls reuse it. */
    static void keep_pool()
    {
        static int done = -1;
        int dev = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        if (done == dev)
            return;
        cudaMemPool_t pool;
        unsigned long long keep = 1ull << 30;
        CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
        CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
        done = dev;
    }
};

/* Two results of row r, columns c and c+1 (c even), into C: one 8-byte access where both are
 * inside C and the pair is 8-byte aligned (vec2: C 8-byte aligned and ldc even). */
static __device__ __forceinline__ void store_pair(float *C, int ldc, int N, int r, int c,
                                                  float v0, float v1, float alpha, float beta,
                                                  bool vec2)
{
    float *p = C + (size_t)r * ldc + c;
    if (vec2 && c + 1 < N) {
        float2 out = make_float2(alpha * v0, alpha * v1);
        if (beta != 0.0f) {
            float2 old = *reinterpret_cast<const float2 *>(p);
            out.x += beta * old.x;
            out.y += beta * old.y;
        }
        *reinterpret_cast<float2 *>(p) = out;
    } else {
        if (c < N)
            gemm_store(p, alpha, v0, beta);
        if (c + 1 < N)
            gemm_store(p + 1, alpha, v1, beta);
    }
}

/* ---- the mma.sync kernels' instructions ---------------------------------------------------- */

static __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* 16 bytes from global to shared memory without passing through registers; only the first
 * `bytes` are read, the rest of the 16 are zero (the edges of A and B). */
static __device__ __forceinline__ void cp_async16(void *dst, const void *src, int bytes)
{
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(dst)), "l"(src),
                 "r"(bytes)
                 : "memory");
#endif
}
static __device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int bytes)
{ /* the same to a shared-memory address */
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes)
                 : "memory");
#endif
}
static __device__ __forceinline__ void cp_async16(uint32_t dst, const void *src)
{ /* all 16 bytes: no count of bytes to read, no zeros to fill (a chunk inside the matrix) */
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
#endif
}
static __device__ __forceinline__ void st_shared16(uint32_t dst, uint4 v)
{
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(v.x), "r"(v.y),
                 "r"(v.z), "r"(v.w)
                 : "memory");
}
static __device__ __forceinline__ void cp_async_commit()
{
#ifndef GEMM_BELOW_SM80
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
template <int N> static __device__ __forceinline__ void cp_async_wait()
{
#ifndef GEMM_BELOW_SM80
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/* Chunk c (16 bytes, 8 elements) of row r is stored at chunk c ^ (r % 8) of that row. ldmatrix
 * reads one chunk column of 8 consecutive rows: 8 different chunks of a 128-byte line, all 32
 * banks, where the plain layout would put the 8 in the same 4 banks. Rows of 8 chunks or more. */
static __device__ __forceinline__ int swz(int r, int c) { return c ^ (r & 7); }

/* Four 8x8 matrices of 16-bit values from shared memory into a fragment: lane l gives the
 * address of row l % 8 of matrix l / 8; .trans delivers each matrix transposed. (sm_75) */
static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *p)
{
    ldmatrix_x4(r, smem_addr(p));
}
static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void *p)
{
    ldmatrix_x4_trans(r, smem_addr(p));
}

/* d (16 x 8, FP32) += a (16 x 16, row-major) * b (16 x 8, column-major): one tensor-core
 * instruction for the warp. a[0..3]: rows g and g + 8 of k 0-7, then of k 8-15; b0: k 0-7,
 * b1: k 8-15 (g = lane / 4). */
static __device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                                 uint32_t b0, uint32_t b1) /* BF16 */
{
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* FP16: m16n8k16 from sm_80; m16n8k8 (sm_75) is half of it, a[0..1] and b0 the first 8 of k. */
static __device__ __forceinline__ void mma_16816_f16(float (&d)[4], const uint32_t (&a)[4],
                                                     uint32_t b0, uint32_t b1)
{
#ifdef GEMM_BELOW_SM80
    __trap();
#else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}
static __device__ __forceinline__ void mma_1688_f16(float (&d)[4], uint32_t a0, uint32_t a1,
                                                    uint32_t b0)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}

/* The k16 step at the element type: BF16 or FP16, and for FP16 the sm_75 form on request
 * (K8: two m16n8k8, which every GPU from sm_75 runs). */
template <typename T, bool K8> struct mma_op;
template <bool K8> struct mma_op<gemm_bf16, K8> {
    static __device__ __forceinline__ void run(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                               uint32_t b1)
    {
        mma_16816(d, a, b0, b1);
    }
};
template <> struct mma_op<__half, false> {
    static __device__ __forceinline__ void run(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                               uint32_t b1)
    {
        mma_16816_f16(d, a, b0, b1);
    }
};
template <> struct mma_op<__half, true> {
    static __device__ __forceinline__ void run(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                               uint32_t b1)
    {
        mma_1688_f16(d, a[0], a[1], b0);
        mma_1688_f16(d, a[2], a[3], b1);
    }
};

#endif
