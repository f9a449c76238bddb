/* options.h: 05's stage options and title (options.c), for main.c's stage_info. */
#ifndef SIMD_OPTIONS_H
#define SIMD_OPTIONS_H

#include "bench_types.h"

/* The header's title: the dispatch's kernel, the block sizes, the caches (filled before main,
 * again after --blocks) */
extern char simd_title[];

/* stage_info.extra_option: --blocks, --split, --units (SIMD_HELP) */
int simd_option(bench_opts *o, const char *opt, const char *val);
#define SIMD_HELP                                                                             \
    "  --blocks MC,KC,NC     override the cache block sizes (0: computed from the caches)\n"  \
    "  --split own|shared|auto  threads: each packs its own blocks of B, or all pack\n"       \
    "                        each slice of B and share it (default auto: as the sizes say)\n" \
    "  --units U             threads: at least U units of work a thread in each slice\n"      \
    "                        of K (default 16, 32 where the slice of B is shared;\n"          \
    "                        for tuning)\n"                                                   \
    "  GEMM_HIDE_ISA=avx512 (or avx2, avx) in the environment: dispatch as on a CPU\n"        \
    "                        without it (common/cpu_features.h)\n"

#endif
