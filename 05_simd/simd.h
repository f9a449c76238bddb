/* simd.h: stage 05's packed GEMM, the micro-kernels it runs, and the entry points
 * a later stage links (06_strassen multiplies its sub-blocks with gemm_simd, and runs its
 * folded Strassen in gemm_loops).
 *
 *   goto.c            packing, the five loops around the micro-kernel (with hooks), the
 *                     block sizes, the run-time dispatch, one gemm_fn per micro-kernel
 *   kernel_generic.c  microkernel_generic_6x16: GCC vector extensions, any CPU (the exercise)
 *   kernel_avx512.c   microkernel_avx512_6x64 (and _14x32): intrinsics, built with -mavx512f
 *   kernel_avx2.c     microkernel_avx2_6x16:    intrinsics, built with -mavx2 -mfma
 *   kernel_neon.c     microkernel_neon_8x12:    NEON intrinsics, AArch64 (ARM) only
 *   kernel_omp_simd.c microkernel_omp_simd_6x64: plain C + #pragma omp simd (the compiler's try)
 *   main.c            the variant table; harness/options.c its options (--blocks, --split, --units)
 */
#ifndef SIMD_H
#define SIMD_H

#include "gemm.h"

#if defined(__x86_64__) || defined(__i386__)
#define SIMD_X86 1 /* the AVX2 and AVX-512 kernels exist only here */
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
#define SIMD_NEON 1 /* the NEON kernel exists only here */
#endif

/* The micro-kernel: one MR x NR tile of C from one packed micro-panel of A and one of B.
 *
 *   a: kc steps of MR floats: a[p*MR + i] = A(i, p)   (a column of the MR x kc micro-panel)
 *   b: kc steps of NR floats: b[p*NR + j] = B(p, j)   (a row of the kc x NR micro-panel)
 *   c: the tile's top-left element in C (row stride ldc); only its first m <= MR rows and
 *      n <= NR columns are C's, the rest lies outside the matrix and must not be touched.
 *
 *   C[0:m, 0:n] = alpha * (a . b)[0:m, 0:n] + beta * C[0:m, 0:n]
 *
 * The packing pads a and b with zeros to full MR and NR, so a kernel always computes the
 * whole MR x NR product; only its stores look at m and n. When beta == 0, C is not read.
 * b is 64-byte aligned (so is every row b + p*NR when NR is a multiple of 16); a is not. */
typedef void microkernel_fn(int kc, const float *a, const float *b, float alpha, float beta,
                            float *c, int ldc, int m, int n);

microkernel_fn microkernel_generic_6x16, microkernel_omp_simd_6x64;
#ifdef SIMD_X86
microkernel_fn microkernel_avx512_6x64, microkernel_avx512_14x32, microkernel_avx2_6x16;
#endif
#ifdef SIMD_NEON
microkernel_fn microkernel_neon_8x12;
#endif

/* A micro-kernel that reads A in place instead of from a packed micro-panel: the same
 * contract, but a is A(0, 0) of the tile in the caller's matrix (row stride lda), and row i
 * is read along p at a + i*lda. Only rows below m are C's; the kernel must not read rows
 * of A past m either (they may lie outside the matrix). */
typedef void microkernel_a_fn(int kc, const float *a, int lda, const float *b, float alpha,
                              float beta, float *c, int ldc, int m, int n);
#ifdef SIMD_X86
microkernel_a_fn microkernel_avx512_6x64_a_in_place;
#endif

/* A packing routine for a full MR-row micro-panel of A (the A argument of the contract above):
 * dst[p*MR + i] = A(i, p) for i < MR, p < kc. prefetch_next: the next panel's MR rows (A + MR*lda)
 * exist, ask for them. NULL in a microkernel: goto.c's scalar pack_a_panel does it. */
typedef void pack_a_fn(int kc, const float *A, int lda, int prefetch_next, float *dst);
#ifdef SIMD_X86
pack_a_fn pack_a_avx512_6, pack_a_avx2_6;
#endif

/* A micro-kernel and the facts the five loops need about it. */
typedef struct microkernel {
    const char *name; /* the variant's name: "avx512_6x64" */
    int mr, nr;       /* the tile it computes */
    microkernel_fn *fn;
    int (*cpu_has)(void); /* can this CPU run it? (__builtin_cpu_supports; NEON: AArch64) */
    const char *needs;    /* what it needs, for messages: "AVX-512F/DQ/VL" */
    microkernel_a_fn *fn_a_in_place; /* the same kernel reading A unpacked (NULL: none) */
    pack_a_fn *pack_a;               /* a faster packing of full A panels (NULL: the scalar one) */
} microkernel;

extern const microkernel uk_avx512_6x64, uk_avx512_14x32, uk_avx2_6x16, uk_neon_8x12,
    uk_generic_6x16, uk_omp_simd_6x64;

/* The CPU tests of the AVX-512 kernels (F, DQ and VL) and of the AVX2 one (AVX2 and FMA), and
 * what they look for, for messages (a variant's runnable and needs, gemm.h) */
int cpu_has_avx512(void);
int cpu_has_avx2(void);
int cpu_has_neon(void);
#define NEEDS_AVX512 "AVX-512F/DQ/VL"
#define NEEDS_AVX2 "AVX2 and FMA"
#define NEEDS_NEON "NEON (AArch64)"

/* The dispatch order, fastest first; the last entry runs on any CPU. */
extern const microkernel *const simd_kernels[];
extern const int simd_nkernels;

/* The best micro-kernel this CPU can run: the first of simd_kernels it has. */
const microkernel *microkernel_best(void);

/* The cache blocking (see goto.c for which cache bounds which):
 *   KC  the depth of a packed panel: an MR x KC micro-panel of A stays in L1
 *   NC  the width of a packed block of B: KC x NC stays in the core's own L2
 *   MC  the height of a packed block of A: MC x KC stays in the shared L3 */
typedef struct gemm_blocking {
    int mc, kc, nc;
} gemm_blocking;

/* The block sizes for a kernel: from the cache sizes read at run time, each value
 * replaced by the override where one was set (0 keeps the computed value). */
gemm_blocking gemm_blocking_for(const microkernel *uk);
void gemm_blocking_override(int mc, int kc, int nc);

/* The cache sizes the block sizes were computed from (bytes; fallbacks where the
 * system does not say). */
void simd_cache_sizes(long *l1d, long *l2, long *l3);

/* The five loops on their own, for a stage that packs or stores differently (06's Strassen
 * forms sums of blocks while it packs them, and adds each tile to several blocks of C), as
 * BLIS exports them: the cut of the problem, then the loops, which call three hooks.
 *
 * gemm_partition_for: how the loops cut an M x N x K product (M, N, K >= 1) for uk's tile
 * and for the threads; the block sizes are gemm_blocking_for(uk)'s. */
typedef struct gemm_partition {
    int M, N, K, mr, nr;
    int nthreads; /* one inside a parallel region, or for a small product */
    int kc;       /* K in equal slices of at most KC */
    int mc;       /* M in equal blocks of at most MC rows (a multiple of MR) */
    int nc, nb;   /* N in nb blocks of nc columns (a multiple of NR) */
    int shared_b; /* 1: the threads pack each slice of B together and share it */
    int rparts;   /* a unit of work: a block of B times one of rparts parts of the A block */
} gemm_partition;
gemm_partition gemm_partition_for(const microkernel *uk, int M, int N, int K);

/* How the threads share B (goto.c's gemm_partition_for says when it picks which): 0 as the
 * rule says, 1 each thread packs its own blocks (at least 4 a thread, the partition before
 * the shared one), 2 the threads pack each slice of B together and share it. */
void gemm_split_override(int split);
/* The units of work a thread takes in each slice of K, at least (0: goto.c's UNITS_PER_THREAD,
 * and SHARED_UNITS_PER_THREAD where the slice of B is shared): for tuning (tools/probe.c). */
void gemm_units_override(int units);
/* 1 (default): threads that run out of units pack the next phase while the others finish
 * (gemm_loops); 0: the next phase is packed only once every unit is done. For comparing. */
void gemm_lookahead_override(int on);

/* What gemm_loops calls, from every thread. ctx is the caller's; (i, j, p) is where the panel,
 * block or tile starts in the M x N x K product.
 *   pack_a  rows x kc of A at (i, p), rows <= MR, into an MR x kc micro-panel dst (the layout
 *           microkernel_fn reads, zero rows past `rows`). rows_left: the rows from i to the end
 *           of this block of A (the next panel exists when rows_left >= 2 MR). NULL: A is not
 *           packed, and tile gets a == NULL.
 *   pack_b  kc x cols of B at (p, j) into micro-panels of NR columns, the one for column jr at
 *           dst + jr*kc (the layout microkernel_fn reads, zero columns past `cols`).
 *   tile    the m x n tile of C at (i, j), slice p..p+kc of K, from micro-panels a and b: run
 *           the micro-kernel and put the tile where it goes (p == 0 is the first slice).
 *   scratch the calling thread's scratch_floats floats, 64-byte aligned, for any hook to use.
 * A hook must not call gemm_loops or gemm_packed: the packing buffers are the calling thread's. */
typedef struct gemm_hooks {
    void (*pack_a)(const void *ctx, int i, int p, int rows, int kc, int rows_left, float *dst,
                   float *scratch);
    void (*pack_b)(const void *ctx, int p, int j, int kc, int cols, float *dst, float *scratch);
    void (*tile)(const void *ctx, int i, int j, int p, int kc, int m, int n, const float *a,
                 const float *b, float *scratch);
    size_t scratch_floats;
    const void *ctx;
} gemm_hooks;

/* The five loops over the partition (goto.c's header draws them), with OpenMP over units of
 * work as part says: blocks of B (each thread packs its own), or blocks of B times parts of
 * the A block's rows (all threads pack the slice of B and share it). */
void gemm_loops(const gemm_partition *part, const gemm_hooks *hooks);

/* The Goto/BLIS algorithm with micro-kernel uk: the gemm_fn contract (gemm.h), OpenMP
 * with omp_get_max_threads() threads (one, if called from inside a parallel region). uk must be one this CPU can run. gemm_loops with 05's hooks: A and B
 * packed as they are (alpha into B), the tile into C. */
void gemm_packed(const microkernel *uk, int M, int N, int K, float alpha, const float *A,
                 int lda, const float *B, int ldb, float beta, float *C, int ldc);

/* gemm_packed's parts, for a caller that wraps its hooks (tools/probe.c times them): the
 * call's arguments, and the hooks that pack A and B as they are (alpha into B; A left in place
 * where few blocks of B reuse it) and put each tile into C. */
typedef struct packed_call {
    const microkernel *uk;
    const float *A, *B;
    float *C;
    int lda, ldb, ldc;
    float alpha, beta;
} packed_call;
gemm_hooks gemm_packed_hooks(const gemm_partition *pt, const packed_call *call);

/* gemm_simd: gemm_packed with the best micro-kernel for this CPU (what 06 calls).
 * The others force one micro-kernel each: the stage's variants. */
gemm_fn gemm_simd, gemm_avx512_6x64, gemm_avx512_14x32, gemm_avx2_6x16, gemm_neon_8x12, gemm_generic,
    gemm_omp_simd;

#endif
