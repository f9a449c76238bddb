/* options.c: 05's stage options (--blocks, --split, --units: for tuning and comparing) and the
 * header's title. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "../simd.h"
#include "cli.h"

char simd_title[512];

/* The header's title: the kernel the dispatch picks, the block sizes and the caches they come
 * from (again after --blocks) */
static void describe(void)
{
    long l1, l2, l3;
    simd_cache_sizes(&l1, &l2, &l3);
    const microkernel *uk = microkernel_best();
    gemm_blocking bs = gemm_blocking_for(uk), b2 = gemm_blocking_for(&uk_avx2_6x16);
    snprintf(simd_title, sizeof simd_title,
             "packed micro-kernels; dispatch picks %s; MC=%d KC=%d NC=%d (avx2_6x16: KC=%d "
             "NC=%d) from L1d %ld KiB, L2 %ld KiB, L3 %.1f MiB",
             uk->name, bs.mc, bs.kc, bs.nc, b2.kc, b2.nc, l1 >> 10, l2 >> 10, l3 / 1048576.0);
}

/* Before main: --help prints the title. */
__attribute__((constructor)) static void describe_at_start(void) { describe(); }

/* --blocks MC,KC,NC overrides the block sizes (0 keeps the computed one): for tuning.
 * --split own|shared: how the threads share B (goto.c's gemm_partition_for), for comparing.
 * --units U: the units of work a thread wants in each slice of K (goto.c), for tuning. */
int simd_option(bench_opts *o, const char *opt, const char *val)
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
