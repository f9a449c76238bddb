/* 02_loop_order: six loop orders and a transposed B, measured side by side.
 *   make stage02 && ./02_loop_order/loop_order --variant all --sizes 127,256,511
 */
#include "../01_naive/naive.h"
#include "baseline_blas.h"
#include "loop_order.h"

static const gemm_variant variants[] = {
    {"ijk", "01's loop: dot products, B walked down its columns (stride ldb)", gemm_ijk},
    {"ikj", "i-k-j: C[i][:] += A[i][k] * B[k][:], all unit stride, vectorised", gemm_ikj},
    {"jik", "j-i-k: dot products again, B's column reused across i", gemm_jik},
    {"jki", "j-k-i: walks columns of A and C (stride lda, ldc)", gemm_jki},
    {"kij", "k-i-j: like ikj, but every row of C is swept K times", gemm_kij},
    {"kji", "k-j-i: columns of A and C again, C swept K times", gemm_kji},
    {"transposed_b", "ijk on a transposed copy of B: unit-stride dot products", gemm_transposed_b},
    {"transposed_simd", "transposed_b with omp simd: the sum may be reordered, so it vectorises",
     gemm_transposed_simd},
};

static const stage_info stage = {
    .stage = "02_loop_order",
    .title = "loop order: the same arithmetic, six ways through memory",
    .default_sizes = "64:1024:x2",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
