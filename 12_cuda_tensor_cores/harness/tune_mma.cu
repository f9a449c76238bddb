/* harness/tune_mma.cu: --tune's rows for mma_pipelined.cuh's kernel, one thing changed a row
 * (gpus.md, "What each change was worth"). Not in make gpu-archs (stage.mk): the same template
 * as harness/mma_pipelined.cu's configurations, which it builds for every GPU, in twenty more
 * shapes that add no instruction. */
#include "../mma_pipelined.cuh"
#include "harness.h"

using namespace mma_pipe;

/* --tune: mma_pipelined's configurations, one thing changed a row (BF16) */
#define MMA_TUNE(NAME, DESC, ...)                                                             \
    {.name = "pipelined/" NAME, .desc = DESC, .fn = gemm_bf16_variant, .err_c = TC_ERR_C,       \
     .alpha_last = 1, .runnable = cuda_needs_sm80, .needs = CUDA_NEEDS_SM80,                   \
     .other_fn = GEMM_OTHER_FN(pipelined<gemm_bf16, __VA_ARGS__>::run)}

const gemm_variant mma_tune_variants[] = {
    MMA_TUNE("128x256_w64x64_s4", "what mma_pipelined runs: 128x256 tiles, warps of 64x64, 4 "
             "stages, fragments one k-step ahead, groups of 8 tile rows",
             128, 256, 64, 64, 64, 4, true, false, true, 8),
    MMA_TUNE("128x256_w64x64_s4_unplanned", "each chunk's address worked out from the tile's "
             "corner at every k-tile", 128, 256, 64, 64, 64, 4, true, false, true, 8, false, 1,
             false),
    MMA_TUNE("128x256_w64x64_s4_edgetests", "every chunk tested against the edges, inside "
             "the matrices too (the address plan without its inside path)", 128, 256, 64, 64, 64,
             4, true, false, true, 8, false, 1, true, false),
    MMA_TUNE("128x256_w64x64_s4_spread", "a k-tile's copies spread over its k-steps, 3 a "
             "k-step", 128, 256, 64, 64, 64, 4, true, false, true, 8, false, 1, true, true, false,
             true, true),
    MMA_TUNE("128x256_w64x64_s4_copylate", "a k-tile's copies issued after k-step 0's "
             "ldmatrix, not before", 128, 256, 64, 64, 64, 4, true, false, true, 8, false, 1, true,
             true, true),
    MMA_TUNE("128x256_w64x64_s4_edgestores", "every result stored through the edge tests, "
             "inside C too", 128, 256, 64, 64, 64, 4, true, false, true, 8, false, 1, true, true,
             false, false),
    MMA_TUNE("128x256_w64x64_s3", "3 stages (what an A100 runs)", 128, 256, 64, 64, 64, 3, true, false, true, 8),
    MMA_TUNE("128x256_w64x64_s4_noprefetch", "each k-step's fragments loaded just before its mma",
             128, 256, 64, 64, 64, 4, true, false, false, 8),
    MMA_TUNE("128x256_w64x64_s4_g0", "tiles row by row, not in groups", 128, 256, 64, 64, 64, 4,
             true, false, true, 0),
    MMA_TUNE("256x128_w64x64_s4", "256x128 tiles", 256, 128, 64, 64, 64, 4, true, false, true, 8),
    MMA_TUNE("128x128_w64x32_s4", "mma_ldmatrix's tile and warps, 4 stages, prefetch, groups",
             128, 128, 64, 64, 32, 4, true, false, true, 8),
    MMA_TUNE("128x128_w64x64_s4", "128x128 tiles of 4 warps of 64x64", 128, 128, 64, 64, 64, 4,
             true, false, true, 8),
    MMA_TUNE("128x128_w64x32_s3", "what an RTX 30, 40 or 50 card runs (99 KiB a block)", 128, 128, 64, 64, 32, 3, true, false, true, 8),
    MMA_TUNE("256x128_w64x64_s3", "256x128 tiles, 3 stages", 256, 128, 64, 64, 64, 3, true, false,
             true, 8),
    MMA_TUNE("128x256_k128_s2", "tiles 128 deep, 2 stages: half the barriers", 128, 256, 128, 64,
             64, 2, true, false, true, 8),
    MMA_TUNE("128x256_w64x64_s4_persistent", "a block an SM taking tile after tile, the next "
             "tile's loads under this one's stores", 128, 256, 64, 64, 64, 4, true, false, true, 8,
             true),
    MMA_TUNE("128x256_w64x64_s3_persistent", "the same, 3 stages", 128, 256, 64, 64, 64, 3, true,
             false, true, 8, true),
    MMA_TUNE("192x128_w64x32_s4_12warps", "192x128 tiles of 12 warps of 64x32: 3 warps a "
             "scheduler", 192, 128, 64, 64, 32, 4, true, false, true, 8),
    MMA_TUNE("128x192_w64x32_s4_12warps", "128x192 tiles of 12 warps of 64x32", 128, 192, 64, 64,
             32, 4, true, false, true, 8),
    MMA_TUNE("128x128_w64x64_s3_2blocks", "128x128 tiles of 4 warps of 64x64, 2 blocks an "
             "SM: one block's barriers and stores under the other's mma", 128, 128, 64, 64, 64, 3,
             true, false, true, 8, false, 2),
    MMA_TUNE("128x128_w64x32_s3_2blocks", "128x128 tiles, 2 blocks an SM (16 warps, 128 "
             "registers a thread)", 128, 128, 64, 64, 32, 3, true, false, true, 8, false, 2),
    MMA_TUNE("128x128_w64x32_s3_2blocks_noprefetch", "the same, fragments loaded just before "
             "their mma", 128, 128, 64, 64, 32, 3, true, false, false, 8, false, 2),
};
const int mma_tune_nvariants = sizeof mma_tune_variants / sizeof mma_tune_variants[0];
