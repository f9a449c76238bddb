/* options.h: 14's stage options and titles (options.c), for main.c's stage_infos. */
#ifndef AMX_OPTIONS_H
#define AMX_OPTIONS_H

#include "bench_types.h"

/* main.c's FP32 table, which --bound fp32 changes */
extern gemm_variant fp32_variants[];
extern const int fp32_nvariants;

/* The headers' titles, BF16 and --fp32: what runs and amx_blocked's block sizes (filled before
 * main, again after --blocks) */
extern char amx_title[], amx_fp32_title[];

/* stage_info.extra_option: --reference, --bound, --blocks, --split, --units (AMX_HELP) */
int amx_option(bench_opts *o, const char *opt, const char *val);
/* stage_info.checks_measure: --reference unrounded and --bound fp32 fail by design */
const char *amx_checks_measure(const bench_opts *o);

/* --help: these options and main.c's modes (--probe, --peak, --fp32), each beside the options it
 * goes with */
#define AMX_HELP                                                                               \
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

#endif
