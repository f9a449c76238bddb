/* 12_cuda_tensor_cores: BF16 A and B, FP32 C and sums, on the tensor cores.
 *   make stage12 && ./12_cuda_tensor_cores/cuda_tensor_cores --sizes 1024:8192:x2
 *   ./12_cuda_tensor_cores/cuda_tensor_cores --probe     how the tensor cores add (the bound's c)
 *   ./12_cuda_tensor_cores/cuda_tensor_cores --tune --sizes 4096   wgmma_persistent's configurations
 * The harness rounds A and B to BF16 and checks against the product of the rounded values;
 * --reference unrounded checks against the float inputs instead: BF16's own error (those checks
 * fail by design and leave the exit status 0).
 * wmma, mma_ldmatrix and mma_pipelined run on any GPU from sm_80; the wgmma variants need a Hopper
 * GPU (sm_90): elsewhere --list marks them, --variant all leaves them out, and naming one exits 77.
 *   ./12_cuda_tensor_cores/cuda_tensor_cores --fp16   FP16 A and B (what a T4 has): mma_pipelined
 * on FP16 (sm_80 on) and mma_sm75 (from sm_75), against cuBLAS's FP16 GEMM with FP32 sums.
 *   ./12_cuda_tensor_cores/cuda_tensor_cores --fp32 --sizes 4096   FP32 A, B, C: tf32, 3xtf32 and
 * cuBLAS with TF32 on and off, against cuBLAS FP32 (TF32 off), checked against the float inputs;
 * --bound fp32 holds every one of them to the FP32 bound (c = 2): tf32 fails it by design.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_harness.cuh"
#include "tensor_cores.h"
#include "harness/harness.h"

/* The tensor cores sum in FP32 and the epilogue scales the sum by alpha (.alpha_last, gemm.h):
 * A = B = 1e20 overflows the accumulator before alpha = 1e-20 could bring it back. */
#define BF16_ROW(NAME, DESC, FN, RUNNABLE, NEEDS)                                            \
    {.name = NAME, .desc = DESC, .fn = gemm_bf16_variant, .err_c = TC_ERR_C, .alpha_last = 1,  \
     .runnable = RUNNABLE, .needs = NEEDS, .other_fn = GEMM_OTHER_FN(FN)}
#define BF16_VARIANT(NAME, DESC, FN, NEED) BF16_ROW(NAME, DESC, FN, NEED) /* NEED: SM80, SM90 */
#define SM75 cuda_needs_sm75, "compute capability 7.5 (ldmatrix, FP16 mma.sync: a T4, RTX 20 or later)"
#define SM80 cuda_needs_sm80, CUDA_NEEDS_SM80
#define SM90 cuda_needs_sm90, CUDA_NEEDS_SM90

static int cuda_needs_sm75(void) { return cuda_cc() == 0 || cuda_cc() >= 75; }

static const gemm_variant variants[] = {
    BF16_VARIANT("wmma", "WMMA fragments: 16x16x16 BF16 products per warp call, 128x128 tiles "
                         "through shared memory", gemm_wmma, SM80),
    BF16_VARIANT("mma_ldmatrix", "mma.sync.m16n8k16 fed by ldmatrix from XOR-swizzled shared "
                                 "memory, 3-stage cp.async pipeline", gemm_mma_ldmatrix, SM80),
    BF16_VARIANT("mma_pipelined", "mma_ldmatrix with 128x256 tiles, warps of 64x64, 4 stages, "
                                  "fragments one k-step ahead, grouped tiles", gemm_mma_pipelined,
                 SM80),
    BF16_VARIANT("wgmma_tma", "Hopper: TMA (128-byte swizzle) + mbarriers, wgmma from shared "
                              "memory, a warpgroup per 64 rows, 4 stages", gemm_wgmma_tma, SM90),
    BF16_VARIANT("wgmma_ws", "wgmma_tma with a producer warpgroup and two consumer warpgroups "
                             "(setmaxnreg), 128x256 tiles", gemm_wgmma_ws, SM90),
    BF16_VARIANT("wgmma_persistent", "wgmma_ws on a persistent grid: 2-CTA clusters with TMA "
                                     "multicast, grouped tile order, tile chosen by size",
                 gemm_wgmma_persistent, SM90),
};

/* --fp32: the gemm_fn contract of 01-09 on the tensor cores, run by the FP32 backend (cuBLAS
 * SGEMM with TF32 off as the baseline column). tf32 and cuBLAS TF32 are checked against their
 * own bound (TF32_ERR_IN, tensor_cores.h), 3xtf32 and cuBLAS FP32 against the FP32 one (c = 2);
 * not const: --bound fp32 sets every c to 2. alpha scales the FP32 sum (alpha_last, as above). */
static gemm_variant fp32_variants[] = {
    {.name = "tf32", .desc = "Hopper: wgmma_persistent's pipeline on FP32 A (the tensor core truncates) "
                             "and a rounded copy of B^T: NOT FP32-accurate (its own bound)",
     .fn = gemm_tf32, .err_c = 2.0, .alpha_last = 1, .runnable = cuda_needs_sm90,
     .needs = CUDA_NEEDS_SM90, .err_in = TF32_ERR_IN},
    {.name = "3xtf32", .desc = "Hopper: big + small TF32 parts as one product of depth 3K "
                               "([As|Ab|Ab] [Bb|Bs|Bb] per 8 of K), small terms first: the FP32 bound",
     .fn = gemm_3xtf32, .err_c = 2.0, .alpha_last = 1, .runnable = cuda_needs_sm90,
     .needs = CUDA_NEEDS_SM90},
    {.name = "tf32_rs", .desc = "Hopper: C^T = B^T A^T, B^T from registers (loaded from B's tiles, rounded), "
                                "A^T K-major in shared memory: no B^T pass; NOT FP32-accurate",
     .fn = gemm_tf32_rs, .err_c = 2.0, .alpha_last = 1, .runnable = cuda_needs_sm90,
     .needs = CUDA_NEEDS_SM90, .err_in = TF32_ERR_IN},
    {.name = "mma_tf32", .desc = "A and B rounded to TF32 (cvt.rna) into shared memory, mma.sync.m16n8k8, "
                             "128x128 tiles: NOT FP32-accurate (its own bound)",
     .fn = gemm_mma_tf32, .err_c = 2.0, .alpha_last = 1, .runnable = cuda_needs_sm80,
     .needs = CUDA_NEEDS_SM80, .err_in = TF32_ERR_IN},
    {.name = "mma_3xtf32", .desc = "big + small TF32 parts, three mma.sync per k-step into one FP32 sum, "
                               "small terms first: the FP32 bound",
     .fn = gemm_mma_3xtf32, .err_c = 2.0, .alpha_last = 1, .runnable = cuda_needs_sm80,
     .needs = CUDA_NEEDS_SM80},
    {.name = "cublas_tf32", .desc = "cublasSgemm with CUBLAS_TF32_TENSOR_OP_MATH (its own bound)",
     .fn = gemm_cublas_tf32, .err_c = 2.0, .alpha_last = 1, .err_in = TF32_ERR_IN},
    {.name = "cublas_fp32", .desc = "cublasSgemm with CUBLAS_PEDANTIC_MATH: the baseline, checked",
     .fn = gemm_cublas_fp32, .err_c = 2.0, .alpha_last = 1},
};

#define NFP32 (sizeof fp32_variants / sizeof fp32_variants[0])

/* --fp16: FP16 A and B, FP32 C and sums (tensor_cores.h's gemm_fp16_fn), the GPUs without BF16
 * (a T4) included; the products are exact and the sums those of BF16: the same bound */
static const gemm_variant fp16_variants[] = {
    BF16_VARIANT("mma_pipelined", "mma_pipelined on FP16 A and B (mma.sync.m16n8k16.f16)",
                 gemm_mma_pipelined_fp16, SM80),
    BF16_VARIANT("mma_sm75", "the T4's path: tiles through registers (no cp.async), two "
                             "m16n8k8 a k-step, 128x128 tiles, 2 stages", gemm_mma_sm75, SM75),
};

static int unrounded, bound_fp32; /* --reference unrounded, --bound fp32 */

/* --bound fp32: every --fp32 variant against the FP32 bound (c = 2, no input term); own: each
 * against its own, as the table has it */
static void set_bound(int fp32)
{
    static gemm_variant own[NFP32];
    static int saved;
    if (!saved)
        memcpy(own, fp32_variants, sizeof own);
    saved = 1;
    for (size_t v = 0; v < NFP32; v++) {
        fp32_variants[v].err_c = fp32 ? 2.0 : own[v].err_c;
        fp32_variants[v].err_in = fp32 ? 0.0 : own[v].err_in;
    }
    bound_fp32 = fp32;
}

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    if (!strcmp(opt, "--bound")) {
        if (!val || (strcmp(val, "fp32") && strcmp(val, "own")))
            cli_die("--bound: '%s' is neither fp32 nor own", val ? val : "");
        if (!o->mode || !o->mode->stage || o->mode->stage->variants != fp32_variants)
            cli_die("--bound: only with --fp32");
        set_bound(!strcmp(val, "fp32"));
        return 2;
    }
    if (!strcmp(opt, "--reference")) {
        if (!val || (strcmp(val, "rounded") && strcmp(val, "unrounded")))
            cli_die("--reference: '%s' is neither rounded nor unrounded", val ? val : "");
        unrounded = !strcmp(val, "unrounded");
        cuda_bf16_reference_unrounded(unrounded);
        return 2;
    }
    return 0;
}

/* The checks of such a run are a measurement (of BF16's error, of how far TF32 is from FP32),
 * not a check of the kernels: their failures leave the exit status 0. */
static const char *checks_measure(const bench_opts *o)
{
    static char why[256];
    (void)o;
    snprintf(why, sizeof why, "%s%s%s",
             unrounded ? "--reference unrounded: the checks compare with the float inputs' "
                         "product and fail by design" : "",
             unrounded && bound_fp32 ? "; " : "",
             bound_fp32 ? "--bound fp32: every variant against the FP32 bound, c = 2; the TF32 "
                          "ones fail it by design" : "");
    return *why ? why : NULL;
}

#define HELP                                                                                  \
    "  --reference rounded|unrounded  check against the product of the BF16-rounded inputs\n" \
    "                        (default) or of the float inputs (BF16's error: the checks fail,\n" \
    "                        by design, and do not set the exit status)\n"

/* --tune: wgmma_persistent's configurations (harness/tune.cu), Hopper's alone: their rows say
 * so, and a run on another GPU ends with one line, exit status 77 */
static gemm_variant tune_variants[32]; /* mma_tune_variants, then wgmma_tune_variants (main) */
static stage_info tune_stage = {
    .stage = "12_cuda_tensor_cores",
    .title = "mma_pipelined's and wgmma_persistent's configurations: tile, stages, cluster, group",
    .default_sizes = "4096",
    .default_threads = 1,
    .variants = tune_variants,
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &cuda_bf16_backend,
    .checks_measure = checks_measure,
};

static const stage_info fp16_stage = {
    .stage = "12_cuda_tensor_cores",
    .title = "FP16 on the tensor cores: mma.sync, and a T4's path",
    .default_sizes = "512:8192:x2",
    .default_threads = 1,
    .variants = fp16_variants,
    .nvariants = sizeof fp16_variants / sizeof fp16_variants[0],
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &cuda_fp16_backend,
    .checks_measure = checks_measure,
};

static const stage_info fp32_stage = {
    .stage = "12_cuda_tensor_cores",
    .title = "FP32 on the tensor cores: TF32 and 3xTF32",
    .default_sizes = "512:8192:x2",
    .default_threads = 1,
    .variants = fp32_variants,
    .nvariants = NFP32,
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &cuda_backend,
    .checks_measure = checks_measure,
};

/* --probe runs on the table of the run (--fp32 --probe: the FP32 variants'), after the init */
static const stage_mode modes[] = {
    {.flag = "--probe",
     .help = "  --probe               how each variant's tensor-core instruction adds: exact products,\n"
             "                        rounding, bits kept, terms per block (K = 32 sums of known terms)\n",
     .run = probe_run},
    {.flag = "--tune",
     .help = "  --tune                mma_pipelined's and wgmma_persistent's configurations, each alone\n",
     .stage = &tune_stage},
    {.flag = "--fp32",
     .help = "  --fp32                FP32 A and B (gemm_fn): tf32, 3xtf32, cuBLAS TF32 and FP32\n"
             "  --bound fp32|own      with --fp32: every variant against the FP32 bound (c = 2; tf32\n"
             "                        fails it by design, exit status 0) or its own (default)\n",
     .stage = &fp32_stage},
    {.flag = "--fp16",
     .help = "  --fp16                FP16 A and B: mma_pipelined and the T4's mma_sm75, against cuBLAS FP16\n",
     .stage = &fp16_stage},
};

static const stage_info stage = {
    .stage = "12_cuda_tensor_cores",
    .title = "BF16 on the tensor cores: WMMA, mma.sync, TMA + wgmma",
    .default_sizes = "512:8192:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = stage_option,
    .extra_help = HELP,
    .backend = &cuda_bf16_backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof modes[0],
    .checks_measure = checks_measure,
};

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 0; i < mma_tune_nvariants; i++)
        tune_variants[n++] = mma_tune_variants[i];
    for (int i = 0; i < wgmma_tune_nvariants && n < 32; i++)
        tune_variants[n++] = wgmma_tune_variants[i];
    tune_stage.nvariants = n;
    return bench_main(&stage, argc, argv);
}
