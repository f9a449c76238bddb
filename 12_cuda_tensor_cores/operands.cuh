/* operands.cuh: what every BF16 variant does around its kernel (every kernel file includes it).
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
 */
#ifndef OPERANDS_CUH
#define OPERANDS_CUH

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
static inline bool rows_16B(const float *X, int ld) /* FP32 (--fp32): ld a multiple of 4 */
{
    return ld % 4 == 0 && ((uintptr_t)X & 15) == 0;
}

/* dst (ldd, a multiple of 8) = src (lds): one thread makes one 16-byte piece of a row from 8
 * two-byte loads (src's rows have no alignment to offer); columns past cols become zero. */
static __global__ void pad_rows_bf16_kernel(int rows, int cols, const gemm_bf16 *src, long lds,
                                            gemm_bf16 *dst, long ldd)
{
    long pieces = ldd / 8, total = rows * pieces;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total;
         i += (long)gridDim.x * blockDim.x) {
        long r = i / pieces, c0 = (i % pieces) * 8;
        const gemm_bf16 *s = src + r * lds;
        __align__(16) gemm_bf16 v[8];
#pragma unroll
        for (int e = 0; e < 8; e++)
            v[e] = c0 + e < cols ? s[c0 + e] : __float2bfloat16(0.0f);
        *reinterpret_cast<uint4 *>(dst + r * ldd + c0) = *reinterpret_cast<const uint4 *>(v);
    }
}

struct aligned_copy {
    const gemm_bf16 *A, *B;
    int lda, ldb;
    gemm_bf16 *buf; /* the copies, freed (stream-ordered) by release() */

    aligned_copy(int M, int N, int K, const gemm_bf16 *A0, int lda0, const gemm_bf16 *B0,
                 int ldb0)
        : A(A0), B(B0), lda(lda0), ldb(ldb0), buf(NULL)
    {
        bool pad_a = !rows_16B(A0, lda0), pad_b = !rows_16B(B0, ldb0);
        if (!pad_a && !pad_b)
            return;
        keep_pool();
        cudaStream_t st = gemm_stream();
        size_t a_elems = pad_a ? (size_t)M * padded(K) : 0;
        size_t b_elems = pad_b ? (size_t)K * padded(N) : 0;
        CUDA_CHECK(cudaMallocAsync((void **)&buf, (a_elems + b_elems) * sizeof(gemm_bf16), st));
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
    static const gemm_bf16 *copy(cudaStream_t st, gemm_bf16 *dst, const gemm_bf16 *src, int rows,
                                 int cols, int lds, int *ldd)
    {
        *ldd = padded(cols);
        long pieces = (long)rows * (*ldd / 8);
        int blocks = (int)(pieces / 256 + 1 < 65536 ? pieces / 256 + 1 : 65536);
        pad_rows_bf16_kernel<<<blocks, 256, 0, st>>>(rows, cols, src, lds, dst, *ldd);
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

#endif
