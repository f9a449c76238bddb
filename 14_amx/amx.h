/* amx.h: stage 14, the CPU's matrix unit. 05's five loops (packing, blocking, threads) with
 * BF16 micro-kernels: VDPBF16PS on the AVX-512 units, then the AMX tile unit; then FP32 A and B
 * at FP32 accuracy from three BF16 pieces.
 *
 *   cpu.c               what this CPU has (GEMM_HIDE_ISA hides it: common/cpu_features.h), the
 *                       permission Linux asks for before a process may use the tiles, the tile
 *                       configuration
 *   loops.c             the five loops over packed BF16 panels, threads, the BF16 variants
 *   pack.c              A and B into the layouts the kernels read: tiles, the pair layout
 *   kernel_avx512_bf16.c  6 x 64 on VDPBF16PS (built with -mavx512bf16)
 *   kernel_amx_naive.c  one 16 x 16 C tile (built with -mamx-tile -mamx-bf16; the exercise)
 *   kernel_amx.c        2 x 2 C tiles (amx_blocked), 1 x 3 (amx_pipelined), and amx_fp32's
 *                       kernel over three pieces (built with -mamx-*)
 *   fp32.c              the split into hi + mid + lo and its packings; the FP32 variants
 *   backend.c           the harness's CPU backend for BF16 A and B, MKL's BF16 GEMM beside it
 *   onednn.c            oneDNN's BF16 matmul, loaded at run time (--baseline onednn)
 *   probe.c, peak.c     --probe (how the units round and add) and --peak (the units' ceilings)
 *   options.c           the stage's options (--reference, --bound, --blocks ...), the titles
 *   main.c              the variant tables and the run modes (--fp32, --probe, --peak)
 *
 * BF16 here is the upper half of an FP32 number (8 exponent bits, 8 significant bits), held as
 * its 16 bits (gemm.h's gemm_bf16).
 */
#ifndef AMX_H
#define AMX_H

#include <stddef.h>
#include <stdint.h>

#include "bench_types.h"
#include "bf16.h"
#include "gemm.h"

#if defined(__x86_64__)
#define AMX_X86 1 /* the AVX-512 BF16 and AMX kernels exist only here */
#endif

/* ---- the tile unit's geometry (fixed by the ISA for BF16) -------------------------------------- */
#define TILE_M 16 /* rows of a tile */
#define TILE_K 32 /* BF16 values of K in one row of an A tile (64 bytes); B: 16 pairs of rows */
#define TILE_N 16 /* FP32 columns of a C tile (64 bytes) */
#define TILE_ELEMS (TILE_M * TILE_K) /* BF16 values of one A or B tile: 1 KiB */

/* ---- what this CPU has (cpu.c) ------------------------------------------------------------------ */

/* 1 when the CPU has the instructions, the OS saves their state, and GEMM_HIDE_ISA does not hide
 * them. GEMM_HIDE_ISA is a list ("amx", "avx512_bf16", "amx avx512_bf16", or a class's: "avx512",
 * "avx2"; common/cpu_features.h): the stage then acts as on a CPU without them, which is how
 * `make test` checks that path on a CPU that has them.
 * cpu_has_amx also asks Linux for the tile data permission (arch_prctl ARCH_REQ_XCOMP_PERM),
 * once per process; it says 0 if Linux refuses. */
int cpu_has_avx512_bf16(void);
int cpu_has_amx(void);

/* The tile configuration every AMX kernel here uses: tiles 0-7 all 16 rows x 64 bytes (C: 16 x 16
 * FP32; A: 16 x 32 BF16; B: 16 pair rows x 16 columns of BF16 pairs). LDTILECFG is per thread:
 * each thread calls amx_tile_config() before its first tile instruction and amx_tile_release()
 * after its last. */
void amx_tile_config(void);
void amx_tile_release(void);

/* ---- the micro-kernels and their packing (loops.c runs them) ------------------------------------- */

/* A micro-kernel computes an MR x NR block of C from packed panels of A (MR x kc) and B
 * (kc x NR), kc a multiple of the kernel's kstep (the packing pads K with zeros):
 *
 *   C[0:m, 0:n] = alpha * (a . b)[0:m, 0:n] + beta * C[0:m, 0:n]      (beta == 0: C not read)
 *
 * Only m <= MR rows and n <= NR columns are C's. The sum is FP32, alpha scales it at the end
 * (alpha_last, gemm.h: alpha on a BF16 input would round it again). scratch: 64-byte aligned,
 * MR x NR floats, the thread's own. */
typedef void bf16_kernel_fn(int kc, const uint16_t *a, const uint16_t *b, float alpha, float beta,
                            float *c, int ldc, int m, int n, float *scratch);

/* Packing: rows x kc of A at A (row stride lda, elements of the packer's type) into one MR-row
 * panel; kc x cols of B into one NR-column panel, times alpha where the packer applies it (the
 * FP32 route: alpha on each term, gemm.h); zeros past rows, cols and kc. A panel holds
 * panel_k(kc) BF16 values per row: kc padded to the packer's group, times its pieces. */
typedef void panel_a_fn(int MR, int rows, int kc, const void *A, int lda, uint16_t *dst);
typedef void panel_b_fn(int NR, int kc, int cols, const void *B, int ldb, float alpha, uint16_t *dst);

typedef struct panel_packer {
    panel_a_fn *pack_a;
    panel_b_fn *pack_b;
    int kgroup; /* K is packed in groups of this many values (padded with zeros) */
    int kmult;  /* BF16 values of a packed row per value of K: products folded into K (FP32: 6) */
    int alpha_in_b; /* 1: pack_b applies alpha, the kernel gets 1 */
    int elem;       /* bytes per element of A and B: 2 (BF16) or 4 (FP32) */
} panel_packer;

typedef struct bf16_kernel {
    const char *name;
    int mr, nr, kstep;        /* the block of C per call; a panel's K a multiple of kstep */
    bf16_kernel_fn *fn;
    panel_packer bf16;        /* its packing of BF16 A and B */
    int (*cpu_has)(void);
    const char *needs;        /* for messages: "AMX-BF16" */
    int tiles;                /* 1: uses the tile unit (configure it in each thread) */
} bf16_kernel;

extern const bf16_kernel kernel_avx512_bf16, kernel_amx_naive, kernel_amx_blocked, kernel_amx_pipelined,
    kernel_amx_pieces;

/* pack.c: the layouts.
 *   pack_a_rows:  [p/2][i][2]       pairs of A(i, p), A(i, p+1) (VDPBF16PS: one 32-bit broadcast)
 *   pack_b_pairs: [p/2][j][2]       B(p, j), B(p+1, j) side by side: the pair layout
 *   pack_a_tiles: [p/32][i/16][16][32]   16 x 32 A tiles, 1 KiB each, rows of 64 bytes
 *   pack_b_tiles: [p/32][j/16][16][16][2] 16 pair rows x 16 columns: a B tile, 1 KiB */
panel_a_fn pack_a_rows, pack_a_tiles;
panel_b_fn pack_b_pairs, pack_b_tiles;

#ifdef AMX_X86
bf16_kernel_fn microkernel_avx512_bf16_6x64, microkernel_amx_16x16, microkernel_amx_32x32,
    microkernel_amx_16x48, microkernel_amx_fp32_32x32;
/* kernel_amx.c: C[0:m, 0:n] = alpha t + beta C (C unread when beta == 0) from a block t of floats
 * with row stride ldt (tiles stored to memory); n <= 32. */
void amx_store_c(const float *t, int ldt, float alpha, float beta, float *c, int ldc, int m, int n);
#endif

/* ---- the variants ------------------------------------------------------------------------------ */

/* loops.c: the five loops with kernel k, OpenMP over blocks of B (05's partition); the
 * gemm_bf16_fn contract (gemm.h). */
void gemm_bf16_packed(const bf16_kernel *k, int M, int N, int K, float alpha, const gemm_bf16 *A,
                      int lda, const gemm_bf16 *B, int ldb, float beta, float *C, int ldc);
/* The same loops with another packing (fp32.c's splits): A and B of the packer's type. */
void gemm_tiles_packed(const bf16_kernel *k, const panel_packer *pk, int M, int N, int K,
                       float alpha, const void *A, int lda, const void *B, int ldb, float beta,
                       float *C, int ldc);
gemm_bf16_fn gemm_avx512_bf16, gemm_amx_naive, gemm_amx_blocked, gemm_amx_pipelined;

/* fp32.c: FP32 A and B (gemm_fn) on the tile unit, each split into hi + mid + lo BF16 pieces;
 * the products that matter for FP32 accuracy summed in FP32 (README, "FP32 from BF16"). */
gemm_fn gemm_amx_fp32, gemm_amx_fp32_folded;
/* The same split with one product (hi.hi: FP32 inputs rounded to BF16) and with three (hi.hi,
 * hi.lo, lo.hi, two pieces): what fewer pieces cost, for the error table (--fp32 --bound fp32). */
gemm_fn gemm_amx_bf16x1, gemm_amx_bf16x3;

/* Block sizes set by hand (--blocks), 0 keeps a kernel's own. */
void bf16_blocking_override(int mc, int kc, int nc);
/* How the threads share B (loops.c): 0 as the rule says, 1 each its own blocks, 2 the slice
 * packed together and shared (--split auto|own|shared, as 05's). */
void bf16_split_override(int split);
/* At least this many units of work a thread in each slice of K (0: loops.c's default; --units). */
void bf16_units_override(int units);
void bf16_blocking(const bf16_kernel *k, int *mc, int *kc, int *nc);

/* ---- the error bounds (README, "The check"; --probe measures what they rest on) ------------------ */

/* c in c (K + 2) u (|alpha||A||B| + |beta||C|), u = 2^-24, for the BF16 variants, checked against
 * the product of the rounded inputs (products of two BF16 numbers are exact in FP32):
 *   VDPBF16PS adds its two products to the accumulator one at a time, each add rounded to
 *   nearest: K - s roundings in s slices of K, plus alpha and beta (2) per slice: K + s + 1
 *   <= 1.25 (K + 2) for slices of at least 32.
 *   TDPBF16PS sums the 16 even and the 16 odd products of a tile in two FP32 chains, adds the
 *   chains, then the accumulator: a tile's chains lose at most 15 u of its terms' sum and their
 *   add one more, the accumulator's add u S: at most (16 + ceil(K/32) + 2s) u S, and
 *   (ceil(K/2) + 2) u S for K <= 32: within c = 1 at every K. */
#define AVX512_BF16_ERR_C 1.25
#define AMX_ERR_C 1.0
/* FP32 inputs rounded to BF16 (8 significant bits, unit roundoff 2^-8): a product of two rounded
 * inputs is within (2^-7 + 2^-16) |ab| of the exact one; with two pieces (hi + lo, the residual
 * within 2^-16 |x|, lo.lo dropped), within 3 x 2^-16 |ab|: the bounds' term that does not grow with
 * K (verify.h's err_in), FP32's (c = 2) for the sums. */
#define BF16X1_ERR_IN (0.0078125 + 0.0000152587890625)
#define BF16X3_ERR_IN (3 * 0.0000152587890625)

/* ---- BF16 numbers ---------------------------------------------------------------------------- */

/* bf16_round_bits, bf16_bits_to_float, bf16_round_all: common/bf16.h, shared with stage 12 */

/* ---- the backend (backend.c) -------------------------------------------------------------------- */

/* The CPU backend for BF16 variants (gemm_variant.other_fn): rounds A and B to BF16 copies, runs
 * the variant on them, and hands the check the rounded values (unless bf16_reference_unrounded).
 * A variant without other_fn (05's FP32 kernel, for comparison) runs on the rounded values as
 * floats. Baselines: MKL's cblas_gemm_bf16bf16f32 (--baseline mkl), oneDNN's BF16 matmul
 * (--baseline onednn), or, for OpenBLAS and BLIS, which have no BF16 GEMM, their sgemm on the
 * rounded values (the same products, in FP32). */
extern const bench_backend bf16_backend;
void bf16_reference_unrounded(int on);
/* What gemm_variant.fn holds for a BF16 variant: it runs through bf16_backend only. */
gemm_fn gemm_bf16_only;

/* MKL's FP32 and BF16 GEMMs, as loaded by the harness (--baseline mkl), for --probe */
typedef void mkl_bf16_fn(int M, int N, int K, float alpha, const uint16_t *A, int lda,
                         const uint16_t *B, int ldb, float beta, float *C, int ldc);
mkl_bf16_fn *bf16_backend_mkl(void);

#endif
