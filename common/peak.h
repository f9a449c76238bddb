/* peak.h: the loops that measure this machine's ceilings for the roofline (peak_lib.c), and
 * their timers. build/peak (common/peak.c) runs them all and prints the table; the lab's probe
 * times the AVX-512 FMA loop beside a GEMM with the same calls, so both programs measure the
 * one peak.
 *
 *   fma_scalar   one float per FMA instruction (vfmadd231ss and kin): what plain C gets
 *   fma_avx2     256-bit FMA, 8 floats per instruction
 *   fma_avx512   512-bit FMA, 16 floats per instruction
 *   fma_neon     (64-bit ARM) 128-bit NEON FMA, 4 floats per instruction
 *   bw_read      STREAM-like read: the sum of an array far larger than the caches
 *   bw_triad     STREAM triad a[i] = b[i] + s*c[i] over three such arrays
 *
 * An FMA counts 2 flops per float lane (a multiply and an add), the same count as the 2*M*N*K
 * of a GEMM.
 */
#ifndef PEAK_H
#define PEAK_H

/* One FMA loop: `iters` iterations of `chains` independent FMAs of `lanes` floats; returns the
 * sum of its accumulators (for the caller to keep, so that the loop is not optimised away). */
typedef float fma_kernel(long iters, float m, float c);

typedef struct fma_measure {
    const char *name; /* the CSV's measure column */
    const char *isa;  /* what the CPU must have, for the "not available" line */
    int lanes, chains;
    fma_kernel *kernel;
    int available;    /* this CPU (and its OS) runs it */
} fma_measure;

#define PEAK_MAX_FMA 4

/* The FMA loops this build has, available or not (at most PEAK_MAX_FMA); returns how many. */
int fma_measures(fma_measure *out);

/* Seconds for `threads` threads to run threads x `iters` iterations of the loop together, from
 * a common start to the last thread's end, the iterations handed out in chunks to whichever
 * thread is free (so that a thread paused for a moment does not hold the others up). */
double time_fma(const fma_measure *fm, long iters, int threads);

/* Iterations for one run of about `seconds` on one thread (growing the count is the warm-up). */
long calibrate_fma(const fma_measure *fm, double seconds);

/* The bandwidth arrays are handled in blocks of PEAK_BLOCK floats (one 4 KiB page), shared out
 * with the same static schedule for the first touch and for every measure: each thread then
 * reads the pages it wrote first, which the OS placed in its NUMA node. */
#define PEAK_BLOCK 1024

/* Write nblocks blocks of x with `threads` threads (the first touch places the pages). */
void bw_init(float *x, long nblocks, int threads);

/* Seconds to read all nblocks blocks of x once. */
double time_read(const float *x, long nblocks, int threads);

/* Seconds for one triad a = b + s*c over n floats each (n a multiple of PEAK_BLOCK). */
double time_triad(float *restrict a, const float *restrict b, const float *restrict c, long n,
                  int threads);

#endif
