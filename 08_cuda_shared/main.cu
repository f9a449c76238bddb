/* 08_cuda_shared: the variant table, --tile and the skinny preset; the harness does the rest.
 *   make stage08 && ./08_cuda_shared/cuda_shared --sizes 256:4096:x2
 *   ./08_cuda_shared/cuda_shared --shape skinny          (16 x K times K x 2^20, K = 8..128)
 *   ./08_cuda_shared/cuda_shared --variant smem_rect --tile 16x64x256 --shape skinny
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_harness.cuh"
#include "cuda_shared.h"

int rect_tile_h, rect_tile_w, rect_tile_d; /* --tile; 0: from the shape */

static const gemm_variant variants[] = {
    {"smem_32", "32x32 tiles of A and B in shared memory, one element of C per thread",
     gemm_smem_32},
    {"smem_row_1d", "one block per row of C, that row of A in shared memory", gemm_smem_row_1d},
    {"smem_rect", "tile height, width and depth chosen at run time, dynamic shared memory",
     gemm_smem_rect},
};

/* The erasure-coding shape: a small coding matrix (16 x K) times a very wide data matrix
 * (K x 2^20). Square tiles leave half of a 32-row tile idle on 16 rows. */
#define SKINNY_M 16
#define SKINNY_N (1 << 20)
static const int skinny_k[] = {8, 16, 32, 64, 128};

static void parse_tile(const char *val)
{
    int h = 0, w = 0, d = 0;
    char end = 0;
    if (!val || sscanf(val, "%dx%dx%d%c", &h, &w, &d, &end) != 3 || h < 1 || w < 1 || d < 1)
        cli_die("--tile: '%s' is not HxWxD with three positive whole numbers, e.g. 16x64x128",
                val ? val : "");
    if ((long)h * w > 1024)
        cli_die("--tile: %dx%d is %ld threads; a block has at most 1024", h, w, (long)h * w);
    if (((double)(h + w) * d + 4) * sizeof(float) > 227.0 * 1024)
        cli_die("--tile: %dx%dx%d needs %.0f KB of shared memory; a block gets at most 227 KB",
                h, w, d, (h + w) * (double)d * sizeof(float) / 1024);
    rect_tile_h = h;
    rect_tile_w = w;
    rect_tile_d = d;
}

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    if (strcmp(opt, "--tile") == 0) {
        parse_tile(val);
        return 2;
    }
    if (strcmp(opt, "--shape") == 0) {
        if (!val || strcmp(val, "skinny") != 0)
            cli_die("--shape: '%s' is not a preset (the one preset is 'skinny')", val ? val : "");
        int n = sizeof skinny_k / sizeof skinny_k[0];
        free(o->shapes);
        o->shapes = (gemm_shape *)malloc(n * sizeof(gemm_shape));
        if (!o->shapes)
            cli_die("out of memory");
        for (int i = 0; i < n; i++)
            o->shapes[i] = (gemm_shape){SKINNY_M, SKINNY_N, skinny_k[i]};
        o->nshapes = n;
        return 2;
    }
    return 0;
}

static const stage_info stage = {
    .stage = "08_cuda_shared",
    .title = "tiles in shared memory, shaped to the problem",
    .default_sizes = "128:4096:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = stage_option,
    .extra_help = "  --tile HxWxD          smem_rect's tile: H rows x W columns of C per block (at\n"
                  "                        most 1024 threads), D deep in k (default: from the shape)\n"
                  "  --shape skinny        the preset 16xK times Kx1048576, K = 8,16,32,64,128\n"
                  "                        (the shape of erasure coding; replaces --sizes)\n",
    .backend = &cuda_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
