/* 11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product, on the CPU and GPU.
 *
 * Not a float GEMM, so not bench_main; but the same house: the common command line (cli.h,
 * with the code's own options in harness/options.c), the CSV writer (csv.h), the timing rule
 * (timer.h) and the machine's facts (sysinfo.h). Here: the variant table. The harness
 * (harness/run.c) checks each variant byte for byte, encode and decode, then times it
 * alternately with ISA-L.
 *
 *   make stage11
 *   ./11_gf256/gf256                                    # RS(10,4), 4K to 1M chunks, every variant
 *   ./11_gf256/gf256 --data 6 --parity 3 --len 1,7,4097 --erasures all
 *   ./11_gf256/gf256 --variant split_tables,gfni --len 1M --threads 1,2
 */
#include "gf256.h"
#include "harness/gpu.h"
#include "harness/run.h"

/* ---- the variants ------------------------------------------------------------------------- */

#ifdef GF_X86
static int cpu_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int cpu_avx512bw(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
static int cpu_gfni(void) { return cpu_avx512bw() && __builtin_cpu_supports("gfni"); }
#define X86_ONLY(fn) fn
#else /* another CPU: its table says "not on this CPU" for x86's kernels */
static int cpu_avx2(void) { return 0; }
static int cpu_avx512bw(void) { return 0; }
static int cpu_gfni(void) { return 0; }
#define X86_ONLY(fn) NULL
#endif
#ifdef GF_NEON
static int cpu_neon(void) { return 1; } /* every AArch64 CPU has it (split_neon.c) */
#define NEON_ONLY(fn) fn
#else
static int cpu_neon(void) { return 0; }
#define NEON_ONLY(fn) NULL
#endif

static variant variants[] = {
    {{"table", "log/exp tables, one byte at a time (the scalar reference)"}, encode_table, -1},
    {{"split_avx2", "4-bit split tables, PSHUFB on 32 bytes (AVX2)", .runnable = cpu_avx2,
      .needs = "AVX2"}, X86_ONLY(encode_split_avx2), -1},
    {{"split_tables", "4-bit split tables, VPSHUFB on 64 bytes + VPTERNLOG (AVX-512BW; AVX2 "
      "where there is none; NEON on ARM)", .runnable = cpu_avx2, .needs = "AVX2"},
     X86_ONLY(encode_split_avx512), -1},
    {{"split_neon", "4-bit split tables, TBL on 16 bytes (NEON, AArch64)", .runnable = cpu_neon,
      .needs = "NEON (AArch64)"}, NEON_ONLY(encode_split_neon), -1},
    {{"gfni", "GF2P8AFFINEQB with a precomputed 8x8 bit matrix per coefficient (GFNI + "
      "AVX-512BW)", .runnable = cpu_gfni, .needs = "GFNI with AVX-512BW"}, X86_ONLY(encode_gfni), -1},
    {{"gpu_tables", "GPU: one byte per thread, log/exp tables in shared memory",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_TABLES},
    {{"gpu_rect", "GPU: run-time tile shape, 4 bytes per word, tables of 4 rows' products",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_RECT},
    {{"gpu_affine", "GPU: the bit-matrix product of gfni in integer instructions, no tables",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_AFFINE},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

int main(int argc, char **argv)
{
    /* split_tables: the widest split-table kernel this CPU runs (on ARM, NEON's) */
    variants[2].fn = cpu_avx512bw() ? X86_ONLY(encode_split_avx512) : X86_ONLY(encode_split_avx2);
    if (cpu_neon()) {
        variants[2].fn = NEON_ONLY(encode_split_neon);
        variants[2].v.runnable = cpu_neon;
    }
    return gf_main(variants, NVARIANTS, argc, argv);
}
