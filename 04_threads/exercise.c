/* 04_threads exercise: split the work of 02's ikj and 03's unroll_2x4 over threads.
 *
 * Build and grade it with:   make grade STAGE=04
 * The grader checks every function over awkward shapes and times it against the
 * solution. Untouched, each passes 32 of its 168 checks (the edge cases gemm_quick_return
 * handles) and fails the rest. Test on 1, 2 and 3 threads
 * (3 is more threads than this machine's cores: it must still be right):
 *   build/grade/04_threads/threads --no-baseline --threads 1,2,3 --sizes 7x13x5,33,127
 *
 * You may call gemm_ikj (02) and gemm_unroll_2x4 (03) on parts of the matrices: the
 * block of C that starts at row i0, column j0 is &C[IDX(i0, j0, ldc)] with the same ldc,
 * and likewise for A and B. Each call must get a part of C no other thread writes.
 */
#include "threads.h"

#include <omp.h>
#include <pthread.h>

#include "../02_loop_order/loop_order.h"
#include "../03_tiling/tiling.h"

void gemm_omp_rows(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: one loop over the rows i of C under "#pragma omp parallel for"; row i is the
     * 1 x N product of row i of A and B: gemm_ikj(1, N, K, ..., &A[IDX(i, 0, lda)], ...). */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_omp_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: cut C into T x T tiles (T = tile_size; edge tiles are smaller), number them
     * 0 .. ntiles-1 row by row, and run one loop over the tile numbers under
     * "#pragma omp parallel for schedule(static)". Tile t starts at row (t / tile_cols)*T
     * and column (t % tile_cols)*T; it is a small GEMM with the full K:
     *     gemm_unroll_2x4(rows, cols, K, alpha, &A[row 0 of the tile], lda,
     *                     &B[column 0 of the tile], ldb, beta, &C[the tile], ldc)   */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_omp_tiled_dyn(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: omp_tiled with schedule(dynamic). Compare the two on 3 threads. */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_pthreads_tiled(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: omp_tiled without OpenMP's help.
     * - how many threads: omp_get_max_threads() (what --threads asked for); no more
     *   than there are tiles.
     * - a struct per thread with what it needs: the problem and its range of tiles
     *   [ntiles*w/nthreads, ntiles*(w+1)/nthreads): every tile in exactly one range.
     * - pthread_create for threads 1..n-1, do range 0 in the calling thread, then
     *   pthread_join them all. If pthread_create fails, do that range yourself.
     * - each thread's struct must stay alive until it is joined: not a loop-local.
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}
