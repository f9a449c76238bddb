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
#include "edges.h"
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

static int probe, peak, fp32, unrounded, bound_fp32;
static char title[400];

/* The header's title: what runs, with the block sizes it runs with (after --blocks) */
static void describe(void)
{
    int mc, kc, nc;
    bf16_blocking(&kernel_amx_blocked, &mc, &kc, &nc);
    snprintf(title, sizeof title,
             "%s; amx_blocked's MC=%d KC=%d NC=%d (KC in BF16 values of a packed row)",
             fp32 ? "FP32 A and B on the tile unit: three BF16 pieces, six products"
                  : "BF16 A and B, FP32 C: VDPBF16PS and the AMX tiles",
             mc, kc, nc);
}

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (!strcmp(opt, "--probe") || !strcmp(opt, "--fp32") || !strcmp(opt, "--peak"))
        return 1; /* seen by main() already */
    if (!strcmp(opt, "--reference")) {
        if (!val || (strcmp(val, "rounded") && strcmp(val, "unrounded")))
            cli_die("--reference: '%s' is neither rounded nor unrounded", val ? val : "");
        if (fp32)
            cli_die("--reference: not with --fp32 (its inputs are not rounded)");
        unrounded = !strcmp(val, "unrounded");
        bf16_reference_unrounded(unrounded);
        return 2;
    }
    if (!strcmp(opt, "--bound")) {
        if (!val || (strcmp(val, "fp32") && strcmp(val, "own")))
            cli_die("--bound: '%s' is neither fp32 nor own", val ? val : "");
        if (!fp32)
            cli_die("--bound: only with --fp32");
        bound_fp32 = !strcmp(val, "fp32");
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

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        probe |= !strcmp(argv[i], "--probe");
        peak |= !strcmp(argv[i], "--peak");
        fp32 |= !strcmp(argv[i], "--fp32");
    }
    describe();
    const stage_info stage = {
        .stage = "14_amx",
        .title = title,
        .default_sizes = "256:4096:x2",
        .default_threads = 1,
        .variants = fp32 ? fp32_variants : variants,
        .nvariants = fp32 ? sizeof fp32_variants / sizeof *fp32_variants
                          : sizeof variants / sizeof *variants,
        .extra_option = stage_option,
        .extra_help = HELP,
        .backend = fp32 ? &openblas_backend : &bf16_backend,
    };
    bench_opts o;
    cli_parse(&stage, argc, argv, &o);
    if (peak || probe) /* they print what they find; no rows for a CSV */
        cli_no_csv(&o, peak ? "--peak" : "--probe");
    bench_check_sizes(&o);
    bench_open_csv(&o);
    if (bound_fp32) /* a measurement of how far each is from FP32, not a check of the kernels */
        for (size_t v = 0; v < sizeof fp32_variants / sizeof *fp32_variants; v++) {
            fp32_variants[v].err_c = 2.0;
            fp32_variants[v].err_in = 0.0;
        }
    const cli_table table = {stage.variants, sizeof *stage.variants, stage.nvariants};
    int rc = 0;
    if ((rc = bench_check_runnable(&table, &o)) != 0) {
        /* (77: none of the variants asked for runs on this CPU; said on stderr) */
    } else if (peak) {
        rc = peak_main(o.threads[o.nthreads - 1]);
    } else if (probe) {
        rc = probe_main(&stage, &o);
    } else if ((rc = stage.backend->init(&o)) != 0) {
        /* (77: the baseline asked for is not installed; said on stderr) */
    } else if (o.edges) {
        rc = edges_main(&stage, &o);
    } else {
        bench_print_header(&stage, &o);
        int passed = 0, failed = bench_run(&stage, &o, &passed);
        bench_print_tally(passed, failed);
        if (unrounded)
            printf("(--reference unrounded: the checks compare with the float inputs' product and "
                   "fail by design; exit status 0)\n");
        if (bound_fp32)
            printf("(--bound fp32: every variant against the FP32 bound, c = 2; amx_bf16x1 and "
                   "amx_bf16x3 fail it by design; exit status 0)\n");
        rc = failed && !unrounded && !bound_fp32 ? 1 : 0;
    }
    fflush(stdout);
    int csv_rc = bench_close_csv(&o);
    free(o.shapes);
    free(o.selected);
    return csv_rc ? csv_rc : rc;
}
