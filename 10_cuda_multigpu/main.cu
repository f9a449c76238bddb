/* 10_cuda_multigpu: several GPUs, and matrices larger than a GPU's memory.
 *   make stage10 && ./10_cuda_multigpu/cuda_multigpu --sizes 8192,16384 --gpus 1,2
 *   ./10_cuda_multigpu/cuda_multigpu --variant tiled_streams --sizes 65536 --tile 8192 \
 *       --stats stats.csv --timeline timeline.csv
 *   lab/10_cuda_multigpu/bench.sh results/h200x2      (the chapter's runs)
 * A, B and C live in host memory; every variant returns with C back there, and is timed so.
 */
#include "harness/multigpu.h"

/* 09's kernel and cuBLAS apply alpha to the finished dot product: alpha_last (gemm.h; 09's
 * chapter says why). The fields before it keep their defaults: err_c, normwise. */
#define ALPHA_LAST 0, 0, 1

static const gemm_variant variants[] = {
    {"rows_split", "a band of rows of C per GPU with the 09 kernel; A's band and all of B in once",
     gemm_rows_split, ALPHA_LAST},
    {"tiled_streams", "C in tiles from a shared queue, blocks streamed on several streams, "
                      "device memory as a cache; the 09 kernel", gemm_tiled_streams, ALPHA_LAST},
    {"tiled_streams_cublas", "tiled_streams with cuBLAS (FP32, no TF32) computing each tile",
     gemm_tiled_streams_cublas, ALPHA_LAST},
};

static const stage_info stage = {
    .stage = "10_cuda_multigpu",
    .title = "several GPUs: bands, tiles streamed from host memory, cuBLASXt",
    .default_sizes = "4096:16384:x2",
    .default_threads = 1, /* (without --gpus: every GPU, mg_init) */
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = mg_option,
    .extra_help = MG_HELP,
    .backend = &multigpu_backend,
    .gpus_sweep = 1,
    .finish = mg_finish, /* --stats */
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
