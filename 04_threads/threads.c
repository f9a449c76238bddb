/* 04_threads: the kernels of 02 and 03, with the work split over threads.
 *
 * Every element of C depends only on A and B, never on another element of C: give each
 * thread its own part of C and no thread ever waits for another, no lock is needed.
 * What the variants change is the shape of the parts and who hands them out.
 *
 *   omp_rows        02's ikj on one row of C per iteration; the rows split into one
 *                   equal range per thread (schedule(static))
 *   omp_tiled       03's unroll_2x4 on T x T tiles of C; the tiles split into one equal
 *                   range per thread (schedule(static))
 *   omp_tiled_dyn   the same tiles handed out one at a time to whichever thread is free
 *                   (schedule(dynamic))
 *   pthreads_tiled  omp_tiled written out by hand: create the threads, give each its
 *                   range of tiles, wait for them all
 *
 * The thread count is the one --threads gives OpenMP (omp_set_num_threads);
 * pthreads_tiled asks OpenMP for it (omp_get_max_threads) and starts that many itself.
 */
#include "threads.h"

#include <omp.h>
#include <pthread.h>
#include <stdlib.h>

#include "../02_loop_order/loop_order.h"
#include "../03_tiling/tiling.h"

static int min_int(int a, int b) { return a < b ? a : b; }

void gemm_omp_rows(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < M; i++) /* row i of C is a 1 x N product: 02's ikj does it */
        gemm_ikj(1, N, K, alpha, &A[IDX(i, 0, lda)], lda, B, ldb, beta, &C[IDX(i, 0, ldc)], ldc);
}

/* ---- tiles of C, each one a call of 03's unroll_2x4 ----------------------------------- */

/* The problem, and how it is cut: T x T tiles, numbered row by row. */
typedef struct tiled_problem {
    int M, N, K, lda, ldb, ldc;
    float alpha, beta;
    const float *A, *B;
    float *C;
    int T, tile_cols;
    long ntiles;
} tiled_problem;

static tiled_problem cut_into_tiles(int M, int N, int K, float alpha, const float *A, int lda,
                                    const float *B, int ldb, float beta, float *C, int ldc)
{
    const int T = tile_size, tile_rows = (M + T - 1) / T, tile_cols = (N + T - 1) / T;
    return (tiled_problem){M, N, K, lda, ldb, ldc, alpha, beta, A, B, C,
                           T, tile_cols, (long)tile_rows * tile_cols};
}

/* Tile t of C = alpha * (its T rows of A) * (its T columns of B) + beta * tile t of C. */
static void compute_tile(const tiled_problem *p, long t)
{
    const int i0 = (int)(t / p->tile_cols) * p->T, j0 = (int)(t % p->tile_cols) * p->T;
    gemm_unroll_2x4(min_int(p->T, p->M - i0), min_int(p->T, p->N - j0), p->K, p->alpha,
                    &p->A[IDX(i0, 0, p->lda)], p->lda, &p->B[IDX(0, j0, p->ldb)], p->ldb, p->beta,
                    &p->C[IDX(i0, j0, p->ldc)], p->ldc);
}

void gemm_omp_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
#pragma omp parallel for schedule(static)
    for (long t = 0; t < p.ntiles; t++)
        compute_tile(&p, t);
}

void gemm_omp_tiled_dyn(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
#pragma omp parallel for schedule(dynamic)
    for (long t = 0; t < p.ntiles; t++)
        compute_tile(&p, t);
}

/* ---- the same split by hand ----------------------------------------------------------- */

typedef struct tile_range {
    const tiled_problem *p;
    long first, end; /* tiles first .. end-1 */
} tile_range;

static void *compute_tile_range(void *arg)
{
    const tile_range *r = arg;
    for (long t = r->first; t < r->end; t++)
        compute_tile(r->p, t);
    return NULL;
}

void gemm_pthreads_tiled(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    int nthreads = omp_get_max_threads();
    if (nthreads > p.ntiles)
        nthreads = (int)p.ntiles; /* a thread with no tile would only cost its start-up */
    pthread_t *threads = malloc(sizeof(pthread_t) * (size_t)nthreads);
    tile_range *ranges = malloc(sizeof(tile_range) * (size_t)nthreads);
    int *started = calloc((size_t)nthreads, sizeof(int));
    if (!threads || !ranges || !started) { /* no room to organise threads: do it all here */
        free(threads);
        free(ranges);
        free(started);
        compute_tile_range(&(tile_range){&p, 0, p.ntiles});
        return;
    }
    /* schedule(static) by hand: thread w gets the w-th of nthreads equal ranges */
    for (int w = 0; w < nthreads; w++)
        ranges[w] = (tile_range){&p, p.ntiles * w / nthreads, p.ntiles * (w + 1) / nthreads};
    /* the calling thread takes range 0 itself, as OpenMP's master thread does */
    for (int w = 1; w < nthreads; w++)
        started[w] = pthread_create(&threads[w], NULL, compute_tile_range, &ranges[w]) == 0;
    compute_tile_range(&ranges[0]);
    for (int w = 1; w < nthreads; w++) {
        if (started[w])
            pthread_join(threads[w], NULL);
        else /* the system would not start this thread: its tiles are still ours to do */
            compute_tile_range(&ranges[w]);
    }
    free(threads);
    free(ranges);
    free(started);
}
