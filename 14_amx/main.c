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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../05_simd/simd.h"
#include "amx.h"
#include "baseline_blas.h"
#include "bench.h"
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
 * Not const: --bound fp32 sets every c to 2 and drops the own bounds. */
static gemm_variant fp32_variants[] = {
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

static int unrounded, bound_fp32;
static char title[400], fp32_title[400];

/* The headers' titles: what runs, with the block sizes it runs with (again after --blocks) */
static void describe(void)
{
    int mc, kc, nc;
    bf16_blocking(&kernel_amx_blocked, &mc, &kc, &nc);
    snprintf(title, sizeof title,
             "BF16 A and B, FP32 C: VDPBF16PS and the AMX tiles; amx_blocked's MC=%d KC=%d NC=%d "
             "(KC in BF16 values of a packed row)", mc, kc, nc);
    snprintf(fp32_title, sizeof fp32_title,
             "FP32 A and B on the tile unit: three BF16 pieces, six products; amx_blocked's MC=%d "
             "KC=%d NC=%d (KC in BF16 values of a packed row)", mc, kc, nc);
}

/* Before main: --help prints the title. */
__attribute__((constructor)) static void describe_at_start(void) { describe(); }

static int fp32_mode(const bench_opts *o) { return o->mode && !strcmp(o->mode->flag, "--fp32"); }

/* --bound fp32: how far each FP32 variant is from FP32, a measurement and not a check of the
 * kernels: every c 2, the own bounds (err_in) dropped. --bound own puts them back (the last
 * --bound counts). */
static void fp32_bound(int on)
{
    enum { NFP32 = sizeof fp32_variants / sizeof *fp32_variants };
    static double own_c[NFP32], own_in[NFP32];
    static int saved;
    for (int v = 0; v < NFP32; v++) {
        if (!saved) {
            own_c[v] = fp32_variants[v].err_c;
            own_in[v] = fp32_variants[v].err_in;
        }
        fp32_variants[v].err_c = on ? 2.0 : own_c[v];
        fp32_variants[v].err_in = on ? 0.0 : own_in[v];
    }
    saved = 1;
}

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    if (!strcmp(opt, "--reference")) {
        if (!val || (strcmp(val, "rounded") && strcmp(val, "unrounded")))
            cli_die("--reference: '%s' is neither rounded nor unrounded", val ? val : "");
        if (fp32_mode(o))
            cli_die("--reference: not with --fp32 (its inputs are not rounded)");
        unrounded = !strcmp(val, "unrounded");
        bf16_reference_unrounded(unrounded);
        return 2;
    }
    if (!strcmp(opt, "--bound")) {
        if (!val || (strcmp(val, "fp32") && strcmp(val, "own")))
            cli_die("--bound: '%s' is neither fp32 nor own", val ? val : "");
        if (!fp32_mode(o))
            cli_die("--bound: only with --fp32");
        bound_fp32 = !strcmp(val, "fp32");
        fp32_bound(bound_fp32);
        return 2;
    }
    if (!strcmp(opt, "--split")) {
        if (!val || (strcmp(val, "own") && strcmp(val, "shared") && strcmp(val, "auto")))
            cli_die("--split: expects own, shared or auto, got '%s'", val ? val : "");
        bf16_split_override(!strcmp(val, "own") ? 1 : !strcmp(val, "shared") ? 2 : 0);
        return 2;
    }
    if (!strcmp(opt, "--units")) {
        bf16_units_override((int)cli_long("--units", val, 1, 4096));
        return 2;
    }
    if (!strcmp(opt, "--blocks")) {
        long v[3];
        cli_longs("--blocks", "MC,KC,NC (0 keeps the computed value)", val, 3, 0, 1 << 16, v);
        bf16_blocking_override((int)v[0], (int)v[1], (int)v[2]);
        describe();
        return 2;
    }
    return 0;
}

/* The runs whose failed checks are a measurement: they fail by design, exit status 0. */
static const char *checks_measure(const bench_opts *o)
{
    (void)o;
    if (unrounded)
        return "--reference unrounded: the checks compare with the float inputs' product and "
               "fail by design";
    if (bound_fp32)
        return "--bound fp32: every variant against the FP32 bound, c = 2; amx_bf16x1 and "
               "amx_bf16x3 fail it by design";
    return NULL;
}

#define HELP                                                                                  \
    "  --reference rounded|unrounded  check against the product of the BF16-rounded inputs\n" \
    "                        (default) or of the float inputs (BF16's error: the checks fail,\n" \
    "                        by design, and do not set the exit status)\n"                    \
    "  --probe               how VDPBF16PS and the tile unit add: exact products, rounding,\n" \
    "                        the order of the sums (the bound's c)\n"                          \
    "  --peak                one core's FMA, VDPBF16PS and TDPBF16PS peaks, side by side\n"    \
    "                        (with --threads T: T cores at once, every one busy)\n"           \
    "  --fp32                FP32 A, B and C (gemm_fn): amx_fp32 and its one- and three-product\n" \
    "                        siblings against 05's kernel and the FP32 baseline (sgemm)\n"     \
    "  --bound fp32|own      with --fp32: every variant against the FP32 bound (c = 2; the\n"  \
    "                        BF16x1 and x3 ones fail it by design, exit status 0) or its own\n" \
    "  --blocks MC,KC,NC     override the block sizes (KC in BF16 values of a packed row; 0:\n" \
    "                        computed from the caches)\n"                                       \
    "  --split own|shared|auto  how the threads share B: each its own blocks, narrowed to\n" \
    "                        four a thread, or the slice packed together (default: auto)\n"     \
    "  --units U             with --split shared: at least U units of work a thread in each\n" \
    "                        slice of K (default 16; for tuning)\n"                             \
    "  --baseline onednn     (BF16) oneDNN's matmul, where pip's onednn is installed\n"        \
    "  GEMM_HIDE_ISA=\"amx avx512_bf16\" in the environment: act as a CPU without them\n"  \
    "                        (common/cpu_features.h: also avx512, avx2, avx, gfni)\n"

static const stage_info fp32_stage = {
    .stage = "14_amx",
    .title = fp32_title,
    .default_sizes = "256:4096:x2",
    .default_threads = 1,
    .variants = fp32_variants,
    .nvariants = sizeof fp32_variants / sizeof *fp32_variants,
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &openblas_backend,
    .checks_measure = checks_measure,
};

/* (their lines for --help are in HELP, beside the options they go with) */
static const stage_mode modes[] = {
    {.flag = "--fp32", .stage = &fp32_stage},
    {.flag = "--probe", .run = probe_main, .before_init = 1},
    {.flag = "--peak", .run = peak_main, .before_init = 1},
};

static const stage_info stage = {
    .stage = "14_amx",
    .title = title,
    .default_sizes = "256:4096:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof *variants,
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &bf16_backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof *modes,
    .checks_measure = checks_measure,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
