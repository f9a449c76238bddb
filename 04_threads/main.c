/* 04_threads: the variant table; 03's sweep.c runs the tiled ones once per --tile value.
 *   make stage04 && ./04_threads/threads --threads 1,2 --sizes 256:2048:x2
 */
#include "../03_tiling/harness/sweep.h"
#include "baseline_blas.h"
#include "threads.h"

static const gemm_variant variants[] = {
    {"omp_rows", "02's ikj, one row of C per iteration, rows split evenly (static)", gemm_omp_rows},
    /* from here on, T x T tiles of C (--tile), each computed by 03's unroll_2x4 */
    {"omp_tiled", "tiles of C split evenly over the threads (schedule static)", gemm_omp_tiled},
    {"omp_tiled_dyn", "tiles of C handed out one at a time (schedule dynamic)",
     gemm_omp_tiled_dyn},
    {"pthreads_tiled", "omp_tiled by hand: pthread_create, a range of tiles each, join",
     gemm_pthreads_tiled},
    /* the exercise's: the columns of C, a grid of threads, a queue of tiles */
    {"omp_cols", "02's ikj on strips of T columns of C, split evenly (the exercise's)", gemm_omp_cols},
    {"omp_grid", "one block of C a thread, threads as a pr x pc grid (the exercise's)",
     gemm_omp_grid},
    {"pthreads_dyn", "omp_tiled_dyn by hand: tiles taken from an atomic counter (the exercise's)",
     gemm_pthreads_dyn},
};
enum { FIRST_TILED = 1 };

static const stage_info stage = {
    .stage = "04_threads",
    .title = "threads: OpenMP and pthreads over rows, strips and tiles of C",
    .default_sizes = "64:1024:x2",
    .default_threads = 0,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .extra_option = tile_option,
    .extra_help = TILE_HELP,
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return tile_sweep_main(&stage, FIRST_TILED, argc, argv); }
