/* 07_cuda_naive: the variant table; the harness does the rest (common/cuda_harness.cuh).
 *   make stage07 && ./07_cuda_naive/cuda_naive --sizes 256:4096:x2
 *   ./07_cuda_naive/cuda_naive --include-transfers --variant coalesced,mapped
 */
#include <string.h>

#include "cuda_harness.cuh"
#include "cuda_naive.h"

/* Every kernel here scales the finished dot product by alpha (.alpha_last, gemm.h): a multiply
 * per term cost `coalesced` 10% on the H100, and this chapter is about the thread grid. */
static const gemm_variant variants[] = {
    {"uncoalesced", "one thread per element of C, threadIdx.x walking the rows: the x/y mistake",
     gemm_uncoalesced, .alpha_last = 1},
    {"coalesced", "one thread per element of C, threadIdx.x walking the columns", gemm_coalesced,
     .alpha_last = 1},
    {"grid_stride_1d", "one wave of threads in a 1-D grid, each looping over elements of C",
     gemm_grid_stride_1d, .alpha_last = 1},
    /* the same kernel as coalesced; the harness hands it pinned host memory instead of
     * device buffers */
    {"mapped", "the coalesced kernel on A, B, C in pinned host memory (zero-copy over the bus)",
     gemm_coalesced, .alpha_last = 1, .backend_data = &cuda_host_mapped},
};

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    (void)val;
    if (strcmp(opt, "--include-transfers") == 0) {
        o->include_transfers = 1;
        return 1;
    }
    return 0;
}

static const stage_info stage = {
    .stage = "07_cuda_naive",
    .title = "one thread per element of C: the thread grid and coalescing",
    .default_sizes = "128:4096:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = stage_option,
    .extra_help = "  --include-transfers   time the copies of A, B (and C) to the device and of C\n"
                  "                        back, with the kernel (names get \"+transfers\")\n",
    .backend = &cuda_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
