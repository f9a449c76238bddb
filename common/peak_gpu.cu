/* peak_gpu.cu: measure the GPU's ceilings for the roofline (the GPU side of peak.c).
 *
 *   fp32_fma          FP32 FMA throughput of a kernel that does nothing else: every thread
 *                     runs 8 independent chains a = a*x + y (an FMA takes ~4 cycles to give
 *                     its result; independent chains keep the units busy meanwhile)
 *   bw_copy           cudaMemcpy device to device of a 1 GiB buffer, counting the bytes read
 *                     plus the bytes written (2 GiB a copy)
 *   cublas_sgemm      cuBLAS SGEMM at 8192^3, FP32 with TF32 off (CUBLAS_PEDANTIC_MATH): what
 *                     a tuned library reaches, a practical ceiling for a GEMM kernel
 *   cublas_sgemm_default  the same in CUBLAS_DEFAULT_MATH (also FP32, no TF32 unless asked):
 *                     shows whether pedantic mode costs the baseline anything
 *   bf16_wgmma        the BF16 tensor-core ceiling (Hopper, sm_90a build): two warpgroups per
 *                     SM issue wgmma m64n256k16 on tiles that stay in shared memory (random
 *                     values, never zeros), FP32 sums; nothing is loaded or stored meanwhile
 *   cublas_bf16       cublasGemmEx at 8192^3, BF16 A and B, FP32 C and sums: the tensor-core
 *                     stage's baseline
 *   cublas_fp16       the same with FP16 A and B
 *   bf16_mma, fp16_mma, fp16_mma_f16acc
 *                     the mma.sync ceiling (the instruction of every GPU from sm_80, and the only
 *                     tensor-core path on those that are not Hopper): 32 warps an SM issue
 *                     mma.sync.m16n8k16 into 8 independent accumulators from registers, nothing
 *                     loaded or stored; FP32 sums, and FP16 sums for the last (GeForce cards run
 *                     FP32 sums at half the rate of FP16 ones). On sm_75, FP16 as two m16n8k8.
 *
 * Why it is one file: one program, a measure a section (a loop to time and its line in the table
 * and the CSV); they share the timing, the table and the CSV, and no other program uses a loop.
 *
 * A ceiling is the best the GPU can do, so each figure is the fastest of several runs.
 * An FMA counts 2 flops, the same count as the 2*M*N*K of a GEMM.
 *
 * The tensor-core loops run for half a second before they are timed: under its power limit a
 * GPU's clock drops within milliseconds of a heavy load (an H200 at 700 W: from 1980 to 1500-1700
 * MHz in a long GEMM), and a ceiling should be the rate such a run can keep.
 *
 * Usage: peak_gpu [--csv FILE] [--device D] [--mma-blocks B] [--mma-warps W]
 * CSV:   device,measure,threads,value,unit,date  (threads: the SMs used, 0 for copies)
 */
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.cuh"
#include "sysinfo.h"

#define CHAINS 8
#define FMA_ITERS (1 << 16)
#define FMA_THREADS 256
#define COPY_BYTES ((size_t)1 << 30)
#define GEMM_N 8192
#define RUNS 10

__global__ void fma_kernel(float *sink, int iters, float x, float y)
{
    float a[CHAINS];
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        a[j] = threadIdx.x * 1e-6f + j;
#pragma unroll 16 /* 128 FMAs per trip: the loop's own counter and branch cost ~2% */
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < CHAINS; j++)
            a[j] = fmaf(a[j], x, y);
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < CHAINS; j++)
        s += a[j];
    if (s == -1.0f) /* never true: only keeps the compiler from dropping the loop */
        sink[threadIdx.x] = s;
}

/* BF16 values in [-1, 1) (n of them), for cuBLAS BF16. */
__global__ void fill_bf16_kernel(uint16_t *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        float x = (h & 0xffffff) / 8388608.0f - 1.0f;
        unsigned u = __float_as_uint(x);
        p[i] = (uint16_t)((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
    }
}

/* Fill with values in [-1, 1): never measure on zeros. */
__global__ void fill_kernel(float *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        p[i] = (h & 0xffffff) / 8388608.0f - 1.0f;
    }
}

/* ---- the wgmma loop: Hopper's warpgroup instructions, as few as the loop needs -------------- *
 * wgmma.mma_async m64n256k16 (BF16 A and B, FP32 sums): a warpgroup (4 warps) multiplies a 64 x 16
 * tile of A by a 16 x 256 tile of B, both in shared memory, into 128 FP32 accumulators a thread;
 * asynchronous: fence, issue, commit a group, wait for groups. sm_90a code only. */

static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}
/* the descriptor of a tile in shared memory with the 128-byte swizzle (rows of 128 bytes, 8 rows
 * an atom): start, lbo (between 64-column blocks of B), sbo (between groups of 8 rows), in
 * 16-byte units; mode 1 (bits 62-63): the 128-byte swizzle */
static __device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}
static __device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
static __device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> static __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
/* the tensor cores write the accumulators behind the compiler's back: no use of them may move
 * across a wait */
static __device__ __forceinline__ void fence_regs(float (&d)[128])
{
#pragma unroll
    for (int i = 0; i < 128; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}
#define D4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define D16(i) D4(i), D4(i + 4), D4(i + 8), D4(i + 12)
/* D (64 x 256) += A B, or D = A B when scale_d is 0; B N-major (imm-trans-b = 1) */
static __device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t desc_a,
                                                        uint64_t desc_b, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, "
                 "%110, %111,"
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, "
                 "%125, %126, %127"
                 "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
                 : D16(0), D16(16), D16(32), D16(48), D16(64), D16(80), D16(96), D16(112)
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}
#undef D16
#undef D4

/* Two warpgroups, each a 64 x 256 FP32 result, multiply the same 128 x 64 tile of A and
 * 64 x 256 tile of B (as a GEMM's TMA copies leave them: 128-byte swizzled rows) `iters` times:
 * 4 wgmma of K = 16 per round, one group kept in flight. *ran says the sm_90a code was there to
 * run. */
#define WG_A_BYTES (128 * 64 * 2)
#define WG_B_BYTES (64 * 256 * 2)
#define WG_SMEM (WG_A_BYTES + WG_B_BYTES + 1024)
#define WG_ITERS 8192
__global__ void __launch_bounds__(256, 1) wgmma_peak_kernel(int iters, int *ran, float *sink)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t raw[];
    uint8_t *tiles = raw + (1024 - smem_u32(raw) % 1024) % 1024;
    uint16_t *t16 = (uint16_t *)tiles;
    for (int i = threadIdx.x; i < (WG_A_BYTES + WG_B_BYTES) / 2; i += blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ blockIdx.x;
        h ^= h >> 15;
        t16[i] = (uint16_t)(0x3c00 + (h & 0x7f) + ((h >> 7 & 1) << 15)); /* +-[2^-7, 2^-6) */
    }
    __syncthreads();
    uint32_t a = smem_u32(tiles) + threadIdx.x / 128 * 64 * 128, b = smem_u32(tiles) + WG_A_BYTES;
    float d[128];
    for (int it = 0; it < iters; it++) {
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
            wgmma_m64n256k16(d, smem_desc(a + kk * 32, 16, 1024),
                             smem_desc(b + kk * 2048, 8192, 1024), it > 0 || kk > 0);
        wgmma_commit();
        wgmma_wait<1>();
    }
    wgmma_wait<0>();
    fence_regs(d);
    float s = 0.0f;
    for (int i = 0; i < 128; i++)
        s += d[i];
    if (s == -1.0f) /* never true: keeps the loop */
        sink[threadIdx.x] = s;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *ran = 1;
#else
    (void)iters, (void)ran, (void)sink;
#endif
}

/* ---- the mma.sync loop ----------------------------------------------------------------------- */
#define MMA_ITERS 32768 /* about 8 ms a run on an H200 */
#define MMA_CHAINS 8
#define MMA_THREADS 256
#define MMA_BLOCKS_PER_SM 4 /* --mma-blocks, --mma-warps (a block): fewer, to see what 1 to 16
                               warps an SM reach */
#define WARM_MS 500.0 /* the tensor-core loops run this long first: the clock a long GEMM sees
                         under the power limit, not the first milliseconds' */

/* KIND 0: BF16, FP32 sums (sm_80); 1: FP16, FP32 sums; 2: FP16, FP16 sums (sm_75 on). */
template <int KIND> static __device__ __forceinline__ void mma_step(float (&d)[4], const uint32_t (&a)[4],
                                                                    const uint32_t (&b)[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (KIND == 0)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else if (KIND == 1)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else { /* FP16 sums: two registers of two halves each (d[2], d[3] stay as they are) */
        uint32_t x0 = __float_as_uint(d[0]), x1 = __float_as_uint(d[1]);
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, "
                     "{%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                     : "+r"(x0), "+r"(x1)
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        d[0] = __uint_as_float(x0), d[1] = __uint_as_float(x1);
    }
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    if (KIND == 1) /* the k16 step as two m16n8k8 */
        for (int h = 0; h < 2; h++)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                         : "r"(a[2 * h]), "r"(a[2 * h + 1]), "r"(b[h]));
    else if (KIND == 2)
        for (int h = 0; h < 2; h++) {
            uint32_t x0 = __float_as_uint(d[0]), x1 = __float_as_uint(d[1]);
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, "
                         "{%4}, {%0,%1};"
                         : "+r"(x0), "+r"(x1)
                         : "r"(a[2 * h]), "r"(a[2 * h + 1]), "r"(b[h]));
            d[0] = __uint_as_float(x0), d[1] = __uint_as_float(x1);
        }
#else
    (void)d, (void)a, (void)b;
#endif
}

/* Operands from the thread's index, small values that never overflow an FP16 sum; *ran says the
 * GPU had the instruction. */
template <int KIND> __global__ void __launch_bounds__(MMA_THREADS) mma_peak_kernel(int iters, int *ran,
                                                                                  float *sink)
{
    /* block 0's SM cycles over its nanoseconds: the clock it ran at (the blocks of an SM may run
     * one after another, so the kernel's time would not do) */
    long long t0 = clock64(), ns0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns0));
    uint32_t a[4], b[2];
    for (int j = 0; j < 4; j++) {
        float x = (threadIdx.x % 7 + j) * 1e-3f, y = (threadIdx.x % 5 + j) * -1e-3f;
        if (KIND == 0) {
            __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
            a[j] = *reinterpret_cast<uint32_t *>(&v);
        } else {
            __half2 v = __floats2half2_rn(x, y);
            a[j] = *reinterpret_cast<uint32_t *>(&v);
        }
    }
    b[0] = a[1] ^ a[2] & 0x7fff7fffu;
    b[1] = a[3];
    float d[MMA_CHAINS][4] = {};
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < MMA_CHAINS; c++)
            mma_step<KIND>(d[c], a, b);
    }
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < MMA_CHAINS; c++)
        s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    if (s == -1.0f) /* never true: keeps the loop */
        sink[threadIdx.x] = s;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800 || (__CUDA_ARCH__ >= 750 && KIND > 0))
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        *ran = 1;
        long long ns1, cycles = clock64() - t0;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns1));
        reinterpret_cast<double *>(sink)[1] = (double)cycles / (double)(ns1 - ns0) * 1e3; /* MHz */
    }
#endif
}

typedef struct result {
    const char *measure;
    int threads;
    double value;
    const char *unit;
} result;

static float time_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms;
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

static double gemm_best(cublasHandle_t h, cublasMath_t mode, const float *A, const float *B,
                        float *C, cudaEvent_t t0, cudaEvent_t t1)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetMathMode(h, mode));
    double best = 1e30;
    for (int r = 0; r < RUNS + 1; r++) { /* the first run is a warm-up */
        CUDA_CHECK(cudaEventRecord(t0));
        CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, GEMM_N, GEMM_N, GEMM_N, &one, B,
                                 GEMM_N, A, GEMM_N, &zero, C, GEMM_N));
        CUDA_CHECK(cudaEventRecord(t1));
        double ms = time_ms(t0, t1);
        if (r > 0 && ms < best)
            best = ms;
    }
    return 2.0 * GEMM_N * (double)GEMM_N * GEMM_N / (best * 1e6);
}

/* cublasGemmEx at 8192^3 with 16-bit A and B of type t (in the float buffers), FP32 C and sums */
static double gemm_ex_best(cublasHandle_t h, cudaDataType t, const float *A, const float *B,
                           float *C, cudaEvent_t t0, cudaEvent_t t1)
{
    const float one = 1.0f, zero = 0.0f;
    double best = 1e30;
    for (int r = 0; r < RUNS + 1; r++) { /* the first run is a warm-up */
        CUDA_CHECK(cudaEventRecord(t0));
        CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, GEMM_N, GEMM_N, GEMM_N, &one, B, t,
                                  GEMM_N, A, t, GEMM_N, &zero, C, CUDA_R_32F, GEMM_N,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        CUDA_CHECK(cudaEventRecord(t1));
        double ms = time_ms(t0, t1);
        if (r > 0 && ms < best)
            best = ms;
    }
    return 2.0 * GEMM_N * (double)GEMM_N * GEMM_N / (best * 1e6);
}

int main(int argc, char **argv)
{
    const char *csv_path = NULL;
    int device = 0, mma_blocks = MMA_BLOCKS_PER_SM, mma_warps = MMA_THREADS / 32;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            csv_path = argv[++i];
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            device = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--mma-warps") && i + 1 < argc) {
            mma_warps = atoi(argv[++i]);
            if (mma_warps < 1 || mma_warps > MMA_THREADS / 32) {
                fprintf(stderr, "peak_gpu: --mma-warps %s: 1 to %d warps a block\n", argv[i],
                        MMA_THREADS / 32);
                return 2;
            }
        } else if (!strcmp(argv[i], "--mma-blocks") && i + 1 < argc) {
            mma_blocks = atoi(argv[++i]);
            if (mma_blocks < 1 || mma_blocks > 8) {
                fprintf(stderr, "peak_gpu: --mma-blocks %s: 1 to 8 blocks of 8 warps an SM\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: peak_gpu [--csv FILE] [--device D] [--mma-blocks B] [--mma-warps W]\n");
            return 2;
        }
    }
    int ndev = 0;
    const cudaError_t err = cudaGetDeviceCount(&ndev);
    if (err != cudaSuccess || ndev == 0) {
        printf("%s: skipped\n", cuda_no_gpu_reason(err));
        return 77;
    }
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    int clock_khz, mem_khz, bus_bits;
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    int sms = prop.multiProcessorCount;
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    result res[12];
    int nres = 0;

    /* FMA throughput: a full GPU of threads (2048 per SM), best of RUNS. */
    float *sink;
    CUDA_CHECK(cudaMalloc((void **)&sink, FMA_THREADS * sizeof(float)));
    int blocks = sms * (prop.maxThreadsPerMultiProcessor / FMA_THREADS);
    double best = 1e30;
    for (int r = 0; r < RUNS + 1; r++) {
        CUDA_CHECK(cudaEventRecord(t0));
        fma_kernel<<<blocks, FMA_THREADS>>>(sink, FMA_ITERS, 0.999999f, 1e-7f);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(t1));
        double ms = time_ms(t0, t1);
        if (r > 0 && ms < best)
            best = ms;
    }
    double fmas = (double)blocks * FMA_THREADS * FMA_ITERS * CHAINS;
    double fma_gflops = 2.0 * fmas / (best * 1e6);
    res[nres++] = (result){"fp32_fma", sms, fma_gflops, "GFLOP/s"};
    CUDA_CHECK(cudaFree(sink));

    /* Copy bandwidth: 1 GiB device to device, bytes read + bytes written. */
    float *src, *dst;
    CUDA_CHECK(cudaMalloc((void **)&src, COPY_BYTES));
    CUDA_CHECK(cudaMalloc((void **)&dst, COPY_BYTES));
    fill_kernel<<<sms * 8, 256>>>(src, COPY_BYTES / sizeof(float), 1);
    CUDA_CHECK_LAUNCH();
    best = 1e30;
    for (int r = 0; r < RUNS + 1; r++) {
        CUDA_CHECK(cudaEventRecord(t0));
        CUDA_CHECK(cudaMemcpyAsync(dst, src, COPY_BYTES, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaEventRecord(t1));
        double ms = time_ms(t0, t1);
        if (r > 0 && ms < best)
            best = ms;
    }
    res[nres++] = (result){"bw_copy", 0, 2.0 * COPY_BYTES / (best * 1e6), "GB/s"};
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));

    /* cuBLAS SGEMM at 8192: the practical ceiling, in both math modes. */
    size_t gemm_bytes = (size_t)GEMM_N * GEMM_N * sizeof(float);
    float *A, *B, *C;
    CUDA_CHECK(cudaMalloc((void **)&A, gemm_bytes));
    CUDA_CHECK(cudaMalloc((void **)&B, gemm_bytes));
    CUDA_CHECK(cudaMalloc((void **)&C, gemm_bytes));
    fill_kernel<<<sms * 8, 256>>>(A, (size_t)GEMM_N * GEMM_N, 2);
    fill_kernel<<<sms * 8, 256>>>(B, (size_t)GEMM_N * GEMM_N, 3);
    CUDA_CHECK_LAUNCH();
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    res[nres++] = (result){"cublas_sgemm", sms, gemm_best(h, CUBLAS_PEDANTIC_MATH, A, B, C, t0, t1),
                           "GFLOP/s"};
    res[nres++] = (result){"cublas_sgemm_default", sms,
                           gemm_best(h, CUBLAS_DEFAULT_MATH, A, B, C, t0, t1), "GFLOP/s"};
    /* cuBLAS BF16 (the tensor cores' baseline) at the same size: BF16 A and B in the float buffers */
    {
        fill_bf16_kernel<<<sms * 8, 256>>>((uint16_t *)A, (size_t)GEMM_N * GEMM_N, 4);
        fill_bf16_kernel<<<sms * 8, 256>>>((uint16_t *)B, (size_t)GEMM_N * GEMM_N, 5);
        CUDA_CHECK_LAUNCH();
        CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
        res[nres++] = (result){"cublas_bf16", sms, gemm_ex_best(h, CUDA_R_16BF, A, B, C, t0, t1),
                               "GFLOP/s"};
        /* FP16 A and B: the same bits read as FP16 are finite values between about -2 and 2 */
        res[nres++] = (result){"cublas_fp16", sms, gemm_ex_best(h, CUDA_R_16F, A, B, C, t0, t1),
                               "GFLOP/s"};
    }
    CUBLAS_CHECK(cublasDestroy(h));
    CUDA_CHECK(cudaFree(A));
    CUDA_CHECK(cudaFree(B));
    CUDA_CHECK(cudaFree(C));

    /* The BF16 tensor-core ceiling: a pure wgmma loop, one block of two warpgroups per SM. */
    int *ran, have_wgmma = 0;
    CUDA_CHECK(cudaMalloc((void **)&ran, sizeof(int)));
    CUDA_CHECK(cudaMemset(ran, 0, sizeof(int)));
    CUDA_CHECK(cudaMalloc((void **)&sink, 256 * sizeof(float)));
    CUDA_CHECK(cudaFuncSetAttribute(wgmma_peak_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    WG_SMEM));
    double wg_best = 1e30;
    for (double warm = 0; warm < WARM_MS && prop.major == 9;) { /* the sustained clock first */
        CUDA_CHECK(cudaEventRecord(t0));
        wgmma_peak_kernel<<<sms, 256, WG_SMEM>>>(WG_ITERS, ran, sink);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(t1));
        warm += time_ms(t0, t1);
    }
    for (int r = 0; r < RUNS + 1 && prop.major == 9; r++) {
        CUDA_CHECK(cudaEventRecord(t0));
        wgmma_peak_kernel<<<sms, 256, WG_SMEM>>>(WG_ITERS, ran, sink);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(t1));
        double ms = time_ms(t0, t1);
        if (r > 0 && ms < wg_best)
            wg_best = ms;
    }
    CUDA_CHECK(cudaMemcpy(&have_wgmma, ran, sizeof(int), cudaMemcpyDeviceToHost));
    if (have_wgmma)
        res[nres++] = (result){"bf16_wgmma", sms,
                               2.0 * 64 * 256 * 16 * 4 * 2 * (double)WG_ITERS * sms / (wg_best * 1e6),
                               "GFLOP/s"};
    CUDA_CHECK(cudaFree(sink));

    /* The mma.sync ceilings: 4 blocks of 8 warps an SM, each warp 8 accumulators. */
    static const char *mma_names[3] = {"bf16_mma", "fp16_mma", "fp16_mma_f16acc"};
    void (*mma_kernels[3])(int, int *, float *) = {mma_peak_kernel<0>, mma_peak_kernel<1>,
                                                   mma_peak_kernel<2>};
    double mma_rate[3] = {0, 0, 0}, mma_mhz[3] = {0, 0, 0};
    CUDA_CHECK(cudaMalloc((void **)&sink, MMA_THREADS * sizeof(float)));
    for (int k = 0; k < 3; k++) {
        int have = 0;
        CUDA_CHECK(cudaMemset(ran, 0, sizeof(int)));
        double mma_best = 1e30;
        for (double warm = 0; warm < WARM_MS;) {
            CUDA_CHECK(cudaEventRecord(t0));
            mma_kernels[k]<<<sms * mma_blocks, 32 * mma_warps>>>(MMA_ITERS, ran, sink);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaEventRecord(t1));
            warm += time_ms(t0, t1);
        }
        for (int r = 0; r < RUNS + 1; r++) {
            CUDA_CHECK(cudaEventRecord(t0));
            mma_kernels[k]<<<sms * mma_blocks, 32 * mma_warps>>>(MMA_ITERS, ran, sink);
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaEventRecord(t1));
            double ms = time_ms(t0, t1);
            if (r > 0 && ms < mma_best)
                mma_best = ms;
        }
        CUDA_CHECK(cudaMemcpy(&have, ran, sizeof(int), cudaMemcpyDeviceToHost));
        if (!have)
            continue;
        CUDA_CHECK(cudaMemcpy(&mma_mhz[k], (double *)sink + 1, sizeof(double),
                              cudaMemcpyDeviceToHost)); /* of the last run */
        double warps = (double)sms * mma_blocks * mma_warps;
        mma_rate[k] = 2.0 * 16 * 8 * 16 * MMA_CHAINS * (double)MMA_ITERS * warps / (mma_best * 1e6);
        res[nres++] = (result){mma_names[k], sms, mma_rate[k], "GFLOP/s"};
    }
    CUDA_CHECK(cudaFree(sink));
    CUDA_CHECK(cudaFree(ran));

    double paper_flops = sms * 128 * 2.0 * clock_khz / 1e6;
    double paper_bw = 2.0 * mem_khz * 1e3 * (bus_bits / 8) / 1e9;
    printf("%s, %d SMs, max SM clock %.0f MHz\n", prop.name, sms, clock_khz / 1e3);
    printf("%-22s %12s %12s\n", "measure", "measured", "on paper");
    printf("%-22s %9.0f GFLOP/s %9.0f GFLOP/s (%d SMs x 128 lanes x 2 x %.2f GHz)\n", "fp32_fma",
           res[0].value, paper_flops, sms, clock_khz / 1e6);
    printf("%-22s %9.0f GB/s    %9.0f GB/s    (%d-bit bus x 2 x %.0f MHz)\n", "bw_copy",
           res[1].value, paper_bw, bus_bits, mem_khz / 1e3);
    printf("%-22s %9.0f GFLOP/s  (8192^3, FP32, TF32 off: CUBLAS_PEDANTIC_MATH)\n",
           "cublas_sgemm", res[2].value);
    printf("%-22s %9.0f GFLOP/s  (8192^3, CUBLAS_DEFAULT_MATH)\n", "cublas_sgemm_default",
           res[3].value);
    printf("%-22s %9.0f GFLOP/s  (8192^3, BF16 A and B, FP32 C and sums: cublasGemmEx)\n",
           "cublas_bf16", res[4].value);
    printf("%-22s %9.0f GFLOP/s  (8192^3, FP16 A and B, FP32 C and sums)\n", "cublas_fp16",
           res[5].value);
    if (have_wgmma)
        printf("%-22s %9.0f GFLOP/s  (wgmma m64n256k16 from shared memory, 2 warpgroups per SM)\n",
               "bf16_wgmma", res[6].value);
    else
        printf("%-22s not measured (needs a Hopper GPU and an sm_90a build)\n", "bf16_wgmma");
    for (int k = 0; k < 3; k++)
        if (mma_rate[k] > 0)
            printf("%-22s %9.0f GFLOP/s  (mma.sync m16n8k16 from registers, %s sums, %d warps an SM, "
                   "at about %.0f MHz)\n", mma_names[k], mma_rate[k], k == 2 ? "FP16" : "FP32",
                   mma_blocks * mma_warps, mma_mhz[k]);
        else
            printf("%-22s not measured (needs compute capability %s)\n", mma_names[k],
                   k == 0 ? "8.0" : "7.5");
    printf("FMA rate / (SMs x 128 x 2): the SM clock under this load was about %.0f MHz\n",
           res[0].value / (sms * 128 * 2.0) * 1e3);

    if (csv_path) {
        FILE *f = fopen(csv_path, "w");
        if (!f) {
            fprintf(stderr, "peak_gpu: cannot write %s\n", csv_path);
            return 1;
        }
        char date[32];
        sysinfo_utc_now(date, sizeof date);
        fprintf(f, "device,measure,threads,value,unit,date\n");
        for (int i = 0; i < nres; i++)
            fprintf(f, "%s,%s,%d,%.1f,%s,%s\n", prop.name, res[i].measure, res[i].threads,
                    res[i].value, res[i].unit, date);
        fclose(f);
        printf("wrote %s\n", csv_path);
    }
    return 0;
}
