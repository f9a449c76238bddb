/* peak_lib.c: the loops that measure the roofline's ceilings (peak.h), for build/peak and
 * the lab's probe of the SIMD micro-kernel.
 *
 * An FMA takes about 4 cycles to give its result, and a core can start one or two
 * every cycle. A loop where each FMA waits for the previous one measures the latency,
 * not the throughput; so each kernel keeps many independent accumulators (chains),
 * more than latency x FMA units, and the core always has work to issue. A GEMM
 * micro-kernel keeps its MR x NR block of C in registers for the same reason.
 *
 * The vector kernels are written with intrinsics in functions compiled for their
 * own instruction set (__attribute__((target(...)))), and chosen at run time from
 * what the CPU reports, so this file builds with or without -march=native and runs
 * on a CPU without AVX-512. The scalar kernel is plain fmaf(), so other CPUs measure
 * it too (and 64-bit ARM its NEON FMA, as the extra measure fma_neon).
 */
#include "peak.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define PEAK_X86 1
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#define PEAK_NEON 1
#include <arm_neon.h>
#endif

#include "timer.h"

/* Results go through here so the compiler cannot drop the loops that make them. */
static volatile float sink;

/* ------------------------------------------------------------ FMA kernels */

/* Every kernel runs `iters` iterations of CHAINS independent updates acc = acc*m + c,
 * one FMA each, and returns the sum of the accumulators. With m just below 1 the
 * values settle near c/(1-m) = 1: no overflow, no denormals (which would be slow).
 * The accumulators start at different values so the compiler cannot prove two
 * chains equal and merge them.
 *
 * 12 chains for scalar and AVX2 (12 accumulators + 2 constants fit the 16 registers
 * that AVX2 has), 16 for AVX-512 (32 registers): both above latency (4-5 cycles)
 * x FMA units (2) on current x86 cores. Each kernel's flops per iteration is
 * 2 x CHAINS x lanes. */
#define CHAINS_SHORT 12
#define CHAINS_AVX512 16

/* Scalar FMA: fmaf() is one instruction (vfmadd...ss on x86, fmadd on ARM) where
 * the CPU has FMA. GCC would pack the 12 independent chains into a few vector FMAs
 * (SLP vectorisation) and report a vector figure, so it is switched off here. */
#ifdef PEAK_X86
#define TARGET_FMA __attribute__((target("fma")))
#else
#define TARGET_FMA
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define NO_AUTO_SIMD __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define NO_AUTO_SIMD
#endif

TARGET_FMA NO_AUTO_SIMD static float fma_scalar(long iters, float m, float c)
{
    float acc[CHAINS_SHORT];
    for (int j = 0; j < CHAINS_SHORT; j++)
        acc[j] = 1.0f + 0.01f * j;
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < CHAINS_SHORT; j++)
            acc[j] = fmaf(acc[j], m, c);
    float sum = 0;
    for (int j = 0; j < CHAINS_SHORT; j++)
        sum += acc[j];
    return sum;
}

#ifdef PEAK_X86
__attribute__((target("avx2,fma"))) static float fma_avx2(long iters, float m, float c)
{
    __m256 vm = _mm256_set1_ps(m), vc = _mm256_set1_ps(c), acc[CHAINS_SHORT];
    for (int j = 0; j < CHAINS_SHORT; j++)
        acc[j] = _mm256_set1_ps(1.0f + 0.01f * j);
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < CHAINS_SHORT; j++)
            acc[j] = _mm256_fmadd_ps(acc[j], vm, vc);
    float lanes[8], sum = 0;
    for (int j = 0; j < CHAINS_SHORT; j++) {
        _mm256_storeu_ps(lanes, acc[j]);
        for (int l = 0; l < 8; l++)
            sum += lanes[l];
    }
    return sum;
}

__attribute__((target("avx512f"))) static float fma_avx512(long iters, float m, float c)
{
    __m512 vm = _mm512_set1_ps(m), vc = _mm512_set1_ps(c), acc[CHAINS_AVX512];
    for (int j = 0; j < CHAINS_AVX512; j++)
        acc[j] = _mm512_set1_ps(1.0f + 0.01f * j);
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < CHAINS_AVX512; j++)
            acc[j] = _mm512_fmadd_ps(acc[j], vm, vc);
    float lanes[16], sum = 0;
    for (int j = 0; j < CHAINS_AVX512; j++) {
        _mm512_storeu_ps(lanes, acc[j]);
        for (int l = 0; l < 16; l++)
            sum += lanes[l];
    }
    return sum;
}
#endif

#ifdef PEAK_NEON
/* 64-bit ARM: 128-bit NEON FMA, 4 floats per instruction (32 registers). */
static float fma_neon(long iters, float m, float c)
{
    float32x4_t vm = vdupq_n_f32(m), vc = vdupq_n_f32(c), acc[CHAINS_AVX512];
    for (int j = 0; j < CHAINS_AVX512; j++)
        acc[j] = vdupq_n_f32(1.0f + 0.01f * j);
    for (long i = 0; i < iters; i++)
        for (int j = 0; j < CHAINS_AVX512; j++)
            acc[j] = vfmaq_f32(vc, acc[j], vm);
    float sum = 0;
    for (int j = 0; j < CHAINS_AVX512; j++)
        sum += vaddvq_f32(acc[j]);
    return sum;
}
#endif

int fma_measures(fma_measure *out)
{
    int n = 0;
#ifdef PEAK_X86
    __builtin_cpu_init();
    /* __builtin_cpu_supports also checks that the OS saves the wide registers. */
    int fma = __builtin_cpu_supports("fma");
    out[n++] = (fma_measure){"fma_scalar", "FMA", 1, CHAINS_SHORT, fma_scalar, fma};
    out[n++] = (fma_measure){"fma_avx2", "AVX2+FMA", 8, CHAINS_SHORT, fma_avx2,
                             fma && __builtin_cpu_supports("avx2")};
    out[n++] = (fma_measure){"fma_avx512", "AVX-512F", 16, CHAINS_AVX512, fma_avx512,
                             __builtin_cpu_supports("avx512f")};
#else
    out[n++] = (fma_measure){"fma_scalar", "fmaf", 1, CHAINS_SHORT, fma_scalar, 1};
#ifdef PEAK_NEON
    out[n++] = (fma_measure){"fma_neon", "NEON", 4, CHAINS_AVX512, fma_neon, 1};
#endif
#endif
    return n;
}

double time_fma(const fma_measure *fm, long iters, int threads)
{
    volatile float m = 0.9999f, c = 0.0001f; /* volatile: not constants to fold */
    /* The threads' iterations in FMA_CHUNKS chunks each, taken from a common counter as each
     * thread is free, from a common start to the last chunk's end: the most the cores can do
     * together when work goes to whichever core is free, as the SIMD GEMM hands out its units.
     * With a fixed share a thread instead, a core that the hypervisor paused for a moment held
     * every core's figure down (the GEMM ran above that "peak" on 16 cores of a VM: 1,455-1,706
     * against 1,301-1,359 GFLOP/s, pair by pair); adding each thread's own rate overstates
     * it where threads take turns on a core (a scalar loop read 16 x one core's). */
    enum { FMA_CHUNKS = 64 };
    const long chunk = threads > 1 && iters >= FMA_CHUNKS ? iters / FMA_CHUNKS : iters;
    const long chunks = threads * (iters / chunk);
    long next = 0;
    double t0 = 0;
#pragma omp parallel num_threads(threads)
    {
        float mm = m, cc = c, s = 0;
#pragma omp barrier
#pragma omp master
        t0 = timer_now();
#pragma omp barrier
        for (;;) {
            long k;
#pragma omp atomic capture
            k = next++;
            if (k >= chunks)
                break;
            s += fm->kernel(chunk, mm, cc);
        }
#pragma omp atomic
        sink += s;
    }
    /* (scaled to the iters x threads the caller counts: chunks x chunk may be a little less) */
    return (timer_now() - t0) * ((double)iters * threads / ((double)chunks * chunk));
}

/* Iterations for one run of about `seconds` on one thread. Growing the count is
 * also the warm-up: a core lowers its clock for heavy AVX-512 work shortly after
 * it starts, and the timed runs should see the clock the kernel really gets. */
long calibrate_fma(const fma_measure *fm, double seconds)
{
    long iters = 1 << 12;
    double t;
    while ((t = time_fma(fm, iters, 1)) < seconds / 4)
        iters *= 2;
    return (long)(iters * (seconds / t)) + 1;
}

/* ------------------------------------------------------------ memory kernels */

typedef float vec8 __attribute__((vector_size(32)));

/* Sum of one block with 4 independent vector accumulators: a plain `s += x[i]`
 * is one add chain (4 cycles per float, no SIMD without -ffast-math), which would
 * measure the adder, not memory. memcpy is a plain load, without aliasing doubts. */
static float sum_block(const float *x)
{
    vec8 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    for (int i = 0; i < PEAK_BLOCK; i += 32) {
        vec8 v0, v1, v2, v3;
        memcpy(&v0, x + i, sizeof v0);
        memcpy(&v1, x + i + 8, sizeof v1);
        memcpy(&v2, x + i + 16, sizeof v2);
        memcpy(&v3, x + i + 24, sizeof v3);
        s0 += v0;
        s1 += v1;
        s2 += v2;
        s3 += v3;
    }
    vec8 s = (s0 + s1) + (s2 + s3);
    float sum = 0;
    for (int l = 0; l < 8; l++)
        sum += s[l];
    return sum;
}

void bw_init(float *x, long nblocks, int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long b = 0; b < nblocks; b++)
        for (long i = b * PEAK_BLOCK; i < (b + 1) * PEAK_BLOCK; i++)
            x[i] = (float)(i & 255) * (1.0f / 256);
}

double time_read(const float *x, long nblocks, int threads)
{
    float total = 0;
    double t0 = timer_now();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : total)
    for (long b = 0; b < nblocks; b++)
        total += sum_block(x + b * PEAK_BLOCK);
    double t = timer_now() - t0;
    sink = total;
    return t;
}

double time_triad(float *restrict a, const float *restrict b, const float *restrict c,
                         long n, int threads)
{
    volatile float vs = 3.0f;
    float s = vs;
    long nblocks = n / PEAK_BLOCK;
    double t0 = timer_now();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long blk = 0; blk < nblocks; blk++)
        for (long i = blk * PEAK_BLOCK; i < (blk + 1) * PEAK_BLOCK; i++)
            a[i] = b[i] + s * c[i];
    double t = timer_now() - t0;
    sink = a[n / 2];
    return t;
}
