/* 04_threads exercise: thread the loops the chapter does not.
 *
 * Build and grade it with:   make grade STAGE=04
 * omp_rows, omp_tiled, omp_tiled_dyn and pthreads_tiled are given, solved: the chapter prints
 * them. You write three splits it does not print: omp_cols (the columns of C), omp_grid (the
 * threads as a 2-D grid, a block of C each) and pthreads_dyn (schedule(dynamic) by hand). The
 * grader checks these three (the "grade:" line of test-cases.txt) over awkward shapes and times
 * them against the solution. Untouched, each passes 32 of its 168 checks (the edge cases
 * gemm_quick_return handles) and fails the rest. Test on 1, 2 and 3 threads
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
#include <stdatomic.h>
#include <stdlib.h>

#include "../02_loop_order/loop_order.h"
#include "../03_tiling/tiling.h"

static int min_int(int a, int b) { return a < b ? a : b; }

/* Given, as the chapter prints them: omp_rows, omp_tiled, omp_tiled_dyn, pthreads_tiled. */
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

/* ---- yours: another loop, a grid, a queue --------------------------------------------- */

void gemm_omp_cols(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: omp_rows turned on its side: cut C into strips of T = tile_size columns (the last
     * one narrower) and run one loop over the strips under "#pragma omp parallel for
     * schedule(static)". Strip s starts at column j0 = s*T; it is the M x T product of all of
     * A with the strip of B that starts at column j0:
     *     gemm_ikj(M, cols, K, alpha, A, lda, &B[IDX(0, j0, ldb)], ldb, beta, &C[IDX(0, j0, ldc)], ldc)
     * Before you measure it beside omp_rows: what does each thread read, and how often? */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_omp_grid(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: one block of C a thread, the threads laid out as a grid of pr rows by pc columns.
     * - a "#pragma omp parallel" region (not a loop): inside it, omp_get_num_threads() threads
     *   each run the same code, thread omp_get_thread_num() in 0 .. nt-1.
     * - pr: the largest divisor of nt with pr*pr <= nt (1 x 2 on 2 threads, 2 x 2 on 4, 1 x 3
     *   on 3); pc = nt / pr. Thread t is row r = t / pc, column c = t % pc of the grid.
     * - its rows [M*r/pr, M*(r+1)/pr) and columns [N*c/pc, N*(c+1)/pc) (compute them in long:
     *   M*r may not fit an int); then one gemm_unroll_2x4 on that block, if it is not empty
     *   (3 threads and 2 columns: one thread has none).
     * Every row and column in exactly one block: why do these bounds guarantee it? */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_pthreads_dyn(int M, int N, int K, float alpha, const float *A, int lda,
                       const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: omp_tiled_dyn without OpenMP's help: pthreads_tiled's threads, but instead of a
     * fixed range each, one shared counter of the next tile nobody has taken.
     * - the tiles: cut_into_tiles and compute_tile above, as pthreads_tiled uses them.
     * - a struct that every thread gets a pointer to: the problem, and an atomic_long next
     *   (<stdatomic.h>; atomic_init(&q.next, 0) before any thread starts).
     * - each thread, the calling one too: t = atomic_fetch_add(&q->next, 1) until t reaches
     *   ntiles, computing tile t each time. Two threads never get the same t: why is a plain
     *   "t = q->next++" not enough?
     * - the count of threads and pthread_create / pthread_join as in pthreads_tiled. What must
     *   happen to the tiles of a thread that could not be started?
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}
