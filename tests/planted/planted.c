/* planted.c: kernels with one deliberate bug each, run through the real harness.
 * `make test` expects every one but `correct` to FAIL: it shows that the checks can fail,
 * and on which mistake. Each bug is one line away from the correct kernel. */
#include "baseline_blas.h"

#define KERNEL(name, ROWS, COLS, DEPTH, BIDX, STORE)                                              \
    static void name(int M, int N, int K, float alpha, const float *A, int lda, const float *B,  \
                     int ldb, float beta, float *C, int ldc)                                     \
    {                                                                                            \
        (void)ldb;                                                                               \
        for (int i = 0; i < (ROWS); i++)                                                         \
            for (int j = 0; j < (COLS); j++) {                                                   \
                float sum = 0.0f;                                                                \
                for (int k = 0; k < (DEPTH); k++)                                                \
                    sum += A[IDX(i, k, lda)] * B[BIDX];                                          \
                STORE;                                                                           \
            }                                                                                    \
    }

#define GOOD_STORE C[IDX(i, j, ldc)] = beta == 0.0f ? alpha * sum : alpha * sum + beta * C[IDX(i, j, ldc)]

KERNEL(correct, M, N, K, IDX(k, j, ldb), GOOD_STORE)
KERNEL(skip_last_col, M, N - 1, K, IDX(k, j, ldb), GOOD_STORE)
KERNEL(skip_last_row, M - 1, N, K, IDX(k, j, ldb), GOOD_STORE)
KERNEL(short_k, M, N, K - 1, IDX(k, j, ldb), GOOD_STORE)
KERNEL(ignores_ldb, M, N, K, IDX(k, j, N), GOOD_STORE)
KERNEL(bogus_beta_read, M, N, K, IDX(k, j, ldb), C[IDX(i, j, ldc)] = alpha * sum + beta * C[IDX(i, j, ldc)])
KERNEL(swapped_b_index, M, N, K, (j < K && k < N ? IDX(j, k, ldb) : IDX(k, j, ldb)), GOOD_STORE)
KERNEL(writes_padding, M, N, K, IDX(k, j, ldb),
       GOOD_STORE; if (j == N - 1 && ldc > N) C[IDX(i, N, ldc)] = 0.0f)
KERNEL(one_ulp_per_term, M, N, K, IDX(k, j, ldb),
       C[IDX(i, j, ldc)] = (beta == 0.0f ? alpha * sum : alpha * sum + beta * C[IDX(i, j, ldc)]) *
                           (1.0f + 4.0f * (K + 2) * 5.96e-8f))
KERNEL(nan_last_row, M, N, K, IDX(k, j, ldb), GOOD_STORE; if (i == M - 1) C[IDX(i, j, ldc)] = sum / 0.0f * 0.0f)

static const gemm_variant variants[] = {
    {"correct", "the naive kernel, no bug", correct},
    {"skip_last_col", "j < N-1: the last column of C is never written", skip_last_col},
    {"skip_last_row", "i < M-1: the last row of C is never written", skip_last_row},
    {"short_k", "k < K-1: one term of every dot product missing", short_k},
    {"ignores_ldb", "B indexed with N instead of ldb", ignores_ldb},
    {"bogus_beta_read", "reads C even when beta == 0 (NaN leaks through)", bogus_beta_read},
    {"swapped_b_index", "B[j][k] instead of B[k][j]", swapped_b_index},
    {"writes_padding", "writes one element past the row's end into the padding", writes_padding},
    {"one_ulp_per_term", "every result off by 4(K+2) ulps: twice the bound", one_ulp_per_term},
    {"nan_last_row", "the last row computes x/0*0: NaN where a number was due", nan_last_row},
};

static const stage_info stage = {
    .stage = "planted",
    .title = "kernels with planted bugs: the harness must catch each one",
    .default_sizes = "1,7x13x5,33,67x73x71",
    .default_threads = 1,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .backend = &openblas_backend,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
