/* planted.c: kernels with one deliberate bug each, run through the real harness.
 * `make test` expects every one but `correct` to FAIL, in the normal check or in the edge
 * suite (--edges): it shows that the checks can fail, and on which mistake. Each bug is one
 * line away from the correct kernel. */
#include "baseline_blas.h"

#define KERNEL(name, PRE, ROWS, COLS, DEPTH, SUM0, TERM_ALPHA, BIDX, STORE)                    \
    static void name(int M, int N, int K, float alpha, const float *A, int lda, const float *B,  \
                     int ldb, float beta, float *C, int ldc)                                     \
    {                                                                                            \
        (void)ldb;                                                                               \
        PRE;                                                                                     \
        for (int i = 0; i < (ROWS); i++)                                                         \
            for (int j = 0; j < (COLS); j++) {                                                   \
                float sum = (SUM0);                                                              \
                for (int k = 0; k < (DEPTH); k++)                                                \
                    sum += (TERM_ALPHA) * A[IDX(i, k, lda)] * B[BIDX];                           \
                STORE;                                                                           \
            }                                                                                    \
    }

#define GUARD                                                                                    \
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))                                         \
    return
#define GOOD_STORE C[IDX(i, j, ldc)] = beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)]
#define B_KJ IDX(k, j, ldb)

KERNEL(correct, GUARD, M, N, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(skip_last_col, GUARD, M, N - 1, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(skip_last_row, GUARD, M - 1, N, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(short_k, GUARD, M, N, K - 1, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(ignores_ldb, GUARD, M, N, K, 0.0f, alpha, IDX(k, j, N), GOOD_STORE)
KERNEL(bogus_beta_read, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       C[IDX(i, j, ldc)] = sum + beta * C[IDX(i, j, ldc)])
KERNEL(swapped_b_index, GUARD, M, N, K, 0.0f, alpha,
       (j < K && k < N ? IDX(j, k, ldb) : IDX(k, j, ldb)), GOOD_STORE)
KERNEL(writes_padding, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       GOOD_STORE; if (j == N - 1 && ldc > N) C[IDX(i, N, ldc)] = 0.0f)
KERNEL(one_ulp_per_term, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       C[IDX(i, j, ldc)] = (beta == 0.0f ? sum : sum + beta * C[IDX(i, j, ldc)]) *
                           (1.0f + 4.0f * (K + 2) * 5.96e-8f))
KERNEL(nan_last_row, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       GOOD_STORE; if (i == M - 1) C[IDX(i, j, ldc)] = sum / 0.0f * 0.0f)
/* the edge rules (gemm.h), caught by --edges */
KERNEL(ignores_k0, if (K == 0) return; GUARD, M, N, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(reads_a_alpha0, if (alpha != 0.0f && gemm_quick_return(M, N, K, alpha, beta, C, ldc)) return,
       M, N, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(writes_k_negative, if (K < 0) K = 0; GUARD, M, N, K, 0.0f, alpha, B_KJ, GOOD_STORE)
KERNEL(leaks_across_rows, GUARD, M, N, K, 0.0f * A[IDX((i + 1) % M, 0, lda)], alpha, B_KJ,
       GOOD_STORE)
KERNEL(leaks_across_cols, GUARD, M, N, K, 0.0f * B[IDX(0, (j + 1) % N, ldb)], alpha, B_KJ,
       GOOD_STORE)
/* writes outside C, or into its inputs (the harness's guards and its hashes of A and B) */
KERNEL(writes_past_a, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       GOOD_STORE; if (i == M - 1 && j == N - 1) ((float *)A)[IDX(M - 1, lda, lda)] = 0.0f)
KERNEL(changes_b, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       GOOD_STORE; if (i == M - 1 && j == N - 1) ((float *)B)[0] += 1.0f)
KERNEL(writes_before_c, GUARD, M, N, K, 0.0f, alpha, B_KJ,
       GOOD_STORE; if (i == 0 && j == 0) C[-1] = 0.0f)
KERNEL(alpha_after_sum, GUARD, M, N, K, 0.0f, 1.0f, B_KJ,
       C[IDX(i, j, ldc)] = beta == 0.0f ? alpha * sum : alpha * sum + beta * C[IDX(i, j, ldc)])

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
    {"ignores_k0", "K == 0 returns at once: C left alone instead of beta*C", ignores_k0},
    {"reads_a_alpha0", "no quick return for alpha == 0: 0 * NaN in A reaches C", reads_a_alpha0},
    {"writes_k_negative", "K < 0 taken for K = 0: C scaled by beta", writes_k_negative},
    {"leaks_across_rows", "0 * the next row of A in every sum: a NaN there leaks", leaks_across_rows},
    {"leaks_across_cols", "0 * the next column of B in every sum: a NaN there leaks",
     leaks_across_cols},
    {"writes_past_a", "writes one float past the last element of A", writes_past_a},
    {"changes_b", "adds 1 to B(0,0) after its sums", changes_b},
    {"writes_before_c", "writes the float before C(0,0)", writes_before_c},
    {"alpha_after_sum", "alpha times the finished sum: 1e20 * 1e20 overflows", alpha_after_sum},
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
