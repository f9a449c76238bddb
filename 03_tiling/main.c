/* 03_tiling: the variant table; sweep.c runs the blocked ones once per --tile value.
 *   make stage03 && ./03_tiling/tiling --sizes 1024 --tile 16,32,64,128,256
 */
#include "../02_loop_order/loop_order.h"
#include "baseline_blas.h"
#include "harness/sweep.h"
#include "tiling.h"

static const gemm_variant variants[] = {
    {"ikj", "02's ikj, linked for comparison: no blocking", gemm_ikj},
    /* from here on, every variant works on T x T blocks (--tile) */
    {"tiled", "02's ikj on T x T blocks of A, B and C, read in place", gemm_tiled},
    {"tiled_kij", "tiled with 02's kij inside each block (the exercise's)", gemm_tiled_kij},
    {"tiled_copy", "tiled, each block first copied into a 64-byte-aligned buffer", gemm_tiled_copy},
    {"unroll_2x4", "tiled_copy, 2 rows x 4 k per step: 8 values of A in registers",
     gemm_unroll_2x4},
    {"unroll_4x4", "tiled_copy, 4 rows x 4 k per step: 16 values of A (the exercise's)",
     gemm_unroll_4x4},
};
enum { FIRST_TILED = 1 };

static const stage_info stage = {
    .stage = "03_tiling",
    .title = "cache blocking: T x T tiles, copied blocks, a 2x4 register block",
    .default_sizes = "64:1024:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = tile_option,
    .extra_help = TILE_HELP,
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return tile_sweep_main(&stage, FIRST_TILED, argc, argv); }
