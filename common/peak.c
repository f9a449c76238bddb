/* peak.c: measure this machine's ceilings for the roofline charts.
 *
 * A GEMM kernel is held back by one of two resources: how many floating-point
 * operations the cores can issue per second, or how many bytes memory can deliver
 * per second. The roofline model draws both as ceilings: a kernel that does I flops
 * per byte it moves can run no faster than min(peak GFLOP/s, I x GB/s). This program
 * measures the two ceilings instead of trusting a data sheet:
 *
 *   fma_scalar   one float per FMA instruction (vfmadd231ss and kin): what plain C gets
 *   fma_avx2     256-bit FMA, 8 floats per instruction
 *   fma_avx512   512-bit FMA, 16 floats per instruction
 *   bw_read      STREAM-like read: the sum of an array far larger than the caches
 *   bw_triad     STREAM triad a[i] = b[i] + s*c[i] over three such arrays
 *
 * each on 1 thread and on one thread per online core. An FMA counts 2 flops per
 * float lane (a multiply and an add), the same count as the 2*M*N*K of a GEMM.
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
 *
 * A ceiling is the best the machine can do, so each figure is its fastest run of
 * many, not a median. The triad counts 12 bytes per element (read b and c, write a),
 * STREAM's convention; with write-allocate the memory bus really carries 16.
 *
 * Usage: peak [--csv FILE] [--quick] [-h|--help]      (about 8 s; --quick about 1 s)
 * CSV:   device,measure,threads,value,unit,date   (one row per measure x threads;
 *        device is the "model name" with commas made spaces, as the stages write it;
 *        a measure the CPU lacks has no row)
 */
#define _GNU_SOURCE /* gmtime_r, sysconf cache sizes */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* ------------------------------------------------------------ the machine */

/* The "model name" line of /proc/cpuinfo, the same string the stages write in
 * their CSV's device column (the plot script matches peaks to results by it). */
static const char *cpu_model(void)
{
    static char name[256];
    if (name[0])
        return name;
    snprintf(name, sizeof name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return name;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(name, sizeof name, "%s", colon + 2);
            name[strcspn(name, "\n")] = '\0';
            break;
        }
    }
    fclose(f);
    return name;
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Nominal clock in GHz from the "@ 2.50GHz" of an Intel model name, else from
 * cpufreq's base_frequency; 0 if neither is known. Turbo runs above it. */
static double nominal_ghz(void)
{
    const char *at = strstr(cpu_model(), "@ ");
    double ghz = 0;
    if (at && sscanf(at + 2, "%lfGHz", &ghz) == 1 && ghz > 0)
        return ghz;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "r");
    long khz = 0;
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    return khz > 0 ? khz / 1e6 : 0;
}

/* Size in bytes of cpu0's level-`level` data (or unified) cache, 0 if unknown.
 * sysfs first (it also works on ARM, where sysconf often says 0), then sysconf. */
static long cache_bytes(int level)
{
    for (int i = 0; i < 16; i++) {
        char path[96], type[32] = "", unit = 'B';
        int lvl = 0;
        long size = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        if (fscanf(f, "%d", &lvl) != 1)
            lvl = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%31s", type) != 1)
                type[0] = '\0';
            fclose(f);
        }
        if (lvl != level || strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%ld%c", &size, &unit) < 1)
                size = 0;
            fclose(f);
        }
        if (unit == 'K')
            size <<= 10;
        else if (unit == 'M')
            size <<= 20;
        if (size > 0)
            return size;
    }
    long s = 0;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    s = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE
                : level == 2 ? _SC_LEVEL2_CACHE_SIZE
                             : _SC_LEVEL3_CACHE_SIZE);
#endif
    return s > 0 ? s : 0;
}

static const char *fmt_bytes(char *buf, size_t len, double bytes)
{
    if (bytes <= 0)
        snprintf(buf, len, "unknown");
    else if (bytes < 1 << 20)
        snprintf(buf, len, "%.0f KiB", bytes / (1 << 10));
    else if (bytes < 1 << 30)
        snprintf(buf, len, "%.3g MiB", bytes / (1 << 20));
    else
        snprintf(buf, len, "%.3g GiB", bytes / (1 << 30));
    return buf;
}

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

typedef float fma_kernel(long iters, float m, float c);

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

typedef struct fma_measure {
    const char *name; /* the CSV's measure column */
    const char *isa;  /* what the CPU must have, for the "not available" line */
    int lanes, chains;
    fma_kernel *kernel;
    int available;
} fma_measure;

static int fma_measures(fma_measure *out)
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

/* Seconds for `threads` threads each running `iters` iterations of the kernel,
 * from a common start (after a barrier) to the last thread's end. */
static double time_fma(const fma_measure *fm, long iters, int threads)
{
    volatile float m = 0.9999f, c = 0.0001f; /* volatile: not constants to fold */
    double t0 = 0;
#pragma omp parallel num_threads(threads)
    {
        float mm = m, cc = c;
#pragma omp barrier
#pragma omp master
        t0 = timer_now();
        float s = fm->kernel(iters, mm, cc);
#pragma omp atomic
        sink += s;
    }
    return timer_now() - t0;
}

/* Iterations for one run of about `seconds` on one thread. Growing the count is
 * also the warm-up: a core lowers its clock for heavy AVX-512 work shortly after
 * it starts, and the timed runs should see the clock the kernel really gets. */
static long calibrate_fma(const fma_measure *fm, double seconds)
{
    long iters = 1 << 12;
    double t;
    while ((t = time_fma(fm, iters, 1)) < seconds / 4)
        iters *= 2;
    return (long)(iters * (seconds / t)) + 1;
}

/* ------------------------------------------------------------ memory kernels */

/* The arrays are handled in blocks of BLOCK floats (one 4 KiB page), shared out with
 * the same static schedule for the first touch and for every measure: each thread
 * then reads the pages it wrote first, which the OS placed in its NUMA node. */
#define BLOCK 1024

typedef float vec8 __attribute__((vector_size(32)));

/* Sum of one block with 4 independent vector accumulators: a plain `s += x[i]`
 * is one add chain (4 cycles per float, no SIMD without -ffast-math), which would
 * measure the adder, not memory. memcpy is a plain load, without aliasing doubts. */
static float sum_block(const float *x)
{
    vec8 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    for (int i = 0; i < BLOCK; i += 32) {
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

static void init_arrays(float *x, long nblocks, int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long b = 0; b < nblocks; b++)
        for (long i = b * BLOCK; i < (b + 1) * BLOCK; i++)
            x[i] = (float)(i & 255) * (1.0f / 256);
}

/* Seconds to read all nblocks blocks of x once. */
static double time_read(const float *x, long nblocks, int threads)
{
    float total = 0;
    double t0 = timer_now();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : total)
    for (long b = 0; b < nblocks; b++)
        total += sum_block(x + b * BLOCK);
    double t = timer_now() - t0;
    sink = total;
    return t;
}

/* Seconds for one triad a = b + s*c over n floats each (n a multiple of BLOCK). */
static double time_triad(float *restrict a, const float *restrict b, const float *restrict c,
                         long n, int threads)
{
    volatile float vs = 3.0f;
    float s = vs;
    long nblocks = n / BLOCK;
    double t0 = timer_now();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long blk = 0; blk < nblocks; blk++)
        for (long i = blk * BLOCK; i < (blk + 1) * BLOCK; i++)
            a[i] = b[i] + s * c[i];
    double t = timer_now() - t0;
    sink = a[n / 2];
    return t;
}

/* ------------------------------------------------------------ measuring */

enum job_kind { JOB_FMA, JOB_READ, JOB_TRIAD };

/* One row of the table: a measure at a thread count, and its fastest run. */
typedef struct job {
    enum job_kind kind;
    const char *measure, *unit;
    int threads;
    const fma_measure *fm; /* JOB_FMA: the kernel; NULL-kernel rows are "not available" */
    long iters;            /* JOB_FMA: iterations per thread and run */
    double work;           /* flops or bytes counted in one run */
    double best;           /* seconds of the fastest run */
    char note[96];
} job;

/* The bandwidth arrays: one buffer, read whole by bw_read and split in three
 * (a, b, c of n floats each) for bw_triad. */
static float *bw_buf;
static long bw_blocks, bw_n;

static double run_job(const job *j)
{
    switch (j->kind) {
    case JOB_FMA:
        return time_fma(j->fm, j->iters, j->threads);
    case JOB_READ:
        return time_read(bw_buf, bw_blocks, j->threads);
    case JOB_TRIAD:
        return time_triad(bw_buf, bw_buf + bw_n, bw_buf + 2 * bw_n, bw_n, j->threads);
    }
    return 0;
}

/* One warm-up run of each job, then `reps` rounds of every job in turn, keeping
 * each job's fastest run. Taking turns spreads every job's runs over the whole
 * measurement, so a few seconds of someone else's work on this shared machine
 * spoil a few runs of each job instead of all the runs of one. */
static void measure(job *jobs, int njobs, int reps)
{
    for (int i = 0; i < njobs; i++) {
        jobs[i].best = 1e30;
        if (jobs[i].kind != JOB_FMA || jobs[i].fm->available)
            run_job(&jobs[i]);
    }
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < njobs; i++) {
            if (jobs[i].kind == JOB_FMA && !jobs[i].fm->available)
                continue;
            double t = run_job(&jobs[i]);
            if (t < jobs[i].best)
                jobs[i].best = t;
        }
}

/* ------------------------------------------------------------ results */

typedef struct result {
    const char *measure, *unit;
    int threads;
    double value;
} result;

#define MAX_RESULTS 32
static result results[MAX_RESULTS];
static int nresults;

/* Print the jobs' rows (and keep them for the CSV); ghz > 0 adds FMAs per cycle. */
static void print_rows(job *jobs, int njobs, double ghz)
{
    for (int i = 0; i < njobs; i++) {
        job *j = &jobs[i];
        if (j->kind == JOB_FMA && !j->fm->available) {
            printf("%-12s %7s %9s  %-8s needs %s, which this CPU lacks\n", j->measure, "-",
                   "not available", "", j->fm->isa);
            continue;
        }
        double value = j->work / j->best / 1e9;
        /* Instructions per cycle per core at the nominal clock: about the number of
         * FMA units, a little above it with turbo, below it if the clock drops. */
        if (j->kind == JOB_FMA && ghz > 0)
            snprintf(j->note, sizeof j->note, "%.2f FMA/cycle/core at %.2f GHz",
                     value / j->threads / (2.0 * j->fm->lanes * ghz), ghz);
        printf("%-12s %7d %9.1f  %-8s %s\n", j->measure, j->threads, value, j->unit, j->note);
        if (nresults < MAX_RESULTS)
            results[nresults++] = (result){j->measure, j->unit, j->threads, value};
    }
    fflush(stdout);
}

static void utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void write_csv(FILE *f, const char *date)
{
    char device[256];
    /* Commas become spaces, exactly as the stages write their device column. */
    snprintf(device, sizeof device, "%s", cpu_model());
    for (char *p = device; *p; p++)
        if (*p == ',')
            *p = ' ';
    fputs("device,measure,threads,value,unit,date\n", f);
    for (int i = 0; i < nresults; i++)
        fprintf(f, "%s,%s,%d,%.2f,%s,%s\n", device, results[i].measure, results[i].threads,
                results[i].value, results[i].unit, date);
}

/* ------------------------------------------------------------ the program */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: peak [--csv FILE] [--quick] [-h|--help]\n"
            "Measure the roofline ceilings of this machine: FMA GFLOP/s (scalar, AVX2,\n"
            "AVX-512) and memory GB/s (read, triad), on 1 thread and on all online cores.\n"
            "  --csv FILE   write the results to FILE (replacing it), with the header\n"
            "               device,measure,threads,value,unit,date\n"
            "  --quick      short runs (under 3 s), for tests; the figures are rougher\n"
            "  -h, --help   this text\n");
}

static void print_header(int reps, int quick, int cores, double ghz, const char *date)
{
    char b1[32], b2[32], b3[32];
    printf("peak: this machine's ceilings for the roofline (best of %d runs%s)\n", reps,
           quick ? ", --quick" : "");
    printf("%-10s %s", "cpu", cpu_model());
    if (ghz > 0)
        printf(" (nominal %.2f GHz)", ghz);
    printf("\n%-10s %d online, measured on 1 and %d threads\n", "cores", cores, cores);
    printf("%-10s L1d %s, L2 %s, L3 %s (per instance)\n", "caches",
           fmt_bytes(b1, sizeof b1, cache_bytes(1)), fmt_bytes(b2, sizeof b2, cache_bytes(2)),
           fmt_bytes(b3, sizeof b3, cache_bytes(3)));
#if defined(__clang__)
    printf("%-10s clang %s\n", "compiler", __clang_version__);
#elif defined(__GNUC__)
    printf("%-10s gcc %s\n", "compiler", __VERSION__);
#endif
    printf("%-10s %s\n\n", "date", date);
    printf("%-12s %7s %9s  %-8s %s\n", "measure", "threads", "value", "unit", "note");
}

int main(int argc, char **argv)
{
    const char *csv_path = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--csv") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "peak: --csv needs a file name\n");
                return 2;
            }
            csv_path = argv[++i];
        } else {
            fprintf(stderr, "peak: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }

    /* Open the CSV now, so a bad path fails before the measuring, not after it. */
    FILE *csv = NULL;
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "peak: cannot write --csv %s\n", csv_path);
        return 2;
    }

    /* A ceiling is the best the machine can do, so every measure keeps its fastest
     * run, not the median the GEMM stages report: on a shared machine noise only
     * ever slows a run down. */
    const int reps = quick ? 3 : 20;
    const double fma_seconds = quick ? 0.01 : 0.03; /* one run of an FMA kernel */
    const int cores = online_cores();
    const int thread_counts[2] = {1, cores};
    const int nthread_counts = cores > 1 ? 2 : 1;
    omp_set_dynamic(0); /* all the threads asked for, or the figure is not "all cores" */
    double ghz = nominal_ghz();
    char date[32];
    utc_now(date, sizeof date);
    print_header(reps, quick, cores, ghz, date);

    /* Compute: every FMA kernel the CPU has, on 1 thread and on all cores. */
    fma_measure fms[4];
    job jobs[16];
    int nfm = fma_measures(fms), njobs = 0;
    for (int k = 0; k < nfm; k++) {
        long iters = fms[k].available ? calibrate_fma(&fms[k], fma_seconds) : 0;
        for (int c = 0; c < (fms[k].available ? nthread_counts : 1); c++) {
            int th = thread_counts[c];
            jobs[njobs++] = (job){.kind = JOB_FMA, .measure = fms[k].name, .unit = "GFLOP/s",
                                  .threads = th, .fm = &fms[k], .iters = iters,
                                  .work = 2.0 * fms[k].lanes * fms[k].chains * iters * th};
        }
    }
    measure(jobs, njobs, reps);
    print_rows(jobs, njobs, ghz);

    /* Memory: arrays of 8x the last-level cache (and at least 256 MiB), so the
     * caches hold almost none of them and the figure is memory's, not L3's. */
    long llc = cache_bytes(3) > 0 ? cache_bytes(3) : cache_bytes(2);
    double want = 8.0 * llc > 256.0 * (1 << 20) ? 8.0 * llc : 256.0 * (1 << 20);
    bw_blocks = (long)ceil(want / (3.0 * BLOCK * sizeof(float))) * 3;
    bw_n = bw_blocks / 3 * BLOCK;
    size_t bytes = (size_t)bw_blocks * BLOCK * sizeof(float);
    if (!(bw_buf = aligned_alloc(64, bytes))) {
        fprintf(stderr, "peak: cannot allocate %.2f GiB for the bandwidth arrays\n",
                bytes / (double)(1 << 30));
        if (csv)
            fclose(csv);
        return 1;
    }
    /* Pages are placed where they are first written: write them with all threads. */
    init_arrays(bw_buf, bw_blocks, cores);
    char read_note[96], triad_note[96], b1[32], b2[32];
    snprintf(read_note, sizeof read_note, "sum of %s (%.1fx L3)",
             fmt_bytes(b1, sizeof b1, (double)bytes), llc > 0 ? (double)bytes / llc : 0.0);
    /* The triad counts 3 arrays x 4 bytes per element (2 read, 1 written), as STREAM
     * does. A cache first reads each line of `a` it will write (write-allocate), so
     * memory really moves 4 x 4 bytes: the true traffic is 4/3 of the figure. */
    snprintf(triad_note, sizeof triad_note, "a=b+s*c, 3 x %s; counts 12 B/elem (16 w/ write-allocate)",
             fmt_bytes(b2, sizeof b2, bw_n * (double)sizeof(float)));
    njobs = 0;
    for (int c = 0; c < nthread_counts; c++) {
        jobs[njobs] = (job){.kind = JOB_READ, .measure = "bw_read", .unit = "GB/s",
                            .threads = thread_counts[c], .work = (double)bytes};
        snprintf(jobs[njobs++].note, sizeof jobs[0].note, "%s", read_note);
    }
    for (int c = 0; c < nthread_counts; c++) {
        jobs[njobs] = (job){.kind = JOB_TRIAD, .measure = "bw_triad", .unit = "GB/s",
                            .threads = thread_counts[c], .work = 3.0 * sizeof(float) * bw_n};
        snprintf(jobs[njobs++].note, sizeof jobs[0].note, "%s", triad_note);
    }
    measure(jobs, njobs, reps);
    print_rows(jobs, njobs, ghz);
    free(bw_buf);

    printf("\nGFLOP/s: 2 flops per FMA per float lane. GB/s: 10^9 bytes per second.\n");
    if (csv) {
        write_csv(csv, date);
        if (fclose(csv) != 0) {
            fprintf(stderr, "peak: error writing --csv %s\n", csv_path);
            return 1;
        }
        printf("wrote %s\n", csv_path);
    }
    return 0;
}
