/* 05_simd: packed micro-kernels (goto.c + the kernels), the harness does the rest.
 *   make stage05 && ./05_simd/simd --sizes 256:4096:x2 --threads 1,2
 *
 * Every variant is in the table, each with its micro-kernel's CPU test (runnable): the harness
 * checks every argument first (exit 2), then runs what this CPU can of the variants asked for,
 * names the rest in the table ("not on this CPU: needs AVX-512F/DQ/VL"), and exits 77,
 * "skipped", like a CUDA stage without a GPU, only when none of them can run. GEMM_HIDE_ISA
 * (common/cpu_features.h) makes it act as a CPU of a lower class.
 * The baseline is OpenBLAS as loaded, or MKL or BLIS (--baseline): the CSV's baseline column
 * names it ("OpenBLAS-Cooperlake(SkylakeX)": that core asked for, this one taken; "MKL-AVX2").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../04_threads/threads.h"
#include "baseline_blas.h"
#include "simd.h"

static const struct {
    gemm_variant v;
    const microkernel *uk; /* its micro-kernel: can this CPU run it? (NULL: plain C) */
} all_variants[] = {
    {{"avx512_6x64", "Goto loops (B packed, A packed or in place), 6x64 AVX-512 kernel, 24 zmm accumulators",
      gemm_avx512_6x64}, &uk_avx512_6x64},
    {{"avx512_14x32", "the same with a 14x32 AVX-512 kernel (28 zmm accumulators)",
      gemm_avx512_14x32}, &uk_avx512_14x32},
    {{"avx2_6x16", "packed Goto loops, 6x16 AVX2+FMA intrinsics kernel (12 ymm accumulators)",
      gemm_avx2_6x16}, &uk_avx2_6x16},
    {{"neon_8x12", "packed Goto loops, 8x12 NEON kernel (24 q accumulators; AArch64)", gemm_neon_8x12}, &uk_neon_8x12},
    {{"generic", "packed Goto loops, 6x16 kernel in GCC vector extensions (any CPU)",
      gemm_generic}, &uk_generic_6x16},
    {{"omp_simd", "packed Goto loops, 6x64 kernel in plain C + #pragma omp simd",
      gemm_omp_simd}, &uk_omp_simd_6x64},
    /* where the chapter starts from: stage 04's best, linked from 04_threads/threads.c */
    {{"omp_tiled", "stage 04's omp_tiled: 03's unroll_2x4 on tiles of C, OpenMP (linked)",
      gemm_omp_tiled}, NULL},
};
enum { NALL = sizeof all_variants / sizeof all_variants[0] };

static char title[512];

static void describe(void)
{
    long l1, l2, l3;
    simd_cache_sizes(&l1, &l2, &l3);
    const microkernel *uk = microkernel_best();
    gemm_blocking bs = gemm_blocking_for(uk), b2 = gemm_blocking_for(&uk_avx2_6x16);
    snprintf(title, sizeof title,
             "packed micro-kernels; dispatch picks %s; MC=%d KC=%d NC=%d (avx2_6x16: KC=%d "
             "NC=%d) from L1d %ld KiB, L2 %ld KiB, L3 %.1f MiB",
             uk->name, bs.mc, bs.kc, bs.nc, b2.kc, b2.nc, l1 >> 10, l2 >> 10, l3 / 1048576.0);
}

/* --blocks MC,KC,NC overrides the block sizes (0 keeps the computed one): for tuning.
 * --split own|shared: how the threads share B (goto.c's gemm_partition_for), for comparing.
 * --units U: the units of work a thread wants in each slice of K (goto.c), for tuning. */
static int blocks_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (strcmp(opt, "--split") == 0) {
        if (!val || (strcmp(val, "own") != 0 && strcmp(val, "shared") != 0 &&
                     strcmp(val, "auto") != 0))
            cli_die("--split: expects own, shared or auto, got '%s'", val ? val : "");
        gemm_split_override(strcmp(val, "own") == 0 ? 1 : strcmp(val, "shared") == 0 ? 2 : 0);
        return 2;
    }
    if (strcmp(opt, "--units") == 0) {
        gemm_units_override((int)cli_long("--units", val, 1, 4096));
        return 2;
    }
    if (strcmp(opt, "--blocks") != 0)
        return 0;
    long v[3];
    cli_longs("--blocks", "MC,KC,NC (0 keeps the computed value)", val, 3, 0, 1 << 16, v);
    gemm_blocking_override((int)v[0], (int)v[1], (int)v[2]);
    describe();
    return 2;
}

int main(int argc, char **argv)
{
    gemm_variant variants[NALL];
    for (int v = 0; v < NALL; v++) {
        variants[v] = all_variants[v].v;
        if (all_variants[v].uk) {
            variants[v].runnable = all_variants[v].uk->cpu_has;
            variants[v].needs = all_variants[v].uk->needs;
        }
    }
    describe();
    const stage_info stage = {
        .stage = "05_simd",
        .title = title,
        .default_sizes = "256:4096:x2",
        .default_threads = 0,
        .variants = variants,
        .nvariants = NALL,
        .extra_option = blocks_option,
        .extra_help = "  --blocks MC,KC,NC     override the cache block sizes (0: computed "
                      "from the caches)\n"
                      "  --split own|shared|auto  threads: each packs its own blocks of B, or "
                      "all pack\n                        each slice of B and share it (default "
                      "auto: as the sizes say)\n"
                      "  --units U             threads: at least U units of work a thread in "
                      "each slice\n                        of K (default 16, 32 where the slice "
                      "of B is shared;\n                        for tuning)\n"
                      "  GEMM_HIDE_ISA=avx512 (or avx2, avx) in the environment: dispatch as on a "
                      "CPU\n                        without it (common/cpu_features.h)\n",
        .backend = &openblas_backend,
    };
    return bench_main(&stage, argc, argv);
}
