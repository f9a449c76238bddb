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
#include "../04_threads/threads.h"
#include "baseline_blas.h"
#include "harness/options.h"
#include "simd.h"

static const gemm_variant variants[] = {
    {"avx512_6x64", "Goto loops (B packed, A packed or in place), 6x64 AVX-512 kernel, 24 zmm accumulators",
     gemm_avx512_6x64, .runnable = cpu_has_avx512, .needs = NEEDS_AVX512},
    {"avx512_14x32", "the same with a 14x32 AVX-512 kernel (28 zmm accumulators)",
     gemm_avx512_14x32, .runnable = cpu_has_avx512, .needs = NEEDS_AVX512},
    {"avx2_6x16", "packed Goto loops, 6x16 AVX2+FMA intrinsics kernel (12 ymm accumulators)",
     gemm_avx2_6x16, .runnable = cpu_has_avx2, .needs = NEEDS_AVX2},
    {"neon_8x12", "packed Goto loops, 8x12 NEON kernel (24 q accumulators; AArch64)",
     gemm_neon_8x12, .runnable = cpu_has_neon, .needs = NEEDS_NEON},
    {"generic", "packed Goto loops, 6x16 kernel in GCC vector extensions (any CPU)",
     gemm_generic},
    {"omp_simd", "packed Goto loops, 6x64 kernel in plain C + #pragma omp simd",
     gemm_omp_simd},
    /* where the chapter starts from: stage 04's best, linked from 04_threads/threads.c */
    {"omp_tiled", "stage 04's omp_tiled: 03's unroll_2x4 on tiles of C, OpenMP (linked)",
     gemm_omp_tiled},
};

static const stage_info stage = {
    .stage = "05_simd",
    .title = simd_title,
    .default_sizes = "256:4096:x2",
    .default_threads = 0,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = simd_option,
    .extra_help = SIMD_HELP,
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
