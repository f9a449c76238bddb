/* 06_strassen: Strassen and Winograd on top of 05's packed GEMM; the harness does the rest.
 *   make stage06 && ./06_strassen/strassen --sizes 2048,4096 --threads 2 --vs classic
 *
 * Stage options:
 *   --cutoff N      a level of Strassen only where min(M, N, K) >= N (default: the measured
 *                   crossover in strassen.c); --cutoff 2 forces every level on small sizes
 *   --vs classic    time every variant alternately with classic (05's kernel) instead of
 *                   OpenBLAS: the "vs" column is then the speed-up over classic, side by side
 *   --errors        check every variant, classic too, against the normwise bound with c = 1:
 *                   max_err_ratio is then max|C - R| / ((K+2) u max(|A||B|)), comparable
 *                   between variants (the chapter's error table). The normal check is
 *                   unchanged without it.
 *   --breakdown     no check, no baseline: time each variant and the part of it spent in the
 *                   additions (mat_add, mat_acc), with the bytes those moved
 * They are machinery, in harness/: options.c, backend.c (--vs classic), breakdown.c.
 */
#include "harness/harness.h"
#include "strassen.h"

/* The error constants: c in max|C - R| <= c (K+2) u max(|alpha||A||B| + |beta||C0|), the
 * normwise form of the harness's bound. README.md ("How wrong is it?") derives them from
 * Brent's bounds (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., 23.2):
 * L levels multiply the classical normwise bound by 3^L (Strassen: 12^L/4^L) or 4.5^L
 * (Winograd: 18^L/4^L); x4 turns max|a| max|b| into max(|A||B|)/K for inputs uniform in
 * [-1, 1]; x2 is the slack classic gets too (its c). */
#define C_STRASSEN_1LVL (2 * 4 * 3.0)
#define C_STRASSEN_2LVL (2 * 4 * 9.0)
#define C_WINOGRAD_1LVL (2 * 4 * 4.5)
#define C_WINOGRAD_2LVL (2 * 4 * 20.25)
#define C_HYBRID_2LVL (2 * 4 * 4.5 * 3)

/* (fast_algorithm: a NaN or Inf in A or B reaches elements of C whose dot products do not
 * use it; the edge suite (--edges) allows it, the chapter counts it). Not const: --errors and
 * --fold-c change it (harness/). */
gemm_variant strassen_variants[] = {
    {"classic", "05's packed GEMM (gemm_simd, best micro-kernel), linked from 05_simd",
     gemm_classic},
    {"strassen_1lvl", "Strassen, 1 level: 7 classic products, 18 additions via 3 temporaries",
     gemm_strassen_1lvl, C_STRASSEN_1LVL, 1, .fast_algorithm = 1},
    {"strassen_2lvl", "Strassen, 2 levels: 49 classic products of quarter size",
     gemm_strassen_2lvl, C_STRASSEN_2LVL, 1, .fast_algorithm = 1},
    {"winograd_1lvl", "Winograd's form, 1 level: 15 additions (8 + 7) via 3 temporaries",
     gemm_winograd_1lvl, C_WINOGRAD_1LVL, 1, .fast_algorithm = 1},
    {"winograd", "Winograd's form, 2 levels: 49 classic products of quarter size",
     gemm_winograd, C_WINOGRAD_2LVL, 1, .fast_algorithm = 1},
    {"reloaded_0lvl", "this stage's packing loops, no Strassen level: the control for reloaded",
     gemm_reloaded_0lvl},
    {"reloaded_1lvl", "Strassen, 1 level, sums formed while packing, product added from the tile",
     gemm_reloaded_1lvl, C_STRASSEN_1LVL, 1, .fast_algorithm = 1},
    {"reloaded_2lvl", "Strassen, 2 levels folded: 4-term sums packed, 4 targets per product",
     gemm_reloaded_2lvl, C_STRASSEN_2LVL, 1, .fast_algorithm = 1},
    {"hybrid_2lvl", "Winograd level with temporaries, then reloaded_1lvl for its 7 products",
     gemm_hybrid_2lvl, C_HYBRID_2LVL, 1, .fast_algorithm = 1},
};
enum { NVARIANTS = sizeof strassen_variants / sizeof strassen_variants[0] };
const int strassen_nvariants = NVARIANTS;

static const stage_mode modes[] = {
    {.flag = "--breakdown",
     .help = "  --breakdown           time each variant and its additions (no check, no baseline)\n",
     .run = strassen_breakdown, .before_init = 1, .own_csv = 1},
};

static const stage_info stage = {
    .stage = "06_strassen",
    .title = strassen_title,
    .default_sizes = "1024,2048,4096",
    .default_threads = 0,
    .variants = strassen_variants,
    .nvariants = NVARIANTS,
    .extra_option = strassen_option,
    .extra_help = STRASSEN_HELP,
    .backend = &strassen_backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof *modes,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
