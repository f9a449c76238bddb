/* 09_cuda_registers: the variant table and --tune; the harness does the rest.
 *   make stage09 && ./09_cuda_registers/cuda_registers --sizes 1024:8192:x2
 *   ./09_cuda_registers/cuda_registers --tune --sizes 4096     (the grid of tune.cu)
 *   lab/09_cuda_registers/tune.sh                                  (the same, and the best printed)
 */
#include "cuda_harness.cuh"
#include "cuda_registers.h"

/* Every kernel of this stage applies alpha to the finished dot product (gemm_store), not to
 * each term: alpha_last (gemm.h; the chapter, "Pitfalls", says why). The fields before it keep
 * their defaults: err_c, normwise. */
#define ALPHA_LAST 0, 0, 1

static const gemm_variant variants[] = {
    {"blocktile_1d", "64x64 block tile, each thread a column of 8 results", gemm_blocktile_1d,
     ALPHA_LAST},
    {"regtile_8x8", "128x128 block tile, each thread an 8x8 register tile (outer products)",
     gemm_regtile_8x8, ALPHA_LAST},
    {"vectorized", "regtile_8x8 with float4 loads and A's tile transposed in shared memory",
     gemm_vectorized, ALPHA_LAST},
    {"double_buffer", "vectorized with two shared-memory buffers: load the next tile meanwhile",
     gemm_double_buffer, ALPHA_LAST},
    {"warptile", "double_buffer with 32x64 warp tiles (conflict-free reads), 128x256x16 blocks "
                 "with fragments prefetched (128x128x16 where they fill the GPU better), thin "
                 "edge strips by strip kernels",
     gemm_warptile, ALPHA_LAST},
    {"async_pipeline", "warptile's arithmetic fed by cp.async, 3 stages of 128x128x32 tiles",
     gemm_async_pipeline, ALPHA_LAST, 0, cuda_needs_sm80, CUDA_NEEDS_SM80},
};

/* --tune: the same program with tune.cu's table (a mode of the stage below). Names say the configuration:
 * warptile/128x128x8_w32x64_t8x8_s2 = block 128x128, k-slice 8, warp 32x64, thread 8x8, 2 stages. */
static const stage_info tune_stage = {
    .stage = "09_cuda_registers",
    .title = "tuning grid: block x warp x thread tile x stages",
    .default_sizes = "4096",
    .default_threads = 1,
    .variants = tune_variants,
    .nvariants = tune_nvariants,
    .backend = &cuda_backend,
};

static const stage_mode modes[] = {
    {.flag = "--tune",
     .help = "  --tune                run the tuning grid instead: warptile and async_pipeline over\n"
             "                        block, warp, thread tiles and stages (default size 4096;\n"
             "                        lab/09_cuda_registers/tune.sh prints the best)\n",
     .stage = &tune_stage},
};

static const stage_info stage = {
    .stage = "09_cuda_registers",
    .title = "register tiles, vector loads, pipelines: the road to cuBLAS",
    .default_sizes = "128:4096:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .backend = &cuda_backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof modes[0],
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
