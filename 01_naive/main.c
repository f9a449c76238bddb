/* 01_naive: the naive loop and the exercise's variant; the harness does the rest (common/bench.h).
 *   make stage01 && ./01_naive/naive -m 7 -n 13 -k 5
 */
#include "baseline_blas.h"
#include "naive.h"

static const gemm_variant variants[] = {
    {"ijk", "three nested loops, i-j-k order: a dot product per element of C", gemm_ijk},
    {"ijk_4sums", "ijk with four partial sums: four independent FMA chains (the exercise's)",
     gemm_ijk_4sums},
};

static const stage_info stage = {
    .stage = "01_naive",
    .title = "the naive triple loop",
    .default_sizes = "64:1024:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
