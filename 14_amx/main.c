/* 14_amx: the CPU's matrix unit. BF16 A and B, FP32 C, on VDPBF16PS and the AMX tiles; then FP32
 * A, B and C at FP32 accuracy from BF16 pieces (--fp32).
 *   make stage14 && ./14_amx/amx --sizes 1024:4096:x2 --baseline mkl
 *   ./14_amx/amx --probe                  how the tile unit and VDPBF16PS round and add (the bound's c)
 *   ./14_amx/amx --fp32 --sizes 4096 --baseline mkl     amx_fp32 against MKL's sgemm
 * The harness rounds A and B to BF16 and checks against the product of the rounded values;
 * --reference unrounded checks against the float inputs instead (BF16's own error: those checks
 * fail by design and leave the exit status 0). --fp32 --bound fp32 holds amx_bf16x1 and
 * amx_bf16x3 to the FP32 bound too (they fail it by design, exit status 0).
 * A CPU without AMX (or without AVX512-BF16), or GEMM_HIDE_ISA="amx avx512_bf16" (common/
 * cpu_features.h): the table names those variants "not on this CPU" and runs the rest; naming only
 * such variants exits 77.
 */
#include "../05_simd/simd.h"
#include "amx.h"
#include "baseline_blas.h"
#include "bench.h"
#include "harness/options.h"
#include "harness/probe.h"

/* The BF16 variants: the FP32 sums are scaled by alpha at the end (alpha_last, gemm.h), as
 * chapter 12's. c of the bound: amx.h (derived from what --probe measured). */
#define BF16_VARIANT(NAME, DESC, FN, C, HAS, NEEDS)                                            \
    {.name = NAME, .desc = DESC, .fn = gemm_bf16_only, .err_c = C, .alpha_last = 1,            \
     .runnable = HAS, .needs = NEEDS, .other_fn = GEMM_OTHER_FN(FN)}

static const gemm_variant variants[] = {
    {.name = "simd", .desc = "05's best FP32 kernel (linked), on the same BF16-rounded values: the "
                             "FMA units' speed", .fn = gemm_simd},
    BF16_VARIANT("avx512_bf16", "05's loops, 6x64 VDPBF16PS kernel (2 products a lane), B packed "
                                "in pairs along K", gemm_avx512_bf16, AVX512_BF16_ERR_C,
                 cpu_has_avx512_bf16, "AVX512-BF16"),
    BF16_VARIANT("amx_naive", "05's loops, one 16x16 C tile: an A and a B tile loaded per "
                              "TDPBF16PS", gemm_amx_naive, AMX_ERR_C, cpu_has_amx, "AMX-BF16"),
    BF16_VARIANT("amx_blocked", "2x2 C tiles held over K, each A and B tile used twice",
                 gemm_amx_blocked, AMX_ERR_C, cpu_has_amx, "AMX-BF16"),
    BF16_VARIANT("amx_pipelined", "1x3 C tiles, the next A tile in a spare register: each load "
                                  "two TDPBF16PS ahead", gemm_amx_pipelined, AMX_ERR_C, cpu_has_amx,
                 "AMX-BF16"),
};

/* --fp32: the gemm_fn contract (FP32 A, B and C), the FP32 baselines (OpenBLAS, MKL or BLIS sgemm).
 * Not const: --bound fp32 sets every c to 2 and drops the own bounds (harness/options.c). */
gemm_variant fp32_variants[] = {
    {.name = "simd", .desc = "05's best FP32 kernel (linked): the FMA units", .fn = gemm_simd},
    {.name = "amx_bf16x1", .desc = "A and B rounded to BF16, one product: NOT FP32-accurate (its "
                                   "own bound)", .fn = gemm_amx_bf16x1, .err_in = BF16X1_ERR_IN,
     .runnable = cpu_has_amx, .needs = "AMX-BF16"},
    {.name = "amx_bf16x3", .desc = "hi + lo BF16 pieces, three products: NOT FP32-accurate (its own "
                                   "bound)", .fn = gemm_amx_bf16x3, .err_in = BF16X3_ERR_IN,
     .runnable = cpu_has_amx, .needs = "AMX-BF16"},
    {.name = "amx_fp32_folded", .desc = "hi + mid + lo BF16 pieces, six products folded into K, "
                                        "on amx_blocked's kernel: the FP32 bound",
     .fn = gemm_amx_fp32_folded, .runnable = cpu_has_amx, .needs = "AMX-BF16"},
    {.name = "amx_fp32", .desc = "the same six products, pieces apart: a kernel that changes one "
                                 "side's pieces a step (0.58 tile loads a TDPBF16PS)",
     .fn = gemm_amx_fp32, .runnable = cpu_has_amx, .needs = "AMX-BF16"},
};
const int fp32_nvariants = sizeof fp32_variants / sizeof *fp32_variants;

static const stage_info fp32_stage = {
    .stage = "14_amx",
    .title = amx_fp32_title,
    .default_sizes = "256:4096:x2",
    .default_threads = 1,
    .variants = fp32_variants,
    .nvariants = sizeof fp32_variants / sizeof *fp32_variants,
    .extra_option = amx_option,
    .extra_help = AMX_HELP,
    .backend = &openblas_backend,
    .checks_measure = amx_checks_measure,
};

/* (their lines for --help are in AMX_HELP, beside the options they go with) */
static const stage_mode modes[] = {
    {.flag = "--fp32", .stage = &fp32_stage},
    {.flag = "--probe", .run = probe_main, .before_init = 1},
    {.flag = "--peak", .run = peak_main, .before_init = 1},
};

static const stage_info stage = {
    .stage = "14_amx",
    .title = amx_title,
    .default_sizes = "256:4096:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof *variants,
    .extra_option = amx_option,
    .extra_help = AMX_HELP,
    .backend = &bf16_backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof *modes,
    .checks_measure = amx_checks_measure,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
